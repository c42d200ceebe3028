"""Bitboard search for covers of at most 64 items (every corpus board, the Soma cube, the
Bedlam cube) and at most 64 pieces.

Layout: item i is bit i of a uint64; an option is the mask of its items. The search always
fills the lowest empty item t with an option whose lowest item it is (any option covering
it and a lower item would overlap an item already covered). The options are in blocks by
(t, the occupancy P of t's key items) (engine/bitboard/tables.py): block (t << keys) | P
holds the masks (`tmask`), ids (`topt`) and piece bits (`tbit`) of every piece's options
there, from `tstart[block]`, by piece bit. A node tests its block 64 placements at a time
(`chunk_fit`: misses the items covered and its piece has a copy left, one word of bits,
one loop that numba vectorises) and walks the set bits: one loop per node, whatever the
number of pieces left. The node's own values stay in locals; the stack arrays are
written only to go deeper or to return. Indices are unsigned: numba tests a signed index
for being negative at every use, and those tests kept the block loop from vectorising.
Pieces are counters (`cnt`, by bit).

After each placement, cheap tests first: with connected pieces and no monomino, an empty
item with no empty neighbour is a dead end (`iso`: the whole board at once with a few
shifts, or around the new piece). Then, when the driver asks for it (`flood`), the empty
regions next to the new piece (flood fill over `nb_mask`, up to `cap` cells) must have
sizes that the remaining pieces can make. A count reuses the counts of sub-problems
where every leaf below counts alike (engine/bitboard/memo_table.py).

The search is an explicit stack in arrays (see `run`), so a call runs at most `budget`
nodes and returns; the next call resumes where it stopped. That is how Python keeps time
limits, Ctrl-C, progress and solution buffers.
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from ..bits import ONE, ZERO, njit, popcount
from ..leaf import on_leaf
from ..records import ACCEPTED, NODES, SOLUTIONS, UNIQUE, Rules, Sink, SymmetryTables
from .records import BitboardStack, BitboardTables
from .memo_table import BANNED, FREE, keep, memo_weights, recall, set_bans
from ..status import BUFFER_FULL, CONTINUE, DONE, LIMIT, PAUSED, STOP_LIMIT


@njit(cache=True)
def reachable_sizes(left: np.ndarray, piece_size: np.ndarray) -> np.uint64:
    """Bit s set when some multiset of the remaining pieces has total size s (< 64)."""
    r = np.uint64(1)
    for p in range(len(left)):
        s = np.uint64(piece_size[p])
        for _ in range(left[p]):
            r |= r << s
    return r


@njit(cache=True, inline="always")
def grow(x: np.uint64, nb_mask: np.ndarray, shift_d: np.ndarray, shift_m: np.ndarray) -> np.uint64:
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
    for k in range(len(shift_d)):  # y rotated by d: no bit of y wraps round (i + d is an item)
        y = x & shift_m[k]
        r = np.uint64(shift_d[k]) & np.uint64(63)
        g |= (y << r) | (y >> ((np.uint64(64) - r) & np.uint64(63)))
    return g


@njit(cache=True)
def regions_ok(
    empty: np.uint64,
    seeds: np.uint64,
    nb_mask: np.ndarray,
    shift_d: np.ndarray,
    shift_m: np.ndarray,
    sizes: np.uint64,
    cap: int,
) -> bool:
    """The empty regions that touch `seeds` (cells next to the piece just placed; the
    others were checked before) have sizes whose bit is set in `sizes`. A region found
    to be larger than `cap` is not followed further (skipping a check is always sound),
    nor is a flood that reaches one of those: it is the same region."""
    rest = seeds & empty
    big = ZERO  # cells of regions found larger than `cap`
    while rest:
        region = rest & (~rest + ONE)
        n: int | np.uint64 = 1
        while n <= cap:
            more = (region | grow(region, nb_mask, shift_d, shift_m)) & empty
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


@njit(cache=True, inline="always")
def isolated_near(empty: np.uint64, seeds: np.uint64, nb_mask: np.ndarray) -> bool:
    """Some item of `seeds` (the items next to the piece just placed) is empty with no
    empty neighbour: the check without shift tables."""
    rest = seeds & empty
    while rest:
        if nb_mask[trailing_zeros(rest)] & empty == ZERO:
            return True
        rest &= rest - ONE
    return False


@njit(cache=True)
def start_prefix(
    row: np.ndarray,
    opt_mask: np.ndarray,
    opt_piece: np.ndarray,
    piece_count: np.ndarray,
    left: np.ndarray,
    chosen: np.ndarray,
    cov: np.ndarray,
) -> int:
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


@njit(cache=True, inline="always")
def pieces_left(left: np.ndarray, bit_piece: np.ndarray, cnt: np.ndarray) -> np.uint64:
    """The bits k whose piece bit_piece[k] has a copy left; cnt[k]: how many."""
    a = ZERO
    for k in range(len(bit_piece)):
        cnt[k] = left[bit_piece[k]]
        if cnt[k] > 0:
            a |= ONE << np.uint64(k)
    return a


@njit(cache=True, inline="always")
def leaf(
    chosen: np.ndarray,
    floor: int,
    depth: int,
    pos: np.ndarray,
    topt: np.ndarray,
    left: np.ndarray,
    rules: Rules,
    sym: SymmetryTables,
    sink: Sink,
) -> int:
    """on_leaf for the placements at depths floor.. (the option before pos[d] of each),
    with `left` counted from them."""
    opt_piece = rules.opt_piece
    left[:] = rules.piece_count
    for i in range(depth):
        if i >= floor:
            chosen[i] = topt[pos[i] - 1]
        left[opt_piece[chosen[i]]] -= 1
    return on_leaf(chosen, depth, left, rules, sym, sink)


@njit(cache=True, inline="always")
def first_block(covered: np.uint64, empty: np.uint64, key: np.ndarray, keys: int) -> np.uint64:
    """(t << keys) | P for the lowest empty item t and the occupancy P of its key items
    (see tables.merged_blocks). Unsigned, as the kernel's indices are (numba tests a
    signed index for being negative at every use)."""
    t = np.uint64(trailing_zeros(empty))
    pattern = ZERO
    for j in range(keys):
        pattern |= ((covered >> np.uint64(key[t, np.uint64(j)])) & ONE) << np.uint64(j)
    return (t << np.uint64(keys)) | pattern


@njit(cache=True, inline="always")
def chunk_fit(
    tmask: np.ndarray, tbit: np.ndarray, start: np.uint64, stop: np.uint64, covered: np.uint64, avail: np.uint64
) -> np.uint64:
    """Bit i set when the placement start + i (< stop, at most 64 of them) misses `covered`
    and its piece has a copy left (bit tbit[start + i] of `avail`): 64 placements of every
    piece tested in one loop without a branch (numba vectorises it: unsigned indices)."""
    f = ZERO
    for i in range(min(stop - start, np.uint64(64))):
        j = start + np.uint64(i)
        ok = (tmask[j] & covered == ZERO) & ((avail >> np.uint64(tbit[j])) & ONE != ZERO)
        f |= np.uint64(ok) << np.uint64(i)
    return f


@njit(cache=True, inline="always")
def enter(
    d: np.uint64, now: np.uint64, a: np.uint64, tables: BitboardTables, work: BitboardStack
) -> tuple[np.uint64, np.uint64, np.uint64]:
    """A node at depth d covering `now` with the pieces `a` left: its stack entry (cov,
    avail, stop), and (the fit of its first chunk, the chunk's start, its block's end)."""
    tstart = tables.tstart
    tp = first_block(now, tables.full & ~now, tables.key, tables.keys)
    c, e = np.uint64(tstart[tp]), np.uint64(tstart[tp + ONE])
    work.cov[d] = now
    work.avail[d] = a
    work.stop[d] = e
    return chunk_fit(tables.tmask, tables.tbit, c, e, now, a), c, e


@njit(cache=True, nogil=True)  # threads of one process can search side by side
def run(
    tables: BitboardTables,
    rules: Rules,
    sym: SymmetryTables,
    work: BitboardStack,
    prefixes: np.ndarray,
    budget: int,
) -> int:
    """Run the search for at most `budget` nodes. See the module docstring.

    tables: bitboard.records.BitboardTables (read only); rules, sym: records.Rules and
    records.SymmetryTables; work: bitboard.records.BitboardStack, the stack below with the
    sink, the memo table and the marks of the second fixed piece's placements (set_bans).

    Each row of `prefixes` (-1 padded) is a fixed start: its options are placed, and the
    search below it ends when it backtracks to them (the floor); then the next row.
    work.place[0] keeps where the search stands between calls (bitboard.records.PLACE).
    At depth d: cov[d] the items covered, avail[d] the pieces (bits) with a copy left,
    chunk[d] the start of the chunk of the block being tried (at most 64 placements),
    stop[d] the end of the block, fit[d] the chunk's placements that fit and are not tried
    yet (bits), pos[d] - 1 the place of the option placed. The node being searched keeps
    these in locals (here, a, c, e, f) and writes them to the stack only to go deeper or
    to return. cnt[k]: copies left of piece bit k. chosen and left are filled at the
    leaves only.
    """
    tmask, topt, tbit, bit_piece = tables.tmask, tables.topt, tables.tbit, tables.bit_piece
    opt_mask, opt_border, full = tables.opt_mask, tables.opt_border, tables.full
    nb_mask, shift_d, shift_m = tables.nb_mask, tables.shift_d, tables.shift_m
    iso, flood, cap, sizes = tables.iso, tables.flood, tables.cap, tables.sizes
    memo, radix, ybit = tables.memo, tables.radix, tables.ybit
    min_empty = np.uint64(tables.min_empty)  # unsigned, as popcount: no compare through a double
    opt_piece, piece_count = rules.opt_piece, rules.piece_count
    cov, avail, pos, chunk, stop, fit, cnt = work.cov, work.avail, work.pos, work.chunk, work.stop, work.fit, work.cnt
    chosen, left, sink, second = work.chosen, work.left, work.sink, work.second
    place = work.place[0]
    table = work.memo
    rows, code = table.rows, table.code
    entry, weight, memo_at = table.entry, table.weight, table.memo_at
    stats = sink.stats
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
            memo_at[floor] = memo and memo_weights(chosen, floor, rules, sym, weight)
            place.memo_second = memo and weight[1] == 1 and sym.piece2 >= 0  # FREE second piece
            a = pieces_left(left, bit_piece, cnt)
            code[floor] = 0
            for j in range(len(bit_piece)):
                code[floor] += cnt[j] * radix[j]
            fit[floor], chunk[floor], _ = enter(np.uint64(floor), cov[floor], a, tables, work)
        bottom = np.uint64(place.floor)  # the floor; unsigned indices: see first_block
        d = np.uint64(place.depth)
        memo_second = place.memo_second != 0
        here, a, f = cov[d], avail[d], fit[d]
        c, e = np.uint64(chunk[d]), np.uint64(stop[d])
        while True:  # the search below the prefix
            if spent >= budget:
                fit[d], chunk[d] = f, c
                place.depth = d
                stats[NODES] += spent
                return PAUSED
            if f == ZERO:  # the next chunk with a placement that fits
                while f == ZERO and c + np.uint64(64) < e:
                    c += np.uint64(64)
                    f = chunk_fit(tmask, tbit, c, e, here, a)
                if f == ZERO:
                    if d == bottom:
                        place.started = 0
                        break
                    if memo_at[d] and entry[d] >= 0:  # the count below here, code[d] is known
                        keep(rows, here, code[d], stats[ACCEPTED] - entry[d])
                    d -= ONE
                    here, a, f = cov[d], avail[d], fit[d]
                    c, e = np.uint64(chunk[d]), np.uint64(stop[d])
                    cnt[tbit[np.uint64(pos[d]) - ONE]] += 1
                    continue
            p = c + np.uint64(trailing_zeros(f))
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
            if flood:
                if not tables.uniform:
                    leaf_left = left
                    for j in range(len(bit_piece)):
                        leaf_left[bit_piece[j]] = cnt[j]
                    sizes = reachable_sizes(leaf_left, tables.piece_size)
                if not regions_ok(empty, opt_border[np.uint64(topt[p])], nb_mask, shift_d, shift_m, sizes, cap):
                    cnt[k] += 1
                    continue
            memo_on = False
            if memo:
                child = code[d] - radix[k]
                memo_on = memo_at[d] or (memo_second and k == ybit and second[np.uint64(topt[p])] == FREE)
            if memo_on:
                mark = -1
                if popcount(empty) >= min_empty:
                    v = recall(rows, now, child)
                    if v >= 0:  # counted before: add its leaves
                        stats[ACCEPTED] += v
                        stats[SOLUTIONS] += v * weight[0]
                        stats[UNIQUE] += v * weight[1]
                        cnt[k] += 1
                        continue
                    mark = stats[ACCEPTED]
                entry[d + ONE] = mark
            pos[d], fit[d], chunk[d] = p + ONE, f, c
            if cnt[k] == 0:
                a &= ~(ONE << np.uint64(k))
            d += ONE
            if memo:
                memo_at[d] = memo_on
                code[d] = child
            here = now
            f, c, e = enter(d, now, a, tables, work)
