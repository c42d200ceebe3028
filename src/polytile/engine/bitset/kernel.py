"""Algorithm X on bit sets of options, for exact cover matrices of up to some thousands of
options (`polytile cover`; larger ones go to the dancing links of engine/exact/kernel.py).

Each level of the search holds the set of options still possible (`active`, one bit per
option, W words) and the primary items covered so far. Choosing option o removes from
`active` every option that clashes with it: for each entry of o, a precomputed "kill" row
(the options holding the same item; for a coloured secondary item, those holding it
without that colour). Branching takes the uncovered primary item with the fewest active
options (the first on ties, as dlx1 does) and tries them in the order of the file, so the
tree is the one dlx1 walks; no links to undo, only a copy of W words a level. Rows keep the
range of words where they have bits (`lo`, `hi`), so sparse rows cost little.

The stack is explicit (`state`, per-level arrays), so a call runs at most `budget` tries
and the next call resumes (see exact.driver)."""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from ..bits import ZERO, njit, popcount
from ..records import NODES, SOLUTIONS, STORED, Sink
from .records import BitsetStack, BitsetTables, Counting
from ..status import BUFFER_FULL, DONE, LIMIT, PAUSED

ENTER, TRY, LEAVE = np.int64(0), np.int64(1), np.int64(2)
BIG = np.int32(1 << 30)


@njit(cache=True, inline="always")
def _choose(
    item_opts: np.ndarray, item_lo: np.ndarray, item_hi: np.ndarray, active: np.ndarray, covered: np.ndarray, d: int
) -> tuple[int, np.uint64]:
    """The uncovered primary item with the fewest active options at level d, and that
    number, by counting bits (2D indexing: no row views in the inner loops)."""
    best, best_n = -1, np.uint64(1 << 62)
    for i in range(item_opts.shape[0]):
        if (covered[d, i >> 6] >> np.uint64(i & 63)) & np.uint64(1):
            continue
        n = ZERO
        for w in range(item_lo[i], item_hi[i]):
            n += popcount(item_opts[i, w] & active[d, w])
        if n < best_n:
            best, best_n = i, n
            if n == ZERO:
                break
    return best, best_n


@njit(cache=True, inline="always")
def _choose_counted(cnt: np.ndarray, d: int) -> tuple[int, np.uint64]:
    """_choose from the counts kept by _recount (covered items count BIG)."""
    best, best_n = -1, BIG
    for i in range(cnt.shape[1]):
        if cnt[d, i] < best_n:
            best, best_n = i, cnt[d, i]
            if best_n == 0:
                break
    return best, np.uint64(best_n)


@njit(cache=True, inline="always")
def _recount(o: int, prim_ptr: np.ndarray, prim_items: np.ndarray, active: np.ndarray, cnt: np.ndarray, d: int) -> None:
    """Level d+1's counts: level d's, less one for each primary item of each option
    that taking o removed; o's own primary items (now covered) count BIG."""
    for i in range(cnt.shape[1]):
        cnt[d + 1, i] = cnt[d, i]
    for w in range(active.shape[1]):
        gone = active[d, w] & ~active[d + 1, w]
        while gone != ZERO:
            k = w * 64 + np.int64(trailing_zeros(gone))
            gone &= gone - np.uint64(1)
            for j in range(prim_ptr[k], prim_ptr[k + 1]):
                cnt[d + 1, prim_items[j]] -= 1
    for j in range(prim_ptr[o], prim_ptr[o + 1]):
        cnt[d + 1, prim_items[j]] = BIG


@njit(cache=True, inline="always")
def _take(
    o: int,
    kill: np.ndarray,
    kill_lo: np.ndarray,
    kill_hi: np.ndarray,
    entry_ptr: np.ndarray,
    entry_kill: np.ndarray,
    opt_prim: np.ndarray,
    active: np.ndarray,
    covered: np.ndarray,
    d: int,
) -> None:
    """Level d+1: the options of level d without those that clash with option o, and the
    primary items covered with o's."""
    for w in range(active.shape[1]):
        active[d + 1, w] = active[d, w]
    for e in range(entry_ptr[o], entry_ptr[o + 1]):
        r = entry_kill[e]
        for w in range(kill_lo[r], kill_hi[r]):
            active[d + 1, w] &= ~kill[r, w]
    for w in range(covered.shape[1]):
        covered[d + 1, w] = covered[d, w] | opt_prim[o, w]


@njit(cache=True, inline="always")
def _all_covered(covered: np.ndarray, d: int, full: np.ndarray) -> bool:
    for w in range(full.shape[0]):
        if covered[d, w] != full[w]:
            return False
    return True


@njit(cache=True, inline="always")
def _keep(out: np.ndarray, stats: np.ndarray, chosen: np.ndarray, d: int) -> None:
    """Write the solution chosen[0:d] into the next row of the buffer."""
    k = stats[STORED]
    for j in range(out.shape[1]):
        out[k, j] = chosen[j] if j < d else -1
    stats[STORED] = k + 1


@njit(cache=True, nogil=True)
def run(
    tables: BitsetTables,
    counting: Counting,
    full: np.ndarray,
    work: BitsetStack,
    sink: Sink,
    limit: int,
    budget: int,
) -> int:
    """Run at most `budget` tries. tables: records.BitsetTables as
    bitset.driver.bitset_tables makes them; counting: records.Counting, each option's
    primary items; full: every primary item's bit; work: records.BitsetStack (state [depth,
    phase], active, covered, cand, pos, end, chosen, cnt), per level; cnt: the active options of each primary item, kept up to date when it has
    columns (then the choice reads them instead of counting bits: cheaper when an option
    removes few others), else empty; sink: engine.records.Sink (stats NODES, SOLUTIONS,
    STORED; out: rows of option numbers, -1 padded; no rows to only count); limit: stop after that many
    solutions (0: never). Every array is unpacked here once: numba then keeps no
    reference counts in the loop."""
    kill, kill_lo, kill_hi, item_opts, item_lo, item_hi, entry_ptr, entry_kill, opt_prim = tables
    prim_ptr, prim_items = counting
    state, active, covered, cand, pos, end, chosen, cnt = work
    stats, out = sink.stats, sink.out
    counted = cnt.shape[1] > 0
    keep = out.shape[0] > 0
    d, phase = state[0], state[1]
    spent = 0
    while True:
        if phase == ENTER:
            if _all_covered(covered, d, full):
                phase = LEAVE
                stats[SOLUTIONS] += 1
                if keep:
                    _keep(out, stats, chosen, d)
                if limit > 0 and stats[SOLUTIONS] >= limit:
                    state[0], state[1] = d, phase
                    return LIMIT
                if keep and stats[STORED] == out.shape[0]:
                    state[0], state[1] = d, phase
                    return BUFFER_FULL
                continue
            if counted:
                best, n = _choose_counted(cnt, d)
            else:
                best, n = _choose(item_opts, item_lo, item_hi, active, covered, d)
            if n == ZERO:
                phase = LEAVE
                continue
            pos[d], end[d] = item_lo[best], item_hi[best]
            for w in range(pos[d], end[d]):
                cand[d, w] = item_opts[best, w] & active[d, w]
            phase = TRY
        elif phase == TRY:
            w = pos[d]
            while w < end[d] and cand[d, w] == ZERO:
                w += 1
            pos[d] = w
            if w == end[d]:
                phase = LEAVE
                continue
            if spent >= budget:
                state[0], state[1] = d, phase
                return PAUSED
            spent += 1
            stats[NODES] += 1
            bits = cand[d, w]
            o = w * 64 + np.int64(trailing_zeros(bits))
            cand[d, w] = bits & (bits - np.uint64(1))
            _take(o, kill, kill_lo, kill_hi, entry_ptr, entry_kill, opt_prim, active, covered, d)
            if counted:
                _recount(o, prim_ptr, prim_items, active, cnt, d)
            chosen[d] = o
            d += 1
            phase = ENTER
        else:
            if d == 0:
                state[0], state[1] = d, phase
                return DONE
            d -= 1
            phase = TRY
