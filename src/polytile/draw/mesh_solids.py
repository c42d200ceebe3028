"""Pieces of the grids whose cells are solids of their own (prisms, tetrahedra, balls): the
piece's surface for `mesh`.

A grid that is neither flat nor of cubes gives each cell's convex solid (`grid.solid(cell)`,
faces counter-clockwise seen from outside); the piece is their union, a face two cells share
dropped (`mesh.mesh` does that and splits where the piece touches itself along an edge only).
Their vertices are keyed by position rounded to 1e-9 (the grids' corners are integers, halves
and multiples of sqrt(3) / 2 computed by one formula, so copies are equal to the last bit).

A grid whose cells are joined by more than shared faces (the sphere grid: balls joined by
necks) answers `piece_surface(cells)` itself: one closed surface per piece.

No gap or bevel on these grids: their pieces are printed as they are.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.grids import Grid
from .mesh_cells import Complex

ROUND = 1e9


def own(grid: Grid) -> bool:
    """Whether a piece of this grid is meshed here: neither flat nor of cubes."""
    return not grid.flat and not grid.cubic


def piece_surface(grid: Grid, cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The closed surface a joined grid builds for a piece: (vertices (k, 3), triangles (m, 3)
    counter-clockwise seen from outside)."""
    own_surface: Any = grid  # a joined grid answers piece_surface (see `joined`)
    vertices, faces = own_surface.piece_surface([tuple(c) for c in np.asarray(cells, dtype=np.int64).tolist()])
    return np.asarray(vertices, dtype=float).reshape(-1, 3), np.asarray(faces, dtype=np.int64).reshape(-1, 3)


def joined(grid: Grid) -> bool:
    """Whether the grid builds a piece's surface itself (not from its cells' solids)."""
    return callable(getattr(grid, "piece_surface", None))


def solids(grid: Grid, cells: np.ndarray) -> Complex:
    """The cells of a piece as a complex of convex solids, ready for `mesh.mesh`."""
    out = Complex()
    for cell in np.asarray(cells, dtype=np.int64).tolist():
        vertices, faces = grid.solid(tuple(cell))
        keys = [tuple(int(round(x * ROUND)) for x in p) for p in np.asarray(vertices, dtype=float).tolist()]
        for k, p in zip(keys, np.asarray(vertices, dtype=float)):
            out.where.setdefault(k, p)
        out.cells.append(tuple(tuple(keys[i] for i in f) for f in faces))
    return out
