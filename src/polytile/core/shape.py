"""Shapes: finite sets of integer cells in 2D or 3D, their motions and orientations.

A shape is kept as an (n, d) int array of cells, sorted and translated so that its
minimum corner is the origin ("normalised"). A colouring travels with the cells as a
parallel array of small integers (0 when the puzzle has no colours).
"""
from __future__ import annotations

from functools import lru_cache
from itertools import permutations, product

import numpy as np


@lru_cache(maxsize=None)
def isometries(dim: int) -> tuple[np.ndarray, ...]:
    """All signed permutation matrices of the grid: 8 in 2D, 48 in 3D. Rotations first."""
    mats = []
    for perm in permutations(range(dim)):
        for signs in product((1, -1), repeat=dim):
            m = np.zeros((dim, dim), dtype=np.int64)
            for row, (col, s) in enumerate(zip(perm, signs)):
                m[row, col] = s
            mats.append(m)
    mats.sort(key=lambda m: (round(np.linalg.det(m)) < 0, m.tobytes()))
    return tuple(mats)


@lru_cache(maxsize=None)
def rotations(dim: int) -> tuple[np.ndarray, ...]:
    """Proper rotations (determinant +1): 4 in 2D, 24 in 3D."""
    return tuple(m for m in isometries(dim) if round(np.linalg.det(m)) == 1)


def motions(dim: int, reflect: bool) -> tuple[np.ndarray, ...]:
    return isometries(dim) if reflect else rotations(dim)


def normalise(cells: np.ndarray, colours: np.ndarray | None = None):
    """Translate to the origin and sort cells lexicographically (colours follow)."""
    cells = np.asarray(cells, dtype=np.int64)
    cells = cells - cells.min(axis=0)
    order = np.lexsort(cells.T[::-1])
    cells = cells[order]
    if colours is None:
        return cells, None
    return cells, np.asarray(colours)[order]


def key(cells: np.ndarray, colours: np.ndarray | None = None) -> bytes:
    """Hashable identity of a normalised (cells, colours) pair."""
    k = cells.shape[1].to_bytes(1, "little") + cells.tobytes()
    return k if colours is None else k + b"|" + np.asarray(colours, dtype=np.int64).tobytes()


_ORIENTATIONS: dict[tuple[bytes, bool, str], list] = {}


@lru_cache(maxsize=None)
def _signed_permutations(dim: int, reflect: bool) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Each motion as ((source axis, sign) per output axis), for plain-Python use."""
    out = []
    for m in motions(dim, reflect):
        out.append(tuple((int(np.nonzero(row)[0][0]), int(row[np.nonzero(row)[0][0]])) for row in m))
    return tuple(out)


def orientations(cells: np.ndarray, colours: np.ndarray | None = None,
                 reflect: bool = True, grid: str = "square") -> list[tuple[np.ndarray, np.ndarray | None]]:
    """The distinct images of a shape under the allowed motions, duplicates removed, in
    the order of `motions` (the answer is remembered per shape). Plain Python: pieces are
    small, and numpy's per-call cost would dominate. Other grids than the square one:
    see `lattice`."""
    cells = np.asarray(cells, dtype=np.int64)
    memo = (key(cells, colours), reflect, grid)
    if memo in _ORIENTATIONS:
        return _ORIENTATIONS[memo]
    if grid != "square":
        from . import lattice
        _ORIENTATIONS[memo] = out = lattice.orientations(lattice.lattice(grid), cells, colours, reflect)
        return out
    pts = cells.tolist()
    cols = [0] * len(pts) if colours is None else np.asarray(colours).tolist()
    seen: dict[tuple, tuple[np.ndarray, np.ndarray | None]] = {}
    for motion in _signed_permutations(cells.shape[1], reflect):
        img = [tuple(sign * p[axis] for axis, sign in motion) for p in pts]
        lo = [min(c[i] for c in img) for i in range(len(motion))]
        moved = sorted((tuple(v - l for v, l in zip(c, lo)), k) for c, k in zip(img, cols))
        ident = tuple(moved)
        if ident not in seen:
            arr = np.array([c for c, _ in moved], dtype=np.int64)
            col = None if colours is None else np.array([k for _, k in moved], dtype=np.int64)
            seen[ident] = (arr, col)
    _ORIENTATIONS[memo] = out = list(seen.values())
    return out


def canonical_key(cells: np.ndarray, colours: np.ndarray | None = None,
                  reflect: bool = True, grid: str = "square") -> bytes:
    """The same key for every shape congruent under the allowed motions."""
    return min(key(c, col) for c, col in orientations(cells, colours, reflect, grid))
