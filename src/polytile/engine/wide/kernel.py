"""Bitboards of several words, for covers of 65 to 256 items (boards too big for one
uint64). The same search as engine/bitboard/kernel.py, with each mask an array of W words:
fill the lowest empty item with the options whose lowest item it is, pieces as
counters, and the empty regions next to a new piece checked for sizes the remaining
pieces can make (flood fill over the item graph, up to `cap` cells)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from ..bitboard.kernel import reachable_sizes
from ..bits import njit
from ..leaf import on_leaf
from ..records import NODES, Rules, SymmetryTables
from ..status import BUFFER_FULL, CONTINUE, DONE, LIMIT, PAUSED, STOP_LIMIT

if TYPE_CHECKING:
    from .driver import WideStack, WideTables

ONE = np.uint64(1)
ZERO = np.uint64(0)


@njit(cache=True, inline="always")
def _has(bits: np.ndarray, i: int) -> np.uint64:
    return (bits[i >> 6] >> np.uint64(i & 63)) & ONE  # type: ignore[no-any-return]  # numpy types an array's element as Any


@njit(cache=True)
def _first_empty(cov: np.ndarray, full: np.ndarray) -> int | np.int64:
    for w in range(len(full)):
        free = full[w] & ~cov[w]
        if free:
            return w * 64 + np.int64(trailing_zeros(free))
    return -1


@njit(cache=True)
def _regions_ok(
    now: np.ndarray,
    full: np.ndarray,
    seeds: np.ndarray,
    neighbours: np.ndarray,
    sizes: np.uint64,
    cap: int,
    seen: np.ndarray,
    stack: np.ndarray,
) -> bool:
    """Regions of empty items touching `seeds` have allowed sizes (see the module doc).
    seen[0]: items of regions already measured; seen[1]: items of the current flood
    (a flood given up at `cap` must not wall off the next one)."""
    for w in range(seen.shape[1]):
        seen[0, w] = ZERO
    for s in seeds:
        if s < 0:
            break
        if _has(now, s) or _has(seen[0], s):
            continue
        cur = seen[1]
        for w in range(len(cur)):
            cur[w] = ZERO
        top = 0
        stack[top] = s
        top += 1
        cur[s >> 6] |= ONE << np.uint64(s & 63)
        n = 0
        while top > 0 and n <= cap:
            top -= 1
            i = stack[top]
            n += 1
            for k in range(neighbours.shape[1]):
                j = neighbours[i, k]
                if j >= 0 and not _has(now, j) and not _has(cur, j):
                    cur[j >> 6] |= ONE << np.uint64(j & 63)
                    stack[top] = j
                    top += 1
        if top == 0:
            if n < 64 and not (sizes >> np.uint64(n)) & ONE:
                return False
            for w in range(len(cur)):
                seen[0, w] |= cur[w]
    return True


@njit(cache=True)
def _start_prefix(
    row: np.ndarray,
    opt_mask: np.ndarray,
    opt_piece: np.ndarray,
    piece_count: np.ndarray,
    left: np.ndarray,
    chosen: np.ndarray,
    cov: np.ndarray,
) -> int:
    """Place the options of `row` (-1 padded) into cov[k]; return k, or -1 if they clash."""
    left[:] = piece_count
    k = 0
    for o in row:
        if o >= 0:
            k += 1
    cov[k, :] = ZERO
    for j in range(k):
        o = row[j]
        for w in range(cov.shape[1]):
            if opt_mask[o, w] & cov[k, w]:
                return -1
            cov[k, w] |= opt_mask[o, w]
        if left[opt_piece[o]] == 0:
            return -1
        left[opt_piece[o]] -= 1
        chosen[j] = o
    return k


@njit(cache=True, nogil=True)  # threads of one process can search side by side
def run(
    tables: WideTables, rules: Rules, sym: SymmetryTables, work: WideStack, prefixes: np.ndarray, budget: int
) -> int:
    """As bitboard.kernel.run, with masks of len(full) words. tables: wide.driver.WideTables
    (read only); rules, sym: records.Rules and records.SymmetryTables; work:
    wide.driver.WideStack, whose place[0] (wide.driver.PLACE) keeps where the search
    stands between calls."""
    cell_start, cell_opts, list_mask = tables.cell_start, tables.cell_opts, tables.list_mask
    list_piece, opt_mask, piece_size, full = (tables.list_piece, tables.opt_mask, tables.piece_size, tables.full)
    neighbours, opt_border, prune, cap = (tables.neighbours, tables.opt_border, tables.prune, tables.cap)
    uniform, sizes = tables.uniform, tables.sizes
    opt_piece, piece_count = rules.opt_piece, rules.piece_count
    pos, end, chosen, cov, left = work.pos, work.end, work.chosen, work.cov, work.left
    sink, marks, stack = work.sink, work.marks, work.stack
    place = work.place[0]
    stats = sink.stats
    n_words = len(full)
    floor = place.floor
    d = place.depth
    spent = 0
    while True:
        if place.started == 0:  # begin the next prefix
            if place.next_prefix >= prefixes.shape[0]:
                return DONE
            floor = _start_prefix(prefixes[place.next_prefix], opt_mask, opt_piece, piece_count, left, chosen, cov)
            place.next_prefix += 1
            if floor < 0:
                continue
            place.started = 1
            place.floor = floor
            d = floor
            c = _first_empty(cov[d], full)
            if c < 0:  # the prefix alone covers the board
                act = on_leaf(chosen, d, left, rules, sym, sink)
                place.started = 0
                if act != CONTINUE:
                    return LIMIT if act == STOP_LIMIT else BUFFER_FULL
                continue
            pos[d] = cell_start[c]
            end[d] = cell_start[c + 1]
        if spent >= budget:
            place.depth = d
            return PAUSED
        p = pos[d]
        e = end[d]
        found = -1
        while p < e:
            q = p
            p += 1
            if left[list_piece[q]] == 0:
                continue
            clash = False
            for w in range(n_words):
                if list_mask[q, w] & cov[d, w]:
                    clash = True
                    break
            if not clash:
                found = cell_opts[q]
                break
        pos[d] = p
        if found < 0:
            if d == floor:
                place.started = 0
                continue
            d -= 1
            left[opt_piece[chosen[d]]] += 1
            continue
        spent += 1
        stats[NODES] += 1
        chosen[d] = found
        left[opt_piece[found]] -= 1
        complete = True
        for w in range(n_words):
            cov[d + 1, w] = cov[d, w] | opt_mask[found, w]
            if cov[d + 1, w] != full[w]:
                complete = False
        if complete:
            act = on_leaf(chosen, d + 1, left, rules, sym, sink)
            left[opt_piece[found]] += 1
            if act != CONTINUE:
                place.depth = d
                return LIMIT if act == STOP_LIMIT else BUFFER_FULL
            continue
        if prune:
            if not uniform:
                sizes = reachable_sizes(left, piece_size)
            if not _regions_ok(cov[d + 1], full, opt_border[found], neighbours, sizes, cap, marks, stack):
                left[opt_piece[found]] += 1
                continue
        d += 1
        c = _first_empty(cov[d], full)
        pos[d] = cell_start[c]
        end[d] = cell_start[c + 1]
