"""The compiled reduction (engine/modelling.py) as core.reduction takes it: the board and
the pieces as plain arrays in, modelling.model's arrays out, or None where numpy must do
it (a colour anywhere, a box too large for a lookup grid, or no compiled variant for these
argument types: numba's compiling at run time would cost far more than numpy's calls)."""

from __future__ import annotations

import os
from functools import lru_cache
from typing import Any, Callable

import numpy as np

from ..core.lattice import isometries, lattice, rotations
from .kernels import Kernel, kernel_module, type_key, using_compiled

MAX_BOX = 1 << 22  # cells of the board's box looked up in one grid (core.cover.GRID_CELLS)


@lru_cache(maxsize=None)
def _motions(dim: int) -> tuple[np.ndarray, int, np.ndarray]:
    """(the isometries stacked, rotations first; how many rotations; the lattice steps)."""
    steps = np.array(lattice("square", dim).steps, dtype=np.int64)
    return np.stack(isometries(dim)), len(rotations(dim)), steps


def modeller(
    cells: np.ndarray,
    colours: np.ndarray,
    piece_cells: list[np.ndarray],
    piece_colours: list[np.ndarray],
    count: list[int],
    least: list[int],
    reflect: list[bool],
    budget: int | None = None,
    jit: bool = False,
) -> tuple[Any, ...] | None:
    """modelling.model's arrays, or None: see the module's note; the symmetry analysis
    left out (empty) when it would take more than `budget` bytes. Numba's dispatcher when
    `jit` or POLYTILE_JIT is set (the ahead-of-time build's exercise records the types
    this way)."""
    if not piece_cells:
        return None
    mats, n_rot, steps = _motions(cells.shape[1])
    per_piece = np.array([[len(c) for c in piece_cells], count, least, reflect], dtype=np.int64)
    args = (  # (as few numpy calls as may be: each is several us the first time in a process)
        np.ascontiguousarray(cells, dtype=np.int64),
        np.ascontiguousarray(colours, dtype=np.int64),
        np.concatenate(piece_cells).astype(np.int64, copy=False),
        np.concatenate(piece_colours).astype(np.int64, copy=False),
        per_piece,
        mats,
        n_rot,
        steps,
        MAX_BOX,
        -1 if budget is None else int(budget),
    )
    function: Callable[..., Any] | None
    if jit or os.environ.get("POLYTILE_JIT"):
        function = kernel_module("modelling").model
        function = function.jit if isinstance(function, Kernel) else function
    elif using_compiled("modelling", "model"):  # (else numba is not imported)
        function = kernel_module("modelling").model.variants.get(tuple(type_key(a) for a in args))
    else:
        function = None
    if function is None:
        return None
    found = function(*args)
    return None if len(found[0]) == 0 else found  # (no cells: declined)


def jit_modeller(
    cells: np.ndarray,
    colours: np.ndarray,
    piece_cells: list[np.ndarray],
    piece_colours: list[np.ndarray],
    count: list[int],
    least: list[int],
    reflect: list[bool],
    budget: int | None = None,
) -> tuple[Any, ...] | None:
    """`modeller` through numba's dispatcher always (the tests compare it with numpy)."""
    return modeller(cells, colours, piece_cells, piece_colours, count, least, reflect, budget, jit=True)
