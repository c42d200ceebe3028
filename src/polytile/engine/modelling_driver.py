"""The compiled reduction (engine/modelling.py) as core.reduction takes it: the board and
the pieces as plain arrays in, modelling.model's arrays out, or None where numpy must do
it (a colour anywhere, a box too large for a lookup grid, or no compiled variant for these
argument types: numba's compiling at run time would cost far more than numpy's calls)."""

from __future__ import annotations

import os
from functools import lru_cache
from typing import Any, Callable

import numpy as np

from ..core.grids.base import axis_steps
from ..core.grids.square import isometries, rotations
from .kernels import Kernel, kernel_module, type_key, using_compiled

MAX_BOX = 1 << 22  # cells of the board's box looked up in one grid (core.cover.GRID_CELLS)


@lru_cache(maxsize=None)
def _motions(dim: int) -> tuple[np.ndarray, int, np.ndarray]:
    """(the isometries stacked, rotations first; how many rotations; the lattice steps)."""
    steps = np.array(axis_steps(dim), dtype=np.int64)
    return np.stack(isometries(dim)), len(rotations(dim)), steps


_VARIANT: list[Callable[..., Any] | None] = []  # the function called, once looked up


def modeller(
    cells: list[np.ndarray],
    colours: list[np.ndarray],
    per_piece: list[int],
    budget: int | None = None,
    jit: bool = False,
) -> tuple[Any, ...] | None:
    """modelling.model's arrays, or None: see the module's note. `cells`: the board's
    cells, then each piece's; `colours` likewise; `per_piece`: the pieces' sizes, copies,
    least copies and whether each may reflect (0/1), one after the other; the symmetry
    analysis left out (empty) when it would take more than `budget` bytes. Numba's
    dispatcher when `jit` or POLYTILE_JIT is set (the ahead-of-time build's exercise
    records the types this way)."""
    if len(cells) < 2:
        return None
    mats, n_rot, steps = _motions(cells[0].shape[1])
    args = (  # (as few numpy calls as may be: each is several us the first time in a process;
        np.concatenate(cells).astype(np.int64, copy=False),  # one flat array of all was slower:
        np.concatenate(colours).astype(np.int64, copy=False),  # axis=None's flattening and the list
        np.array(per_piece, dtype=np.int64),  # took 21 us cold against 14 for these three)
        mats,
        n_rot,
        steps,
        MAX_BOX,
        -1 if budget is None else min(int(budget), 1 << 62),  # (one type: int64)
    )
    function = _jit() if jit else _function(args)
    if function is None:
        return None
    found = function(*args)
    return None if len(found[0]) == 0 else found  # (no cells: declined)


def _jit() -> Callable[..., Any]:
    """modelling.model, numba's dispatcher."""
    function = kernel_module("modelling").model
    return function.jit if isinstance(function, Kernel) else function


def _function(args: tuple[Any, ...]) -> Callable[..., Any] | None:
    """What `modeller` calls, looked up once a process: numba's dispatcher under
    POLYTILE_JIT, else the compiled variant for `args` (every call's arguments are made
    alike above: int64 arrays, C order, fresh; so they have one type key: its keys, the
    look-up and the environment's took ~10 us a count), else None."""
    if not _VARIANT:
        found = None
        if os.environ.get("POLYTILE_JIT"):
            found = _jit()
        elif using_compiled("modelling", "model"):  # (else numba is not imported)
            found = kernel_module("modelling").model.variants.get(tuple(type_key(a) for a in args))
        _VARIANT.append(found)
    return _VARIANT[0]


def jit_modeller(
    cells: list[np.ndarray], colours: list[np.ndarray], per_piece: list[int], budget: int | None = None
) -> tuple[Any, ...] | None:
    """`modeller` through numba's dispatcher always (the tests compare it with numpy)."""
    return modeller(cells, colours, per_piece, budget, jit=True)
