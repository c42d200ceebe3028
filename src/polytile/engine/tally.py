"""Every packing of a set of pieces into a frame, tallied by the items it leaves open.

A calendar puzzle asks the same question for hundreds of dates: which packings of all the
pieces leave exactly this month, this day (and this weekday) open? Rather than one search
per date, one search visits every packing that leaves exactly one item of each *group*
open (one month, one day, ...) and adds it to the count of its open set: a packing is a
solution of exactly one date, so the tallies of all dates cost one tree.

The data, knowing no geometry (at most 64 items, as bits of a uint64):
- `full`: the items to fill; `init`: those filled before the search (the open cells of a
  date when one date is counted; 0 for a tally);
- options (each piece placed once) whose lowest item is i, in blocks by the occupancy of
  i's key items (`keys[i]`, a few items next to i): `members[blocks[j]:blocks[j+1]]` the
  option ids of those that miss the occupied key items, j = i * 2**K + (bit k set when
  keys[i, k] is occupied); `mask[j]` and `bit[j]`: the items of option members[j] and
  its piece's bit (an option repeats across blocks, so the scan reads straight on);
- `group[i]`: the group of item i (-1: it must be covered), `weight[i]`: its place in the
  tally (rank in its group times the group's stride), so that the open set of a packing
  is the sum of its open items' weights, an index into `counts`.

The search fills the lowest empty item; there it either leaves the item open (when it is
in a group that has none open yet) or places an option whose lowest item it is. A leaf
(no empty item) is a packing: every piece is placed and every group has one item open
when the areas agree (the caller checks: pieces' area = items - groups). `stored` keeps
the option ids of the first packings found (for drawing them), -1 padded.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .kernels import njit  # numba imported only when its JIT is needed (see kernels.py)


DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
_INDEX = np.zeros(64, np.int64)
for _i in range(64):
    _INDEX[int((DEBRUIJN << np.uint64(_i)) >> np.uint64(58))] = _i


@njit(cache=True, inline="always")
def _lowest(bits: np.uint64) -> int:
    """The index of the lowest set bit of a non-zero uint64 (de Bruijn)."""
    return _INDEX[np.int64(((bits & (~bits + np.uint64(1))) * DEBRUIJN) >> np.uint64(58))]  # type: ignore[no-any-return]  # numpy types an array's element as Any


@njit(cache=True, inline="always")
def _block(c: int, covered: np.uint64, keys: np.ndarray, blocks: np.ndarray) -> tuple[int, int]:
    """Where the options of item c that miss the occupied ones of its key items are:
    members[blocks[j]:blocks[j + 1]], j = c's block for that occupancy."""
    j: int | np.int64 = 0
    for k in range(keys.shape[1]):
        j |= np.int64((covered >> np.uint64(keys[c, k])) & np.uint64(1)) << k
    j += c << keys.shape[1]
    return blocks[j], blocks[j + 1]


@njit(cache=True, inline="always")
def _grow(region: np.uint64, empty: np.uint64, shift: np.ndarray, shift_mask: np.ndarray) -> np.uint64:
    """`region` grown by one step to its neighbours inside `empty`."""
    out = region
    for k in range(len(shift)):
        moved = region & shift_mask[k]
        out |= (moved << np.uint64(shift[k])) if shift[k] > 0 else (moved >> np.uint64(-shift[k]))
    return out & empty


@njit(cache=True, inline="always")
def feasible(
    empty: np.uint64, opened: np.uint64, shift: np.ndarray, shift_mask: np.ndarray, group_mask: np.ndarray
) -> bool:
    """A cheap dead-end test: every empty item without an empty neighbour (no piece can
    cover it) must be one that may stay open: in a group not yet open, at most one per
    group; and every group not yet open must keep an empty item."""
    one = np.uint64(1)
    alone = empty
    for k in range(len(shift)):
        moved = empty & shift_mask[k]
        alone &= ~((moved << np.uint64(shift[k])) if shift[k] > 0 else (moved >> np.uint64(-shift[k])))
    for g in range(len(group_mask)):
        inside = alone & group_mask[g]
        if (opened >> np.uint64(g)) & one != np.uint64(0):
            if inside != np.uint64(0):
                return False
        elif empty & group_mask[g] == np.uint64(0) or inside & (inside - one) != np.uint64(0):
            return False
        alone &= ~inside
    return alone == np.uint64(0)  # type: ignore[no-any-return]  # a kernels.njit kernel's call is typed Any (a Deferred)


@njit(cache=True, inline="always")
def _slot(table: np.ndarray, covered: np.uint64, rest: np.uint64) -> np.int64:
    """The slot of state (covered, rest) in the open-addressing table: where it is, or
    the empty slot where it goes (covered 0 marks an empty slot: no state has it)."""
    mask = np.uint64(len(table) - 1)
    h = (covered * np.uint64(0x9E3779B97F4A7C15)) ^ (rest * np.uint64(0xC2B2AE3D27D4EB4F))
    i = np.int64((h ^ (h >> np.uint64(29))) & mask)
    while table[i, 0] != np.uint64(0) and (table[i, 0] != covered or table[i, 1] != rest):
        i = (i + 1) & np.int64(mask)
    return i


@njit(cache=True, inline="always")
def _sort_pairs(log: np.ndarray, lo: int, hi: int) -> None:
    """Insertion sort of log[lo:hi] by key (the slices are short)."""
    for i in range(lo + 1, hi):
        k, n = log[i, 0], log[i, 1]
        j = i - 1
        while j >= lo and log[j, 0] > k:
            log[j + 1, 0], log[j + 1, 1] = log[j, 0], log[j, 1]
            j -= 1
        log[j + 1, 0], log[j + 1, 1] = k, n


@njit(cache=True)
def _finish(
    log: np.ndarray,
    lo: int,
    hi: int,
    base: int,
    table: np.ndarray,
    pool: np.ndarray,
    fill: np.ndarray,
    covered: np.uint64,
    rest: np.uint64,
    keep: bool,
) -> int:
    """A recorded subtree is done: its log entries log[lo:hi] (open-set index, count)
    merged by index in place; when `keep` and there is room, kept in the pool as offsets
    from `base`, the state (covered, rest) naming them in the table. Returns the log's
    new end."""
    if hi - lo > 64:
        order = np.argsort(log[lo:hi, 0])
        copy = log[lo:hi].copy()
        for i in range(hi - lo):
            log[lo + i, 0], log[lo + i, 1] = copy[order[i], 0], copy[order[i], 1]
    else:
        _sort_pairs(log, lo, hi)
    end = lo
    for i in range(lo, hi):
        if end > lo and log[end - 1, 0] == log[i, 0]:
            log[end - 1, 1] += log[i, 1]
        else:
            log[end, 0], log[end, 1] = log[i, 0], log[i, 1]
            end += 1
    if not keep or fill[0] + end - lo > len(pool) or 4 * fill[1] >= 3 * len(table):
        return end
    i = _slot(table, covered, rest)
    table[i, 0], table[i, 1] = covered, rest
    table[i, 2], table[i, 3] = np.uint64(fill[0]), np.uint64(end - lo)
    for q in range(lo, end):
        pool[fill[0], 0], pool[fill[0], 1] = log[q, 0] - base, log[q, 1]
        fill[0] += 1
    fill[1] += 1
    return end


@njit(cache=True, nogil=True)
def tally(
    words: np.ndarray,
    keys: np.ndarray,
    blocks: np.ndarray,
    members: np.ndarray,
    mask: np.ndarray,
    bit: np.ndarray,
    group: np.ndarray,
    weight: np.ndarray,
    counts: np.ndarray,
    stored: np.ndarray,
    stats: np.ndarray,
    shift: np.ndarray,
    shift_mask: np.ndarray,
    group_mask: np.ndarray,
    table: np.ndarray,
    pool: np.ndarray,
    log: np.ndarray,
) -> int:
    """Count every packing by its open set into `counts`; keep the first len(stored) in
    `stored`. Dead ends are cut by `feasible` (neighbours: item
    bits moved by `shift[k]` after `& shift_mask[k]`). stats = [nodes, packings stored,
    memo hits, states memoised, pool entries used]: the memo's table, pool and stats kept
    from call to call serve the next. words = [full, init, pieces, fewest pieces left
    where the memo is used, fewest nodes of a subtree kept, then a part of the tree:
    members[lo:hi] at the root as lo, hi + 1 (0, 0: all of it), 1 when leaving the root's
    item open is in the part].

    The memo (when `table` has rows and nothing is stored): the packings below a state
    (covered, used pieces, open groups) are the same wherever it is reached, and leave the
    same cells open: a state's subtree is visited once, its leaves logged as (open-set
    index, count) pairs, merged, and kept as offsets in `pool` (the table's row: the
    state, then where its pairs are and how many); a later visit adds them to `counts`
    from there. Each level records into `log` from rec[level]; a finished subtree's pairs,
    merged, stay in the log for the levels above (so logs stay short). Only subtrees of
    at least words[4] nodes are kept (smaller ones are cheaper to search again than to
    keep), and only while the table is under 3/4 full and the pool has room."""
    full, init, pieces, shallow, worth = words[0], words[1], np.int64(words[2]), np.int64(words[3]), np.int64(words[4])
    one = np.uint64(1)
    levels = stored.shape[1] + 64 if stored.shape[0] > 0 else 128
    memo = len(table) > 0 and stored.shape[0] == 0
    placed = 0
    cell = np.zeros(levels, np.int64)
    nxt = np.zeros(levels, np.int64)  # next member to try; first - 1: the open choice
    first = np.zeros(levels, np.int64)  # the level's block of members: first..stop
    stop = np.zeros(levels, np.int64)
    took = np.full(levels, -2, np.int64)  # option placed (-1: left open, -2: nothing yet)
    rec = np.full(levels, -1, np.int64)  # where this level's subtree starts in the log
    born = np.zeros(levels, np.int64)  # nodes before this level's recorded subtree
    fill = np.zeros(2, np.int64)  # pool entries used, states kept (from earlier calls)
    fill[0], fill[1] = stats[4], stats[3]
    covered, used, opened, key = init, np.uint64(0), np.uint64(0), 0
    nodes, kept, hits, logged, recording, lost = 0, 0, 0, 0, 0, False
    if covered == full:
        counts[0] += 1
        return 0
    cell[0] = _lowest(full & ~covered)
    first[0], stop[0] = _block(cell[0], covered, keys, blocks)
    root_open = words[7] != np.uint64(0) or words[6] == np.uint64(0)
    if words[6] != np.uint64(0):  # a part of the tree: these choices at the root
        first[0], stop[0] = np.int64(words[5]), np.int64(words[6]) - 1
    nxt[0] = first[0] - 1
    d = 0
    while d >= 0:
        c = cell[d]
        t = took[d]
        if rec[d] >= 0:  # the subtree below this choice is done
            logged = _finish(
                log,
                rec[d],
                logged,
                key,
                table,
                pool,
                fill,
                covered,
                used | (opened << np.uint64(48)),
                not lost and nodes - born[d] >= worth,
            )
            rec[d] = -1
            recording -= 1
            if recording == 0:
                logged, lost = 0, False
        if t == -1:  # undo this level's last choice
            covered ^= one << np.uint64(c)
            opened ^= one << np.uint64(group[c])
            key -= weight[c]
        elif t >= 0:
            covered ^= mask[t]
            used ^= bit[t]
            placed -= 1
        took[d] = -2
        o = nxt[d]
        if o < first[d]:
            o = first[d]
            g = group[c]
            if g >= 0 and (opened >> np.uint64(g)) & one == np.uint64(0) and (d > 0 or root_open):
                took[d], nxt[d] = -1, o
                covered |= one << np.uint64(c)
                opened |= one << np.uint64(g)
                key += weight[c]
        if took[d] == -2:
            end = stop[d]
            while o < end and ((mask[o] & covered) | (bit[o] & used)) != np.uint64(0):
                o += 1
            if o == end:
                d -= 1
                continue
            took[d], nxt[d] = o, o + 1
            covered |= mask[o]
            used |= bit[o]
            placed += 1
        nodes += 1
        if covered == full:
            counts[key] += 1
            if recording > 0:
                if logged < len(log):
                    log[logged, 0], log[logged, 1] = key, 1
                    logged += 1
                else:
                    lost = True
            if kept < stored.shape[0]:
                j = 0
                for e in range(d + 1):
                    if took[e] >= 0 and j < stored.shape[1]:
                        stored[kept, j] = members[took[e]]
                        j += 1
                kept += 1
            continue
        if not feasible(full & ~covered, opened, shift, shift_mask, group_mask):
            continue
        if memo and pieces - placed >= shallow:
            rest = used | (opened << np.uint64(48))
            i = _slot(table, covered, rest)
            if table[i, 0] != np.uint64(0):  # seen: its packings, without the search
                hits += 1
                for q in range(np.int64(table[i, 2]), np.int64(table[i, 2] + table[i, 3])):
                    counts[key + pool[q, 0]] += pool[q, 1]
                    if recording > 0:
                        if logged < len(log):
                            log[logged, 0], log[logged, 1] = key + pool[q, 0], pool[q, 1]
                            logged += 1
                        else:
                            lost = True
                continue
            rec[d], born[d] = logged, nodes
            recording += 1
        d += 1
        cell[d] = _lowest(full & ~covered)
        first[d], stop[d] = _block(cell[d], covered, keys, blocks)
        nxt[d] = first[d] - 1
        took[d] = -2
    stats[0] += nodes
    stats[2] += hits
    stats[1], stats[3], stats[4] = kept, fill[1], fill[0]
    return nodes


def exercise() -> None:
    """Run the kernel once on a two-item frame, a domino and an item that may stay open,
    with the argument types the calendar passes (for the ahead-of-time build: aot.py
    exports each kernel under the types it was called with)."""
    ints: Callable[..., np.ndarray] = lambda *v: np.array(v, np.int64)  # noqa: E731
    words: Callable[..., np.ndarray] = lambda *v: np.array(v, np.uint64)  # noqa: E731
    blocks = np.zeros(64 * 2 + 1, np.int64)
    blocks[1:] = 1  # item 0: the domino, member 0
    for memo in (True, False):
        rows = 8 if memo else 0
        tally(
            words(7, 0, 1, 0, 0, 0, 0, 0),
            np.zeros((64, 1), np.int64),
            blocks,
            ints(0),
            words(3),
            words(1),
            np.concatenate([ints(-1, -1, 0), np.full(61, -1, np.int64)]),
            np.zeros(64, np.int64),
            np.zeros(1, np.int64),
            np.full((0 if memo else 1, 1), -1, np.int64),
            np.zeros(5, np.int64),
            ints(1, -1),
            words(~np.uint64(0), ~np.uint64(0)),
            words(4),
            np.zeros((rows, 4), np.uint64),
            np.zeros((4 * rows, 2), np.int64),
            np.zeros((64, 2), np.int64),
        )
