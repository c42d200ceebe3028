"""The frontier sweep's kernel: one layer of states after another, counts modulo primes.

Data (no geometry): items 0..n-1 are swept in order; before item p every item < p is
covered, and a state is
- `mask`: the covered items p..p+63 (bit 0 = item p), and
- `code`: the copies used of the *tracked* pieces, one bit field each (`f_shift`,
  `f_mask`); a hard field stops at its cap (a piece that can run out), a soft one
  saturates at it (a piece with a minimum and no shortage: only "reached the minimum?"
  matters).
Item p covered: the state moves on (mask >> 1). Free: each option whose first item is p
(`rel[first[p]:first[p + 1]]`, masks relative to p) that misses the mask and whose piece
has copies left is placed. Equal states are merged through an open-addressing hash table.

A state's count is kept modulo each of `primes` (< 2**62, so a sum of two residues never
wraps a uint64) and, beside it, as a float64 (`approx`) whose only use is a proven upper
bound on the exact count (see frontier.py): the residues then give the count by the CRT.
"""

from __future__ import annotations

import numpy as np

from ..kernels import njit  # numba imported only when its JIT is needed (see kernels.py)

MUL1 = np.uint64(0x9E3779B97F4A7C15)
MUL2 = np.uint64(0xC2B2AE3D27D4EB4F)


@njit(cache=True, inline="always")
def _slot(mask: np.uint64, code: np.uint64, bits: int) -> int:
    """The first slot of a state in a table of 2**bits slots."""
    h = (mask * MUL1) ^ (code * MUL2)
    h ^= h >> np.uint64(29)
    h *= MUL1
    return np.int64(h >> np.uint64(64 - bits))  # type: ignore[no-any-return]


@njit(cache=True)
def advance(
    masks: np.ndarray,
    codes: np.ndarray,
    res: np.ndarray,
    approx: np.ndarray,
    first: np.ndarray,
    rel: np.ndarray,
    opt_field: np.ndarray,
    opt_w: np.ndarray,
    fields: np.ndarray,
    primes: np.ndarray,
    p0: int,
    p1: int,
    max_states: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, int, int]:
    """Layers p0..p1-1 from the states before p0. `fields`: (k, 4) int64 rows (shift, mask,
    cap, hard). Returns the states before the last layer done, that layer's end p (p1, or
    less when a layer passed `max_states`: then that layer's input is returned), the
    transitions made and the widest layer."""
    n_primes = primes.shape[0]
    one = np.uint64(1)
    transitions = 0
    widest = masks.shape[0]
    for p in range(p0, p1):
        n = masks.shape[0]
        cap = 16
        while cap < 2 * n + 16:
            cap *= 2
        bits = 4
        while (1 << bits) < 2 * cap:
            bits += 1
        table = np.full(1 << bits, -1, np.int64)
        nm = np.empty(cap, np.uint64)
        nc = np.empty(cap, np.uint64)
        nr = np.empty((cap, n_primes), np.uint64)
        na = np.empty(cap, np.float64)
        size = 0
        a, b = first[p], first[p + 1]
        for s in range(n):
            mask = masks[s]
            code = codes[s]
            n_opts = 1 if mask & one else b - a
            for k in range(n_opts):
                if mask & one:
                    child = mask >> one
                    ccode = code
                else:
                    o = a + k
                    m = rel[o]
                    if m & mask:
                        continue
                    ccode = code
                    f = opt_field[o]
                    if f >= 0:
                        shift = np.uint64(fields[f, 0])
                        used = np.int64((code >> shift) & np.uint64(fields[f, 1]))
                        now = used + opt_w[o]
                        if now > fields[f, 2]:
                            if fields[f, 3]:
                                continue
                            now = fields[f, 2]
                        ccode = (code & ~(np.uint64(fields[f, 1]) << shift)) | (np.uint64(now) << shift)
                    child = (mask | m) >> one
                transitions += 1
                h = _slot(child, ccode, bits)
                top = (1 << bits) - 1
                while True:
                    i = table[h]
                    if i < 0 or (nm[i] == child and nc[i] == ccode):
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
                    return masks, codes, res, approx, p, transitions, max(widest, size)
                if size == cap:  # grow the arrays, then the table
                    cap *= 2
                    nm2 = np.empty(cap, np.uint64)
                    nc2 = np.empty(cap, np.uint64)
                    nr2 = np.empty((cap, n_primes), np.uint64)
                    na2 = np.empty(cap, np.float64)
                    nm2[:size] = nm[:size]
                    nc2[:size] = nc[:size]
                    nr2[:size] = nr[:size]
                    na2[:size] = na[:size]
                    nm, nc, nr, na = nm2, nc2, nr2, na2
                    bits += 1
                    table = np.full(1 << bits, -1, np.int64)
                    top = (1 << bits) - 1
                    for e in range(size):
                        g = _slot(nm[e], nc[e], bits)
                        while table[g] >= 0:
                            g = (g + 1) & top
                        table[g] = e
                    h = _slot(child, ccode, bits)
                    while table[h] >= 0:
                        h = (h + 1) & top
                table[h] = size
                nm[size] = child
                nc[size] = ccode
                for j in range(n_primes):
                    nr[size, j] = res[s, j]
                na[size] = approx[s]
                size += 1
        masks, codes, res, approx = nm[:size].copy(), nc[:size].copy(), nr[:size].copy(), na[:size].copy()
        widest = max(widest, size)
        if size == 0:
            return masks, codes, res, approx, p1, transitions, widest
    return masks, codes, res, approx, p1, transitions, widest
