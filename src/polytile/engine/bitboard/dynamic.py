"""The bitboard search that fills the empty item the fewest placements cover.

bitboard/kernel.py always fills the lowest empty item. On the 4x4x4 Bedlam cube most of
its nodes lie three to four pieces from the end, and most of those are dead: the lowest
empty item still has a fitting placement, but some other empty item has none, which the
search finds only pieces later (docs/parts/bedlam8.md). Here each node (with more than
`fewest` and at most `cells` empty items: by default every node) keeps its live
placements, those that still fit: the parent's, less those that overlap the new piece,
grouped by piece (a segment per piece bit, so a piece with no copy left is skipped
whole), copied below the parent's (lid, lmask: the place in the blocks and the mask; the
parent's segments stay as they were, so going back up undoes nothing). On the way it
counts, for every empty item at once, how many of them cover it: five words hold the
counts in binary, bit-sliced (`tally`: a ripple carry, 11 word operations a placement),
and a sixth marks counts of 32 or more. An empty item that none covers: the node is a
dead end at once. Else it fills the lowest item with the fewest (one: a forced move),
trying the live placements that cover it, as dancing links does without its links.

Bedlam (docs/parts/bedlam10.md): 32,564,586 nodes instead of the lowest-item kernel's
621,667,503, about 170 ns a node against 25. What it took: counting in binary (counting
one level at a time to four: 87.1M nodes, 139 ns a node; to eight, 52.7M), no tuples of
arrays, row views or calls in the node (numba's atomic reference counts were 38% of the
time), a copy with a store whatever the test says (swapping the dead to the end of an
in-place sparse set branches, and mispredicts: 1.6x a node).

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
def live_fit(lmask: np.ndarray, start: np.uint64, stop: np.uint64, cell: np.uint64) -> np.uint64:
    """Bit i set when the live placement start + i (< stop, at most 64) covers `cell`."""
    f = ZERO
    for i in range(min(stop - start, np.uint64(64))):
        ok = lmask[start + np.uint64(i)] & cell != ZERO
        f |= np.uint64(ok) << np.uint64(i)
    return f


@njit(cache=True, inline="always")
def pick(
    empty: np.uint64, b0: np.uint64, b1: np.uint64, b2: np.uint64, b3: np.uint64, b4: np.uint64, over: np.uint64
) -> np.uint64:
    """The item to fill (one bit): the lowest empty item that the fewest live placements
    cover, from their counts in binary (bit i of each item's count in b<i>, `over`: 32 or
    more); none when some empty item has none (a dead end)."""
    if empty & ~(b0 | b1 | b2 | b3 | b4 | over):
        return ZERO
    for v in range(1, 32):
        few = empty & ~over
        few &= b0 if v & 1 else ~b0
        few &= b1 if v & 2 else ~b1
        few &= b2 if v & 4 else ~b2
        few &= b3 if v & 8 else ~b3
        few &= b4 if v & 16 else ~b4
        if few:
            return few & (~few + ONE)
    return empty & (~empty + ONE)


@njit(cache=True, inline="always")
def tally(
    b0: np.uint64, b1: np.uint64, b2: np.uint64, b3: np.uint64, b4: np.uint64, over: np.uint64, m: np.uint64
) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64, np.uint64, np.uint64]:
    """One placement `m` added to each of its items' counts (binary, bit-sliced: a ripple
    carry of 11 word operations, where counting to eight one level at a time took 16)."""
    c = b0 & m
    b0 ^= m
    d = b1 & c
    b1 ^= c
    c = b2 & d
    b2 ^= d
    d = b3 & c
    b3 ^= c
    c = b4 & d
    b4 ^= d
    return b0, b1, b2, b3, b4, over | c


@njit(cache=True, inline="always")
def refilter(
    lid: np.ndarray,
    lmask: np.ndarray,
    segs: np.ndarray,
    d: np.uint64,
    to: np.uint64,
    now: np.uint64,
    a: np.uint64,
    full: np.uint64,
) -> tuple[np.uint64, np.uint64]:
    """Copy the parent's live placements of the pieces `a` left (its segment of piece bit
    k: lid/lmask[segs[d - 1, k]..segs[d - 1, k + 64]]) that miss `now` to `to`.., piece
    by piece (segs[d, k], segs[d, k + 64]: the new segment), counting their covers;
    (their end, pick's item to fill). A piece with no copy left is skipped whole; each
    copy is a store whatever the test says (a branch here mispredicts: swapping the dead
    in place cost 1.6x a node; counting first and copying only where the node is no dead
    end, as much as copying always)."""
    b0, b1, b2, b3, b4, over = ZERO, ZERO, ZERO, ZERO, ZERO, ZERO
    n = to
    rest = a
    while rest:
        k = np.uint64(trailing_zeros(rest))
        rest &= rest - ONE
        segs[d, k] = n
        for i in range(np.uint64(segs[d - ONE, k]), np.uint64(segs[d - ONE, k + np.uint64(64)])):
            m = lmask[i]
            ok = m & now == ZERO
            lmask[n], lid[n] = m, lid[i]
            n += np.uint64(ok)
            m &= ZERO - np.uint64(ok)
            b0, b1, b2, b3, b4, over = tally(b0, b1, b2, b3, b4, over, m)
        segs[d, k + np.uint64(64)] = n
    return n, pick(full & ~now, b0, b1, b2, b3, b4, over)


@njit(cache=True)  # not inlined: kept out of the lowest-item loop
def first_set(
    blocks: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, np.uint64],
    sets: tuple[np.ndarray, np.ndarray],
    seg: np.ndarray,
    into: np.ndarray,
    to: np.uint64,
    now: np.uint64,
    a: np.uint64,
) -> tuple[np.uint64, np.uint64]:
    """The live placements of a node whose parent had none: those of the blocks of every
    empty item (each placement is in its lowest item's) that fit, from `to`, piece by
    piece (first each at its piece's offset `seg`, then moved together); as refilter."""
    tmask, tbit, tstart, key, keys, full = blocks
    lid, lmask = sets
    empty = full & ~now
    b0, b1, b2, b3, b4, over = ZERO, ZERO, ZERO, ZERO, ZERO, ZERO
    bits = len(seg) - 1
    for k in range(bits):
        into[k + 64] = to + np.uint64(seg[k])
    rest = empty
    while rest:
        tp = first_block(now, rest, key, keys)
        rest &= rest - ONE
        for j in range(np.uint64(tstart[tp]), np.uint64(tstart[tp + ONE])):
            m, bit = tmask[j], np.uint64(tbit[j])
            if m & now == ZERO and (a >> bit) & ONE:
                at = np.uint64(into[bit + np.uint64(64)])
                lid[at], lmask[at] = j, m
                into[bit + np.uint64(64)] = at + ONE
                b0, b1, b2, b3, b4, over = tally(b0, b1, b2, b3, b4, over, m)
    n = to
    for k in range(bits):  # the segments moved together (each only down)
        start = n
        for i in range(to + np.uint64(seg[k]), np.uint64(into[k + 64])):
            lid[n], lmask[n] = lid[i], lmask[i]
            n += ONE
        into[k], into[k + 64] = start, n
    return n, pick(empty, b0, b1, b2, b3, b4, over)


@njit(cache=True, inline="always")
def enter_live(
    d: np.uint64,
    now: np.uint64,
    a: np.uint64,
    full: np.uint64,
    lid: np.ndarray,
    lmask: np.ndarray,
    segs: np.ndarray,
    cells: np.ndarray,
    up: np.uint64,
) -> tuple[np.uint64, np.uint64, np.uint64]:
    """A node at depth d covering `now` with the pieces `a` left and few items empty, below
    a node whose live placements end at `up` (> 0): its live placements from `up`
    (segs[d]: each piece's segment), the item it fills (cells[d]), and (the fit of its
    first chunk, the chunk's start, the placements' end). A dead end has none. Arrays
    only, no tuple and no view: each one held in a new variable costs an atomic
    reference count (numba's), and those were 38% of the time."""
    e, cell = refilter(lid, lmask, segs, d, up, now, a, full)
    cells[d] = cell
    if cell == ZERO:
        e = up
    return live_fit(lmask, up, e, cell), up, e


@njit(cache=True)  # rare: once per prefix, or where a node first has few empty items
def first_live(
    d: np.uint64,
    now: np.uint64,
    a: np.uint64,
    blocks: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, np.uint64],
    sets: tuple[np.ndarray, np.ndarray],
    seg: np.ndarray,
    segs: np.ndarray,
    cells: np.ndarray,
) -> tuple[np.uint64, np.uint64, np.uint64]:
    """enter_live for a node whose parent had no live placements: from the blocks."""
    e, cell = first_set(blocks, sets, seg, segs[d], ZERO, now, a)
    cells[d] = cell
    if cell == ZERO:
        e = ZERO
    return live_fit(sets[1], ZERO, e, cell), ZERO, e


@njit(cache=True, nogil=True)  # threads of one process can search side by side
def run(
    base: BitboardTables,
    rules: Rules,
    sym: SymmetryTables,
    stack: BitboardStack,
    lid: np.ndarray,
    lmask: np.ndarray,
    seg: np.ndarray,
    segs: np.ndarray,
    cellat: np.ndarray,
    cells: int,
    fewest: int,
    prefixes: np.ndarray,
    budget: int,
) -> int:
    """Run the search for at most `budget` nodes: kernel.run's loop (its docstring says
    what the stack holds) without the memo and the flood, each node's range chosen by
    `enter` above: the chunk (c, e, f) of a node with a live list (`dyn`) indexes the list."""
    tmask, topt, tbit, bit_piece = base.tmask, base.topt, base.tbit, base.bit_piece
    opt_mask, opt_border, full = base.opt_mask, base.opt_border, base.full
    nb_mask, shift_d, shift_m = base.nb_mask, base.shift_d, base.shift_m
    iso, ybit, most, least = base.iso, base.ybit, np.uint64(cells), np.uint64(fewest)
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
            if least < popcount(full & ~cov[floor]) <= most:
                fit[floor], chunk[floor], stop[floor] = first_live(
                    np.uint64(floor), cov[floor], a, blocks, sets, seg, segs, cellat
                )
        bottom = np.uint64(place.floor)  # the floor; unsigned indices: see kernel.first_block
        d = np.uint64(place.depth)
        here, a, f = cov[d], avail[d], fit[d]
        c, e = np.uint64(chunk[d]), np.uint64(stop[d])
        dyn = least < popcount(full & ~here) <= most
        while True:  # the search below the prefix
            if spent >= budget:
                fit[d], chunk[d] = f, c
                place.depth = d
                stats[NODES] += spent
                return PAUSED
            if f == ZERO:  # the next chunk with a placement that fits
                while f == ZERO and c + np.uint64(64) < e:
                    c += np.uint64(64)
                    f = live_fit(lmask, c, e, cellat[d]) if dyn else chunk_fit(tmask, tbit, c, e, here, a)
                if f == ZERO:
                    if d == bottom:
                        place.started = 0
                        break
                    d -= ONE
                    here, a, f = cov[d], avail[d], fit[d]
                    c, e = np.uint64(chunk[d]), np.uint64(stop[d])
                    dyn = least < popcount(full & ~here) <= most
                    cnt[tbit[np.uint64(pos[d]) - ONE]] += 1
                    continue
            p = c + np.uint64(trailing_zeros(f))
            if dyn:
                p = np.uint64(lid[p])
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
            dyn = least < popcount(empty) <= most
            if dyn:
                cov[d], avail[d] = now, a
                if up:
                    f, c, e = enter_live(d, now, a, full, lid, lmask, segs, cellat, up)
                else:
                    f, c, e = first_live(d, now, a, blocks, sets, seg, segs, cellat)
                stop[d] = e
            else:
                f, c, e = lowest(d, now, a, base, stack)
