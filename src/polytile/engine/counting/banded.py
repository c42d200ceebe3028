"""The exact determinant of a banded integer matrix: elimination modulo primes below 2**50.

A Kasteleyn matrix of a grid region, its rows and columns numbered along the region's short
side, is banded: row i holds columns i - lower .. i + upper only. Gaussian elimination with
partial pivoting keeps it so (a pivot comes from the `lower` rows under the diagonal, so the
rows' reach grows to lower + upper past it), and a row then needs only lower + upper + 1
live columns: each row is kept in a ring of `width` slots (a power of two, column c in slot
c & (width - 1)), the slot of an eliminated column reused for a column the band reaches
later. Each row's last column is tracked (`reach`): a row takes the pivot row's columns up to
that row's reach, so without row swaps (a Kasteleyn matrix of a grid has none) a step costs
lower * upper multiply-adds, n * lower * upper a prime, and at most n * lower * (lower + upper).

Exactness as in engine/determinant.py: Hadamard's bound H = prod_i ||row_i||_2 bounds |det|,
so the residues modulo primes whose product P exceeds 2H, joined by the Chinese remainder
theorem and read in (-P/2, P/2), are det itself. The row swaps' sign is kept, so every
prime's residue is of the same signed determinant.

The primes are the largest below 2**50 (`PRIME_BITS`), proven prime by Miller-Rabin with the
first twelve primes as bases, which is deterministic below 3.18 * 10**23 (Sorenson and
Webster, 2015). Below 2**50 a product a * b modulo p needs no 128-bit integers: the quotient
is estimated in floating point (within 1 of the true one, its error at most 3/4) and the
remainder computed exactly in wrapping 64-bit integers, then corrected into [0, p).
"""

from __future__ import annotations

import math
import time

import numpy as np

from .determinant import crt
from .exact import is_prime as is_prime  # (deterministic Miller-Rabin, shared with the sweep's primes)
from ..kernels import njit  # numba imported only when its JIT is needed (see kernels.py)
from ..limits import Stopped

PRIME_BITS = 50
CHUNK = 1 << 22  # multiply-adds between two looks at the clock
_primes: list[int] = []


@njit(cache=True, inline="always")
def _sub_mul(x: int, f: int, y: int, p: int, p_inv: float) -> int:
    """(x - f * y) mod p for x, f, y in [0, p), p < 2**50."""
    q = math.floor((float(x) - float(f) * float(y)) * p_inv)
    r = x - f * y - q * p  # exact: the true remainder is small, the products wrap alike
    r = r + p if r < 0 else r  # the quotient was within 1 of the true one
    return r - p if r >= p else r


@njit(cache=True, inline="always")
def _inverse(a: int, p: int) -> int:
    """a**-1 mod p (a not 0 mod p), by the extended Euclidean algorithm."""
    r0, r1, s0, s1 = p, a, 0, 1
    while r1:
        q = r0 // r1
        r0, r1 = r1, r0 - q * r1
        s0, s1 = s1, s0 - q * s1
    return s0 + p if s0 < 0 else s0


@njit(cache=True, inline="always")
def _sub_mul_row(row: np.ndarray, pivot_row: np.ndarray, a: int, b: int, f: int, p: int, p_inv: float) -> None:
    """row[a:b] -= f * pivot_row[a:b], modulo p."""
    for s in range(a, b):
        row[s] = _sub_mul(row[s], f, pivot_row[s], p, p_inv)


@njit(cache=True)
def eliminate(
    band: np.ndarray, at: np.ndarray, reach: np.ndarray, lower: int, p: int, start: int, stop: int, det: int
) -> int:
    """Eliminate columns start .. stop - 1 of the matrix modulo p (rows as rings of
    band.shape[1] slots, the row at position i stored as band[at[i]], reaching no further
    than column reach[at[i]]), multiplying `det` by each pivot and by -1 for each row swap:
    the running determinant, 0 when a column has no pivot (the determinant is 0 modulo p)."""
    n, width = band.shape
    mask = width - 1
    p_inv = 1.0 / p
    for k in range(start, stop):
        slot = k & mask
        last_row = min(n - 1, k + lower)
        piv = k
        while piv <= last_row and band[at[piv], slot] == 0:
            piv += 1
        if piv > last_row:
            return 0
        if piv != k:
            at[k], at[piv] = at[piv], at[k]
            det = p - det
        rk = at[k]
        pivot_row = band[rk]
        det = _sub_mul(0, p - det, pivot_row[slot], p, p_inv)
        inv = _inverse(pivot_row[slot], p)
        end = reach[rk]  # columns k + 1 .. end: slots `first` on from k + 1's, the rest from 0
        a = (k + 1) & mask
        first = min(end - k, width - a)
        for i in range(k + 1, last_row + 1):
            ri = at[i]
            row = band[ri]
            x = row[slot]
            if x == 0:
                continue
            row[slot] = 0
            f = _sub_mul(0, p - x, inv, p, p_inv)
            _sub_mul_row(row, pivot_row, a, a + first, f, p, p_inv)
            _sub_mul_row(row, pivot_row, 0, end - k - first, f, p, p_inv)
            reach[ri] = max(reach[ri], end)
    return det


def primes(k: int) -> list[int]:
    """The k largest primes below 2**PRIME_BITS (found once, kept)."""
    n = (_primes[-1] if _primes else 1 << PRIME_BITS) - 1
    while len(_primes) < k:
        if is_prime(n):
            _primes.append(n)
        n -= 2 if n & 1 else 1
    return _primes[:k]


def moduli(h_square: int) -> list[int]:
    """As few of the primes as make their product P exceed 2H (P**2 > 4 H**2)."""
    need = 4 * h_square
    k = max(1, (need.bit_length() - 1) // (2 * PRIME_BITS))  # fewer cannot do: P**2 < 2**(100 k)
    while True:
        chosen = primes(k)
        if math.prod(chosen) ** 2 > need:
            return chosen
        k += 1


def abs_det(n: int, rows: np.ndarray, cols: np.ndarray, values: np.ndarray, deadline: float | None = None) -> int:
    """|det M| of the n x n integer matrix with M[rows[j], cols[j]] = values[j] (each entry
    once, |values| < 2**PRIME_BITS), exactly. limits.Stopped("time limit") past `deadline`
    (a perf_counter time); its `entries` are the columns eliminated then."""
    if n == 0:
        return 1
    rows, cols, values = (np.asarray(a, dtype=np.int64) for a in (rows, cols, values))
    squares = [0] * n  # each row's squared length, exactly
    for r, v in zip(rows.tolist(), values.tolist()):
        squares[r] += v * v
    if not all(squares):
        return 0  # a row of zeros
    chosen = moduli(math.prod(squares))
    lower = max(0, int((rows - cols).max()))
    upper = max(0, int((cols - rows).max()))
    width = 1 << (lower + upper).bit_length()  # at least lower + upper + 1 slots
    entries = np.zeros((n, width), dtype=np.int64)
    entries[rows, cols & (width - 1)] = values
    reach = np.full(n, -1, dtype=np.int64)  # each row's last column
    np.maximum.at(reach, rows, cols)
    step = max(1, CHUNK // (lower * (lower + upper) + 1))
    residues = []
    for p in chosen:
        band, at, far, det, k = entries % p, np.arange(n, dtype=np.int64), reach.copy(), 1, 0
        while k < n and det:
            if deadline is not None and time.perf_counter() > deadline:
                stop = Stopped("time limit", k)
                stop.method = "pfaffian"
                raise stop
            det = eliminate(band, at, far, lower, p, k, min(n, k + step), det)
            k += step
        residues.append(det)
    m = math.prod(chosen)
    x = crt(residues, chosen)
    return min(x, m - x)


def band_bytes(n: int, lower: int, upper: int) -> int:
    """The bytes the elimination holds for an n x n matrix of this band (two copies of the
    rings: the entries and one prime's)."""
    return 2 * n * (1 << (lower + upper).bit_length()) * 8


def exercise() -> None:
    """Run the kernel once with the argument types abs_det passes (for the ahead-of-time
    build: aot.py exports each kernel under the types it was called with)."""
    one = np.ones(2, dtype=np.int64)
    assert abs_det(2, np.arange(2), np.arange(2)[::-1].copy(), one) == 1
