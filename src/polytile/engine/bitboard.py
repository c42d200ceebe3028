"""Bitboard search for covers of at most 64 items (every corpus board, the Soma cube, the
Bedlam cube) and at most 64 pieces.

Layout: item i is bit i of a uint64; an option is the mask of its items. The search always
fills the lowest empty item with an option whose lowest item it is (any option covering
it and a lower item would overlap an item already covered). The options are in blocks by
(lowest item, piece): block `item * n_bits + k` holds the masks (`tmask`) and ids (`topt`)
of piece `bit_piece[k]`'s options, from `tstart[block]`. Each node walks the pieces that
have a copy left as the set bits of one word (`avail`), so a used-up piece costs nothing,
and tests each option of the piece's block with one AND. Pieces are counters (`left`).

After each placement, cheap tests first: with no monomino among the pieces, an empty
item with no empty neighbour is a dead end (`iso`: the whole board at once with a few
shifts, or around the new piece). Then, when the driver asks for it (`flood`), the empty
regions next to the new piece (flood fill over `nb_mask`, up to `cap` cells) must have
sizes that the remaining pieces can make.

The search is an explicit stack in arrays (`cov`, `avail`, `rem`, `pos`, `end`, `block`,
`chosen`, `state`), so a call runs at most `budget` nodes and returns; the next call
resumes where it stopped. That is how Python keeps time limits, Ctrl-C, progress and
solution buffers.
"""
from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from .leaf import breaking_stabiliser, on_leaf
from .status import BUFFER_FULL, CONTINUE, DONE, LIMIT, PAUSED, STOP_LIMIT

ONE = np.uint64(1)
ZERO = np.uint64(0)
BANNED, FREE = 1, 2     # marks of the second fixed piece's placements (set_bans)


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


@njit(cache=True, inline="always")
def isolated_near(empty, seeds, nb_mask):
    """Some item of `seeds` (the items next to the piece just placed) is empty with no
    empty neighbour: the check without shift tables."""
    rest = seeds & empty
    while rest:
        if nb_mask[trailing_zeros(rest)] & empty == ZERO:
            return True
        rest &= rest - ONE
    return False


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


@njit(cache=True, inline="always")
def pieces_left(left, bit_piece, cnt):
    """The bits k whose piece bit_piece[k] has a copy left; cnt[k]: how many."""
    a = ZERO
    for k in range(len(bit_piece)):
        cnt[k] = left[bit_piece[k]]
        if cnt[k] > 0:
            a |= ONE << np.uint64(k)
    return a


@njit(cache=True, inline="always")
def leaf(chosen, floor, depth, pos, topt, left, rules, sym, sink):
    """on_leaf for the placements at depths floor.. (the option before pos[d] of each),
    with `left` counted from them."""
    opt_piece, piece_count = rules[0], rules[1]
    left[:] = piece_count
    for i in range(depth):
        if i >= floor:
            chosen[i] = topt[pos[i] - 1]
        left[opt_piece[chosen[i]]] -= 1
    return on_leaf(chosen, depth, left, rules, sym, sink)


@njit(cache=True, inline="always")
def first_block(covered, empty, key, keys):
    """(t << keys) | P for the lowest empty item t and the occupancy P of its key items
    (see bitboard_driver.piece_blocks)."""
    t = trailing_zeros(empty)
    pattern = 0
    for j in range(keys):
        pattern |= np.int64((covered >> np.uint64(key[t, j])) & ONE) << j
    return (t << keys) | pattern


@njit(cache=True, inline="always")
def slot(covered, code, size):
    """The memo table's slot for (covered items, code of the copies left)."""
    h = covered * np.uint64(0x9E3779B97F4A7C15) ^ np.uint64(code) * np.uint64(0xC2B2AE3D27D4EB4F)
    return np.int64((h >> np.uint64(29)) & np.uint64(size - 1))


@njit(cache=True)
def memo_weights(chosen, depth, rules, sym, weight):
    """Whether the leaves below the prefix chosen[:depth] all count alike, so that counts
    of sub-problems can be reused; weight: (solutions, classes) each leaf counts for.
    Without symmetry (mode 0), 1 and 0. Under breaking (mode 2), when the fixed pieces'
    placements have no common symmetry in H but the identity and H is the whole group G,
    every leaf is canonical, the least of its class, and stands for |H| solutions: |H| and
    1 (see leaf.on_leaf); the weights are set whenever H is G (they hold below a placement
    of the second fixed piece that makes the fixed pieces' symmetries the identity alone)."""
    opt_piece = rules[0]
    sym_mode, sym_piece, label_img, h_mask, opt_stab, sym_piece2 = (sym[0], sym[1], sym[3], sym[5],
                                                                     sym[6], sym[8])
    if sym_mode == 0:
        weight[0] = 1
        weight[1] = 0
        return True
    if sym_mode != 2 or popcount(h_mask) != label_img.shape[0]:
        return False
    weight[0] = np.int64(popcount(h_mask))
    weight[1] = 1
    fixed = False
    for i in range(depth):
        fixed |= opt_piece[chosen[i]] == sym_piece
    if not fixed or popcount(breaking_stabiliser(chosen, depth, opt_piece, sym_piece, sym_piece2,
                                                 opt_stab, h_mask)) != 1:
        return False              # not the identity alone: leaves need their canonical check
    return True


@njit(cache=True)
def set_bans(chosen, depth, opt_piece, sym, second, state):
    """Mark the second fixed piece's placements under the first's placement among
    chosen[:depth] (state[5]: 1 + the option they are marked for): BANNED (leaf.banned_pair)
    or FREE (no symmetry of the first's placement fixes it: every leaf below counts alike).
    False when chosen[:depth] holds a banned placement already."""
    sym_piece, h_mask, opt_stab, sym_piece2, ban_ptr, ban_opts = (sym[1], sym[5], sym[6], sym[8],
                                                                  sym[9], sym[10])
    if sym_piece2 < 0:
        return True
    first = -1
    for i in range(depth):
        if opt_piece[chosen[i]] == sym_piece:
            first = chosen[i]
    if state[5] - 1 != first:
        for o in range(len(second)):
            second[o] = 0
            if first >= 0 and opt_piece[o] == sym_piece2:
                if popcount(h_mask & opt_stab[first] & opt_stab[o]) == 1:
                    second[o] = FREE
        if first >= 0:
            for j in range(ban_ptr[first], ban_ptr[first + 1]):
                second[ban_opts[j]] = BANNED
        state[5] = first + 1
    for i in range(depth):
        if second[chosen[i]] == BANNED:
            return False
    return True


@njit(cache=True, inline="always")
def fitting(tmask, start, stop, covered):
    """Bit i set when the placement start + i (< stop, at most 64 of them) misses `covered`:
    a block tested without a branch per placement."""
    f = ZERO
    for i in range(stop - start):
        f |= np.uint64(tmask[start + i] & covered == ZERO) << np.uint64(i)
    return f


@njit(cache=True, nogil=True)   # threads of one process can search side by side
def run(tables, rules, sym, work, prefixes, budget):
    """Run the search for at most `budget` nodes. See the module docstring.

    tables: (tstart, tmask, topt, bit_piece, opt_mask, opt_border, piece_size, full,
    nb_mask, shift_d, shift_m, iso, flood, cap, uniform, sizes, key, keys, nonempty, memo,
    radix, min_empty, ybit), read only (bitboard_driver); rules, sym: see runner.Runner;
    work: (state, cov, avail, rem, pos, end, fit, block, bit, cnt, chosen, left, sink,
    table, second): the stack below, the memo table (bitboard_driver._memo_tables) and the
    marks of the second fixed piece's placements (set_bans).

    Each row of `prefixes` (-1 padded) is a fixed start: its options are placed, and the
    search below it ends when it backtracks to them (the floor); then the next row.
    state: [depth, started, floor, next prefix]. At depth d: cov[d] the items covered,
    avail[d] the pieces (bits) with a copy left, rem[d] those not yet tried at this node,
    block[d] the first block of the item to fill, bit[d] the piece being tried, end[d] the
    start of its block and fit[d] the placements of the block that fit and are not tried
    yet (bits), pos[d] - 1 the place of the option placed. cnt[k]: copies left of piece
    bit k. chosen and left are filled at the leaves only.
    """
    (tstart, tmask, topt, bit_piece, opt_mask, opt_border, piece_size, full, nb_mask,
     shift_d, shift_m, iso, flood, cap, uniform, sizes, key, keys, nonempty, memo, radix,
     min_empty, ybit) = tables
    opt_piece, piece_count = rules[0], rules[1]
    state, cov, avail, rem, pos, end, fit, block, bit, cnt, chosen, left, sink, table, second = work
    m_cov, m_code, m_val, code, entry, weight, memo_at = table
    stats = sink[0]
    spent = 0
    while True:
        if state[1] == 0:                        # begin the next prefix
            if state[3] >= prefixes.shape[0]:
                stats[0] += spent
                return DONE
            floor = start_prefix(prefixes[state[3]], opt_mask, opt_piece, piece_count, left,
                                 chosen, cov)
            state[3] += 1
            if floor < 0 or not set_bans(chosen, floor, opt_piece, sym, second, state):
                continue
            empty = full & ~cov[floor]
            if empty == ZERO:                    # the prefix alone covers the board
                act = on_leaf(chosen, floor, left, rules, sym, sink)
                if act != CONTINUE:
                    stats[0] += spent
                    return LIMIT if act == STOP_LIMIT else BUFFER_FULL
                continue
            state[0] = floor
            state[1] = 1
            state[2] = floor
            avail[floor] = pieces_left(left, bit_piece, cnt)
            memo_at[floor] = memo and memo_weights(chosen, floor, rules, sym, weight)
            state[4] = memo and weight[1] == 1 and sym[8] >= 0   # memo below a FREE second piece
            code[floor] = 0
            for j in range(len(bit_piece)):
                code[floor] += cnt[j] * radix[j]
            tp = first_block(cov[floor], empty, key, keys)
            block[floor] = tp * len(bit_piece)
            rem[floor] = avail[floor] & nonempty[tp]
            fit[floor] = 0
        floor = state[2]
        d = state[0]
        memo_second = state[4] != 0
        while True:                              # the search below the prefix
            if spent >= budget:
                state[0] = d
                stats[0] += spent
                return PAUSED
            here = cov[d]
            f = fit[d]
            while f == ZERO:                     # the next piece with a placement that fits
                r = rem[d]
                if r == ZERO:
                    break
                k = np.int64(trailing_zeros(r))
                rem[d] = r & (r - ONE)
                bit[d] = k
                b = tstart[block[d] + k]
                end[d] = b
                f = fitting(tmask, b, tstart[block[d] + k + 1], here)
            if f == ZERO:
                if d == floor:
                    state[1] = 0
                    break
                if memo_at[d] and entry[d] >= 0:    # the count below cov[d], code[d] is known
                    h = slot(cov[d], code[d], len(m_val))
                    m_cov[h] = cov[d]
                    m_code[h] = code[d]
                    m_val[h] = stats[4] - entry[d]
                d -= 1
                cnt[bit[d]] += 1
                continue
            fit[d] = f & (f - ONE)
            p = end[d] + trailing_zeros(f)
            pos[d] = p + 1
            if bit[d] == ybit and second[topt[p]] == BANNED:
                continue
            spent += 1
            now = here | tmask[p]
            if now == full:
                act = leaf(chosen, floor, d + 1, pos, topt, left, rules, sym, sink)
                if act != CONTINUE:
                    state[0] = d
                    stats[0] += spent
                    return LIMIT if act == STOP_LIMIT else BUFFER_FULL
                continue
            empty = full & ~now
            if iso:                              # an empty item with no empty neighbour
                if len(shift_d) > 0:
                    if empty & ~grow(empty, nb_mask, shift_d, shift_m):
                        continue
                elif isolated_near(empty, opt_border[topt[p]], nb_mask):
                    continue
            k = bit[d]
            cnt[k] -= 1
            if flood:
                if not uniform:
                    leaf_left = left
                    for j in range(len(bit_piece)):
                        leaf_left[bit_piece[j]] = cnt[j]
                    sizes = reachable_sizes(leaf_left, piece_size)
                if not regions_ok(empty, opt_border[topt[p]], nb_mask, shift_d, shift_m, sizes,
                                  cap):
                    cnt[k] += 1
                    continue
            memo_on = False
            if memo:
                child = code[d] - radix[k]
                memo_on = memo_at[d] or (memo_second and k == ybit and second[topt[p]] == FREE)
            if memo_on:
                mark = -1
                if popcount(empty) >= min_empty:
                    h = slot(now, child, len(m_val))
                    if m_val[h] >= 0 and m_cov[h] == now and m_code[h] == child:
                        v = m_val[h]             # counted before: add its leaves
                        stats[4] += v
                        stats[1] += v * weight[0]
                        stats[2] += v * weight[1]
                        cnt[k] += 1
                        continue
                    mark = stats[4]
                entry[d + 1] = mark
            a = avail[d]
            if cnt[k] == 0:
                a &= ~(ONE << np.uint64(k))
            d += 1
            if memo:
                memo_at[d] = memo_on
                code[d] = child
            cov[d] = now
            avail[d] = a
            tp = first_block(now, empty, key, keys)
            block[d] = tp * len(bit_piece)
            rem[d] = a & nonempty[tp]
            fit[d] = 0
