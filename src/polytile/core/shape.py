"""Shapes: finite sets of integer cells in 2D or 3D, their motions and orientations.

A shape is kept as an (n, d) int array of cells, sorted and translated so that its
minimum corner is the origin ("normalised"). A colouring travels with the cells as a
parallel array of small integers (0 when the puzzle has no colours).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable

import numpy as np

from .grids import SQUARE, Grid
from .grids.moves import orientations as lattice_orientations
from .grids.square import isometries as isometries
from .grids.square import rotations as rotations


def motions(dim: int, reflect: bool) -> tuple[np.ndarray, ...]:
    """The motions a shape may make on the square grid: all isometries, or the rotations only."""
    return isometries(dim) if reflect else rotations(dim)


def normalise(cells: np.ndarray, colours: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray | None]:
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
    k: bytes = int(cells.shape[1]).to_bytes(1, "little") + cells.tobytes()
    return k if colours is None else k + b"|" + np.asarray(colours, dtype=np.int64).tobytes()


Orientations = list[tuple[np.ndarray, "np.ndarray | None"]]
_ORIENTATIONS: dict[tuple[bytes, bool, Grid], Orientations] = {}


@lru_cache(maxsize=None)
def _motion_stack(dim: int, reflect: bool) -> np.ndarray:
    return np.stack(motions(dim, reflect))


def orientations(
    cells: np.ndarray, colours: np.ndarray | None = None, reflect: bool = True, grid: Grid = SQUARE
) -> Orientations:
    """The distinct images of a shape under the allowed motions, duplicates removed, in
    the order of `motions`, cells sorted (colours follow); remembered per shape. Other
    grids than the square and cube ones: see `grids.moves.orientations`."""
    return orientations_of([(cells, colours, reflect)], grid)[0]


def orientations_of(
    shapes: list[tuple[np.ndarray, np.ndarray | None, bool]], grid: Grid = SQUARE
) -> list[Orientations]:
    """`orientations` of many (cells, colours, reflect) at once: on the square grid the
    shapes of one size, dimension and reflection policy are turned together (numpy's
    per-call cost, not the shapes, is what a puzzle's dozen pieces pay)."""
    cells_of = [np.asarray(cells, dtype=np.int64) for cells, _, _ in shapes]
    memos = [(key(c, col), reflect, grid) for c, (_, col, reflect) in zip(cells_of, shapes)]
    todo: dict[tuple[int, int, bool], list[int]] = {}
    for i, memo in enumerate(memos):
        if memo not in _ORIENTATIONS:
            if not grid.boxes:
                _ORIENTATIONS[memo] = lattice_orientations(grid, cells_of[i], shapes[i][1], shapes[i][2])
            else:
                todo.setdefault((len(cells_of[i]), cells_of[i].shape[1], shapes[i][2]), []).append(i)
    for (_, dim, reflect), group in todo.items():
        batch = [(cells_of[i], shapes[i][1]) for i in group]
        for i, found in zip(group, _square_orientations(batch, dim, reflect)):
            _ORIENTATIONS[memos[i]] = found
    return [_ORIENTATIONS[memo] for memo in memos]


def _square_orientations(
    batch: list[tuple[np.ndarray, np.ndarray | None]], dim: int, reflect: bool
) -> list[Orientations]:
    """Orientations of shapes of one size on the square grid, all motions at once."""
    cells = np.stack([c for c, _ in batch])  # (P, k, d)
    colours = np.stack(
        [np.zeros(len(c), np.int64) if col is None else np.asarray(col, np.int64) for c, col in batch]
    )  # (P, k)
    mats = _motion_stack(dim, reflect)
    found = _compiled[0](cells, colours, mats) if _compiled else None
    imgs, cols, first = found if found is not None else _turned(cells, colours, mats)
    imgs.flags.writeable = cols.flags.writeable = False  # shared by the memo
    return [
        [(imgs[p, m], None if col is None else cols[p, m]) for m in np.flatnonzero(first[p]).tolist()]
        for p, (_, col) in enumerate(batch)
    ]


# a compiled `_turned` (engine/turning_driver.turner), registered by the tiling layer (core
# may not import engine): (cells, colours, mats) -> (imgs, cols, first), or None for numpy
Turner = Callable[[np.ndarray, np.ndarray, np.ndarray], "tuple[np.ndarray, np.ndarray, np.ndarray] | None"]
_compiled: list[Turner] = []


def use_compiled(turner: Turner | None) -> None:
    """Turn shapes with `turner` from now on (None: numpy's `_turned` again)."""
    _compiled[:] = [] if turner is None else [turner]


def _turned(cells: np.ndarray, colours: np.ndarray, mats: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(imgs (P, M, k, d), cols (P, M, k), first (P, M)): each shape under each motion,
    normalised (colours follow), and whether it is the first of its kind in the order of
    the motions. The reference engine/turning.py is compared with."""
    imgs = cells[:, None] @ mats.transpose(0, 2, 1)[None]
    imgs -= imgs.min(axis=2, keepdims=True)  # (P, M, k, d) normalised
    order = np.lexsort([imgs[..., a] for a in reversed(range(cells.shape[2]))], axis=-1)  # (P, M, k)
    imgs = np.take_along_axis(imgs, order[..., None], axis=2)
    cols = np.take_along_axis(colours[:, None, :], order, axis=2)
    first = np.zeros(imgs.shape[:2], dtype=bool)
    for p in range(imgs.shape[0]):
        seen: set[bytes] = set()
        for m in range(imgs.shape[1]):
            ident = imgs[p, m].tobytes() + cols[p, m].tobytes()
            first[p, m] = ident not in seen
            seen.add(ident)
    return imgs, cols, first


def canonical_key(
    cells: np.ndarray, colours: np.ndarray | None = None, reflect: bool = True, grid: Grid = SQUARE
) -> bytes:
    """The same key for every shape congruent under the allowed motions."""
    return canonical_keys([(cells, colours, reflect)], grid)[0]


def canonical_keys(shapes: list[tuple[np.ndarray, np.ndarray | None, bool]], grid: Grid = SQUARE) -> list[bytes]:
    """`canonical_key` of many (cells, colours, reflect) at once."""
    return [min(key(c, col) for c, col in found) for found in orientations_of(shapes, grid)]
