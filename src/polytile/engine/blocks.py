"""The bitboard kernel's tables, built once per puzzle in compiled code: the options and
neighbours as bitboards, the neighbour shifts, the options in blocks by (lowest item,
occupancy of its key items, piece), the options that cut off a region no pieces fill,
and whether every piece is connected (what the dead-end tests of engine/bitboard.py
assume). One compiled call each, not a numpy call per step: a small puzzle's set-up is
mostly the cost of the calls."""
from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from .bitboard import grow, regions_ok
from .bits import ONE, ZERO


@njit(cache=True)
def board_masks(n, opt_ptr, opt_items, neighbours):
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
def neighbour_shifts(neighbours, most):
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
def lists_by_first_item(n, opt_ptr, opt_items, keep):
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
def useful(keep, opt_mask, opt_border, full, nb_mask, shift_d, shift_m, sizes, cap):
    """`keep` without the options that, placed alone on the board, leave a region next to
    them whose size no multiset of the pieces makes (`sizes`): such a region stays cut off
    whatever is placed later, so the option is in no solution."""
    out = keep.copy()
    for o in range(len(keep)):
        if keep[o]:
            out[o] = regions_ok(full & ~opt_mask[o], opt_border[o], nb_mask, shift_d, shift_m,
                                sizes, cap)
    return out


@njit(cache=True)
def connected(masks, nb_mask, shift_d, shift_m):
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
def key_items(n, cell_start, cell_opts, opt_mask, keys):
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
        for j in range(keys):
            best = 0
            for i in range(64):
                if counts[i] > counts[best]:
                    best = i
            key[t, j] = best
            counts[best] = -2
    return key


@njit(cache=True)
def piece_blocks(n, cell_start, cell_opts, opt_mask, opt_bit, n_bits, keys):
    """The options of `cell_opts` (grouped by lowest item, see runner.lists_by_first_item)
    in blocks by (lowest item t, pattern P of occupied key items of t, piece bit): block
    ((t << keys) | P) * n_bits + bit holds the options of that piece whose lowest item is t
    and that cover no key item occupied in P, in their order in `cell_opts`.
    (options, block starts, key items, and for each (t << keys) | P the mask of the piece
    bits whose block is not empty)."""
    key = key_items(n, cell_start, cell_opts, opt_mask, keys)
    n_pat = 1 << keys
    n_blocks = (n << keys) * n_bits
    head = np.zeros(n_blocks + 2, dtype=np.int32)     # head[b + 1]: the end of block b, then
    nonempty = np.zeros(n << keys, dtype=np.uint64)   # its start (filled back to front)
    covers = np.zeros(len(cell_opts), dtype=np.int64)
    for t in range(n):
        for q in range(cell_start[t], cell_start[t + 1]):
            o = cell_opts[q]
            c = 0
            for j in range(keys):
                c |= np.int64((opt_mask[o] >> np.uint64(key[t, j])) & ONE) << j
            covers[q] = c
            for pat in range(n_pat):
                if c & pat == 0:
                    head[((t << keys) | pat) * n_bits + opt_bit[o] + 1] += 1
                    nonempty[(t << keys) | pat] |= ONE << np.uint64(opt_bit[o])
    biggest = 0
    for b in range(1, n_blocks + 1):
        biggest = max(biggest, head[b])
        head[b] += head[b - 1]
    head[n_blocks + 1] = head[n_blocks]
    if biggest > 64:                                  # (fitting tests a block in one word)
        raise ValueError("a block of more than 64 placements")
    opts = np.zeros(head[n_blocks], dtype=np.int32)
    for t in range(n - 1, -1, -1):                    # back to front: the order is kept
        for q in range(cell_start[t + 1] - 1, cell_start[t] - 1, -1):
            o = cell_opts[q]
            for pat in range(n_pat - 1, -1, -1):
                if covers[q] & pat == 0:
                    b = ((t << keys) | pat) * n_bits + opt_bit[o]
                    head[b + 1] -= 1
                    opts[head[b + 1]] = o
    start = head[1:]
    return opts, start, key, nonempty
