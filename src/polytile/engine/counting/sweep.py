"""The frontier sweep's kernel: one layer of states after another, counts modulo primes.

Data (no geometry): items 0..n-1 are swept in order; before item p every item < p is
covered, and a state is one uint64 key:
- its low `window` bits: the covered items p..p+window-1 (bit 0 = item p);
- above them, the copies used of the *tracked* pieces, one bit field each (`fields` rows:
  shift, mask, cap, hard); a hard field stops at its cap (a piece that can run out), a soft
  one saturates at it (a piece with a minimum: only "reached it?" matters).
Item p covered: the state moves on (its mask shifted down by one). Free: each option whose
first item is p (`rel[first[p]:first[p + 1]]`, masks relative to p) that misses the mask and
whose piece has copies left is placed. Equal states are merged through an open-addressing
hash table.

A state's count is kept modulo each of `primes` (< 2**62, so a sum of two residues never
wraps a uint64) and, beside it, as a float64 (`approx`) whose only use is a proven upper
bound on the exact count (see frontier.py): the residues then give the count by the CRT.
"""

from __future__ import annotations

import numpy as np

from ..kernels import njit  # numba imported only when its JIT is needed (see kernels.py)

MUL = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True, inline="always")
def _slot(key: np.uint64, bits: int) -> int:
    """The first slot of a state in a table of 2**bits slots (Fibonacci hashing, the high
    bits folded in first)."""
    h = key * MUL
    h ^= h >> np.uint64(29)
    h *= MUL
    return np.int64(h >> np.uint64(64 - bits))  # type: ignore[no-any-return]


@njit(cache=True, inline="always")
def _use(key: np.uint64, f: int, w: int, fields: np.ndarray) -> np.uint64:
    """The key with `w` more copies of field f's piece, or 0 when a hard field has no copies
    left (0 is never a key with a field in use)."""
    shift = np.uint64(fields[f, 0])
    field = np.uint64(fields[f, 1]) << shift
    now = np.int64((key & field) >> shift) + w
    if now > fields[f, 2]:
        if fields[f, 3]:
            return np.uint64(0)
        now = fields[f, 2]
    return (key & ~field) | (np.uint64(now) << shift)  # type: ignore[no-any-return]


@njit(cache=True)
def _table(size: int) -> tuple[np.ndarray, int]:
    """An empty table for `size` states (load below a half) and its bits."""
    bits = 4
    while (1 << bits) < 2 * size:
        bits += 1
    return np.full(1 << bits, -1, np.int64), bits


@njit(cache=True)
def advance(
    keys: np.ndarray,
    res: np.ndarray,
    approx: np.ndarray,
    first: np.ndarray,
    rel: np.ndarray,
    opt_field: np.ndarray,
    opt_w: np.ndarray,
    fields: np.ndarray,
    window: int,
    primes: np.ndarray,
    p0: int,
    p1: int,
    max_states: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, int, int]:
    """Layers p0..p1-1 from the states before p0 (`res`: (states, primes) residues).
    Returns the states before the last layer done, that layer's end p (p1, or less when a
    layer passed `max_states`: then that layer's input is returned), the transitions made
    and the widest layer."""
    n_primes = primes.shape[0]
    one = np.uint64(1)
    low = (one << np.uint64(window)) - one if window < 64 else ~np.uint64(0)
    transitions = 0
    widest = keys.shape[0]
    for p in range(p0, p1):
        n = keys.shape[0]
        cap = 16
        while cap < 2 * n + 16:
            cap *= 2
        table, bits = _table(cap)
        top = (1 << bits) - 1
        nk = np.empty(cap, np.uint64)
        nr = np.empty((cap, n_primes), np.uint64)
        na = np.empty(cap, np.float64)
        size = 0
        a, b = first[p], first[p + 1]
        for s in range(n):
            key = keys[s]
            covered = key & one
            for k in range(1 if covered else b - a):
                if covered:
                    child = ((key & low) >> one) | (key & ~low)
                else:
                    o = a + k
                    m = rel[o]
                    if m & key:
                        continue
                    base = key
                    f = opt_field[o]
                    if f >= 0:
                        base = _use(key, f, opt_w[o], fields)
                        if base == 0:
                            continue
                    child = (((base | m) & low) >> one) | (base & ~low)
                transitions += 1
                h = _slot(child, bits)
                while True:
                    i = table[h]
                    if i < 0 or nk[i] == child:
                        break
                    h = (h + 1) & top
                if i >= 0:
                    for j in range(n_primes):
                        v = nr[i, j] + res[s, j]
                        if v >= primes[j]:
                            v -= primes[j]
                        nr[i, j] = v
                    na[i] += approx[s]
                    continue
                if size >= max_states:  # the layer passes the budget: give up before it
                    return keys, res, approx, p, transitions, max(widest, size)
                if size == cap:  # grow the arrays, then the table
                    cap *= 2
                    nk2 = np.empty(cap, np.uint64)
                    nr2 = np.empty((cap, n_primes), np.uint64)
                    na2 = np.empty(cap, np.float64)
                    nk2[:size] = nk[:size]
                    nr2[:size] = nr[:size]
                    na2[:size] = na[:size]
                    nk, nr, na = nk2, nr2, na2
                    table, bits = _table(cap)
                    top = (1 << bits) - 1
                    for e in range(size):
                        g = _slot(nk[e], bits)
                        while table[g] >= 0:
                            g = (g + 1) & top
                        table[g] = e
                    h = _slot(child, bits)
                    while table[h] >= 0:
                        h = (h + 1) & top
                table[h] = size
                nk[size] = child
                for j in range(n_primes):
                    nr[size, j] = res[s, j]
                na[size] = approx[s]
                size += 1
        keys, res, approx = nk[:size].copy(), nr[:size].copy(), na[:size].copy()
        widest = max(widest, size)
        if size == 0:
            return keys, res, approx, p1, transitions, widest
    return keys, res, approx, p1, transitions, widest
