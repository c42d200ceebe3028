"""A grid that exists only in the tests: rectangles of 2 x 1 (twice as wide as high), cells
(row, column), rectangle (r, c) spanning x in [2c, 2c + 2], y in [r, r + 1] (y down).

Its motions are the four of a rectangle (identity, the half turn, the two mirrors): unlike the
square grid's eight, no quarter turn, so a lying domino never stands up. Registered by the
tests that use it (`core.grids.register`), with no edit outside tests/: the proof that a grid
is one module (docs/architecture.md, "Adding a grid")."""

from __future__ import annotations

import numpy as np

from polytile.core.grids.base import Grid, Motion, Point, axis_steps


class Rectangles(Grid):
    """2 x 1 rectangles in rows and columns."""

    name = "rectangle"
    dim = 2
    title = "rectangle grid"
    polyform = "polyrect"
    n_forms = "n-rects"
    flat = True
    cells_at_vertex = 4
    turn_degrees = 180
    frame_cells = ((0, 0), (1, 0), (0, 1))
    origin_cell = (0, 0)
    cell_volume = 2.0

    def build(self) -> tuple[tuple[Motion, ...], int, tuple[tuple[int, ...], ...]]:
        """Identity and the half turn, then the mirrors (columns reversed, rows reversed)."""
        zero = (0, 0)
        motions = (
            (((1, 0), (0, 1)), zero),
            (((-1, 0), (0, -1)), zero),
            (((1, 0), (0, -1)), zero),
            (((-1, 0), (0, 1)), zero),
        )
        return motions, 2, axis_steps(2)

    def corners(self, cell: tuple[int, ...]) -> list[Point]:
        r, c = cell
        return [(2 * c, r), (2 * c + 2, r), (2 * c + 2, r + 1), (2 * c, r + 1)]

    def from_drawing(self, points: np.ndarray) -> np.ndarray:
        return points

    def drawing_points(self, cells: np.ndarray) -> np.ndarray:
        cells = np.asarray(cells, dtype=np.int64)
        return np.asarray(cells - cells.min(axis=0))
