"""Calendar puzzles drawn: a solution with the open cells' labels showing (text, SVG,
PNG), and the year as a heat map, one cell per date coloured by its number of solutions.

Geometry-free of search: it gets placed pieces, the board's cells and labels, and counts."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import numpy as np

from ..core.results import Solution
from .pictures import CELL, draw_square_plane, piece_colours, square_frame

if TYPE_CHECKING:
    from matplotlib.figure import Figure
    from matplotlib.patches import Rectangle

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
LENGTHS = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def text_solution(sol: Solution, cells: np.ndarray, labels: tuple[str, ...]) -> list[str]:
    """The board as rows of four-character cells: a piece's letter where it lies, the
    label where the cell is open, blank outside the board."""
    rows, cols = cells.max(axis=0) + 1
    grid = [["    "] * int(cols) for _ in range(int(rows))]
    for (r, c), label in zip(cells.tolist(), labels):
        grid[r][c] = f"{label[:3]:>4}"
    for pl in sol.placements:
        for r, c in pl.cells.tolist():
            grid[r][c] = f"   {pl.letter}"
    return ["".join(row).rstrip() for row in grid]


def solution_pictures(found: list[Solution], cells: np.ndarray, labels: tuple[str, ...], fmt: str) -> bytes:
    """Solutions side by side (SVG or PNG bytes), the open cells' labels written in them."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    rows, cols = (int(x) for x in cells.max(axis=0) + 1)
    n = max(len(found), 1)
    fig = Figure(figsize=(n * (cols + 0.6) * CELL * 1.6, (rows + 0.3) * CELL * 1.6))
    colours = piece_colours(found)
    for k, sol in enumerate(found):
        ax = fig.add_axes((k / n, 0, 1 / n, 1))
        draw_square_plane(ax, sol.placements, cells, colours, f"piece-{k}", True, 8)
        covered = {tuple(rc) for pl in sol.placements for rc in pl.cells.tolist()}
        for (r, c), label in zip(cells.tolist(), labels):
            if (r, c) not in covered:
                ax.text(c + 0.5, r + 0.5, label, ha="center", va="center", fontsize=7)
        square_frame(ax, rows, cols, 0, 0)
    return _save(fig, fmt)


def year_picture(values: dict[tuple[int, int], int], title: str, fmt: str) -> bytes:
    """A 12 x 31 grid, month by day, each date's cell coloured by its value (fewest:
    dark), the value written in it; dates missing from `values` left blank."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import colormaps
    from matplotlib.colors import LogNorm
    from matplotlib.figure import Figure

    fig = Figure(figsize=(13.5, 5.2))
    ax = fig.add_axes((0.05, 0.04, 0.86, 0.84))
    grid = np.full((12, 31), np.nan)
    for (m, d), v in values.items():
        grid[m - 1, d - 1] = v
    low = max(1.0, float(np.nanmin(grid))) if values else 1.0
    image = ax.imshow(
        np.where(grid > 0, grid, np.nan),
        cmap=colormaps["viridis"],
        aspect="equal",
        norm=LogNorm(vmin=low, vmax=max(low + 1, float(np.nanmax(grid)))),
    )
    for (m, d), v in values.items():
        ax.text(
            d - 1,
            m - 1,
            str(v),
            ha="center",
            va="center",
            fontsize=5.5,
            color="white" if v < np.nanmedian(grid) else "black",
        )
        if v == 0:
            ax.add_patch(_cross(d - 1, m - 1))
    ax.set_xticks(range(31), [str(d) for d in range(1, 32)], fontsize=7)
    ax.set_yticks(range(12), MONTHS, fontsize=8)
    ax.set_title(title, fontsize=10)
    fig.colorbar(image, cax=fig.add_axes((0.93, 0.1, 0.015, 0.72)), label="solutions")
    return _save(fig, fmt)


def _cross(x: float, y: float) -> Rectangle:
    from matplotlib.patches import Rectangle

    return Rectangle((x - 0.5, y - 0.5), 1, 1, fill=False, edgecolor="red", linewidth=1.5)


def _save(fig: Figure, fmt: str) -> bytes:
    """Same figure, same bytes: fixed SVG hash salt, no dates in the metadata."""
    import matplotlib

    buf = io.BytesIO()
    with matplotlib.rc_context({"svg.hashsalt": "polytile", "svg.fonttype": "path"}):
        metadata = {"Date": None} if fmt == "svg" else {"Software": "polytile"}
        fig.savefig(buf, format=fmt, dpi=150, metadata=metadata, facecolor="white")
    return buf.getvalue()
