"""polytile JSON: board cells (2D or 3D) with optional colours, pieces with copies.

    {"board": [[0, 0], [0, 1], ...]          # or rows of a drawing: ["XXX", "X X"]
     "colours": ["B", "W", ...],             # optional, one per board cell
     "pieces": [{"name": "F", "cells": [[0, 1], [1, 0], ...],
                 "colours": [...], "count": 1, "min": 1, "reflect": true}],
     "allow_reflection": true,               # default: true for flat puzzles, false for 3D
     "grid": "square"}                       # or "triangle" ([a, b, c]), "hex" ([q, r]), "prism" ([a, b, c, z]), "sphere", "rhombic", "tetra-octa" ([x, y, z])

On the other grids (triangle, hex ...), cells are in the grid's coordinates (`core.grids`) and
drawings follow its `from_drawing`; pieces are always given (the library is square).

In drawings, the characters are the cells' colours when some drawing of the file uses more
than one character (a checkerboard "BWBW"); a board drawn all in one character is plain.
A piece may name a library piece instead of drawing it: "F", "red", 12 as a string, or
{"name": "L", "count": 2}; "pieces": "pentominoes" is the set of 12.

The file is checked on plain lists, so that a bad square-grid file is refused without
importing numpy (a tenth of a second); the grids (`core.grids`) load it when first asked.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable, NoReturn

from ..errors import PuzzleError
from ..core.library import PENTOMINO_ROWS, pentomino
from .common import check_box, describe, load_json

if TYPE_CHECKING:
    import numpy as np

    from ..core.grids import Grid
    from ..core.puzzle import Piece, Puzzle
    from ..core.results import Solution

Cells = list[tuple[int, ...]]
# (name, cells, drawn characters, count, min, reflect) of a piece as checked
RawPiece = tuple[str, Cells, "list[str] | None", int, "int | None", "bool | None"]

MAX_CELLS = 20_000
MAX_COPIES = 10_000
MAX_PIECES = 5_000  # entries in "pieces" (as .xmpuzzle's shapes)
MAX_ALL_COPIES = 100_000  # all the pieces' copies together (as .xmpuzzle's pieces)
BOARD_KEYS = {"board", "colours", "colors", "pieces", "allow_reflection", "name", "comment", "grid"}
PIECE_KEYS = {"name", "cells", "colours", "colors", "count", "min", "reflect"}


class _Ctx:
    def __init__(self, file: str):
        self.file = file

    def fail(self, where: str, msg: str) -> NoReturn:
        raise PuzzleError(f"{where}: {msg}", self.file)


def _int(ctx: _Ctx, v: Any, where: str, lo: int, hi: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        ctx.fail(where, f"expected an integer, got {describe(v, 40)}")
    if not lo <= v <= hi:
        ctx.fail(where, f"{v} is out of range {lo}..{hi}")
    return v


def _key(key: str) -> str:
    """A key as written in a message: plain when it is a word, else quoted and escaped."""
    return key if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key) else describe(key, 40)


def _cells(ctx: _Ctx, v: Any, where: str) -> tuple[Cells, list[str] | None]:
    """A list of coordinates, or rows of a drawing (non-blank, non-'.' characters are cells)."""
    if not isinstance(v, list) or not v:
        ctx.fail(where, "expected a non-empty list of cells")
    if all(isinstance(r, str) for r in v):
        pts: Cells = []
        chars: list[str] = []
        for r, row in enumerate(v):
            for c, ch in enumerate(row):
                if ch not in " .":
                    pts.append((r, c))
                    chars.append(ch)
        if not pts:
            ctx.fail(where, "the drawing has no cells")
        if len(pts) > MAX_CELLS:
            ctx.fail(where, f"too many cells ({len(pts)}; limit {MAX_CELLS})")
        return pts, chars
    if len(v) > MAX_CELLS:
        ctx.fail(where, f"too many cells ({len(v)}; limit {MAX_CELLS})")
    dim = None
    out: Cells = []
    for i, cell in enumerate(v):
        w = f"{where}[{i}]"
        if not isinstance(cell, list) or len(cell) not in (2, 3, 4):
            ctx.fail(w, "a cell is a list of 2, 3 or 4 integers")
        if dim is None:
            dim = len(cell)
        elif len(cell) != dim:
            ctx.fail(w, f"mixes {dim}D and {len(cell)}D cells")
        out.append(tuple(_int(ctx, x, f"{w}[{j}]", -(10**6), 10**6) for j, x in enumerate(cell)))
    if len(set(out)) != len(out):
        ctx.fail(where, "a cell is listed twice")
    return out, None


def _colours(ctx: _Ctx, obj: dict[str, Any], where: str, n: int, drawn: list[str] | None) -> list[str] | None:
    key = "colours" if "colours" in obj else "colors" if "colors" in obj else None
    if key is None:
        return drawn
    v = obj[key]
    if not isinstance(v, list) or len(v) != n or not all(isinstance(x, str) and x for x in v):
        ctx.fail(f"{where}.{key}", f"expected a list of {n} non-empty strings, one per cell")
    return [str(x) for x in v]


def _grid(ctx: _Ctx, data: dict[str, Any]) -> Grid:
    """The "grid" key's grid (by its JSON spelling; the square grid's cells may have 2 or 3
    coordinates, `_puzzle` fits it to the board's)."""
    from ..core import grids

    spelled = data.get("grid", "square")
    if not isinstance(spelled, str) or spelled not in grids.names():
        ctx.fail("grid", f"expected one of {', '.join(grids.names())}, got {describe(spelled, 40)}")
    return grids.grid(spelled)


def _on_grid(ctx: _Ctx, grid: Grid, cells: Cells, drawn: list[str] | None, where: str) -> Cells:
    """Cells in the grid's coordinates (see `core.grids`): a drawing is converted, a list checked."""
    if grid.boxes:
        if len(cells[0]) > 3:
            ctx.fail(f"{where}[0]", "a square or cube cell is a list of 2 or 3 integers")
        return cells
    import numpy as np

    if drawn is not None:
        try:
            return list(map(tuple, grid.from_drawing(np.array(cells, dtype=np.int64)).tolist()))
        except ValueError as e:
            ctx.fail(where, str(e))
    if len(cells[0]) != grid.dim:
        ctx.fail(where, f"a {grid.name} cell is a list of {grid.dim} integers")
    bad = [i for i, cell in enumerate(cells) if not grid.holds(cell)]
    if bad:
        ctx.fail(f"{where}[{bad[0]}]", grid.not_a_cell or "no cell of the grid")
    return cells


def _pieces(ctx: _Ctx, listed: Any, grid: Grid) -> tuple[list[RawPiece], bool]:
    """(name, cells, drawn characters, count, min, reflect) of each piece, and whether some
    piece lists its colours."""
    explicit = False
    if listed == "pentominoes":
        listed = list(PENTOMINO_ROWS)
    if not isinstance(listed, list) or not listed:
        ctx.fail("pieces", 'expected a non-empty list of pieces (or "pentominoes")')
    if len(listed) > MAX_PIECES:
        ctx.fail("pieces", f"too many pieces ({len(listed)}; limit {MAX_PIECES})")
    raw: list[RawPiece] = []
    copies = 0
    for i, p in enumerate(listed):
        w = f"pieces[{i}]"
        if isinstance(p, str):
            p = {"name": p}
        if not isinstance(p, dict):
            ctx.fail(w, 'expected an object with "cells", or the name of a library piece')
        for k in p:
            if k not in PIECE_KEYS:
                ctx.fail(f"{w}.{_key(k)}", f"unknown key (expected one of {', '.join(sorted(PIECE_KEYS))})")
        pname = p.get("name", str(i + 1))
        if not isinstance(pname, str) or not pname:
            ctx.fail(f"{w}.name", "expected a non-empty string")
        if "cells" not in p and not grid.boxes:
            ctx.fail(w, 'no "cells" (the library pieces are on the square grid)')
        if "cells" not in p:
            letter = pentomino(pname)
            if letter is None:
                ctx.fail(
                    w, f'no "cells", and {pname!r} is no library piece (pentomino letter, Katamino colour or number)'
                )
            pname, p = letter, {**p, "cells": PENTOMINO_ROWS[letter]}
        cells, pdrawn = _cells(ctx, p["cells"], f"{w}.cells")
        cells = _on_grid(ctx, grid, cells, pdrawn, f"{w}.cells")
        chars = _colours(ctx, p, w, len(cells), pdrawn)
        explicit = explicit or any(k in p for k in ("colours", "colors"))
        count = _int(ctx, p.get("count", 1), f"{w}.count", 1, MAX_COPIES)
        copies += count
        if copies > MAX_ALL_COPIES:
            ctx.fail(f"{w}.count", f"too many copies in all (over {MAX_ALL_COPIES})")
        least = _int(ctx, p["min"], f"{w}.min", 0, count) if "min" in p else None
        reflect = p.get("reflect")
        if reflect is not None and not isinstance(reflect, bool):
            ctx.fail(f"{w}.reflect", "expected true or false")
        raw.append((pname, cells, chars, count, least, reflect))
    return raw, explicit


def parse(text: str, name: str = "<json>") -> Puzzle:
    """Read polytile JSON into a Puzzle; every error names the field it is about."""
    ctx = _Ctx(name)
    data = load_json(text, name)
    if not isinstance(data, dict):
        ctx.fail("top level", 'expected an object with "board" and "pieces"')
    for k in data:
        if k not in BOARD_KEYS:
            ctx.fail(_key(k), f"unknown key (expected one of {', '.join(sorted(BOARD_KEYS))})")
    for k in ("board", "pieces"):
        if k not in data:
            ctx.fail("top level", f'missing "{k}"')
    grid = _grid(ctx, data)
    bcells, drawn = _cells(ctx, data["board"], "board")
    bcells = _on_grid(ctx, grid, bcells, drawn, "board")
    check_box(bcells, name)
    bchars = _colours(ctx, data, "board", len(bcells), drawn)
    explicit = any(k in data for k in ("colours", "colors"))
    raw, explicit_pieces = _pieces(ctx, data["pieces"], grid)
    dim = len(bcells[0])
    for i, (_, cells, *_rest) in enumerate(raw):
        if len(cells[0]) > dim:
            ctx.fail(f"pieces[{i}].cells", f"a {len(cells[0])}D piece does not fit a {dim}D board")
    from ..core.grids import fit

    # solids (cubes, prisms, spheres ...) turn only; the square grid's 3D cells are the cube grid's
    allow = data.get("allow_reflection", dim == 2 or fit(grid, dim).flat)
    if not isinstance(allow, bool):
        ctx.fail("allow_reflection", "expected true or false")
    # colours are in play when given as lists, or when a drawing uses several characters
    # (a board drawn all in 'X' and pieces given as coordinates are plain)
    drawings = [bchars] + [r[2] for r in raw]
    use_colours = explicit or explicit_pieces or any(len(set(c)) > 1 for c in drawings if c)
    return _puzzle(name, grid, allow, (bcells, bchars), raw, use_colours)


def _puzzle(
    name: str,
    grid: Grid,
    allow: bool,
    board_drawn: tuple[Cells, list[str] | None],
    raw: list[RawPiece],
    use_colours: bool,
) -> Puzzle:
    """The checked file as a Puzzle (numpy from here on)."""
    import numpy as np

    from ..core.grids import fit
    from ..core.puzzle import Board, Piece, Puzzle, make_partial

    bcells, bchars = board_drawn
    dim = len(bcells[0])
    palette = [""] + sorted({c for c in (bchars or [])} | {c for r in raw for c in (r[2] or [])})
    code = {c: i for i, c in enumerate(palette)}

    def codes(chars: list[str] | None, n: int) -> np.ndarray:
        return np.array([code[c] for c in chars] if chars and use_colours else [0] * n, dtype=np.int64)

    def padded(cells: Cells) -> np.ndarray:
        return np.array([(*c, *(0,) * (dim - len(c))) for c in cells], dtype=np.int64)

    lat = fit(grid, dim)
    board = Board(lat.to_origin(padded(bcells)), codes(bchars, len(bcells)), lat)
    pieces = [
        Piece(pn, lat.to_origin(padded(c)), codes(ch, len(c)), n, least, refl) for pn, c, ch, n, least, refl in raw
    ]
    puzzle = Puzzle(board, pieces, allow, palette, name)
    if puzzle.tiles_area > board.area and all(r[4] is None for r in raw):
        puzzle = make_partial(puzzle)
        puzzle.notes.append("warning: not all tiles are used")
    return puzzle


def dump(puzzle: Puzzle, solutions: list[Solution] | None = None, source: str = "<puzzle>") -> bytes:
    """The puzzle as polytile JSON: board and piece cells as coordinates, colours by name
    when the puzzle has any, copies and minimums, each piece's own reflection rule.
    (Solutions are not part of a puzzle file: `polytile solve --format json` writes them.)"""
    import json

    if puzzle.allowed is not None:
        raise PuzzleError(
            "colour rules other than equality (BurrTools' colour pairs, variable "
            "voxels) cannot be written as polytile JSON",
            source,
        )
    names = puzzle.colour_names
    coloured = bool(puzzle.board.colours.any()) or any(p.colours.any() for p in puzzle.pieces)

    def colours(codes: np.ndarray) -> list[str]:
        return [names[int(c)] for c in codes]

    data: dict[str, Any] = {"grid": puzzle.board.grid.name, "board": puzzle.board.cells.tolist()}
    if coloured:
        if "" in colours(puzzle.board.colours) or any("" in colours(p.colours) for p in puzzle.pieces):
            raise PuzzleError("cells without a colour beside coloured ones cannot be written as JSON", source)
        data["colours"] = colours(puzzle.board.colours)
    data["pieces"] = [_piece_json(p, colours if coloured else None) for p in puzzle.pieces]
    data["allow_reflection"] = puzzle.allow_reflection
    return (json.dumps(data, indent=1) + "\n").encode()


def _piece_json(piece: Piece, colours: Callable[[np.ndarray], list[str]] | None) -> dict[str, Any]:
    out: dict[str, Any] = {"name": piece.name, "cells": piece.cells.tolist(), "count": piece.count}
    if colours is not None:
        out["colours"] = colours(piece.colours)
    if piece.least != piece.count:
        out["min"] = piece.least
    if piece.reflect is not None:
        out["reflect"] = piece.reflect
    return out
