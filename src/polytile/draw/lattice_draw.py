"""Text drawings of cells on the triangle and hex grids (the inverse of
`lattice.from_drawing`).

triangle  one character per triangle, row by row; (row, column) points up when
          row + column is even. Pieces are drawn with '▲' and '▼', so the shape reads.
hex       hexes two columns apart, each row shifted by one column (a parallelogram of
          axial coordinates leans to the right).
"""

from __future__ import annotations

import numpy as np


def drawing_points(grid: str, cells: np.ndarray) -> np.ndarray:
    """(row, column) of each cell in the drawing, the least row and column 0 (on the hex
    grid the least column is 0 or 1, so that row + column stays even)."""
    cells = np.asarray(cells, dtype=np.int64)
    if grid == "triangle":
        pts = np.stack([-cells[:, 0], cells[:, 1] - cells[:, 2]], axis=1)
    elif grid == "hex":
        pts = np.stack([cells[:, 1], 2 * cells[:, 0] + cells[:, 1]], axis=1)
    else:
        return np.asarray(cells[:, :2] - cells[:, :2].min(axis=0))
    lo = pts.min(axis=0)
    lo[1] -= (lo[1] - lo[0]) % 2  # keep the parity of row + column
    return np.asarray(pts - lo)


def text_rows(grid: str, board: np.ndarray, marks: list[tuple[np.ndarray, str]], empty: str = ".") -> list[str]:
    """Rows of a drawing of `board`: each (cells, character) of `marks` drawn over the board's
    cells, which show `empty`. A character of "" draws ▲/▼ on the triangle grid, '#' else."""
    allc = np.concatenate([board] + [c for c, _ in marks])
    pts = drawing_points(grid, allc)
    rows = [[" "] * (int(pts[:, 1].max()) + 1) for _ in range(int(pts[:, 0].max()) + 1)]
    start = 0
    for cells, ch in [(board, empty)] + marks:
        for r, c in pts[start : start + len(cells)].tolist():
            rows[r][c] = ch or _glyph(grid, r, c)
        start += len(cells)
    return ["".join(row).rstrip() for row in rows]


def _glyph(grid: str, r: int, c: int) -> str:
    if grid == "triangle":
        return "▲" if (r + c) % 2 == 0 else "▼"
    return "#"


def piece_rows(grid: str, cells: np.ndarray) -> list[str]:
    """A piece alone: ▲/▼ (triangle) or '#' (hex) on its cells, spaces elsewhere."""
    return text_rows(grid, np.zeros((0, cells.shape[1]), dtype=np.int64), [(cells, "")])
