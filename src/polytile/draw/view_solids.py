"""What the page's 3D view needs to draw a board whose cells are solids of their own
(prisms, tetrahedra, balls: `mesh_solids.own`), beside the board's cells in its summary.

    solids   per board cell, [vertices, faces]: its solid in the mesh frame (x right, y up,
             z up; web/static/view3d.js turns it to three.js's y up), faces counter-clockwise
             seen from outside; the view draws the faces no other cell of the piece shares
    balls    instead, for a grid that joins its cells itself (spheres): per cell its centre,
             with `radius` and `neck` (the necks' radius on the middle plane); the view draws
             balls, and necks between touching balls of a piece
    layers   per board cell, the layer the view's "Layers" slider counts it in (from 0): its
             centroid's height in steps of the tallest cell, whose blocks stand on multiples
             of that (balls: their centres' heights, in order)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.grids.balls import CONNECTION
from ..core.grids import Grid, fit
from .mesh_solids import joined, own

DIGITS = 6  # coordinates sent rounded: a millionth of a cell edge


def _ranks(heights: np.ndarray) -> list[int]:
    """Each height's rank among the distinct heights (to a millionth)."""
    levels = np.round(heights, DIGITS)
    distinct = np.unique(levels)
    return [int(i) for i in np.searchsorted(distinct, levels)]


def view(grid: Grid, cells: np.ndarray) -> dict[str, Any]:
    """The summary's extra keys for the 3D view ({} for the grids the view draws itself)."""
    cells = np.asarray(cells, dtype=np.int64)
    if not len(cells):
        return {}
    grid = fit(grid, cells.shape[1])
    if not own(grid):
        return {}
    if joined(grid):
        centres = np.array([grid.solid(tuple(c))[0].mean(axis=0) for c in cells.tolist()])
        radius = float(np.linalg.norm(grid.solid(tuple(cells[0].tolist()))[0] - centres[0], axis=1).max())
        return {
            "balls": np.round(centres, DIGITS).tolist(),
            "radius": round(radius, DIGITS),
            "neck": round(radius * CONNECTION / 2, DIGITS),
            "layers": _ranks(centres[:, 2]),
        }
    made = [grid.solid(tuple(c)) for c in cells.tolist()]
    tall = max(float(np.ptp(np.asarray(v)[:, 2])) for v, _ in made)
    middle = np.array([np.asarray(v).mean(axis=0)[2] for v, _ in made])
    layers = np.floor(middle / tall + 1e-9).astype(int)  # cells stand in blocks of that height
    return {
        "solids": [
            [np.round(np.asarray(v, dtype=float), DIGITS).tolist(), [list(f) for f in faces]] for v, faces in made
        ],
        "layers": [int(x) for x in layers - layers.min()],
    }
