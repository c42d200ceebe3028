"""Pictures of solutions with matplotlib: SVG or PNG bytes, one solution or a gallery.

2D: each piece is one filled path (the union of its cells, SVG group id `piece-S-I-L` for
solution S, placement I, letter L), thin lines between cells, thick lines where pieces meet
and around the board. 3D: an exploded voxel view of the pieces above the board's layers.
Same input, same bytes: fixed SVG hash salt, no dates in the metadata."""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from ..core.grids import Grid
from ..core.results import Placement, Solution
from ..core.library import COLOUR_OF, pentomino_name
from ..atomic import write_bytes
from .layer_pictures import draw_layers, layered, panel_size, refuse

if TYPE_CHECKING:  # matplotlib is imported when a picture is drawn (~0.3 s)
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.patches import PathPatch
    from matplotlib.typing import ColorType
    from mpl_toolkits.mplot3d import Axes3D

Segment = list[tuple[int, int]]  # a unit edge of the grid, its two ends as (x, y)
Rect = tuple[float, float, float, float]  # an axes' box in figure fractions

CELL = 0.3  # inches per cell in 2D pictures
LATTICE_CELL = 0.4  # inches per edge of a triangle or hexagon
GAP = 0.3  # inches between panels of a gallery
MARGIN = 0.15  # inches around the page
VOXEL_SIZE = 3.0  # inches, side of a 3D view
EXPLODE = 1.6  # how far 3D pieces move away from the centre
INK = "#262626"  # piece borders and text
GRID = (0, 0, 0, 0.22)


# ---- colours -------------------------------------------------------------------------------


def palette() -> list[str]:
    """tab20, strong shades first and then the light ones: the colours of pieces that are
    not pentominoes (the page colours its pieces the same way)."""
    from matplotlib import colormaps
    from matplotlib.colors import to_hex

    tab20 = colormaps["tab20"]  # 20 listed colours: colour i is tab20(i)
    tab = [to_hex(tab20(i)) for i in range(tab20.N)]
    return tab[0::2] + tab[1::2]


def piece_colours(solutions: list[Solution]) -> dict[str, str]:
    """Colours of the pieces that are not pentominoes (those get their Katamino colour by
    shape): a palette by letter, so a piece has one colour on the whole page."""
    others = sorted({pl.letter for sol in solutions for pl in sol.placements if pentomino_name(pl.cells) is None})
    shades = palette()
    return {letter: shades[i % len(shades)] for i, letter in enumerate(others)}


def colour_for(pl: Placement, colours: dict[str, str]) -> str:
    """A placement's colour: its Katamino colour when it is a pentomino, else its letter's in
    `colours` (from `piece_colours`), so pictures, the page and the calendars agree."""
    name = pentomino_name(pl.cells)  # copies of a pentomino keep its Katamino colour
    return COLOUR_OF[name] if name is not None else colours[pl.letter]


def _ink_on(colour: str) -> str:
    """Black or white text, whichever reads better on `colour`."""
    from matplotlib.colors import to_rgb

    r, g, b = to_rgb(colour)
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 0.55 else "white"


# ---- 2D ------------------------------------------------------------------------------------


def _square(r: int, c: int) -> list[tuple[int, int]]:
    return [(c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1), (c, r)]


def _piece_patch(cells: list[tuple[int, int]], colour: str, gid: str) -> PathPatch:
    from matplotlib.path import Path as MPath
    from matplotlib.patches import PathPatch

    verts: list[tuple[int, int]] = []
    codes: list[Any] = []
    for r, c in cells:
        verts += _square(r, c)
        codes += [MPath.MOVETO, MPath.LINETO, MPath.LINETO, MPath.LINETO, MPath.CLOSEPOLY]
    patch = PathPatch(MPath(verts, codes), facecolor=colour, edgecolor="none", linewidth=0)
    patch.set_gid(gid)
    return patch


def _edges(owner: dict[tuple[int, int], int]) -> tuple[list[Segment], list[Segment]]:
    """Cell edges split into thin ones (inside a piece or an empty region) and thick ones
    (between pieces, around the board and its holes); each edge once."""
    thin: list[Segment] = []
    thick: list[Segment] = []
    for (r, c), who in owner.items():
        for dr, dc, seg in (
            (0, 1, [(c + 1, r), (c + 1, r + 1)]),
            (1, 0, [(c, r + 1), (c + 1, r + 1)]),
            (0, -1, [(c, r), (c, r + 1)]),
            (-1, 0, [(c, r), (c + 1, r)]),
        ):
            other = owner.get((r + dr, c + dc))
            if other is None:
                thick.append(seg)  # the board's edge: seen from one side only
            elif (dr, dc) in ((0, 1), (1, 0)):
                (thin if other == who else thick).append(seg)
    return thin, thick


def draw_square_plane(
    ax: Axes,
    placements: list[Placement],
    board: np.ndarray,
    colours: dict[str, str],
    gid: str,
    labels: bool,
    fontsize: float,
) -> None:
    """One 2D picture: `board` and the placements' cells as (row, col) arrays."""
    owner = {(int(r), int(c)): -1 for r, c in board}
    for i, pl in enumerate(placements):
        cells = [(int(r), int(c)) for r, c in pl.cells]
        owner.update((cell, i) for cell in cells)
        colour = colour_for(pl, colours)
        ax.add_patch(_piece_patch(cells, colour, f"{gid}-{i}-{pl.letter}"))
        if labels:
            centre = np.mean(cells, axis=0)
            r, c = min(cells, key=lambda rc: ((rc[0] - centre[0]) ** 2 + (rc[1] - centre[1]) ** 2, rc))
            ax.text(
                c + 0.5,
                r + 0.5,
                pl.letter,
                ha="center",
                va="center_baseline",
                fontsize=fontsize,
                color=_ink_on(colour),
                fontweight="bold",
            )
    thin, thick = _edges(owner)
    scale = fontsize / 8
    ax.add_patch(_strokes(thin, GRID, 0.6 * scale, "butt"))
    ax.add_patch(_strokes(thick, INK, 2.2 * scale, "round"))


def _strokes(segments: list[Segment], colour: ColorType, width: float, cap: str) -> PathPatch:
    """Unit segments joined into straight runs, drawn as one path (one SVG element)."""
    from matplotlib.path import Path as MPath
    from matplotlib.patches import PathPatch

    lines: dict[tuple[int, int], list[int]] = {}
    for (x0, y0), (x1, y1) in segments:
        key, at = ((0, y0), min(x0, x1)) if y0 == y1 else ((1, x0), min(y0, y1))
        lines.setdefault(key, []).append(at)
    verts: list[tuple[int, int]] = []
    codes: list[Any] = []
    for (vertical, fixed), starts in sorted(lines.items()):
        starts.sort()
        run = [starts[0], starts[0] + 1]
        for a in [*starts[1:], None]:
            if a == run[1]:
                run[1] += 1
                continue
            ends = [(fixed, t) if vertical else (t, fixed) for t in run]
            verts += ends
            codes += [MPath.MOVETO, MPath.LINETO]
            if a is not None:
                run = [a, a + 1]
    path = MPath(verts, codes) if verts else MPath(np.zeros((1, 2)), [MPath.MOVETO])
    return PathPatch(path, fill=False, edgecolor=colour, linewidth=width, capstyle=cap, joinstyle="round")


def square_frame(ax: Axes, rows: int, cols: int, lo_r: int, lo_c: int, pad: float = 0.15) -> None:
    """Fit the axes to a rows x cols board with a margin, row 0 on top, square cells."""
    ax.set_xlim(lo_c - pad, lo_c + cols + pad)
    ax.set_ylim(lo_r + rows + pad, lo_r - pad)  # row 0 on top
    ax.set_aspect("equal")
    ax.set_axis_off()


# ---- 3D ------------------------------------------------------------------------------------


def _draw_voxels(
    ax: Axes3D, placements: list[Placement], lo: np.ndarray, size: np.ndarray, colours: dict[str, str]
) -> None:
    """Each piece its own `voxels` call, moved away from the centre so every piece shows.
    Axes: x = column, y = rows counted from the back, z = layer upwards."""
    from matplotlib.colors import to_rgb

    centre = (size - 1) / 2
    corners = np.indices(tuple(int(s) + 1 for s in (size[1], size[0], size[2]))).astype(float)
    lows, highs = [], []
    for pl in placements:
        cells = pl.cells - lo
        filled = np.zeros((size[1], size[0], size[2]), dtype=bool)
        filled[cells[:, 1], size[0] - 1 - cells[:, 0], cells[:, 2]] = True
        away = cells.mean(axis=0) - centre
        shift = EXPLODE * away / max(float(np.linalg.norm(away)), 1e-9) ** 0.5  # near the centre too
        offset = np.array([shift[1], -shift[0], shift[2]])
        x, y, z = (corners[k] + offset[k] for k in range(3))
        colour = colour_for(pl, colours)
        edge = tuple(0.55 * v for v in to_rgb(colour))
        ax.voxels(x, y, z, filled, facecolors=colour, edgecolors=edge, linewidth=0.4)
        lows.append(offset)
        highs.append(offset + size[[1, 0, 2]])
    lo3 = np.min(lows, axis=0) if lows else np.zeros(3)
    hi3 = np.max(highs, axis=0) if highs else size[[1, 0, 2]].astype(float)
    ax.set_xlim(lo3[0], hi3[0])
    ax.set_ylim(lo3[1], hi3[1])
    ax.set_zlim(lo3[2], hi3[2])
    ax.set_box_aspect(tuple(hi3 - lo3), zoom=1.15)
    ax.set_proj_type("ortho")
    ax.view_init(elev=22, azim=-62)
    ax.set_axis_off()


def _layers(sol: Solution, board: np.ndarray, z: int) -> tuple[list[Placement], np.ndarray]:
    on = [Placement(p.piece, p.letter, p.cells[p.cells[:, 2] == z][:, :2]) for p in sol.placements]
    return [p for p in on if len(p.cells)], board[board[:, 2] == z][:, :2]


# ---- page layout ---------------------------------------------------------------------------


def _panel_size(size: np.ndarray) -> tuple[float, float]:
    rows, cols = int(size[0]), int(size[1])
    if len(size) == 2:
        return (cols + 0.3) * CELL, (rows + 0.3) * CELL
    layers = int(size[2])
    cell = min(CELL, VOXEL_SIZE / (layers * (cols + 1)))
    strip_w = layers * (cols + 1) * cell
    return max(VOXEL_SIZE, strip_w), VOXEL_SIZE + (rows + 1.3) * cell


def _lattice_panel(grid: Grid, board: np.ndarray) -> tuple[float, float]:
    from .lattice_pictures import extent

    x0, y0, x1, y1 = extent(grid, board)
    return (x1 - x0 + 0.3) * LATTICE_CELL, (y1 - y0 + 0.3) * LATTICE_CELL


def _draw_lattice(
    ax: Axes, grid: Grid, sol: Solution, board: np.ndarray, colours: dict[str, str], s: int, labels: bool
) -> None:
    from .lattice_pictures import draw_plane, extent, frame

    draw_plane(ax, grid, sol.placements, board, colours, f"piece-{s}", labels, 8, colour_for, _ink_on, INK, GRID)
    frame(ax, extent(grid, board))


def _plane(
    ax: Axes,
    grid: Grid,
    placements: list[Placement],
    board: np.ndarray,
    colours: dict[str, str],
    gid: str,
    labels: bool,
) -> None:
    """A flat layer of a layered grid, drawn as the polygon grids are; a piece keeps its colour
    in every layer (its part of a layer is no pentomino of its own)."""
    from .lattice_pictures import draw_plane

    def by_letter(pl: Placement, colours: dict[str, str]) -> str:
        return colours.get(pl.letter) or colour_for(pl, colours)

    draw_plane(ax, grid, placements, board, colours, gid, labels, 8, by_letter, _ink_on, INK, GRID)


def _draw_solid(
    fig: Figure,
    rect: Callable[[float, float, float, float], Rect],
    x0: float,
    y0: float,
    pw: float,
    sol: Solution,
    board: np.ndarray,
    lo: np.ndarray,
    size: np.ndarray,
    colours: dict[str, str],
    s: int,
    labels: bool,
) -> None:
    """A 3D solution's panel at (x0, y0), `pw` wide (inches; `rect` turns them into figure
    coordinates): the exploded voxels, and under them each layer as a plane."""
    ax3 = fig.add_axes(rect(x0, y0, pw, VOXEL_SIZE), projection="3d")
    _draw_voxels(ax3, sol.placements, lo, size, colours)
    layers, r, c = int(size[2]), int(size[0]), int(size[1])
    cell = min(CELL, VOXEL_SIZE / (layers * (c + 1)))
    left = x0 + (pw - layers * (c + 1) * cell) / 2
    for z in range(layers):
        pls, plane = _layers(sol, board, int(lo[2]) + z)
        ax = fig.add_axes(rect(left + (z + 0.15) * (c + 1) * cell, y0 + VOXEL_SIZE, (c + 0.7) * cell, (r + 1.3) * cell))
        draw_square_plane(ax, pls, plane, colours, f"layer-{s}-{z}", labels, 8 * cell / CELL)
        square_frame(ax, r, c, int(lo[0]), int(lo[1]))
        ax.set_ylim(lo[0] + r + 0.15, lo[0] - 1.15)
        ax.text(lo[1] + c / 2, lo[0] - 0.6, f"layer {z + 1}", ha="center", va="center", fontsize=7, color="#777777")


@dataclass
class _Page:
    """Where the panels of a picture go (inches): one panel per solution, in `cols` columns,
    each with a label above it when there are several, under an optional title."""

    n: int
    cols: int
    pw: float
    ph: float
    label_h: float
    title_h: float
    width: float
    height: float

    def rect(self, x: float, y: float, w: float, h: float) -> Rect:
        """An axes' box in figure fractions, from inches measured from the top left."""
        return (x / self.width, 1 - (y + h) / self.height, w / self.width, h / self.height)

    def origin(self, s: int) -> tuple[float, float]:
        """The top left corner of panel s (its label included)."""
        x0 = MARGIN + (s % self.cols) * (self.pw + GAP)
        return x0, MARGIN + self.title_h + (s // self.cols) * (self.ph + self.label_h + GAP)


def _layout(n: int, panel: tuple[float, float], columns: int | None, title: str | None) -> _Page:
    """The page for n panels of one size: columns chosen to make the page squarish."""
    pw, ph = panel
    cols = max(1, min(n, columns or math.ceil(math.sqrt(n * ph / pw))))
    rows = math.ceil(n / cols)
    label_h = 0.22 if n > 1 else 0.0
    title_h = 0.45 if title else 0.0
    width = 2 * MARGIN + cols * pw + (cols - 1) * GAP
    height = 2 * MARGIN + title_h + rows * (ph + label_h) + (rows - 1) * GAP
    return _Page(n, cols, pw, ph, label_h, title_h, width, height)


def _save(fig: Figure, fmt: str, dpi: int) -> bytes:
    """The figure's file bytes, the same for the same input (no dates, a fixed hash salt)."""
    import matplotlib

    buf = io.BytesIO()
    with matplotlib.rc_context({"svg.hashsalt": "polytile", "svg.fonttype": "path"}):
        metadata = {"Date": None} if fmt == "svg" else {"Software": "polytile"}
        fig.savefig(buf, format=fmt, dpi=dpi, metadata=metadata, facecolor="white")
    return buf.getvalue()


def draw(
    solutions: Solution | Sequence[Solution],
    board_cells: np.ndarray,
    fmt: str = "svg",
    columns: int | None = None,
    title: str | None = None,
    labels: bool = True,
    dpi: int = 150,
) -> bytes:
    """One picture of one solution, or a gallery of several (in `columns` columns); with no
    solutions, the empty board. Returns the SVG or PNG file's bytes."""
    from matplotlib.figure import Figure  # ~0.3 s: only when a picture is drawn

    if fmt not in ("svg", "png"):
        raise ValueError(f"unknown picture format {fmt!r} (svg or png)")
    sols = [solutions] if isinstance(solutions, Solution) else list(solutions) or [Solution([])]
    board = np.asarray(board_cells, dtype=np.int64)
    lo, size = board.min(axis=0), board.max(axis=0) - board.min(axis=0) + 1
    grid = sols[0].grid
    refuse(grid)  # rhombic, tetra-octa: 3D only
    if grid.boxes:
        panel = _panel_size(size)
    else:
        panel = panel_size(grid, board, LATTICE_CELL) if layered(grid) else _lattice_panel(grid, board)
    page = _layout(len(sols), panel, columns, title)
    colours = piece_colours(sols)
    fig = Figure(figsize=(page.width, page.height), facecolor="white")
    if title:
        fig.text(
            0.5, 1 - (MARGIN + page.title_h / 2) / page.height, title, ha="center", va="center", fontsize=13, color=INK
        )
    for s, sol in enumerate(sols):
        x0, y0 = page.origin(s)
        if page.n > 1:
            fig.text(
                (x0 + page.pw / 2) / page.width,
                1 - (y0 + page.label_h / 2) / page.height,
                f"{s + 1}",
                ha="center",
                va="center",
                fontsize=8,
                color="#777777",
            )
        y0 += page.label_h
        if layered(grid):
            style = (colours, s, labels, _plane)
            draw_layers(fig, page.rect, (x0, y0, LATTICE_CELL), grid, sol, board, style)
        elif not grid.boxes:
            _draw_lattice(fig.add_axes(page.rect(x0, y0, page.pw, page.ph)), grid, sol, board, colours, s, labels)
        elif len(size) == 2:
            ax = fig.add_axes(page.rect(x0, y0, page.pw, page.ph))
            draw_square_plane(ax, sol.placements, board, colours, f"piece-{s}", labels, 8)
            square_frame(ax, int(size[0]), int(size[1]), int(lo[0]), int(lo[1]))
        else:
            _draw_solid(fig, page.rect, x0, y0, page.pw, sol, board, lo, size, colours, s, labels)
    return _save(fig, fmt, dpi)


def to_file(path: str | Path, data: bytes) -> None:
    """Write a picture atomically: a reader sees the old file or the new one."""
    write_bytes(path, data)


def solution_svg(solution: Solution) -> str:
    """A solution as SVG text, for Jupyter's display (`polytile.show_in_jupyter` registers
    it, so the model in core/ knows nothing of pictures)."""
    cells = [p.cells for p in solution.placements]
    board = solution.board if solution.board is not None else np.concatenate(cells)
    return draw([solution], board, "svg").decode()
