"""Bit tricks the bitboard kernels share: sets of at most 64 items as uint64 words."""

from __future__ import annotations

import numpy as np
from numba import njit

ONE = np.uint64(1)
ZERO = np.uint64(0)


@njit(cache=True, inline="always")
def popcount(x):
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (x * np.uint64(0x0101010101010101)) >> np.uint64(56)
