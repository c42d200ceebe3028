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

from numba import njit

from .leaf import on_leaf
from .status import BUFFER_FULL, CONTINUE, DONE, LIMIT, PAUSED, STOP_LIMIT

ENTER, TRY, BACK = 0, 1, 2


@njit(cache=True)
def _cover(c, U, D, L, R, top, length, row_start, row_of, is_cell):
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
def _uncover(c, U, D, L, R, top, length, row_start, row_of, is_cell):
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
def _apply(x, n_items, left, U, D, L, R, top, length, row_start, row_of):
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
def _unapply(x, n_items, left, U, D, L, R, top, length, row_start, row_of):
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


@njit(cache=True, nogil=True)   # threads of one process can search side by side
def run(n_items, U, D, L, R, top, length, row_start, row_of, node_opt,
        piece_count, piece_min, left, opt_piece,
        sym_mode, sym_piece, opt_label, label_img, label_piece, h_mask, opt_stab, canonical_only,
        state, item, x, chosen, stats, out, budget, stop_after, base, img, tally):
    """Run at most `budget` nodes. state: [depth, phase, floor]; stats as in leaf.on_leaf."""
    root = len(L) - 1
    need_min = False
    for p in range(len(piece_min)):
        if piece_min[p] < piece_count[p]:
            need_min = True
    d = state[0]
    phase = state[1]
    floor = state[2]
    spent = 0
    while True:
        if phase == ENTER:
            if R[root] == root:
                act = on_leaf(chosen, d, left, piece_count, piece_min, need_min, opt_piece,
                              sym_mode, sym_piece, opt_label, label_img, label_piece, h_mask,
                              opt_stab, canonical_only, stats, out, stop_after, base, img, tally)
                phase = BACK
                if act != CONTINUE:
                    state[0] = d
                    state[1] = phase
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
                state[0] = d
                state[1] = phase
                return PAUSED
            spent += 1
            stats[0] += 1
            _apply(node, n_items, left, U, D, L, R, top, length, row_start, row_of)
            chosen[d] = node_opt[node]
            d += 1
            phase = ENTER
        else:
            if d == floor:
                state[0] = d
                state[1] = phase
                return DONE
            d -= 1
            _unapply(x[d], n_items, left, U, D, L, R, top, length, row_start, row_of)
            x[d] = D[x[d]]
            phase = TRY
