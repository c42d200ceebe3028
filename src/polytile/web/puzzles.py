"""What the page sends, turned into the library's puzzles: a tiling (drawn board and library
pieces, the text of any puzzle file polytile reads, or a BurrTools file: burrfile.py),
Katamino, a boxing puzzle, Shikaku or a calendar (calendar_api.py).
Everything is checked here, before any search, against the web limits; bad input raises
PuzzleError with one line that the app returns as a 400. No search happens in this module."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar


from ..budget import PAGE_BYTES
from ..errors import PuzzleError
from ..formats import describe
from . import page_limits
from .piece_library import library_cells, library_hint

if TYPE_CHECKING:
    from ..core.grids import Grid
    from ..core.puzzle import Puzzle
    from ..shikaku.model import Shikaku
    from ..tiling.solver import Tiling
    from .calendar_api import CalendarPuzzle

JSON = dict[str, Any]

MAX_BOARD_CELLS = 400  # drawn tiling boards, Katamino and boxing boards (files: page_limits.py)
MAX_BOARD_SIDE = 64  # rows or columns of a drawn board
MAX_COPIES = MAX_BOARD_CELLS  # copies of one library piece on a drawn board (more could never fit)
MAX_TEXT = 200_000  # characters of a pasted puzzle file
MAX_SHIKAKU_CELLS = 40_000  # Shikaku grid (200 x 200)
MAX_ORDER = 7  # boxing: up to heptominoes (108 free shapes)

KINDS = ("tiling", "katamino", "box", "shikaku", "calendar")


def _fail(msg: str, where: str = "puzzle") -> NoReturn:
    raise PuzzleError(msg, where)


NAMES = {str: "a string", int: "an integer", bool: "true or false", list: "a list", dict: "an object"}


def _get(spec: JSON, key: str, kind: type, default: Any = None, required: bool = False) -> Any:
    if key not in spec or spec[key] is None:
        if required:
            _fail(f'missing "{key}"')
        return default
    v = spec[key]
    if (isinstance(v, bool) and kind is not bool) or not isinstance(v, kind):
        _fail(f'"{key}" must be {NAMES[kind]}, not {describe(v)}')
    return v


def _int(spec: JSON, key: str, lo: int, hi: int, default: int | None = None) -> int:
    v: int = _get(spec, key, int, default, required=default is None)
    if not lo <= v <= hi:
        _fail(f'"{key}" = {v} is out of range {lo}..{hi}')
    return v


# ---- tiling ------------------------------------------------------------------------------------


def _board_rows(rows: Any) -> list[str]:
    if not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
        _fail('"board" must be a non-empty list of rows (strings, X = cell, . = hole)')
    if len(rows) > MAX_BOARD_SIDE or max(map(len, rows)) > MAX_BOARD_SIDE:
        _fail(f"board too large: {len(rows)} x {max(map(len, rows))} (at most {MAX_BOARD_SIDE} rows and columns)")
    out = []
    for r, row in enumerate(rows):
        bad = next((ch for ch in row if ch not in "X. "), None)
        if bad is not None:
            _fail(f"board row {r + 1}: unexpected character {bad!r} (X = cell, . = hole)")
        out.append(row.replace(" ", "."))
    cells = sum(row.count("X") for row in out)
    if cells == 0:
        _fail("the board has no cells")
    if cells > MAX_BOARD_CELLS:
        _fail(f"board too large: {cells} cells (limit {MAX_BOARD_CELLS})")
    return out


def _piece_list(pieces: Any, grid: Grid) -> list[JSON]:
    if not isinstance(pieces, list) or not pieces:
        _fail('"pieces" must be a non-empty list of pieces')
    rows = library_cells(grid)
    out = []
    for i, p in enumerate(pieces):
        if isinstance(p, str):
            p = {"name": p}
        if not isinstance(p, dict):
            _fail(f'pieces[{i}] must be a piece name or an object {{"name", "count"}}')
        count = p.get("count", 1)
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_COPIES:
            _fail(f"pieces[{i}].count must be an integer 0..{MAX_COPIES}")
        if count == 0:
            continue
        name = p.get("name")
        if "cells" in p:
            cells = p["cells"]
            if (
                not isinstance(cells, list)
                or not cells
                or not all(isinstance(r, str) for r in cells)
                or len(cells) > 12
                or max(map(len, cells)) > 12
            ):
                _fail(f"pieces[{i}].cells must be rows of a drawing (X = cell), at most 12 x 12")
            if any(set(r) - set("X. ") for r in cells) or not any("X" in r for r in cells):
                _fail(f"pieces[{i}].cells: draw the piece with X (cell) and . (gap)")
            entry: JSON = {
                "name": name[:20] if isinstance(name, str) and name else f"p{i + 1}",
                "cells": [r.replace(" ", ".") for r in cells],
            }
        else:
            if not isinstance(name, str):
                _fail(f'pieces[{i}] needs a "name" (a library piece) or "cells"')
            from ..core.library import pentomino

            key = (pentomino(name) if grid.rect_plane else None) or name
            if key not in rows:
                _fail(f"unknown piece {describe(name)} " + library_hint(grid))
            entry = {"name": key, "cells": rows[key]}
        entry["count"] = count
        if "min" in p:
            least = p["min"]
            if isinstance(least, bool) or not isinstance(least, int) or not 0 <= least <= count:
                _fail(f"pieces[{i}].min must be an integer 0..count")
            entry["min"] = least
        out.append(entry)
    if not out:
        _fail("no pieces chosen (every count is 0)")
    return out


def _grid(spec: JSON) -> Grid:
    from ..core import grids

    spelled: str = _get(spec, "grid", str, "square")
    if spelled not in grids.names():
        _fail(f"unknown grid {describe(spelled)} (one of {', '.join(grids.names())})")
    return grids.grid(spelled)


def _from_text(text: Any) -> Puzzle:
    from ..formats import ascii_art, polyjson

    if not isinstance(text, str):
        _fail('"text" must be a string')
    if len(text) > MAX_TEXT:
        _fail(f"puzzle text too long ({len(text)} characters; limit {MAX_TEXT})")
    text = text.lstrip("\ufeff")
    if not text.strip():
        _fail("the puzzle text is empty", "<text>")
    for i, ch in enumerate(text):
        if (ord(ch) < 32 and ch not in "\n\r\t") or ord(ch) == 127:
            line = text.count("\n", 0, i) + 1
            col = i - (text.rfind("\n", 0, i) + 1) + 1
            raise PuzzleError(f"not a text file (control character {ord(ch):#04x})", "<text>", line, col)
    if text.lstrip().startswith("{"):
        return polyjson.parse(text, "<text>")
    puzzle = ascii_art.parse(text.replace("\r\n", "\n"), "<text>")
    _refuse_foreign_colours(puzzle)
    return puzzle


def _refuse_foreign_colours(puzzle: Puzzle) -> None:
    """A drawing's tiles use the board's characters (each character is a colour a tile must
    match); a tile with a character the board lacks can never be placed, which is what a line of
    prose or other pasted text looks like: refused, rather than read as a board of letters."""
    on_board = set(puzzle.board.colours.tolist())
    for piece in puzzle.pieces:
        foreign = sorted(set(piece.colours.tolist()) - on_board)
        if foreign:
            chars = ", ".join(repr(puzzle.colour_names[c]) for c in foreign[:3])
            _fail(
                f"not a puzzle drawing: tile {piece.name} has {chars}, which the board (the largest "
                "object) does not have, so it could never be placed",
                "<text>",
            )


# ---- all kinds ---------------------------------------------------------------------------------


@dataclass
class Parsed:
    """A request's puzzle, checked and built: what a job's actions run on (one field set by
    kind), so a job never parses the page's JSON again."""

    kind: str
    built: Tiling | Shikaku | CalendarPuzzle  # the Tiling of tiling, katamino and box
    letters: list[str] | None = None
    why_not: str | None = None  # boxing: impossible by arithmetic
    problems: list[JSON] | None = None  # a BurrTools file's problems (web/burrfile.py)

    @property
    def tiling(self) -> Tiling:
        """The Tiling of a tiling, Katamino or boxing puzzle (the actions check the kind first)."""
        from ..tiling.solver import Tiling

        return _the(self.built, Tiling, self.kind)

    @property
    def shikaku(self) -> Shikaku:
        """The grid of a Shikaku puzzle."""
        from ..shikaku.model import Shikaku

        return _the(self.built, Shikaku, self.kind)

    @property
    def calendar(self) -> CalendarPuzzle:
        """The board and date of a calendar puzzle."""
        from .calendar_api import CalendarPuzzle

        return _the(self.built, CalendarPuzzle, self.kind)


T = TypeVar("T")


def _the(built: object, kind: type[T], name: str) -> T:
    """`built` as the type an action needs; a kind the action does not take is a bug (the
    actions refuse other kinds with a PuzzleError first)."""
    if not isinstance(built, kind):
        raise TypeError(f"a {name} puzzle has no {kind.__name__}")
    return built


def parse(spec: Any) -> Parsed:
    """The puzzle a request describes (see docs/web.md for the fields)."""
    if not isinstance(spec, dict):
        _fail('"puzzle" must be an object with a "kind"')
    kind = spec.get("kind")
    if kind not in KINDS:
        _fail(f"unknown puzzle kind {describe(kind)} (one of {', '.join(KINDS)})")
    return {"tiling": _tiling, "katamino": _katamino, "box": _box, "shikaku": _shikaku, "calendar": _calendar}[kind](
        spec
    )


def _calendar(spec: JSON) -> Parsed:
    from . import calendar_api

    return Parsed("calendar", calendar_api.parse(spec))


def _tiling(spec: JSON) -> Parsed:
    from ..formats import polyjson
    from ..tiling.solver import Tiling

    reflect = _get(spec, "reflect", bool, True)
    problems = None
    if spec.get("xmpuzzle") is not None:  # a BurrTools file opened on the page
        from . import burrfile

        puzzle, problems = burrfile.uploaded_puzzle(spec)
    elif spec.get("text") is not None:
        puzzle = _from_text(spec["text"])
    else:
        grid = _grid(spec)
        board = _board_rows(spec.get("board"))
        pieces = _piece_list(spec.get("pieces"), grid)
        doc = {"board": board, "pieces": pieces, "grid": grid.name}
        import json

        puzzle = polyjson.parse(json.dumps(doc), "<board>")
    page_limits.check(puzzle, PAGE_BYTES)  # what the page draws, the model's memory
    tiling = Tiling(puzzle, PAGE_BYTES)
    if not reflect:
        tiling = tiling.no_reflect()
    return Parsed("tiling", tiling, problems=problems)


def _katamino(spec: JSON) -> Parsed:
    from ..tiling import katamino

    pieces = _get(spec, "pieces", list, required=True)
    if not all(isinstance(p, (str, int)) and not isinstance(p, bool) for p in pieces):
        _fail('"pieces" must be a list of letters, colours or numbers 1..12')
    letters = katamino.parse_pieces([str(p) for p in pieces], "pieces")
    height = _int(spec, "height", 1, 20, 5)
    width = _get(spec, "width", int)
    if width is not None and not 1 <= width <= 60:
        _fail(f'"width" = {width} is out of range 1..60')
    reflect = _get(spec, "reflect", bool, True)
    return Parsed("katamino", katamino.tiling(letters, height, width, reflect), letters=letters)


def _box(spec: JSON) -> Parsed:
    from ..tiling import boxing
    from ..tiling.solver import Tiling

    order = _int(spec, "order", 1, MAX_ORDER)
    width = _int(spec, "width", 1, MAX_BOARD_SIDE)
    height = _int(spec, "height", 1, MAX_BOARD_SIDE)
    if width * height > MAX_BOARD_CELLS:
        _fail(f"box too large: {width} x {height} = {width * height} cells (limit {MAX_BOARD_CELLS})")
    most = _int(spec, "max_copies", 1, 100)
    least = _int(spec, "min_copies", 0, most, 0)
    one_sided = _get(spec, "one_sided", bool, False)
    puzzle = boxing.box_puzzle(order, width, height, most, least, one_sided)
    return Parsed("box", Tiling(puzzle, PAGE_BYTES), why_not=boxing.impossible(puzzle, order))


def _shikaku(spec: JSON) -> Parsed:
    from ..shikaku import formats as fmt
    from ..shikaku.model import Shikaku

    if spec.get("text") is not None:
        text = _get(spec, "text", str)
        if len(text) > MAX_TEXT:
            _fail(f"puzzle text too long ({len(text)} characters; limit {MAX_TEXT})")
        if not text.strip():
            _fail("the puzzle text is empty", "<text>")
        p = fmt.parse(text, "<text>")
    else:
        rows = _get(spec, "rows", list, required=True)
        if not rows or not all(isinstance(r, list) and r for r in rows):
            _fail('"rows" must be a non-empty list of rows of numbers (0 = blank)')
        w = len(rows[0])
        if any(len(r) != w for r in rows):
            _fail('every row of "rows" must have the same length')
        if w * len(rows) > MAX_SHIKAKU_CELLS:
            _fail(f"grid too large: {w} x {len(rows)} (limit {MAX_SHIKAKU_CELLS} cells)")
        for r, row in enumerate(rows):
            for c, v in enumerate(row):
                if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= w * len(rows):
                    _fail(f"row {r + 1}, column {c + 1}: {describe(v)} is not a number 0..{w * len(rows)}")
        p = Shikaku.from_rows(rows)
    if p.width * p.height > MAX_SHIKAKU_CELLS:
        _fail(f"grid too large: {p.width} x {p.height} (limit {MAX_SHIKAKU_CELLS} cells)")
    return Parsed("shikaku", p)


# ---- what the page draws before any search ----------------------------------------------------


def summary(parsed: Parsed) -> JSON:
    """The board and pieces as the page draws them (cells as [row, col(, layer)])."""
    if parsed.kind == "shikaku":
        p = parsed.shikaku
        return {"kind": "shikaku", "width": p.width, "height": p.height, "rows": p.rows(), "clues": len(p.clues)}
    if parsed.kind == "calendar":
        from . import calendar_api

        return calendar_api.summary(parsed.calendar)
    t = parsed.tiling
    puzzle = t.puzzle
    board = puzzle.board
    colours = puzzle.colour_names
    cells = board.cells.tolist()
    out = {
        "kind": parsed.kind,
        "dim": board.dim,
        "grid": board.grid.name,
        "cells": cells,
        "area": board.area,
        "shape": [int(x) + 1 for x in board.cells.max(axis=0) - board.cells.min(axis=0)],
        "pieces": [
            {
                "name": p.name,
                "size": p.size,
                "count": p.count,
                "min": p.least,
                "cells": p.cells.tolist(),
                "reflect": puzzle.reflects(p),
            }
            for p in puzzle.pieces
        ],
        "tiles_area": puzzle.tiles_area,
        "reflect": puzzle.allow_reflection,
        "notes": list(puzzle.notes),
        "source": puzzle.source,
    }
    if not board.grid.boxes and board.grid.flat:
        out["points"] = board.grid.drawing_points(board.cells).tolist()
    from ..draw.view_solids import view

    out.update(view(board.grid, board.cells))  # the 3D view's solids, for grids of prisms, tetrahedra, balls
    if len({int(x) for x in board.colours.tolist()}) > 1:
        out["cell_colours"] = [colours[int(k)] for k in board.colours.tolist()]
    if parsed.why_not:
        out["impossible"] = parsed.why_not
    if parsed.letters:
        out["letters"] = parsed.letters
    if parsed.problems is not None:
        out["problems"] = parsed.problems
    return out
