"""Every placement of a set of shapes on a board, in one compiled call: core.cover's
numpy `_placements` (the reference the tests compare with) for the plain case, with no
colours to match and a lookup grid over the board's box.

Geometry-free: the orientations are k integer points each, turned into offsets (the box
numbers of their cells from their first cell) and, per orientation, the range of anchors
along each axis where it stays inside the box; each (orientation, anchor) pair is then
looked up cell by cell in the board's grid (item number, or -1 off the board). A few dozen numpy calls over
arrays of the pairs become one pass that stops at the first cell off the board."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..bits import njit

Ints = npt.NDArray[np.int64]


@njit(cache=True)
def _sort_small(row: Ints) -> None:
    """Insertion sort in place (a piece's few cells)."""
    for i in range(1, len(row)):
        x = row[i]
        j = i - 1
        while j >= 0 and row[j] > x:
            row[j + 1] = row[j]
            j -= 1
        row[j + 1] = x


@njit(cache=True)
def _inside(anchors: Ints, a: int, lower: Ints, upper: Ints, o: int) -> bool:
    """Whether anchor a lies in orientation o's range on every axis."""
    for ax in range(anchors.shape[1]):
        if anchors[a, ax] < lower[o, ax] or anchors[a, ax] > upper[o, ax]:
            return False
    return True


@njit(cache=True)
def _orientation(shape: Ints, lo: Ints, hi: Ints, strides: Ints, lower: Ints, upper: Ints, offsets: Ints) -> None:
    """Orientation `shape` (k, d)'s anchor range on each axis (its first cell on the anchor,
    all cells inside the box lo..hi) and its cells' box numbers from its first cell."""
    k, d = shape.shape
    for ax in range(d):
        least, most = shape[0, ax], shape[0, ax]
        for j in range(1, k):
            least, most = min(least, shape[j, ax]), max(most, shape[j, ax])
        lower[ax] = lo[ax] - least + shape[0, ax]
        upper[ax] = hi[ax] - most + shape[0, ax]
    for j in range(k):
        offsets[j] = 0
        for ax in range(d):
            offsets[j] += (shape[j, ax] - shape[0, ax]) * strides[ax]


@njit(cache=True)
def place(
    grid: Ints, strides: Ints, lo: Ints, hi: Ints, anchors: Ints, shapes: Ints, owner: Ints
) -> tuple[Ints, npt.NDArray[np.int32]]:
    """(rows, pieces): the items of each placement of the orientations `shapes` (O, k, d)
    with its first cell on an anchor, ascending, (n, k) int64, and the owner of its
    orientation, by orientation then anchor (the order of core.cover._placements; rows
    sorted as core.cover.build sorts them). The board: `grid` over the box lo..hi, cells
    numbered by `strides`."""
    n_orient, k, d = shapes.shape
    n_anchor = len(anchors)
    numbers = np.zeros(n_anchor, dtype=np.int64)
    for a in range(n_anchor):
        for ax in range(d):
            numbers[a] += (anchors[a, ax] - lo[ax]) * strides[ax]
    rows = np.empty((n_orient * n_anchor, k), dtype=np.int64)
    pieces = np.empty(n_orient * n_anchor, dtype=np.int32)
    lower = np.empty((1, d), dtype=np.int64)
    upper = np.empty((1, d), dtype=np.int64)
    offsets = np.empty(k, dtype=np.int64)
    n = 0
    for o in range(n_orient):
        _orientation(shapes[o], lo, hi, strides, lower[0], upper[0], offsets)
        for a in range(n_anchor):
            if not _inside(anchors, a, lower, upper, 0):
                continue
            ok = True
            for j in range(k):
                item = grid[numbers[a] + offsets[j]]
                if item < 0:
                    ok = False
                    break
                rows[n, j] = item
            if ok:
                _sort_small(rows[n])
                pieces[n] = owner[o]
                n += 1
    return rows[:n].copy(), pieces[:n].copy()
