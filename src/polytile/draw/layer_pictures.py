"""Solutions on the 3D grids drawn as layers of a flat grid (prisms: triangles, spheres:
squares; `flat_layers` of the grid, core/grids/layers.py): each layer a flat picture
(`lattice_pictures.draw_plane`), side by side, labelled "layer 1", "layer 2" ... from the bottom;
and as text, the layers' drawings side by side. The grids with neither flat cells nor layers
(rhombic, tetra-octa) are shown in 3D only: `refuse` says so in one line."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from ..core.grids import Grid
from ..core.grids import grid as named_grid
from ..core.results import Placement, Solution
from ..errors import PuzzleError

if TYPE_CHECKING:
    from matplotlib.figure import Figure

GAP = 0.6  # edges between two layers' panels
TITLE = 0.5  # edges above a panel for its "layer k"


def layered(grid: Grid) -> bool:
    """Whether the grid's cells are drawn as layers of a flat grid."""
    return callable(getattr(grid, "flat_layers", None))


def refuse(grid: Grid) -> None:
    """One line for a grid drawn in 3D only (neither flat nor of cubes nor in layers)."""
    if not grid.flat and not grid.boxes and not layered(grid):
        raise PuzzleError(
            f"there is no drawing of the {grid.title}: it is shown in 3D only (`polytile mesh` writes STL or OBJ, "
            "the page `polytile serve` shows it)",
            "--format",
        )


def split(
    grid: Grid, sol: Solution, board: np.ndarray
) -> tuple[Grid, list[tuple[list[Placement], np.ndarray]], np.ndarray]:
    """(the flat grid, per layer from the bottom its placements and board cells, every flat board cell)."""
    own: Any = grid
    zs, flat_name, flat = own.flat_layers(board)
    out = []
    for z in sorted(set(zs.tolist())):
        on = []
        for p in sol.placements:
            pz, _, pf = own.flat_layers(p.cells)
            if (pz == z).any():
                on.append(Placement(p.piece, p.letter, pf[pz == z]))
        out.append((on, flat[zs == z]))
    return named_grid(flat_name), out, flat


def panel_size(grid: Grid, board: np.ndarray, inch: float) -> tuple[float, float]:
    """Inches of the layers side by side (`inch` per edge)."""
    from .lattice_pictures import extent

    flat_grid, layers, flat = split(grid, Solution([], None, grid), board)
    x0, y0, x1, y1 = extent(flat_grid, flat)
    return (len(layers) * (x1 - x0 + GAP) + 0.3) * inch, (y1 - y0 + TITLE + 0.3) * inch


def draw_layers(
    fig: Figure,
    rect: Callable[[float, float, float, float], Any],
    at: tuple[float, float, float],
    grid: Grid,
    sol: Solution,
    board: np.ndarray,
    style: tuple[dict[str, str], int, bool, Callable[..., Any]],
) -> None:
    """The layers of a solution side by side from (x0, y0) inches, `inch` per edge; `style`
    is (colours, the solution's number, labels, draw_plane with the picture's colours)."""
    from .lattice_pictures import extent, frame

    x0, y0, inch = at
    colours, s, labels, plane = style
    flat_grid, layers, flat = split(grid, sol, board)
    bx0, by0, bx1, by1 = extent(flat_grid, flat)
    w, h = bx1 - bx0, by1 - by0
    for k, (placements, cells) in enumerate(layers):
        ax = fig.add_axes(rect(x0 + k * (w + GAP) * inch, y0, (w + 0.3) * inch, (h + TITLE + 0.3) * inch))
        plane(ax, flat_grid, placements, cells, colours, f"layer-{s}-{k}", labels)
        frame(ax, (bx0, by0 - TITLE, bx1, by1))
        ax.text(
            (bx0 + bx1) / 2, by0 - TITLE / 2, f"layer {k + 1}", ha="center", va="center", fontsize=7, color="#777777"
        )


def text_lines(grid: Grid, sol: Solution, board: np.ndarray) -> list[str]:
    """The layers' text drawings side by side (three spaces apart), from the bottom layer."""
    from .lattice_draw import text_rows

    flat_grid, layers, flat = split(grid, sol, board)
    blocks = []
    for placements, cells in layers:
        frame_cells = np.concatenate([flat, cells])  # every layer drawn in the whole board's frame
        rows = text_rows(flat_grid, frame_cells, [(cells, "."), *((p.cells, p.letter) for p in placements)], empty=" ")
        blocks.append(rows)
    height = max(len(b) for b in blocks)
    width = [max((len(r) for r in b), default=0) for b in blocks]
    return [
        "   ".join((b[i] if i < len(b) else "").ljust(w) for b, w in zip(blocks, width)).rstrip() for i in range(height)
    ]
