"""Pictures of solutions on the grids drawn as polygons (triangle, hex ...): each piece one filled path (the union of
its cells' polygons, SVG group id as in `pictures`), thin lines between cells of one piece,
thick lines where pieces meet and around the board. Coordinates: `Grid.corners`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

import numpy as np


if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.collections import LineCollection
    from matplotlib.typing import ColorType

    from ..core.grids import Grid
    from ..core.results import Placement

Point = tuple[float, float]
EdgeKey = tuple[Point, ...]  # an edge's two ends, rounded and sorted


def extent(grid: Grid, board: np.ndarray) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1): the board's bounding box in the plane, edge length 1."""
    pts = [p for cell in board.tolist() for p in grid.corners(tuple(cell))]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def _edge_key(a: Point, b: Point) -> EdgeKey:
    return tuple(sorted(((round(a[0], 6), round(a[1], 6)), (round(b[0], 6), round(b[1], 6)))))


def _edges(grid: Grid, owner: dict[tuple[int, ...], int]) -> tuple[list[EdgeKey], list[EdgeKey]]:
    """Cell edges split into thin (one owner on both sides) and thick ones, each once."""
    sides: dict[EdgeKey, list[int]] = {}
    for cell, who in owner.items():
        poly = grid.corners(cell)
        for a, b in zip(poly, poly[1:] + poly[:1]):
            sides.setdefault(_edge_key(a, b), []).append(who)
    thin: list[EdgeKey] = []
    thick: list[EdgeKey] = []
    for seg, owners in sides.items():
        (thin if len(owners) == 2 and owners[0] == owners[1] else thick).append(seg)
    return thin, thick


def _segments(segments: list[EdgeKey], colour: ColorType, width: float, cap: str) -> LineCollection:
    from matplotlib.collections import LineCollection

    return LineCollection(segments, colors=[colour], linewidths=width, capstyle=cap, joinstyle="round")


def draw_plane(
    ax: Axes,
    grid: Grid,
    placements: list[Placement],
    board: np.ndarray,
    colours: dict[str, str],
    gid: str,
    labels: bool,
    fontsize: float,
    colour_for: Callable[[Placement, dict[str, str]], str],
    ink_on: Callable[[str], str],
    ink: str,
    thin_colour: ColorType,
) -> None:
    """One picture of a solution on a grid of polygons on the axes (y downwards)."""
    from matplotlib.patches import PathPatch
    from matplotlib.path import Path as MPath

    owner: dict[tuple[int, ...], int] = {tuple(c): -1 for c in board.tolist()}
    for i, pl in enumerate(placements):
        cells = [tuple(c) for c in pl.cells.tolist()]
        owner.update((c, i) for c in cells)
        colour = colour_for(pl, colours)
        verts: list[Point] = []
        codes: list[Any] = []
        for c in cells:
            poly = grid.corners(c)
            verts += poly + [poly[0]]
            codes += [MPath.MOVETO] + [MPath.LINETO] * (len(poly) - 1) + [MPath.CLOSEPOLY]
        patch = PathPatch(MPath(verts, codes), facecolor=colour, edgecolor="none", linewidth=0)
        patch.set_gid(f"{gid}-{i}-{pl.letter}")
        ax.add_patch(patch)
        if labels:
            mid = np.mean([grid.centre(c) for c in cells], axis=0)
            x, y = min((grid.centre(c) for c in cells), key=lambda p: ((p[0] - mid[0]) ** 2 + (p[1] - mid[1]) ** 2, p))
            ax.text(
                x,
                y,
                pl.letter,
                ha="center",
                va="center_baseline",
                fontsize=fontsize * 0.8,
                color=ink_on(colour),
                fontweight="bold",
            )
    thin, thick = _edges(grid, owner)
    scale = fontsize / 8
    ax.add_collection(_segments(thin, thin_colour, 0.6 * scale, "butt"))
    ax.add_collection(_segments(thick, ink, 2.2 * scale, "round"))


def frame(ax: Axes, box: tuple[float, float, float, float], pad: float = 0.15) -> None:
    """Fit the axes to a box with a margin, y downwards and square cells, as every lattice
    picture needs."""
    x0, y0, x1, y1 = box
    ax.set_xlim(x0 - pad, x1 + pad)
    ax.set_ylim(y1 + pad, y0 - pad)
    ax.set_aspect("equal")
    ax.axis("off")
