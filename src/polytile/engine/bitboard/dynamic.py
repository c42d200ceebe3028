"""The bitboard search with a dynamic choice of the item to fill near the end.

bitboard/kernel.py always fills the lowest empty item. On the 4x4x4 Bedlam cube most of
its nodes lie three to four pieces from the end, and most of those are dead: the lowest
empty item still has a fitting placement, but some other empty item has none, which the
search finds only pieces later (docs/parts/bedlam8.md). Here a node with at most
`cells` empty items (DynamicTables.cells) keeps the list of the placements that still
fit (its live list: the parent's, less those that overlap the new piece or whose piece
has no copy left; at the first such node, the blocks of every empty item), and counts on
the way, with four bit-sliced counters, which empty items are covered by none, one, two,
three, four or more of them. An empty item that none covers: the node is a dead end at
once. Else it fills an item that one covers (forced), else one that two cover, then three,
else the lowest empty item, trying the live placements that cover it (as dancing links
does, without its links). Counting to four took Bedlam from 110.3M nodes (to two) to
87.1M and 20.7 s to 19.4 s; to six, 63.9M nodes but 29 s (docs/parts/bedlam9.md). Above `cells` empty items, a node fills the
lowest empty item from the blocks, as kernel.run does.

The stack, the leaves (pos[d] - 1 is the placement's place in the blocks), the pauses,
the prefixes, the symmetry bans and the dead-end tests are kernel.run's. The memo is not
used (the driver turns it off).
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from ..bits import ONE, ZERO, njit, popcount
from ..leaf import on_leaf
from ..records import NODES, Rules, SymmetryTables
from .records import BitboardStack, BitboardTables
from .kernel import enter as lowest
from .kernel import chunk_fit, first_block, grow, isolated_near, leaf, pieces_left, start_prefix
from .memo_table import BANNED, set_bans
from ..status import BUFFER_FULL, CONTINUE, DONE, LIMIT, PAUSED, STOP_LIMIT


@njit(cache=True, inline="always")
def first_bits(start: np.uint64, stop: np.uint64) -> np.uint64:
    """Bit i set for each candidate start + i (< stop, at most 64): every candidate fits."""
    n = min(stop - start, np.uint64(64))
    return ZERO - ONE if n == np.uint64(64) else (ONE << n) - ONE


@njit(cache=True, inline="always")
def pick(empty: np.uint64, once: np.uint64, twice: np.uint64, thrice: np.uint64, four: np.uint64) -> np.uint64:
    """The item to fill (one bit), from which empty items one, two, three, four or more
    live placements cover: none when some empty item has none (a dead end)."""
    if empty & ~once:
        return ZERO
    for few in (once & ~twice, twice & ~thrice, thrice & ~four, empty):
        if few:
            return few & (~few + ONE)
    return ZERO


@njit(cache=True)  # not inlined: kept out of the lowest-item loop
def refilter(
    sets: tuple[np.ndarray, np.ndarray],
    seg: np.ndarray,
    was: np.ndarray,
    into: np.ndarray,
    now: np.uint64,
    a: np.uint64,
    full: np.uint64,
) -> np.uint64:
    """The live placements of the pieces `a` left (segment k: lid/lmask[seg[k]..], the
    first was[k] of them live in the parent) that miss `now`: the dead ones swapped to
    their segment's end (a sparse set: stores for the dead only; the parent's set is the
    same, in another order), into[k] of them left; pick's item to fill."""
    lid, lmask = sets
    once, twice, thrice, four = ZERO, ZERO, ZERO, ZERO
    rest = a
    while rest:
        k = np.uint64(trailing_zeros(rest))
        rest &= rest - ONE
        i = np.uint64(seg[k])
        end = i + np.uint64(was[k])
        while i < end:
            m = lmask[i]
            if m & now:
                end -= ONE
                lmask[i] = lmask[end]
                lmask[end] = m
                j = lid[i]
                lid[i] = lid[end]
                lid[end] = j
            else:
                four |= thrice & m
                thrice |= twice & m
                twice |= once & m
                once |= m
                i += ONE
        into[k] = end - np.uint64(seg[k])
    return pick(full & ~now, once, twice, thrice, four)


@njit(cache=True)  # not inlined: kept out of the lowest-item loop
def first_set(
    blocks: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, np.uint64],
    sets: tuple[np.ndarray, np.ndarray],
    seg: np.ndarray,
    into: np.ndarray,
    now: np.uint64,
    a: np.uint64,
) -> np.uint64:
    """The live sets of a node whose parent had none: the placements of the blocks of
    every empty item (each placement is in its lowest item's) that fit, each in its
    piece's segment, into[k] of piece bit k; pick's item to fill."""
    tmask, tbit, tstart, key, keys, full = blocks
    lid, lmask = sets
    empty = full & ~now
    once, twice, thrice, four = ZERO, ZERO, ZERO, ZERO
    into[:] = 0
    rest = empty
    while rest:
        tp = first_block(now, rest, key, keys)
        rest &= rest - ONE
        for j in range(np.uint64(tstart[tp]), np.uint64(tstart[tp + ONE])):
            m, k = tmask[j], np.uint64(tbit[j])
            if m & now == ZERO and (a >> k) & ONE:
                at = np.uint64(seg[k]) + np.uint64(into[k])
                lid[at], lmask[at] = j, m
                into[k] += 1
                four |= thrice & m
                thrice |= twice & m
                twice |= once & m
                once |= m
    return pick(empty, once, twice, thrice, four)


@njit(cache=True)  # not inlined: kept out of the lowest-item loop
def gather(
    sets: tuple[np.ndarray, np.ndarray], seg: np.ndarray, live: np.ndarray, a: np.uint64, cell: np.uint64,
    cand: np.ndarray, to: np.uint64,
) -> np.uint64:
    """Copy the live placements (their places in the blocks) that cover `cell` to cand[to..]
    (the children reorder the live sets, so a node tries its own copy); their end."""
    lid, lmask = sets
    n = to
    rest = a
    while rest:
        k = np.uint64(trailing_zeros(rest))
        rest &= rest - ONE
        s = np.uint64(seg[k])
        for i in range(s, s + np.uint64(live[k])):
            if lmask[i] & cell:
                cand[n] = lid[i]
                n += ONE
    return n


@njit(cache=True)  # not inlined, arrays only: records passed in the loop cost ~8x a node
def enter_live(
    d: np.uint64,
    now: np.uint64,
    a: np.uint64,
    blocks: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, np.uint64],
    sets: tuple[np.ndarray, np.ndarray],
    seg: np.ndarray,
    nlive: np.ndarray,
    cand: np.ndarray,
    cells: np.ndarray,
    up: np.uint64,
) -> tuple[np.uint64, np.uint64, np.uint64]:
    """A node at depth d covering `now` with the pieces `a` left and few items empty, below
    a node whose candidates end at `up` (0: a node without live sets): its live sets
    (nlive[d]), the item it fills (cells[d]), and (the fit of its first chunk of candidates,
    their start, their end). A dead end has no candidate."""
    if up:
        cell = refilter(sets, seg, nlive[d - ONE], nlive[d], now, a, blocks[5])
    else:
        cell = first_set(blocks, sets, seg, nlive[d], now, a)
    cells[d] = cell
    e = gather(sets, seg, nlive[d], a, cell, cand, up) if cell else up
    return first_bits(up, e), up, e


@njit(cache=True, nogil=True)  # threads of one process can search side by side
def run(
    base: BitboardTables,
    rules: Rules,
    sym: SymmetryTables,
    stack: BitboardStack,
    lid: np.ndarray,
    lmask: np.ndarray,
    seg: np.ndarray,
    nlive: np.ndarray,
    cand: np.ndarray,
    cellat: np.ndarray,
    cells: int,
    prefixes: np.ndarray,
    budget: int,
) -> int:
    """Run the search for at most `budget` nodes: kernel.run's loop (its docstring says
    what the stack holds) without the memo and the flood, each node's range chosen by
    `enter` above: the chunk (c, e, f) of a node with a live list (`dyn`) indexes the list."""
    tmask, topt, tbit, bit_piece = base.tmask, base.topt, base.tbit, base.bit_piece
    opt_mask, opt_border, full = base.opt_mask, base.opt_border, base.full
    nb_mask, shift_d, shift_m = base.nb_mask, base.shift_d, base.shift_m
    iso, ybit, most = base.iso, base.ybit, np.uint64(cells)
    opt_piece, piece_count = rules.opt_piece, rules.piece_count
    cov, avail, pos, chunk, stop, fit, cnt = (
        stack.cov,
        stack.avail,
        stack.pos,
        stack.chunk,
        stack.stop,
        stack.fit,
        stack.cnt,
    )
    chosen, left, sink, second = stack.chosen, stack.left, stack.sink, stack.second
    place = stack.place[0]
    stats = sink.stats
    blocks = (tmask, tbit, base.tstart, base.key, base.keys, full)
    sets = (lid, lmask)
    spent = 0
    while True:
        if place.started == 0:  # begin the next prefix
            if place.next_prefix >= prefixes.shape[0]:
                stats[NODES] += spent
                return DONE
            floor = start_prefix(prefixes[place.next_prefix], opt_mask, opt_piece, piece_count, left, chosen, cov)
            place.next_prefix += 1
            if floor < 0 or not set_bans(chosen, floor, opt_piece, sym, second, place):
                continue
            if cov[floor] == full:  # the prefix alone covers the board
                act = on_leaf(chosen, floor, left, rules, sym, sink)
                if act != CONTINUE:
                    stats[NODES] += spent
                    return LIMIT if act == STOP_LIMIT else BUFFER_FULL
                continue
            place.depth = floor
            place.started = 1
            place.floor = floor
            a = pieces_left(left, bit_piece, cnt)
            fit[floor], chunk[floor], stop[floor] = lowest(np.uint64(floor), cov[floor], a, base, stack)
            if popcount(full & ~cov[floor]) <= most:
                fit[floor], chunk[floor], stop[floor] = enter_live(
                    np.uint64(floor), cov[floor], a, blocks, sets, seg, nlive, cand, cellat, ZERO
                )
        bottom = np.uint64(place.floor)  # the floor; unsigned indices: see kernel.first_block
        d = np.uint64(place.depth)
        here, a, f = cov[d], avail[d], fit[d]
        c, e = np.uint64(chunk[d]), np.uint64(stop[d])
        dyn = popcount(full & ~here) <= most
        while True:  # the search below the prefix
            if spent >= budget:
                fit[d], chunk[d] = f, c
                place.depth = d
                stats[NODES] += spent
                return PAUSED
            if f == ZERO:  # the next chunk with a placement that fits
                while f == ZERO and c + np.uint64(64) < e:
                    c += np.uint64(64)
                    f = first_bits(c, e) if dyn else chunk_fit(tmask, tbit, c, e, here, a)
                if f == ZERO:
                    if d == bottom:
                        place.started = 0
                        break
                    d -= ONE
                    here, a, f = cov[d], avail[d], fit[d]
                    c, e = np.uint64(chunk[d]), np.uint64(stop[d])
                    dyn = popcount(full & ~here) <= most
                    cnt[tbit[np.uint64(pos[d]) - ONE]] += 1
                    continue
            p = c + np.uint64(trailing_zeros(f))
            if dyn:
                p = np.uint64(cand[p])
            f &= f - ONE
            k = tbit[p]
            if k == ybit and second[np.uint64(topt[p])] == BANNED:
                continue
            spent += 1
            now = here | tmask[p]
            if now == full:
                pos[d] = p + ONE
                act = leaf(chosen, int(bottom), int(d) + 1, pos, topt, left, rules, sym, sink)
                if act != CONTINUE:
                    fit[d], chunk[d] = f, c
                    place.depth = d
                    stats[NODES] += spent
                    return LIMIT if act == STOP_LIMIT else BUFFER_FULL
                continue
            empty = full & ~now
            if iso:  # an empty item with no empty neighbour
                if len(shift_d) > 0:
                    if empty & ~grow(empty, nb_mask, shift_d, shift_m):
                        continue
                elif isolated_near(empty, opt_border[np.uint64(topt[p])], nb_mask):
                    continue
            cnt[k] -= 1
            pos[d], fit[d], chunk[d] = p + ONE, f, c
            if cnt[k] == 0:
                a &= ~(ONE << np.uint64(k))
            up = e if dyn else ZERO
            d += ONE
            here = now
            dyn = popcount(empty) <= most
            if dyn:
                cov[d], avail[d] = now, a
                f, c, e = enter_live(d, now, a, blocks, sets, seg, nlive, cand, cellat, up)
                stop[d] = e
            else:
                f, c, e = lowest(d, now, a, base, stack)
