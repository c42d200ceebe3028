"""Bitboard search for covers of at most 64 items (every corpus board, the Soma cube).

Layout: item i is bit i of a uint64; an option is the mask of its items. Options are
grouped by their lowest item (`cell_start`/`cell_opts`), so the search always fills the
lowest empty item with an option whose lowest item it is: any option covering it and a
lower item would overlap an item already covered. Pieces are counters (`left`). Each
item's list is sorted by piece, with the masks and pieces laid out along it
(`list_mask`, `list_piece`) and `list_skip` jumping over the rest of a used-up piece.

After each placement, the empty regions next to the new piece (flood fill over
`nb_mask`, up to `cap` cells) must have sizes that the remaining pieces can make;
otherwise the branch is dead.

The search is an explicit stack in arrays (`pos`, `end`, `chosen`, `cov`, `state`), so
a call runs at most `budget` nodes and returns; the next call resumes where it stopped.
That is how Python keeps time limits, Ctrl-C, progress and solution buffers.
"""
from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from .leaf import on_leaf
from .status import BUFFER_FULL, CONTINUE, DONE, LIMIT, PAUSED, STOP_LIMIT

ONE = np.uint64(1)
ZERO = np.uint64(0)


@njit(cache=True, inline="always")
def popcount(x):
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (x * np.uint64(0x0101010101010101)) >> np.uint64(56)


@njit(cache=True)
def reachable_sizes(left, piece_size):
    """Bit s set when some multiset of the remaining pieces has total size s (< 64)."""
    r = np.uint64(1)
    for p in range(len(left)):
        s = np.uint64(piece_size[p])
        for _ in range(left[p]):
            r |= r << s
    return r


@njit(cache=True, inline="always")
def grow(x, nb_mask, shift_d, shift_m):
    """The cells next to the cells of `x`. With `shift_d` (one entry per distinct
    difference j - i between neighbours i, j, with `shift_m` the cells i that have the
    neighbour i + d) that is a few shifts; without it (too many differences), a lookup
    per cell in `nb_mask`."""
    g = ZERO
    if len(shift_d) == 0:
        while x:
            g |= nb_mask[trailing_zeros(x)]
            x &= x - ONE
        return g
    for k in range(len(shift_d)):
        d = shift_d[k]
        y = x & shift_m[k]
        if d > 0:
            g |= y << np.uint64(d)
        else:
            g |= y >> np.uint64(-d)
    return g


@njit(cache=True)
def regions_ok(empty, seeds, nb_mask, shift_d, shift_m, sizes, cap):
    """The empty regions that touch `seeds` (cells next to the piece just placed; the
    others were checked before) have sizes whose bit is set in `sizes`. A region found
    to be larger than `cap` is not followed further (skipping a check is always sound),
    nor is a flood that reaches one of those: it is the same region."""
    rest = seeds & empty
    big = ZERO                  # cells of regions found larger than `cap`
    while rest:
        region = rest & (~rest + ONE)
        n = 1
        while n <= cap:
            more = (region | grow(region, nb_mask, shift_d, shift_m)) & empty
            if more == region:
                if n < 64 and not (sizes >> np.uint64(n)) & ONE:
                    return False
                break
            if more & big:      # the same region as one already too big to follow
                break
            region = more
            n = popcount(region)
        big |= region
        rest &= ~region
    return True


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
def start_prefix(row, opt_mask, opt_piece, piece_count, left, chosen, cov):
    """Place the options of `row` (-1 padded); return its length, or -1 if they clash."""
    left[:] = piece_count
    covered = ZERO
    k = 0
    for o in row:
        if o < 0:
            break
        if opt_mask[o] & covered or left[opt_piece[o]] == 0:
            return -1
        covered |= opt_mask[o]
        left[opt_piece[o]] -= 1
        chosen[k] = o
        k += 1
    cov[k] = covered
    return k


@njit(cache=True, nogil=True)   # threads of one process can search side by side
def run(tables, rules, sym, work, prefixes, budget):
    """Run the search for at most `budget` nodes. See the module docstring.

    tables: (cell_start, cell_opts, list_mask, list_piece, list_skip, opt_mask, piece_size,
    full, nb_mask, shift_d, shift_m, opt_border, prune, cap, uniform, sizes), read only
    (bitboard_driver); rules, sym: see runner.Runner; work: (state, pos, end, chosen, cov,
    left, sink).

    Each row of `prefixes` (-1 padded) is a fixed start: its options are placed, and the
    search below it ends when it backtracks to them (the floor); then the next row.
    state: [depth, started, floor, next prefix].
    """
    (cell_start, cell_opts, list_mask, list_piece, list_skip, opt_mask, piece_size, full,
     nb_mask, shift_d, shift_m, opt_border, prune, cap, uniform, sizes) = tables
    opt_piece, piece_count = rules[0], rules[1]
    state, pos, end, chosen, cov, left, sink = work
    stats = sink[0]
    floor = state[2]
    d = state[0]
    spent = 0
    while True:
        if state[1] == 0:                        # begin the next prefix
            if state[3] >= prefixes.shape[0]:
                return DONE
            floor = start_prefix(prefixes[state[3]], opt_mask, opt_piece, piece_count, left,
                                 chosen, cov)
            state[3] += 1
            if floor < 0:
                continue
            state[1] = 1
            state[2] = floor
            d = floor
            empty = full & ~cov[d]
            if empty == ZERO:                    # the prefix alone covers the board
                act = on_leaf(chosen, d, left, rules, sym, sink)
                state[1] = 0
                if act != CONTINUE:
                    return LIMIT if act == STOP_LIMIT else BUFFER_FULL
                continue
            c = trailing_zeros(empty)
            pos[d] = cell_start[c]
            end[d] = cell_start[c + 1]
        if spent >= budget:
            state[0] = d
            return PAUSED
        p = pos[d]
        e = end[d]
        here = cov[d]
        found = -1
        while p < e:                             # runs of one piece: check it once a run
            q = list_skip[p]
            if left[list_piece[p]] == 0:
                p = q                            # every placement of a used-up piece
                continue
            while p < q and (list_mask[p] & here) != ZERO:
                p += 1
            if p < q:
                found = cell_opts[p]
                p += 1
                break
        pos[d] = p
        if found < 0:
            if d == floor:
                state[1] = 0
                continue
            d -= 1
            left[opt_piece[chosen[d]]] += 1
            continue
        spent += 1
        stats[0] += 1
        chosen[d] = found
        left[opt_piece[found]] -= 1
        now = here | opt_mask[found]
        if now == full:
            act = on_leaf(chosen, d + 1, left, rules, sym, sink)
            left[opt_piece[found]] += 1
            if act != CONTINUE:
                state[0] = d
                return LIMIT if act == STOP_LIMIT else BUFFER_FULL
            continue
        if prune:
            if not uniform:
                sizes = reachable_sizes(left, piece_size)
            if not regions_ok(full & ~now, opt_border[found], nb_mask, shift_d, shift_m, sizes,
                              cap):
                left[opt_piece[found]] += 1
                continue
        d += 1
        cov[d] = now
        c = trailing_zeros(full & ~now)
        pos[d] = cell_start[c]
        end[d] = cell_start[c + 1]
