"""Draw solutions in the terminal: one letter per piece, coloured with rich; a 3D
solution as its layers side by side."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..core.results import Solution
from ..core.library import COLOUR_OF
from .layer_pictures import layered
from .layer_pictures import text_lines as layer_text

if TYPE_CHECKING:
    from rich.text import Text

PALETTE = [
    "red",
    "green",
    "yellow",
    "blue",
    "magenta",
    "cyan",
    "bright_red",
    "bright_green",
    "bright_yellow",
    "bright_blue",
    "bright_magenta",
    "bright_cyan",
    "orange3",
    "purple",
    "dark_sea_green",
    "gold3",
    "deep_pink3",
    "steel_blue",
    "chartreuse3",
    "tan",
]


def letter_grid(sol: Solution, board_cells: np.ndarray) -> list[list[list[str]]]:
    """layers[z][row][col] = letter, '.' for a board cell left empty, ' ' off the board."""
    cells = board_cells if board_cells.shape[1] == 3 else np.pad(board_cells, ((0, 0), (0, 1)))
    lo = cells.min(axis=0)
    hi = cells.max(axis=0) - lo + 1
    grid = [[[" "] * int(hi[1]) for _ in range(int(hi[0]))] for _ in range(int(hi[2]))]
    for r, c, z in (cells - lo).tolist():
        grid[z][r][c] = "."
    lo = lo.tolist()
    for pl in sol.placements:  # plain lists: a listing draws many solutions
        for cell in pl.cells.tolist():
            z = cell[2] - lo[2] if len(cell) == 3 else 0
            grid[z][cell[0] - lo[0]][cell[1] - lo[1]] = pl.letter
    return grid


def text_lines(sol: Solution, board_cells: np.ndarray) -> list[str]:
    """A solution as plain text, one letter per cell (layers side by side in 3D): for pipes,
    files and tests."""
    if layered(sol.grid):  # prisms, spheres: the layers' drawings side by side
        return layer_text(sol.grid, sol, board_cells)
    if not (sol.grid.boxes or sol.grid.flat):  # no drawing (the rhombic grid ...): each piece's cells
        return cell_lines(sol)
    if not sol.grid.boxes:  # letter grids of rows and layers, else the grid's drawing (lattice_draw)
        from .lattice_draw import text_rows

        return text_rows(sol.grid, board_cells, [(p.cells, p.letter) for p in sol.placements])
    layers = letter_grid(sol, board_cells)
    rows = len(layers[0])
    return ["   ".join("".join(layer[r]) for layer in layers).rstrip() for r in range(rows)]


def cell_lines(sol: Solution) -> list[str]:
    """A solution on a grid with no drawing: each placement's letter, piece and cells."""
    return [
        f"{p.letter} {p.piece}: " + " ".join("(" + ", ".join(str(int(v)) for v in c) + ")" for c in p.cells)
        for p in sol.placements
    ]


def matrix_lines(sol: Solution, board_cells: np.ndarray, ids: dict[str, int]) -> list[str]:
    """The solution as numbers: each cell the number of the piece covering it, 0 for a hole
    or an uncovered cell, columns right-aligned; a 3D solution's layers one after another,
    a blank line between them. A piece is numbered by `ids` (name -> number) when each is
    placed once; when copies of a piece are placed, each placement gets its own number
    (1, 2, ... in the order of the placements), as the letters do, so copies can be told apart."""
    layers = letter_grid(sol, board_cells)
    names = [p.piece for p in sol.placements]
    if len(set(names)) == len(names):
        number = {p.letter: ids[p.piece] for p in sol.placements}
    else:
        number = {p.letter: i for i, p in enumerate(sol.placements, start=1)}
    width = max([len(str(n)) for n in number.values()] + [1])
    out: list[str] = []
    for z, layer in enumerate(layers):
        if z:
            out.append("")
        out += [" ".join(f"{number.get(ch, 0):>{width}}" for ch in row) for row in layer]
    return out


def piece_styles(letters: list[str]) -> dict[str, str]:
    """Katamino colours for pentomino letters, a palette for the others."""
    if set(letters) <= set(COLOUR_OF) and len(set(letters)) == len(letters):
        return {ch: COLOUR_OF[ch] for ch in letters}
    return {ch: PALETTE[i % len(PALETTE)] for i, ch in enumerate(letters)}


def rich_text(sol: Solution, board_cells: np.ndarray) -> Text:
    """A solution as rich Text, coloured per piece, for a terminal."""
    from rich.text import Text  # rich: ~30 ms, only for a terminal

    letters = sorted({p.letter for p in sol.placements})
    style = (
        piece_styles(letters)
        if len(letters) == len(sol.placements)
        else {ch: PALETTE[i % len(PALETTE)] for i, ch in enumerate(letters)}
    )
    out = Text()
    for line in text_lines(sol, board_cells):
        for ch in line:
            out.append(ch, style=f"bold {style[ch]}" if ch in style else None)
        out.append("\n")
    return out
