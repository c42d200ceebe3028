"""The compiled symmetry analysis (engine/geometry/orbits.py) as core.symmetry.analyse takes it: a
function of the board's permutations and the cover, returning the Symmetry's fields, or
None where the numpy reference must do it (more than 64 items or motions, or no compiled
variant for these argument types: numba's compiling at run time would cost more than
numpy's few hundred calls)."""

from __future__ import annotations

import os
from typing import Any, Callable

import numpy as np

from ...core.cover import Cover
from ..kernels import Kernel, kernel_module, type_key, using_compiled


def arguments(perms: np.ndarray, cover: Cover) -> tuple[np.ndarray, ...]:
    """orbits.analyse's arguments, in the types the compiled variant was built for."""
    return (
        np.ascontiguousarray(perms, dtype=np.int64),
        np.ascontiguousarray(cover.opt_ptr, dtype=np.int64),
        np.ascontiguousarray(cover.opt_items, dtype=np.int32),
        np.ascontiguousarray(cover.opt_piece, dtype=np.int32),
        np.ascontiguousarray(cover.piece_count, dtype=np.int32),
        np.ascontiguousarray(cover.piece_min, dtype=np.int32),
    )


def fits(perms: np.ndarray, cover: Cover) -> bool:
    """Whether the kernel's bitmasks hold the items and the motions."""
    return cover.n_items <= 64 and len(perms) <= 64


def analyser(perms: np.ndarray, cover: Cover, jit: bool = False) -> tuple[Any, ...] | None:
    """(opt_label, label_img, opt_stab, label_piece, g_exact, h_mask), or None: see the
    module's note. Numba's dispatcher when `jit` or POLYTILE_JIT is set (every kernel is
    numba's then; the ahead-of-time build's exercise records the types this way)."""
    if not fits(perms, cover):
        return None
    args = arguments(perms, cover)
    function: Callable[..., Any] | None
    if jit or os.environ.get("POLYTILE_JIT"):
        function = kernel_module("geometry.orbits").analyse
        function = function.jit if isinstance(function, Kernel) else function
    elif using_compiled("geometry.orbits", "analyse"):  # (else numba is not imported)
        function = kernel_module("geometry.orbits").analyse.variants.get(tuple(type_key(a) for a in args))
    else:
        function = None
    if function is None:
        return None
    label, image, stab, piece, exact, h_mask = function(*args)
    return label, image, stab, piece, int(exact), int(h_mask)


def jit_analyser(perms: np.ndarray, cover: Cover) -> tuple[Any, ...] | None:
    """`analyser` through numba's dispatcher always (the tests compare it with numpy)."""
    return analyser(perms, cover, jit=True)
