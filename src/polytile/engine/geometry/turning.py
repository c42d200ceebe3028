"""The images of a set of shapes under a set of integer linear maps, in one compiled call:
core.shape's numpy `_square_orientations` (the reference the tests compare with), which
core asks for through a function the tiling layer registers (core may not import
engine). What is computed knows nothing of grids: each shape's cells (k points of d
integer coordinates, with a colour each) mapped by each matrix, moved to the origin
(the least coordinate on each axis 0), sorted (the colours follow), and for each image
whether it is the first of its kind in the order of the matrices."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..bits import njit

Ints = npt.NDArray[np.int64]


@njit(cache=True)
def _before(img: Ints, a: int, b: int) -> bool:
    """Whether row a of img sorts before row b (lexicographically)."""
    for r in range(img.shape[1]):
        if img[a, r] != img[b, r]:
            return img[a, r] < img[b, r]  # type: ignore[no-any-return]  # numpy types an element as Any
    return False


@njit(cache=True)
def _image(cells: Ints, mat: Ints, img: Ints) -> None:
    """img = cells @ mat.T, moved to the origin."""
    k, d = cells.shape
    for i in range(k):
        for r in range(d):
            s = 0
            for c in range(d):
                s += cells[i, c] * mat[r, c]
            img[i, r] = s
    for r in range(d):
        lo = img[0, r]
        for i in range(1, k):
            lo = min(lo, img[i, r])
        for i in range(k):
            img[i, r] -= lo


@njit(cache=True)
def _same(imgs: Ints, cols: Ints, p: int, m: int, m2: int) -> bool:
    """Whether images m and m2 of shape p are equal, cells and colours."""
    for i in range(imgs.shape[2]):
        if cols[p, m, i] != cols[p, m2, i]:
            return False
        for r in range(imgs.shape[3]):
            if imgs[p, m, i, r] != imgs[p, m2, i, r]:
                return False
    return True


@njit(cache=True)
def turn(cells: Ints, colours: Ints, mats: Ints) -> tuple[Ints, Ints, npt.NDArray[np.bool_]]:
    """(imgs (P, M, k, d), cols (P, M, k), first (P, M)) for shapes cells (P, k, d) with
    colours (P, k) under matrices mats (M, d, d): each image at the origin with its cells
    in order, and whether no earlier matrix gave the same image (cells distinct in a
    shape, so the order is unique)."""
    n_shapes, k, d = cells.shape
    n_mats = mats.shape[0]
    imgs = np.empty((n_shapes, n_mats, k, d), dtype=np.int64)
    cols = np.empty((n_shapes, n_mats, k), dtype=np.int64)
    first = np.ones((n_shapes, n_mats), dtype=np.bool_)
    img = np.empty((k, d), dtype=np.int64)
    order = np.empty(k, dtype=np.int64)
    for p in range(n_shapes):
        for m in range(n_mats):
            _image(cells[p], mats[m], img)
            for i in range(k):  # insertion sort of the rows' indices
                j = i - 1
                while j >= 0 and _before(img, i, order[j]):
                    order[j + 1] = order[j]
                    j -= 1
                order[j + 1] = i
            for i in range(k):
                imgs[p, m, i] = img[order[i]]
                cols[p, m, i] = colours[p, order[i]]
            for m2 in range(m):
                if first[p, m2] and _same(imgs, cols, p, m, m2):
                    first[p, m] = False
                    break
    return imgs, cols, first


@njit(cache=True)
def _row_before(rows: Ints, a: int, b: int) -> bool:
    """Whether row a of rows sorts before row b (lexicographically)."""
    for i in range(rows.shape[1]):
        if rows[a, i] != rows[b, i]:
            return rows[a, i] < rows[b, i]  # type: ignore[no-any-return]  # numpy types an element as Any
    return False


@njit(cache=True)
def permutations(pts: Ints, colours: Ints, mats: Ints, grid: Ints, strides: Ints, hi: Ints) -> Ints:
    """(G, n) the distinct permutations of the points (n, d), at the origin, under the
    matrices that map them onto themselves and keep their colours, in lexicographic order:
    row g, entry i = the point that g(point i), moved to the origin, is (looked up in
    `grid` by its number in the box 0..hi, -1 where no point is)."""
    n, d = pts.shape
    rows = np.empty((len(mats), n), dtype=np.int64)
    img = np.empty((n, d), dtype=np.int64)
    count = 0
    for m in range(len(mats)):
        _image(pts, mats[m], img)
        ok = True
        for i in range(n):
            number = 0
            for r in range(d):
                if img[i, r] > hi[r]:  # outside the box (never below: at the origin)
                    ok = False
                    break
                number += img[i, r] * strides[r]
            if not ok:
                break
            j = grid[number]
            if j < 0 or colours[j] != colours[i]:
                ok = False
                break
            rows[count, i] = j
        if ok:
            count += 1
    order = np.empty(count, dtype=np.int64)
    for a in range(count):  # insertion sort of the rows (a few dozen)
        j = a - 1
        while j >= 0 and _row_before(rows, a, order[j]):
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = a
    out = np.empty((count, n), dtype=np.int64)
    kept = 0
    for a in range(count):
        if kept == 0 or not np.array_equal(rows[order[a]], out[kept - 1]):
            out[kept] = rows[order[a]]
            kept += 1
    return out[:kept].copy()
