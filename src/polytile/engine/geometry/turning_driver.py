"""The compiled orientations (engine/geometry/turning.py) as core.shape takes them (registered by
the tiling layer with shape.use_compiled): (imgs, cols, first), or None where numpy must
do it (more than MAX_ENTRIES image cells, or no compiled variant for these argument
types: numba's compiling at run time would cost more than numpy's calls)."""

from __future__ import annotations

import os
from typing import Any, Callable

import numpy as np

from ..kernels import Kernel, kernel_module, type_key, using_compiled

MAX_ENTRIES = 1 << 22  # shapes x matrices x cells x axes turned in one call


def turner(
    cells: np.ndarray, colours: np.ndarray, mats: np.ndarray, jit: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """turning.turn's (imgs, cols, first), or None: see the module's note. Numba's
    dispatcher when `jit` or POLYTILE_JIT is set (the ahead-of-time build's exercise
    records the types this way)."""
    if cells.size * len(mats) > MAX_ENTRIES:
        return None
    args = (
        np.ascontiguousarray(cells, dtype=np.int64),
        np.ascontiguousarray(colours, dtype=np.int64),
        np.ascontiguousarray(mats, dtype=np.int64),
    )
    function: Callable[..., Any] | None
    if jit or os.environ.get("POLYTILE_JIT"):
        function = kernel_module("geometry.turning").turn
        function = function.jit if isinstance(function, Kernel) else function
    elif using_compiled("geometry.turning", "turn"):  # (else numba is not imported)
        function = kernel_module("geometry.turning").turn.variants.get(tuple(type_key(a) for a in args))
    else:
        function = None
    return None if function is None else function(*args)


def jit_turner(
    cells: np.ndarray, colours: np.ndarray, mats: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """`turner` through numba's dispatcher always (the tests compare it with numpy)."""
    return turner(cells, colours, mats, jit=True)


def permuter(
    pts: np.ndarray,
    colours: np.ndarray,
    mats: np.ndarray,
    grid: np.ndarray,
    strides: np.ndarray,
    hi: np.ndarray,
    jit: bool = False,
) -> np.ndarray | None:
    """turning.permutations (the board's group as permutations of its items), or None
    when no compiled variant matches (numpy's core.symmetry.board_group then)."""
    args = (
        np.ascontiguousarray(pts, dtype=np.int64),
        np.ascontiguousarray(colours, dtype=np.int64),
        np.ascontiguousarray(mats, dtype=np.int64),
        np.ascontiguousarray(grid, dtype=np.int64),
        np.ascontiguousarray(strides, dtype=np.int64),
        np.ascontiguousarray(hi, dtype=np.int64),
    )
    function: Callable[..., Any] | None
    if jit or os.environ.get("POLYTILE_JIT"):
        function = kernel_module("geometry.turning").permutations
        function = function.jit if isinstance(function, Kernel) else function
    elif using_compiled("geometry.turning", "permutations"):  # (else numba is not imported)
        function = kernel_module("geometry.turning").permutations.variants.get(tuple(type_key(a) for a in args))
    else:
        function = None
    return None if function is None else function(*args)


def jit_permuter(
    pts: np.ndarray, colours: np.ndarray, mats: np.ndarray, grid: np.ndarray, strides: np.ndarray, hi: np.ndarray
) -> np.ndarray | None:
    """`permuter` through numba's dispatcher always (the tests compare it with numpy)."""
    return permuter(pts, colours, mats, grid, strides, hi, jit=True)
