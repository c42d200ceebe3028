"""The compiled placements (engine/geometry/placing.py) as core.cover.build takes them: a function of
the board's lookup grid (its strides, its box lo..hi), the anchors and the orientations,
returning
(rows, pieces), or None where numpy's `_placements` must do it (more pairs than MAX_PAIRS,
which numpy looks up chunk by chunk under the deadline, or no compiled variant for these
argument types: numba's compiling at run time would cost more than numpy's calls)."""

from __future__ import annotations

import os
from typing import Any, Callable

import numpy as np

from ..kernels import Kernel, kernel_module, type_key, using_compiled

MAX_PAIRS = 1 << 21  # (orientation, anchor) pairs times cells placed in one call (16 MB of rows)


def placer(
    grid: np.ndarray,
    strides: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    anchors: np.ndarray,
    shapes: np.ndarray,
    owner: np.ndarray,
    jit: bool = False,
) -> tuple[np.ndarray, np.ndarray] | None:
    """placing.place's (rows, pieces), or None: see the module's note. Numba's dispatcher
    when `jit` or POLYTILE_JIT is set (the ahead-of-time build's exercise records the
    types this way)."""
    if shapes.shape[0] * len(anchors) * shapes.shape[1] > MAX_PAIRS:
        return None
    args = (
        np.ascontiguousarray(grid, dtype=np.int64),
        np.ascontiguousarray(strides, dtype=np.int64),
        np.ascontiguousarray(lo, dtype=np.int64),
        np.ascontiguousarray(hi, dtype=np.int64),
        np.ascontiguousarray(anchors, dtype=np.int64),
        np.ascontiguousarray(shapes, dtype=np.int64),
        np.ascontiguousarray(owner, dtype=np.int32),
    )
    function: Callable[..., Any] | None
    if jit or os.environ.get("POLYTILE_JIT"):
        function = kernel_module("geometry.placing").place
        function = function.jit if isinstance(function, Kernel) else function
    elif using_compiled("geometry.placing", "place"):  # (else numba is not imported)
        function = kernel_module("geometry.placing").place.variants.get(tuple(type_key(a) for a in args))
    else:
        function = None
    return None if function is None else function(*args)


def jit_placer(
    grid: np.ndarray,
    strides: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    anchors: np.ndarray,
    shapes: np.ndarray,
    owner: np.ndarray,
) -> tuple[np.ndarray, np.ndarray] | None:
    """`placer` through numba's dispatcher always (the tests compare it with numpy)."""
    return placer(grid, strides, lo, hi, anchors, shapes, owner, jit=True)
