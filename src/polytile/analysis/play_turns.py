"""How the page turns a piece in hand play on the triangle, hex and cube grids: each piece's
distinct orientations as the page draws them, and for each turning key the orientation it
leads to. The page needs no geometry of its own beyond translations: a key is a lookup.

The orientations are the lattice's own motions applied to the piece (those the solver's
model places: `Puzzle.orientations`, the rotations, plus the mirror images where the piece
may be flipped), so a turned piece is always one the server accepts.

Keys and their motions, each chosen by what it does on the screen (x right, y down):
2D grids  r  a clockwise turn by the grid's least angle (60 degrees on triangle and hex,
             90 on squares), R the anticlockwise one; f  a left-right mirror (where allowed).
cubes     r  a clockwise quarter turn in the layer (about the layer axis), t and y quarter
             turns about the column and the row axes (T, Y and R the other way), f a mirror.

Coordinates the page works in ("points"): on the triangle and hex grids the drawing's
(row, column) of `Grid.drawing_points`, where every translation of the grid moves by
(row, column) with an even sum; on the square grid (2D and 3D) the cells themselves."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core.grids import Grid, Motion
from ..core.grids.moves import image
from ..core.puzzle import Piece, Puzzle

# Quarter turns of the cube grid, cells (row, column, layer): clockwise in a layer as drawn
# (rows down, columns right), then rows into layers, then columns into layers.
CUBE_TURNS = {
    "r": ((0, 1, 0), (-1, 0, 0), (0, 0, 1)),
    "t": ((0, 0, 1), (0, 1, 0), (-1, 0, 0)),
    "y": ((1, 0, 0), (0, 0, 1), (0, -1, 0)),
}
CUBE_MIRROR = ((1, 0, 0), (0, -1, 0), (0, 0, 1))  # columns reversed: left-right on the screen


def _screen_map(motion: Motion, grid: Grid) -> np.ndarray:
    """The 2 x 2 linear map a motion of a flat grid makes on the screen (x right, y down),
    read from where it sends the centres of three cells (`Grid.frame_cells`)."""
    base = list(grid.frame_cells)
    before = np.array([grid.centre(c) for c in base])
    after = np.array([grid.centre(c) for c in image(motion, base)])
    d0, d1 = before[1:] - before[0], after[1:] - after[0]
    return np.linalg.solve(d0, d1).T  # d1 = d0 @ A.T, i.e. A @ v per row


def _flat_motion(grid: Grid, want: np.ndarray) -> Motion:
    """The motion of a flat grid that acts on the screen as `want`."""
    for m in grid.motions:
        if np.allclose(_screen_map(m, grid), want, atol=1e-9):
            return m
    raise ValueError(f"no motion of the {grid.name} grid makes {want.tolist()}")


def key_motions(grid: Grid) -> dict[str, Motion]:
    """The motion each turning key makes (lower case; the mirror is "f")."""
    if grid.cubic:
        zero = (0, 0, 0)
        return {**{k: (m, zero) for k, m in CUBE_TURNS.items()}, "f": (CUBE_MIRROR, zero)}
    if not grid.flat:
        raise ValueError(f"the page does not turn pieces of the {grid.title}")
    angle = math.radians(grid.turn_degrees)
    c, s = math.cos(angle), math.sin(angle)
    turn = np.array([[c, -s], [s, c]])  # clockwise when y points down
    return {"r": _flat_motion(grid, turn), "f": _flat_motion(grid, np.diag([-1.0, 1.0]))}


def _normal(grid: Grid, points: list[tuple[int, ...]]) -> tuple[tuple[int, ...], ...]:
    return tuple(sorted(grid.shift_to_origin(points)))


def page_points(grid: Grid, cells: np.ndarray) -> list[list[int]]:
    """Cells as the page places them: the cells on square and cube grids, else the drawing's
    points (`Grid.drawing_points`)."""
    cells = np.asarray(cells, dtype=np.int64)
    if grid.boxes:
        shifted: list[list[int]] = (cells - cells.min(axis=0)).tolist()
        return shifted
    points: list[list[int]] = grid.drawing_points(cells).tolist()
    return points


def piece_turns(puzzle: Puzzle, piece: Piece) -> dict[str, Any]:
    """One piece: its orientations (page points, the first one the piece as given) and, per
    key, the orientation each one turns into ("R", "T", "Y": the inverse turns). "f" is
    missing when the piece may not be flipped."""
    grid = puzzle.board.grid
    reflect = puzzle.reflects(piece)
    motions = key_motions(grid)
    if not reflect:
        motions.pop("f")
    start = _normal(grid, [tuple(c) for c in piece.cells.tolist()])
    found = {start: 0}
    forms = [start]
    keys: dict[str, list[int]] = {k: [] for k in motions}
    for form in forms:  # the orbit of the piece, breadth first
        for k, m in motions.items():
            turned = _normal(grid, image(m, list(form)))
            if turned not in found:
                found[turned] = len(forms)
                forms.append(turned)
            keys[k].append(found[turned])
    for k in [k for k in keys if k != "f"]:
        back = [0] * len(forms)
        for i, j in enumerate(keys[k]):
            back[j] = i
        keys[k.upper()] = back
    points = [page_points(grid, np.array(f, dtype=np.int64)) for f in forms]
    return {"orientations": points, "keys": keys}


def turn_tables(puzzle: Puzzle) -> list[dict[str, Any]]:
    """`piece_turns` of every piece of the puzzle, in the puzzle's order (the page's tray)."""
    return [piece_turns(puzzle, p) for p in puzzle.pieces]
