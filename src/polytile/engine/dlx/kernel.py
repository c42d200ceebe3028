"""Dancing links (Knuth's Algorithm X) for covers of any size: 3D, large boards, colours.

Layout: nodes 0..N-1 are the item headers (cells first, then one per piece), node N
is the root of the circular list of uncovered cells, and the options follow, each a
contiguous run of nodes (its cells, then its piece). U/D link a column, L/R the active
headers. Branching takes the uncovered cell with the fewest options left (ties: the
lowest cell, which keeps the "first empty cell" order of the board numbering).

Pieces are counters: choosing an option takes one copy of its piece; when the last
copy is taken the piece's column is covered, which hides every other placement of it.

The stack is explicit (`item`, `x`, `state`), so a call runs at most `budget` nodes and
the next call resumes; see engine/search.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..bits import njit
from ..leaf import on_leaf
from ..records import NODES, Rules, SymmetryTables
from ..status import BUFFER_FULL, CONTINUE, DONE, LIMIT, PAUSED, STOP_LIMIT

# int64, not int literals: numba pycc, compiling every kernel in one typing context, once
# failed to unify the literal types 0 and 2 of `phase` below (with the bitboard kernel beside).
ENTER, TRY, BACK = np.int64(0), np.int64(1), np.int64(2)

if TYPE_CHECKING:
    from .driver import DlxStack, DlxTables, Links


@njit(cache=True)
def _cover(
    c: int,
    U: np.ndarray,
    D: np.ndarray,
    L: np.ndarray,
    R: np.ndarray,
    top: np.ndarray,
    length: np.ndarray,
    row_start: np.ndarray,
    row_of: np.ndarray,
    is_cell: bool,
) -> None:
    if is_cell:
        L[R[c]] = L[c]
        R[L[c]] = R[c]
    r = D[c]
    while r != c:
        k = row_of[r]
        for j in range(row_start[k], row_start[k + 1]):
            if j != r:
                D[U[j]] = D[j]
                U[D[j]] = U[j]
                length[top[j]] -= 1
        r = D[r]


@njit(cache=True)
def _uncover(
    c: int,
    U: np.ndarray,
    D: np.ndarray,
    L: np.ndarray,
    R: np.ndarray,
    top: np.ndarray,
    length: np.ndarray,
    row_start: np.ndarray,
    row_of: np.ndarray,
    is_cell: bool,
) -> None:
    r = U[c]
    while r != c:
        k = row_of[r]
        for j in range(row_start[k + 1] - 1, row_start[k] - 1, -1):
            if j != r:
                length[top[j]] += 1
                D[U[j]] = j
                U[D[j]] = j
        r = U[r]
    if is_cell:
        L[R[c]] = c
        R[L[c]] = c


@njit(cache=True)
def _apply(
    x: int,
    n_items: int,
    left: np.ndarray,
    U: np.ndarray,
    D: np.ndarray,
    L: np.ndarray,
    R: np.ndarray,
    top: np.ndarray,
    length: np.ndarray,
    row_start: np.ndarray,
    row_of: np.ndarray,
) -> None:
    k = row_of[x]
    for j in range(row_start[k], row_start[k + 1]):
        if j != x:
            c = top[j]
            if c < n_items:
                _cover(c, U, D, L, R, top, length, row_start, row_of, True)
            else:
                left[c - n_items] -= 1
                if left[c - n_items] == 0:
                    _cover(c, U, D, L, R, top, length, row_start, row_of, False)


@njit(cache=True)
def _unapply(
    x: int,
    n_items: int,
    left: np.ndarray,
    U: np.ndarray,
    D: np.ndarray,
    L: np.ndarray,
    R: np.ndarray,
    top: np.ndarray,
    length: np.ndarray,
    row_start: np.ndarray,
    row_of: np.ndarray,
) -> None:
    k = row_of[x]
    for j in range(row_start[k + 1] - 1, row_start[k] - 1, -1):
        if j != x:
            c = top[j]
            if c < n_items:
                _uncover(c, U, D, L, R, top, length, row_start, row_of, True)
            else:
                if left[c - n_items] == 0:
                    _uncover(c, U, D, L, R, top, length, row_start, row_of, False)
                left[c - n_items] += 1


@njit(cache=True)
def _start_prefix(
    row: np.ndarray,
    tables: DlxTables,
    rules: Rules,
    left: np.ndarray,
    chosen: np.ndarray,
    hit: np.ndarray,
    links: Links,
    undo: np.ndarray,
) -> tuple[int, int]:
    """Place the options of `row` (-1 padded): cover their items, then the pieces used up,
    listing the columns covered in `undo`. Return (k, columns covered), or (-1, 0) if
    they clash (then nothing is covered)."""
    n_items, opt_ptr, opt_items = tables.n_items, tables.opt_ptr, tables.opt_items
    opt_piece, piece_count = rules.opt_piece, rules.piece_count
    U, D, L, R, top = links.U, links.D, links.L, links.R, links.top
    length, row_start, row_of = links.length, links.row_start, links.row_of
    left[:] = piece_count
    hit[:] = False
    k = 0
    for o in row:
        if o < 0:
            break
        if left[opt_piece[o]] == 0:
            return -1, 0
        for j in range(opt_ptr[o], opt_ptr[o + 1]):
            if hit[opt_items[j]]:
                return -1, 0
            hit[opt_items[j]] = True
        left[opt_piece[o]] -= 1
        chosen[k] = o
        k += 1
    n = 0
    for i in range(k):
        o = row[i]
        for j in range(opt_ptr[o], opt_ptr[o + 1]):
            _cover(opt_items[j], U, D, L, R, top, length, row_start, row_of, True)
            undo[n] = opt_items[j]
            n += 1
    for p in range(len(left)):
        if left[p] == 0:
            _cover(n_items + p, U, D, L, R, top, length, row_start, row_of, False)
            undo[n] = n_items + p
            n += 1
    return k, n


@njit(cache=True)
def _end_prefix(n_items: int, links: Links, undo: np.ndarray, n: int) -> None:
    """Uncover the columns a prefix covered, last first: the links as before it."""
    U, D, L, R, top = links.U, links.D, links.L, links.R, links.top
    length, row_start, row_of = links.length, links.row_start, links.row_of
    for i in range(n - 1, -1, -1):
        c = undo[i]
        _uncover(c, U, D, L, R, top, length, row_start, row_of, c < n_items)


@njit(cache=True, nogil=True)  # threads of one process can search side by side
def run(tables: DlxTables, rules: Rules, sym: SymmetryTables, work: DlxStack, prefixes: np.ndarray, budget: int) -> int:
    """Run at most `budget` nodes, the rows of `prefixes` one after another (as
    bitboard.kernel.run). tables: dlx.driver.DlxTables, read only; rules, sym: records.Rules
    and records.SymmetryTables; work: dlx.driver.DlxStack, with the links (dlx.driver.Links)
    and place[0] (dlx.driver.PLACE), where the search stands between calls."""
    n_items = tables.n_items
    item, x, chosen, left, sink = work.item, work.x, work.chosen, work.left, work.sink
    links, hit, undo = work.links, work.hit, work.undo
    U, D, L, R, top = links.U, links.D, links.L, links.R, links.top
    length, row_start, row_of, node_opt = links.length, links.row_start, links.row_of, links.node_opt
    place = work.place[0]
    stats = sink.stats
    root = len(L) - 1
    d = place.depth
    phase = place.phase
    floor = place.floor
    spent = 0
    while True:
        if place.started == 0:  # begin the next prefix
            if place.next_prefix >= prefixes.shape[0]:
                return DONE
            floor, n_undo = _start_prefix(prefixes[place.next_prefix], tables, rules, left, chosen, hit, links, undo)
            place.undone = n_undo
            place.next_prefix += 1
            if floor < 0:
                continue
            place.started = 1
            place.floor = floor
            d = floor
            phase = ENTER
        if phase == ENTER:
            if R[root] == root:
                act = on_leaf(chosen, d, left, rules, sym, sink)
                phase = BACK
                if act != CONTINUE:
                    place.depth = d
                    place.phase = phase
                    return LIMIT if act == STOP_LIMIT else BUFFER_FULL
                continue
            best = -1
            best_len = 1 << 30
            c = R[root]
            while c != root:
                if length[c] < best_len:
                    best_len = length[c]
                    best = c
                    if best_len <= 1:
                        break
                c = R[c]
            if best_len == 0:
                phase = BACK
                continue
            _cover(best, U, D, L, R, top, length, row_start, row_of, True)
            item[d] = best
            x[d] = D[best]
            phase = TRY
        elif phase == TRY:
            node = x[d]
            if node == item[d]:
                _uncover(item[d], U, D, L, R, top, length, row_start, row_of, True)
                phase = BACK
                continue
            if spent >= budget:
                place.depth = d
                place.phase = phase
                return PAUSED
            spent += 1
            stats[NODES] += 1
            _apply(node, n_items, left, U, D, L, R, top, length, row_start, row_of)
            chosen[d] = node_opt[node]
            d += 1
            phase = ENTER
        else:
            if d == floor:
                _end_prefix(n_items, links, undo, place.undone)
                place.started = 0
                continue
            d -= 1
            _unapply(x[d], n_items, left, U, D, L, R, top, length, row_start, row_of)
            x[d] = D[x[d]]
            phase = TRY
