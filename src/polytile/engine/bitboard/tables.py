"""The bitboard kernel's tables, built once per puzzle in compiled code: the options and
neighbours as bitboards, the neighbour shifts, the options in blocks by (lowest item,
occupancy of its key items, piece), the options that cut off a region no pieces fill,
and whether every piece is connected (what the dead-end tests of engine/bitboard/kernel.py
assume). One compiled call each, not a numpy call per step: a small puzzle's set-up is
mostly the cost of the calls. (Symmetry breaking's choices, for every kernel's plan:
engine/geometry/breaking.py.)"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from .kernel import grow, regions_ok
from ..bits import ONE, ZERO, njit, popcount


@njit(cache=True)
def board_masks(
    n: int, opt_ptr: np.ndarray, opt_items: np.ndarray, neighbours: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(opt_mask, nb_mask, opt_border): the items of each option, the neighbours of each
    item, and the items next to each option and not in it, as words of n <= 64 bits."""
    nb_mask = np.zeros(n, dtype=np.uint64)
    for i in range(n):
        for j in range(neighbours.shape[1]):
            if neighbours[i, j] >= 0:
                nb_mask[i] |= ONE << np.uint64(neighbours[i, j])
    n_opt = len(opt_ptr) - 1
    opt_mask = np.zeros(n_opt, dtype=np.uint64)
    opt_border = np.zeros(n_opt, dtype=np.uint64)
    for o in range(n_opt):
        m = ZERO
        b = ZERO
        for q in range(opt_ptr[o], opt_ptr[o + 1]):
            m |= ONE << np.uint64(opt_items[q])
            b |= nb_mask[opt_items[q]]
        opt_mask[o] = m
        opt_border[o] = b & ~m
    return opt_mask, nb_mask, opt_border


@njit(cache=True)
def neighbour_shifts(neighbours: np.ndarray, most: int) -> tuple[np.ndarray, np.ndarray]:
    """(differences d, masks) such that the neighbours of a set x of items are the union of
    (x & masks[k]) shifted by d[k]; empty when more than `most` differences occur."""
    n = neighbours.shape[0]
    deltas = np.zeros(n * neighbours.shape[1], dtype=np.int64)
    k = 0
    for i in range(n):
        for j in range(neighbours.shape[1]):
            if neighbours[i, j] >= 0:
                deltas[k] = neighbours[i, j] - i
                k += 1
    ordered = np.sort(deltas[:k])
    count = 0
    for q in range(k):
        if q == 0 or ordered[q] != ordered[q - 1]:
            ordered[count] = ordered[q]
            count += 1
    if count > most:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.uint64)
    diffs = ordered[:count].copy()
    masks = np.zeros(count, dtype=np.uint64)
    for i in range(n):
        for j in range(neighbours.shape[1]):
            if neighbours[i, j] >= 0:
                masks[np.searchsorted(diffs, neighbours[i, j] - i)] |= ONE << np.uint64(i)
    return diffs, masks


@njit(cache=True)
def lists_by_first_item(
    n: int, opt_ptr: np.ndarray, opt_items: np.ndarray, keep: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The options of `keep` grouped by their lowest item, in cover order inside a group
    (a counting sort): (options, starts)."""
    start = np.zeros(n + 1, dtype=np.int64)
    for o in range(len(keep)):
        if keep[o]:
            start[opt_items[opt_ptr[o]] + 1] += 1
    for i in range(n):
        start[i + 1] += start[i]
    at = start[:n].copy()
    opts = np.zeros(start[n], dtype=np.int32)
    for o in range(len(keep)):
        if keep[o]:
            t = opt_items[opt_ptr[o]]
            opts[at[t]] = o
            at[t] += 1
    return opts, start


@njit(cache=True)
def useful(
    keep: np.ndarray,
    opt_mask: np.ndarray,
    opt_border: np.ndarray,
    full: np.uint64,
    nb_mask: np.ndarray,
    shift_d: np.ndarray,
    shift_m: np.ndarray,
    sizes: np.uint64,
    cap: int,
) -> np.ndarray:
    """`keep` without the options that, placed alone on the board, leave a region next to
    them whose size no multiset of the pieces makes (`sizes`): such a region stays cut off
    whatever is placed later, so the option is in no solution. On a grid of at most four
    neighbour differences (the square grid) kernel.regions_ok's floods with the shifts
    held in registers (`_regions_ok4`: same steps, same answers, 42 -> 26 us on 3x20)."""
    out = keep.copy()
    if 0 < len(shift_d) <= 4:
        d = np.zeros(4, dtype=np.uint64)  # missing differences: mask 0, no cell
        m = np.zeros(4, dtype=np.uint64)
        for k in range(len(shift_d)):
            d[k] = np.uint64(shift_d[k]) & np.uint64(63)
            m[k] = shift_m[k]
        for o in range(len(keep)):
            if keep[o]:
                out[o] = _regions_ok4(full & ~opt_mask[o], opt_border[o], d, m, sizes, cap)
        return out
    for o in range(len(keep)):
        if keep[o]:
            out[o] = regions_ok(full & ~opt_mask[o], opt_border[o], nb_mask, shift_d, shift_m, sizes, cap)
    return out


@njit(cache=True, inline="always")
def _rotate(y: np.uint64, r: np.uint64) -> np.uint64:
    """y rotated left by r (0 <= r < 64): kernel.grow's shift by a difference."""
    return (y << r) | (y >> ((np.uint64(64) - r) & np.uint64(63)))


@njit(cache=True, inline="always")
def _regions_ok4(empty: np.uint64, seeds: np.uint64, d: np.ndarray, m: np.ndarray, sizes: np.uint64, cap: int) -> bool:
    """kernel.regions_ok with kernel.grow's loop over (at most) four differences unrolled
    (d: the differences mod 64, m: their masks, 0 where there is none)."""
    d0, d1, d2, d3 = d[0], d[1], d[2], d[3]
    m0, m1, m2, m3 = m[0], m[1], m[2], m[3]
    rest = seeds & empty
    big = ZERO  # cells of regions found larger than `cap`
    while rest:
        region = rest & (~rest + ONE)
        n: int | np.uint64 = 1
        while n <= cap:
            g = (
                _rotate(region & m0, d0)
                | _rotate(region & m1, d1)
                | _rotate(region & m2, d2)
                | _rotate(region & m3, d3)
            )
            more = (region | g) & empty
            if more == region:
                if n < 64 and not (sizes >> np.uint64(n)) & ONE:
                    return False
                break
            if more & big:  # the same region as one already too big to follow
                break
            region = more
            n = popcount(region)
        big |= region
        rest &= ~region
    return True


@njit(cache=True)
def connected(masks: np.ndarray, nb_mask: np.ndarray, shift_d: np.ndarray, shift_m: np.ndarray) -> bool:
    """Every cell-set of `masks` is connected (through the neighbours of `grow`)."""
    for m in masks:
        region = m & (~m + ONE)
        while True:
            more = (region | grow(region, nb_mask, shift_d, shift_m)) & m
            if more == region:
                break
            region = more
        if region != m:
            return False
    return True


@njit(cache=True)
def key_items(n: int, cell_start: np.ndarray, cell_opts: np.ndarray, opt_mask: np.ndarray, keys: int) -> np.ndarray:
    """(n, keys): for each item t, the `keys` other items most often covered by the options
    whose lowest item is t (ties: the lower item)."""
    key = np.zeros((n, keys), dtype=np.int64)
    counts = np.zeros(64, dtype=np.int64)
    for t in range(n):
        counts[:] = 0
        for q in range(cell_start[t], cell_start[t + 1]):
            m = opt_mask[cell_opts[q]]
            while m:
                counts[trailing_zeros(m)] += 1
                m &= m - ONE
        counts[t] = -1
        # items from n on are never covered (0): the first of them not yet taken (within
        # keys + 1 of n) is what a scan of all 64 would find among them
        scan = min(64, n + keys + 1)
        for j in range(keys):
            best = 0
            for i in range(scan):
                if counts[i] > counts[best]:
                    best = i
            key[t, j] = best
            counts[best] = -2
    return key


@njit(cache=True)
def by_bit(
    lo: int, hi: int, cell_opts: np.ndarray, opt_bit: np.ndarray, n_bits: int, order: np.ndarray, at: np.ndarray
) -> None:
    """order[lo:hi] = lo..hi-1 sorted by the piece bit of cell_opts[q], stably (a counting
    sort; `at`: n_bits + 1 of scratch)."""
    at[:] = 0
    for q in range(lo, hi):
        at[opt_bit[cell_opts[q]] + 1] += 1
    for k in range(n_bits):
        at[k + 1] += at[k]
    for q in range(lo, hi):
        k = opt_bit[cell_opts[q]]
        order[lo + at[k]] = q
        at[k] += 1


@njit(cache=True)
def merged_blocks(
    n: int,
    cell_start: np.ndarray,
    cell_opts: np.ndarray,
    opt_mask: np.ndarray,
    opt_bit: np.ndarray,
    n_bits: int,
    keys: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The options of `cell_opts` (grouped by lowest item, see driver.lists_by_first_item)
    in blocks by (lowest item t, pattern P of occupied key items of t): block
    (t << keys) | P holds every piece's options whose lowest item is t and that cover no
    key item occupied in P, by piece bit, then in their order in `cell_opts` (so the
    kernel tries them in the order of one block per piece). One block for all the pieces:
    a node tests its block's placements 64 at a time (kernel.chunk_fit), the pieces left
    included, in one loop. (options, their piece bits, block starts, key items)."""
    key = key_items(n, cell_start, cell_opts, opt_mask, keys)
    n_pat = 1 << keys
    n_blocks = n << keys
    start = np.zeros(n_blocks + 1, dtype=np.int64)
    covers = np.empty(len(cell_opts), dtype=np.int64)
    for t in range(n):
        base = (t << keys) + 1
        for q in range(cell_start[t], cell_start[t + 1]):
            m = opt_mask[cell_opts[q]]
            c: int | np.int64 = 0
            for j in range(keys):
                c |= np.int64((m >> np.uint64(key[t, j])) & ONE) << j
            covers[q] = c
            free = (n_pat - 1) & ~c
            pat = free
            while True:  # the patterns P with c & P == 0: the subsets of `free`
                start[base + pat] += 1
                if pat == 0:
                    break
                pat = (pat - 1) & free
    for b in range(n_blocks):
        start[b + 1] += start[b]
    order = np.empty(len(cell_opts), dtype=np.int64)
    scratch = np.empty(n_bits + 1, dtype=np.int64)
    opts = np.empty(start[n_blocks], dtype=np.int32)
    bits = np.empty(start[n_blocks], dtype=np.uint8)
    at = start[:n_blocks].copy()
    for t in range(n):
        by_bit(cell_start[t], cell_start[t + 1], cell_opts, opt_bit, n_bits, order, scratch)
        for i in range(cell_start[t], cell_start[t + 1]):
            q = order[i]
            o = cell_opts[q]
            bit = opt_bit[o]
            free = (n_pat - 1) & ~covers[q]
            pat = free
            while True:
                b = (t << keys) | pat
                w = at[b]
                opts[w] = o
                bits[w] = bit
                at[b] = w + 1
                if pat == 0:
                    break
                pat = (pat - 1) & free
    return opts, bits, start, key
