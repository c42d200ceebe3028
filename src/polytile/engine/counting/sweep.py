"""The frontier sweep's kernel: one layer of states after another, counts modulo primes.

Data (no geometry): items 0..n-1 are swept in order; before item p every item < p is
covered, and a state is one uint64 key, from its high bits down:
- the copies used of the pieces that can run out (*hard* fields: at most the piece's copies);
- the covered items p..p+window-1, bit `low` = item p (the mask);
- the copies used of the pieces with a minimum (*soft* fields, saturating at it: only
  "reached it?" matters), in the `low` bits below the mask.
`fields` rows: shift, mask, cap, hard. Item p covered: the state moves on (its mask shifted
down by one). Free: each option whose first item is p (`rel[first[p]:first[p + 1]]`, masks
relative to p, already shifted by `low`) that misses the mask and whose piece has copies
left is placed.

Why that order of the fields: each layer is kept sorted, and then the children of the
parents by one move (item p passed on, or one option placed) come out sorted too: passing
on and placing add to the mask a constant that misses it and shift it (strictly monotone),
a hard field adds a constant, and a soft field's saturation can only merge keys that agree
above it. So a layer is the merge of 1 + (options of p) sorted runs (a heap of runs), equal
keys summed as they meet: every array is read and written in order, which is what keeps a
layer of millions of states fast (a hash table's random probes would miss the caches).

A state's count is kept modulo each of `primes` (< 2**62, so a sum of two residues never
wraps a uint64) and, beside it, as a float64 (`approx`) whose only use is a proven upper
bound on the exact count (see frontier.py): the residues then give the count by the CRT.
"""

from __future__ import annotations

import numpy as np

from ..kernels import njit  # numba imported only when its JIT is needed (see kernels.py)

NONE = np.uint64(0xFFFFFFFFFFFFFFFF)  # no child: never a key (a child's mask has its top bit clear)


@njit(cache=True, inline="always")
def _use(key: np.uint64, f: int, w: int, fields: np.ndarray) -> np.uint64:
    """The key with `w` more copies of field f's piece, or NONE when a hard field has no
    copies left."""
    shift = np.uint64(fields[f, 0])
    field = np.uint64(fields[f, 1]) << shift
    now = np.int64((key & field) >> shift) + w
    if now > fields[f, 2]:
        if fields[f, 3]:
            return NONE
        now = fields[f, 2]
    return (key & ~field) | (np.uint64(now) << shift)


@njit(cache=True, inline="always")
def _next(
    r: int,
    t: int,
    part: np.ndarray,
    a: int,
    rel: np.ndarray,
    opt_field: np.ndarray,
    opt_w: np.ndarray,
    fields: np.ndarray,
    mask_bits: np.uint64,
) -> tuple[int, np.uint64]:
    """Run r's next parent from position t of its part of the layer (`part`: the keys of the
    covered parents for r = 0, of the free ones for an option r = k > 0: option a + k - 1)
    and its child: (position, child), position = len(part) when the run is over."""
    one = np.uint64(1)
    n = part.shape[0]
    if r == 0:
        if t < n:
            key = part[t]
            return t, (((key & mask_bits) >> one) & mask_bits) | (key & ~mask_bits)
        return n, NONE
    o = a + r - 1
    m = rel[o]
    f = opt_field[o]
    while t < n:
        key = part[t]
        if not key & m:
            base = key
            if f >= 0:
                base = _use(key, f, opt_w[o], fields)
            if base != NONE:
                return t, ((((base | m) & mask_bits) >> one) & mask_bits) | (base & ~mask_bits)
        t += 1
    return n, NONE


@njit(cache=True, inline="always")
def _sift(heap: np.ndarray, size: int, cur: np.ndarray) -> None:
    """Restore the heap (runs by their current key) after its root's key grew."""
    i = 0
    while True:
        left = 2 * i + 1
        if left >= size:
            return
        least = left
        if left + 1 < size and cur[heap[left + 1]] < cur[heap[left]]:
            least = left + 1
        if cur[heap[least]] >= cur[heap[i]]:
            return
        heap[i], heap[least] = heap[least], heap[i]
        i = least


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
    low: int,
    window: int,
    primes: np.ndarray,
    p0: int,
    p1: int,
    max_states: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, int, int]:
    """Layers p0..p1-1 from the sorted states before p0 (`res`: (states, primes) residues).
    Returns the states before the last layer done, that layer's end p (p1, or less when a
    layer passed `max_states`: then that layer's input is returned), the transitions made
    and the widest layer."""
    n_primes = primes.shape[0]
    one = np.uint64(1)
    lowbit = one << np.uint64(low)
    top = low + window
    mask_bits = ((one << np.uint64(top)) - one if top < 64 else ~np.uint64(0)) & ~(lowbit - one)
    transitions = 0
    widest = keys.shape[0]
    for p in range(p0, p1):
        n = keys.shape[0]
        a, b = first[p], first[p + 1]
        runs = b - a + 1
        covered = (keys & lowbit) != 0
        parts = (np.nonzero(covered)[0], np.nonzero(~covered)[0])
        part_keys = (keys[parts[0]], keys[parts[1]])
        heap = np.empty(runs, np.int64)
        cur = np.empty(runs, np.uint64)
        at = np.empty(runs, np.int64)
        size = 0
        for r in range(runs):  # each run's first parent
            part = part_keys[0] if r == 0 else part_keys[1]
            t, c = _next(r, 0, part, a, rel, opt_field, opt_w, fields, mask_bits)
            if t < part.shape[0]:
                cur[r], at[r] = c, t
                heap[size] = r
                size += 1
                i = size - 1  # sift up
                while i > 0 and cur[heap[(i - 1) // 2]] > cur[heap[i]]:
                    heap[i], heap[(i - 1) // 2] = heap[(i - 1) // 2], heap[i]
                    i = (i - 1) // 2
        cap = max(16, n + n // 2)
        nk = np.empty(cap, np.uint64)
        nr = np.empty((cap, n_primes), np.uint64)
        na = np.empty(cap, np.float64)
        out = 0
        while size:
            r = heap[0]
            c, t = cur[r], at[r]
            s = parts[0][t] if r == 0 else parts[1][t]
            transitions += 1
            if out and nk[out - 1] == c:
                for j in range(n_primes):
                    v = nr[out - 1, j] + res[s, j]
                    if v >= primes[j]:
                        v -= primes[j]
                    nr[out - 1, j] = v
                na[out - 1] += approx[s]
            else:
                if out >= max_states:  # the layer passes the budget: give up before it
                    return keys, res, approx, p, transitions, max(widest, out)
                if out == cap:
                    cap *= 2
                    nk2 = np.empty(cap, np.uint64)
                    nr2 = np.empty((cap, n_primes), np.uint64)
                    na2 = np.empty(cap, np.float64)
                    nk2[:out] = nk[:out]
                    nr2[:out] = nr[:out]
                    na2[:out] = na[:out]
                    nk, nr, na = nk2, nr2, na2
                nk[out] = c
                for j in range(n_primes):
                    nr[out, j] = res[s, j]
                na[out] = approx[s]
                out += 1
            part = part_keys[0] if r == 0 else part_keys[1]
            t, c = _next(r, t + 1, part, a, rel, opt_field, opt_w, fields, mask_bits)
            if t < part.shape[0]:
                cur[r], at[r] = c, t
            else:
                size -= 1
                heap[0] = heap[size]
            _sift(heap, size, cur)
        keys, res, approx = nk[:out].copy(), nr[:out].copy(), na[:out].copy()
        widest = max(widest, out)
        if out == 0:
            return keys, res, approx, p1, transitions, widest
    return keys, res, approx, p1, transitions, widest


MUL = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True, inline="always")
def _slot(key: np.uint64, bits: int) -> int:
    """The first slot of a state in a table of 2**bits slots (Fibonacci hashing, the high
    bits folded in first)."""
    h = key * MUL
    h ^= h >> np.uint64(29)
    h *= MUL
    return np.int64(h >> np.uint64(64 - bits))  # type: ignore[return-value]


@njit(cache=True)
def _table(size: int) -> tuple[np.ndarray, int]:
    """An empty table for `size` states (load below a half) and its bits."""
    bits = 4
    while (1 << bits) < 2 * size:
        bits += 1
    return np.full(1 << bits, -1, np.int64), bits


@njit(cache=True)
def advance_hashed(
    keys: np.ndarray,
    res: np.ndarray,
    approx: np.ndarray,
    first: np.ndarray,
    rel: np.ndarray,
    opt_field: np.ndarray,
    opt_w: np.ndarray,
    fields: np.ndarray,
    low: int,
    window: int,
    primes: np.ndarray,
    p0: int,
    p1: int,
    max_states: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, int, int]:
    """`advance` through a hash table: the states in any order (and the layers made so).
    Faster while a layer fits in the caches; `advance`'s merge beyond."""
    n_primes = primes.shape[0]
    one = np.uint64(1)
    lowbit = one << np.uint64(low)
    top_bit = low + window
    mask_bits = ((one << np.uint64(top_bit)) - one if top_bit < 64 else ~np.uint64(0)) & ~(lowbit - one)
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
            covered = key & lowbit
            for k in range(1 if covered else b - a):
                if covered:
                    child = (((key & mask_bits) >> one) & mask_bits) | (key & ~mask_bits)
                else:
                    o = a + k
                    m = rel[o]
                    if m & key:
                        continue
                    base = key
                    f = opt_field[o]
                    if f >= 0:
                        base = _use(key, f, opt_w[o], fields)
                        if base == NONE:
                            continue
                    child = ((((base | m) & mask_bits) >> one) & mask_bits) | (base & ~mask_bits)
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
