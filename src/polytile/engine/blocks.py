"""The bitboard kernel's tables, built once per puzzle in compiled code: the options in
blocks by (lowest item, occupancy of its key items, piece), the options that cut off a
region no pieces fill, and whether every piece is connected (what the dead-end tests of
engine/bitboard.py assume)."""
from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from .bitboard import grow, regions_ok
from .bits import ONE


@njit(cache=True)
def placements_ok(opts, opt_mask, opt_border, full, nb_mask, shift_d, shift_m, sizes, cap):
    """For each option of `opts`: placed alone on the board, it leaves no region next to it
    whose size no multiset of the pieces makes (such a region stays cut off whatever is
    placed later, so the option is in no solution)."""
    ok = np.ones(len(opts), dtype=np.bool_)
    for k in range(len(opts)):
        o = opts[k]
        ok[k] = regions_ok(full & ~opt_mask[o], opt_border[o], nb_mask, shift_d, shift_m, sizes, cap)
    return ok


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
