"""Puzzles out as BurrTools `.xmpuzzle` files (gzip-compressed XML, format version 2).

A square 2D board becomes one layer of cubes (x = column, y = row, z = 0): BurrTools turns
pieces in space, so a flat piece may be flipped, as polytile's default allows. Cube puzzles
are written as they are, and so are puzzles on BurrTools' other grids (prisms, spheres,
rhombic, tetra-octa: `Grid.to_burr` gives their voxels). What BurrTools cannot express is
refused in one line: triangle and hex grids, flat pieces that may only be rotated, solid pieces that may be mirrored (each
only when the piece is chiral; otherwise the two rules agree), colour rules other than
polytile's equality or BurrTools' own (a file read from BurrTools keeps its rules).

Solutions, when given, are stored as BurrTools assemblies (cube and square puzzles only: the
other grids' files are written without them): per piece copy, in the problem's
order, "x y z t" (t one of the 24 rotations of
`xmpuzzle_assembly.ROTATIONS`, x y z where the rotated piece's voxel
(0, 0, 0) lands: cell = (x, y, z) + M_t (voxel)) or "x" for a copy left unused."""

from __future__ import annotations

import gzip
from typing import TYPE_CHECKING, Callable
from xml.sax.saxutils import escape, quoteattr

import numpy as np

from ..core.grids import Grid
from ..core.puzzle import VIRTUAL, Piece, Puzzle
from ..core.shape import orientations
from ..errors import PuzzleError
from .xmpuzzle_assembly import as_voxels, assemblies

if TYPE_CHECKING:
    from ..core.grids import Grid
    from ..core.results import Solution

# (number of BurrTools colours, board cell -> (state, colour), piece colour map, colour pairs)
ColourPlan = tuple[int, list[tuple[str, int]], Callable[[int], int], list[tuple[int, int]]]


def _chiral(piece: Piece, grid: Grid) -> bool:
    return len(orientations(piece.cells, piece.colours, True, grid)) != len(
        orientations(piece.cells, piece.colours, False, grid)
    )


def check_expressible(puzzle: Puzzle, source: str) -> None:
    """Refuse, in one line, what a BurrTools file cannot say."""
    g = puzzle.board.grid
    if _burr_number(g) is None:
        raise PuzzleError(f"BurrTools' grids do not hold polytile's {g.name} grid", source)
    for p in puzzle.pieces:
        if p.name == VIRTUAL:
            continue
        flips = puzzle.reflects(p)
        if puzzle.dim == 2 and not flips and _chiral(p, g):
            raise PuzzleError(
                f"piece {p.name} may only be rotated: BurrTools turns pieces in space, which flips a flat piece", source
            )
        if puzzle.dim != 2 and flips and _chiral(p, g):
            raise PuzzleError(
                f"piece {p.name} may be mirrored: BurrTools never mirrors a solid "
                "piece (add its mirror image as a piece of its own)",
                source,
            )


def _burr_number(g: Grid) -> int | None:
    """BurrTools' number of the grid a puzzle is written on: a square board is a layer of cubes."""
    return 0 if g.boxes else g.burr_number


def _colour_plan(puzzle: Puzzle, source: str) -> ColourPlan:
    """(number of BurrTools colours, board cell -> (state, colour), piece colour map,
    (piece, result) colour pairs)."""
    codes = np.asarray(puzzle.board.colours, dtype=np.int64)
    pieces = [p for p in puzzle.pieces if p.name != VIRTUAL]
    if puzzle.allowed is None:
        used = max([int(codes.max(initial=0))] + [int(np.max(p.colours, initial=0)) for p in pieces])
        if used == 0:
            return 0, [("#", 0)] * len(codes), lambda c: 0, []
        # equality: every code its own colour (0 too), each allowed only on itself
        return (
            used + 1,
            [("#", int(c) + 1) for c in codes],
            lambda c: int(c) + 1,
            [(c, c) for c in range(1, used + 2)],
        )
    table, names = puzzle.allowed, puzzle.colour_names
    n = (len(table) - 3) // 2
    if len(table) != 2 * n + 3 or len(names) != 2 * n + 3 or names[n + 1] != "+" or names[-1] != VIRTUAL:
        raise PuzzleError("these colour rules are neither polytile's equality nor BurrTools' own", source)
    cells = [("+", int(c) - n - 1) if c > n else ("#", int(c)) for c in codes]
    pairs = [(p, r) for r in range(1, n + 1) for p in range(1, n + 1) if table[r, p]]
    return n, cells, lambda c: int(c), pairs


def _voxel(g: Grid, cells: np.ndarray, marks: list[tuple[str, int]], name: str | None) -> tuple[str, np.ndarray]:
    """A <voxel> element for cells and their (state, colour) marks, and the cells as voxels
    from the voxel space's origin (or where the grid's alignment needs, `Grid.to_burr`)."""
    v = g.to_burr(as_voxels(cells))
    sx, sy, sz = (v.max(axis=0) + 1).tolist()
    text = ["_"] * (sx * sy * sz)
    for (x, y, z), (state, colour) in zip(v.tolist(), marks):
        text[x + sx * (y + sy * z)] = state + (str(colour) if colour else "")
    attr = f" name={quoteattr(name)}" if name else ""
    return f'<voxel x="{sx}" y="{sy}" z="{sz}"{attr} type="0">{"".join(text)}</voxel>', v


def dump(puzzle: Puzzle, solutions: list[Solution] | None, source: str) -> bytes:
    """The puzzle (and up to the given solutions) as a gzip-compressed .xmpuzzle."""
    check_expressible(puzzle, source)
    g = puzzle.board.grid
    n_colours, board_marks, piece_colour, pairs = _colour_plan(puzzle, source)
    pieces = [p for p in puzzle.pieces if p.name != VIRTUAL]
    shapes, voxels = [], []
    for p in pieces:
        xml, v = _voxel(g, p.cells, [("#", piece_colour(c)) for c in p.colours], p.name)
        shapes.append(xml)
        voxels.append(v)
    result, _ = _voxel(g, puzzle.board.cells, board_marks, "Result")
    parts = []
    for i, p in enumerate(pieces):
        counts = f'count="{p.count}"' if p.least == p.count else f'min="{p.least}" max="{p.count}"'
        parts.append(f'<shape id="{i}" {counts}/>')
    bitmap = "".join(f'<pair piece="{p - 1}" result="{r - 1}"/>' for p, r in pairs)
    stored = ""  # with solutions: state 3, solved elsewhere (no counts known)
    if solutions and g.boxes:  # (the assemblies' rotations are the cube's)
        stored = (
            "<solutions>"
            + "".join(
                f"<solution><assembly>{a}</assembly></solution>"
                for a in assemblies(puzzle, pieces, voxels, solutions, source)
            )
            + "</solutions>"
        )
    colours = "".join(_rgb(k) for k in range(n_colours))
    text = (
        f'<?xml version="1.0"?>\n<puzzle version="2"><gridType type="{_burr_number(g)}"/>'
        f"<colors>{colours}</colors><shapes>{''.join(shapes)}{result}</shapes>"
        f'<problems><problem name={quoteattr(_title(source))} state="{3 if stored else 0}"><shapes>{"".join(parts)}'
        f'</shapes><result id="{len(pieces)}"/><bitmap>{bitmap}</bitmap>{stored}</problem>'
        f"</problems><comment>{escape('written by polytile from ' + source)}</comment></puzzle>\n"
    )
    return gzip.compress(text.encode("utf-8"), mtime=0)


def _title(source: str) -> str:
    return source.replace("\\", "/").rsplit("/", 1)[-1]


def _rgb(k: int) -> str:
    """A distinct colour for constraint colour k (BurrTools shows them)."""
    hue = (k * 0.618034) % 1.0
    r, g, b = (int(255 * max(0.0, min(1.0, abs((hue * 6 + s) % 6 - 3) - 1))) for s in (0, 4, 2))
    return f'<color red="{r}" green="{g}" blue="{b}"/>'
