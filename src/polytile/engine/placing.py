"""Every placement of a set of shapes on a board, in one compiled call: core.cover's
numpy `_placements` (the reference the tests compare with) for the plain case, with no
colours to match and a lookup grid over the board's box.

Geometry-free: core turns the orientations into offsets (the box numbers of their cells
from their first cell) and, per orientation, the range of anchors along each axis where
it stays inside the box; here each (orientation, anchor) pair is looked up cell by cell
in the board's grid (item number, or -1 off the board). A few dozen numpy calls over
arrays of the pairs become one pass that stops at the first cell off the board."""
from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _sort_small(row):
    """Insertion sort in place (a piece's few cells)."""
    for i in range(1, len(row)):
        x = row[i]
        j = i - 1
        while j >= 0 and row[j] > x:
            row[j + 1] = row[j]
            j -= 1
        row[j + 1] = x


@njit(cache=True)
def _inside(anchors, a, lower, upper, o):
    """Whether anchor a lies in orientation o's range on every axis."""
    for ax in range(anchors.shape[1]):
        if anchors[a, ax] < lower[o, ax] or anchors[a, ax] > upper[o, ax]:
            return False
    return True


@njit(cache=True)
def place(grid, anchor_numbers, anchors, lower, upper, offsets, owner):
    """(rows, pieces): the items of each placement, ascending, (n, k) int64, and the
    owner of its orientation, by orientation then anchor (the order of
    core.cover._placements; rows sorted as core.cover.build sorts them)."""
    n_orient, k = offsets.shape
    n_anchor = len(anchor_numbers)
    rows = np.empty((n_orient * n_anchor, k), dtype=np.int64)
    pieces = np.empty(n_orient * n_anchor, dtype=np.int32)
    n = 0
    for o in range(n_orient):
        for a in range(n_anchor):
            if not _inside(anchors, a, lower, upper, o):
                continue
            base = anchor_numbers[a]
            ok = True
            for j in range(k):
                item = grid[base + offsets[o, j]]
                if item < 0:
                    ok = False
                    break
                rows[n, j] = item
            if ok:
                _sort_small(rows[n])
                pieces[n] = owner[o]
                n += 1
    return rows[:n].copy(), pieces[:n].copy()
