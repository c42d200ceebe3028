"""Bit tricks the bitboard kernels share: sets of at most 64 items as uint64 words; and
`njit`, numba's decorator typed for the kernels of every family."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np

ONE = np.uint64(1)
ZERO = np.uint64(0)

F = TypeVar("F", bound=Callable[..., Any])


def njit(**options: Any) -> Callable[[F], F]:
    """numba.njit(**options), typed as giving back the function it compiles: numba ships no
    types, so mypy would see every kernel as untyped. The dispatcher is numba's own (same
    cache, same options); only its static type is the Python function's."""
    return cast(Callable[[F], F], numba.njit(**options))


@njit(cache=True, inline="always")
def popcount(x: np.uint64) -> np.uint64:
    """The number of set bits of `x` (a few branch-free word operations, the same on every CPU numba targets)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (x * np.uint64(0x0101010101010101)) >> np.uint64(56)
