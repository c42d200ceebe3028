"""Text drawings of cells on the grids drawn as polygons other than the square one (the
inverse of `Grid.from_drawing`): one character per cell at the grid's `drawing_points`,
a piece's cells shown with the grid's `glyph` ('▲'/'▼' on the triangle grid, so the shape
reads; '#' else).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from ..core.grids import Grid


def text_rows(grid: Grid, board: np.ndarray, marks: list[tuple[np.ndarray, str]], empty: str = ".") -> list[str]:
    """Rows of a drawing of `board`: each (cells, character) of `marks` drawn over the board's
    cells, which show `empty`. A character of "" draws the grid's glyph."""
    allc = np.concatenate([board] + [c for c, _ in marks])
    pts = grid.drawing_points(allc)
    rows = [[" "] * (int(pts[:, 1].max()) + 1) for _ in range(int(pts[:, 0].max()) + 1)]
    start = 0
    for cells, ch in [(board, empty)] + marks:
        for r, c in pts[start : start + len(cells)].tolist():
            rows[r][c] = ch or grid.glyph(r, c)
        start += len(cells)
    return ["".join(row).rstrip() for row in rows]


def piece_rows(grid: Grid, cells: np.ndarray) -> list[str]:
    """A piece alone: the grid's glyph on its cells, spaces elsewhere."""
    return text_rows(grid, np.zeros((0, cells.shape[1]), dtype=np.int64), [(cells, "")])
