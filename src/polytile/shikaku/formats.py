"""Shikaku puzzles in four spellings, each error naming its line and column:

- the common text form: `W H`, then H rows of W integers (0 = blank);
- Simon Tatham's Rectangles game ids: `WxH:` then runs of blanks as letters (a = 1 ... z = 26),
  numbers in decimal, `_` between two numbers that touch;
- puzz.link / pzv.jp URLs: `...?shikaku/W/H/body`, body in pzprjs's number16 code;
- polytile JSON: {"shikaku": {"width": W, "height": H, "rows": [[...], ...]}} or with
  "clues": [[row, col, area], ...] (0-based) instead of "rows".
"""

from __future__ import annotations

import os
import re
from itertools import compress

from typing import Any

from ..errors import PuzzleError
from ..formats.common import describe, load_json, read_text
from .grid import Shikaku

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy reads it as True)
if TYPE_CHECKING:
    from pathlib import Path

MAX_CELLS = 1_000_000
MAX_DIGITS = 12  # any number longer than this is far beyond MAX_CELLS
# possessive quantifiers: a string that is no id fails in linear time ("1x" and 100,000
# digits took 52 s of backtracking between the height's digits and the options)
# compiled on first use (re caches them): a plain text file never needs them
GAME_ID = r"^\s*+([0-9]++)x([0-9]++)([^:\s]*+):(\S*+)\s*$"
URL = r"[?/&](?:shikaku|sikaku)/(?:[a-z]+:?/)?([0-9]+)/([0-9]+)/([^/?&#\s]*)"


def _game_id(text: str) -> re.Match[str] | None:
    return re.match(GAME_ID, text) if ":" in text else None


def _url(text: str) -> re.Match[str] | None:
    return re.search(URL, text) if "ikaku/" in text else None


def _is_file(name: str) -> bool:
    return os.path.exists(name)  # False for a name too long or with a NUL byte


def load(source: str | Path) -> Shikaku:
    """A puzzle from a file, `-` (stdin), or a URL / game id given in place of a file."""
    name = str(source)
    if name != "-" and (_url(name) or _game_id(name)) and not _is_file(name):
        return parse(name, "<argument>")
    return parse(read_text(source), name)


def parse(text: str, name: str = "<text>") -> Shikaku:
    """Recognise the spelling and read it."""
    stripped = text.strip()
    line = text[: len(text) - len(text.lstrip())].count("\n") + 1
    if stripped.startswith("{"):
        return parse_json(text, name)
    if "\n" not in stripped and _url(stripped):
        return parse_url(stripped, name, line)
    if "\n" not in stripped and _game_id(stripped):
        return parse_game_id(stripped, name, line)
    return parse_text(text, name)


def _size(w: int, h: int, name: str, line: int, col: int) -> None:
    if w < 1 or h < 1:
        raise PuzzleError(f"width and height must be positive (got {w} x {h})", name, line, col)
    if w * h > MAX_CELLS:
        raise PuzzleError(f"grid of {w} x {h} cells is too large (limit {MAX_CELLS} cells)", name, line, col)


def _clue(v: int, w: int, h: int, name: str, line: int, col: int) -> int:
    if v < 0:
        raise PuzzleError(f"negative number {v}", name, line, col)
    if v > w * h:
        raise PuzzleError(f"number {v} is larger than the grid ({w} x {h} = {w * h} cells)", name, line, col)
    return v


def _number(digits: str, what: str, name: str, line: int, col: int) -> int:
    """ASCII digits as an int; a number of more than MAX_DIGITS significant digits is refused
    as too large. Leading zeros are dropped before int(), which refuses more than 4300
    digits whatever their value."""
    sign = "-" if digits.startswith("-") else ""
    significant = digits.lstrip("+-").lstrip("0")
    if len(significant) > MAX_DIGITS:
        raise PuzzleError(f"{what} is too large ({len(significant)} digits)", name, line, col)
    return int(sign + (significant or "0"))


def _int(token: str, what: str, name: str, line: int, col: int) -> int:
    if not re.fullmatch(r"[+-]?[0-9]+", token):
        raise PuzzleError(f"{what} must be an integer, not {describe(token, 40)}", name, line, col)
    return _number(token, what, name, line, col)


def _plain_text(text: str) -> Shikaku | None:
    """The common case without a test per number (9 ms of 10 on a 100 x 100 grid): ASCII
    digits and blanks only, the header, then exactly H rows of W numbers, none longer than
    MAX_DIGITS significant digits or larger than the grid. None for anything else: the careful reader then
    says what is wrong and where."""
    tokens = text.split()
    joined = "".join(tokens)
    if len(tokens) < 3 or not (joined.isascii() and joined.isdigit()):
        return None
    if max(map(len, tokens)) > MAX_DIGITS:  # rare: leading zeros do not count (the careful reader's rule)
        tokens = [t.lstrip("0") or "0" for t in tokens]
        if max(map(len, tokens)) > MAX_DIGITS:
            return None
    w, h = int(tokens[0]), int(tokens[1])
    if not (1 <= w and 1 <= h and w * h <= MAX_CELLS and len(tokens) == 2 + w * h):
        return None
    fields = [n for n in map(len, map(str.split, text.split("\n"))) if n]
    if fields[0] != 2 or len(fields) != h + 1 or fields[1:].count(w) != h:
        return None
    values = list(map(int, tokens[2:]))
    if max(values) > w * h:
        return None
    return Shikaku(w, h, tuple((k // w, k % w, values[k]) for k in compress(range(w * h), values)))


def parse_text(text: str, name: str = "<text>") -> Shikaku:
    """`W H` then H rows of W integers; blank lines are ignored."""
    plain = _plain_text(text)
    return plain if plain is not None else parse_text_careful(text, name)


def parse_text_careful(text: str, name: str = "<text>") -> Shikaku:
    """`parse_text` token by token, each error with its line and column."""
    lines = [
        (n, [(m.group(), m.start() + 1) for m in re.finditer(r"\S+", raw)], len(raw))
        for n, raw in enumerate(text.split("\n"), 1)
    ]
    lines = [entry for entry in lines if entry[1]]
    if not lines:
        raise PuzzleError("empty puzzle: expected a header `W H`", name, 1, 1)
    n, tokens, _ = lines[0]
    if len(tokens) != 2:
        col = tokens[2][1] if len(tokens) > 2 else tokens[-1][1] + len(tokens[-1][0])
        raise PuzzleError(
            f"the first line must be the header `W H` (width and height), "
            f"found {len(tokens)} field{'s' if len(tokens) != 1 else ''}",
            name,
            n,
            col,
        )
    w, h = (_int(t, "the header's " + what, name, n, col) for (t, col), what in zip(tokens, ("width", "height")))
    _size(w, h, name, n, 1)
    rows = []
    for k, (n, tokens, length) in enumerate(lines[1:], 1):
        if k > h:
            raise PuzzleError(f"extra line after the {h} rows the header announces", name, n, tokens[0][1])
        if len(tokens) != w:
            col = tokens[w][1] if len(tokens) > w else length + 1
            raise PuzzleError(f"row {k} has {len(tokens)} numbers, the header says {w}", name, n, col)
        rows.append([_clue(_int(t, "a cell", name, n, col), w, h, name, n, col) for t, col in tokens])
    if len(rows) < h:
        last = lines[-1][0] + 1
        raise PuzzleError(f"the header announces {h} rows, found {len(rows)}", name, last, 1)
    return Shikaku.from_rows(rows)


def parse_game_id(text: str, name: str = "<game id>", line: int = 1) -> Shikaku:
    """Simon Tatham's Rectangles: `WxH:` then the clue code."""
    m = _game_id(text)
    if not m:
        raise PuzzleError("not a Rectangles game id `WxH:...`", name, line, 1)
    w = _number(m.group(1), "the width", name, line, m.start(1) + 1)
    h = _number(m.group(2), "the height", name, line, m.start(2) + 1)
    _size(w, h, name, line, 1)
    start = m.start(4)
    cells: list[int] = []
    for tok in re.finditer(r"[a-z]|[0-9]+|_|.", m.group(4)):
        s, col = tok.group(), start + tok.start() + 1
        if s[0] in "0123456789":
            cells.append(_clue(_number(s, "a number", name, line, col), w, h, name, line, col))
        elif "a" <= s <= "z":
            cells += [0] * (ord(s) - ord("a") + 1)
        elif s != "_":
            raise PuzzleError(f"unexpected character {describe(s)} in the game id", name, line, col)
        if len(cells) > w * h:
            raise PuzzleError(f"the game id describes more than {w} x {h} cells", name, line, col)
    if len(cells) != w * h:
        raise PuzzleError(
            f"the game id describes {len(cells)} cells, {w} x {h} needs {w * h}",
            name,
            line,
            start + len(m.group(4)) + 1,
        )
    return Shikaku.from_rows([cells[r * w : (r + 1) * w] for r in range(h)])


_WIDE = {"-": (2, 0), "+": (3, 0), "=": (3, 4096), "%": (3, 8192), "*": (4, 12240), "$": (5, 77776)}


def parse_url(text: str, name: str = "<url>", line: int = 1) -> Shikaku:
    """puzz.link / pzv.jp: `?shikaku/W/H/body` (pzprjs number16: hex digits, `-xx`, `+xxx`,
    ..., `g`-`z` skip 1-20 cells)."""
    m = _url(text)
    if not m:
        raise PuzzleError("not a puzz.link shikaku URL (`...?shikaku/W/H/...`)", name, line, 1)
    w = _number(m.group(1), "the width", name, line, m.start(1) + 1)
    h = _number(m.group(2), "the height", name, line, m.start(2) + 1)
    _size(w, h, name, line, m.start(1) + 1)
    body, start = m.group(3), m.start(3)
    cells: list[int] = []
    i = 0
    while i < len(body) and len(cells) < w * h:
        ch, col = body[i], start + i + 1
        if ch in "0123456789abcdef":
            cells.append(int(ch, 16))
            i += 1
        elif ch in _WIDE:
            digits, base = _WIDE[ch]
            code = body[i + 1 : i + 1 + digits]
            if len(code) != digits or not re.fullmatch(r"[0-9a-f]+", code):
                raise PuzzleError(f"{ch!r} must be followed by {digits} hex digits", name, line, col)
            cells.append(int(code, 16) + base)
            i += 1 + digits
        elif "g" <= ch <= "z":
            cells += [0] * (int(ch, 36) - 15)
            i += 1
        elif ch == ".":
            raise PuzzleError("a clue of unknown area ('?') is not supported", name, line, col)
        else:
            raise PuzzleError(f"unexpected character {describe(ch)} in the URL", name, line, col)
        if cells:
            _clue(cells[-1], w, h, name, line, col)
    cells = (cells + [0] * (w * h))[: w * h]
    return Shikaku.from_rows([cells[r * w : (r + 1) * w] for r in range(h)])


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _json_size(spec: dict[str, Any], name: str) -> tuple[int, int]:
    """Width and height: given, or those of "rows" when both are left out."""
    w, h, rows = spec.get("width"), spec.get("height"), spec.get("rows")
    if w is None and h is None and isinstance(rows, list) and rows and isinstance(rows[0], list):
        w, h = len(rows[0]), len(rows)
    if not (isinstance(w, int) and isinstance(h, int) and _is_int(w) and _is_int(h)):
        raise PuzzleError(f'"width" and "height" must be integers, not {describe(w)} and {describe(h)}', name, 1, 1)
    _size(w, h, name, 1, 1)
    return w, h


def _json_rows(rows: object, grid: list[list[int]], name: str) -> None:
    h, w = len(grid), len(grid[0])
    if not (isinstance(rows, list) and len(rows) == h and all(isinstance(r, list) and len(r) == w for r in rows)):
        raise PuzzleError(f'"rows" must be {h} lists of {w} integers', name, 1, 1)
    for r, row in enumerate(rows):
        for c, v in enumerate(row):
            if not _is_int(v):
                raise PuzzleError(f"rows[{r}][{c}] is not an integer: {describe(v)}", name, 1, 1)
            grid[r][c] = _clue(v, w, h, name, 1, 1)


def _json_clues(clues: object, grid: list[list[int]], name: str) -> None:
    h, w = len(grid), len(grid[0])
    if not isinstance(clues, list):
        raise PuzzleError(f'"clues" must be a list of [row, col, area], not {describe(clues)}', name, 1, 1)
    for k, clue in enumerate(clues):
        if not (isinstance(clue, list) and len(clue) == 3 and all(map(_is_int, clue))):
            raise PuzzleError(f"clues[{k}] must be [row, col, area], not {describe(clue)}", name, 1, 1)
        r, c, v = clue
        if not (0 <= r < h and 0 <= c < w):
            raise PuzzleError(f"clues[{k}] lies outside the {w} x {h} grid", name, 1, 1)
        grid[r][c] = _clue(v, w, h, name, 1, 1)


def parse_json(text: str, name: str = "<json>") -> Shikaku:
    """A grid from polytile's Shikaku JSON ({"shikaku": {width, height, rows}}, or the inner
    object alone), so a grid written by `--json` or the page reads back."""
    data = load_json(text, name)
    spec = data.get("shikaku", data) if isinstance(data, dict) else None
    if not isinstance(spec, dict):
        raise PuzzleError('expected an object {"shikaku": {"width": W, "height": H, "rows": ...}}', name, 1, 1)
    w, h = _json_size(spec, name)
    grid = [[0] * w for _ in range(h)]
    if "rows" in spec:
        _json_rows(spec["rows"], grid, name)
    if "clues" in spec:
        _json_clues(spec["clues"], grid, name)
    return Shikaku(w, h, Shikaku.from_rows(grid).clues)


def to_game_id(puzzle: Shikaku) -> str:
    """The Rectangles game id of a puzzle."""
    out, run = [], 0
    for v in [v for row in puzzle.rows() for v in row] + [-1]:
        if v == 0:
            run += 1
            continue
        if run:
            while run > 0:
                step = min(run, 26)
                out.append(chr(ord("a") + step - 1))
                run -= step
        elif out and v > 0:
            out.append("_")
        if v > 0:
            out.append(str(v))
        run = 0
    return f"{puzzle.width}x{puzzle.height}:{''.join(out)}"


def to_url(puzzle: Shikaku) -> str:
    """The puzz.link URL of a puzzle."""
    out, run = [], 0
    for v in [v for row in puzzle.rows() for v in row]:
        if v == 0:
            run += 1
            if run == 20:
                out.append("z")
                run = 0
            continue
        if run:
            out.append(chr(ord("g") + run - 1))
            run = 0
        for ch, (digits, base) in [("", (1, 0))] + list(_WIDE.items()):
            if base <= v < base + 16**digits:
                out.append(f"{ch}{v - base:0{digits}x}")
                break
    if run:
        out.append(chr(ord("g") + run - 1))
    return f"https://puzz.link/p?shikaku/{puzzle.width}/{puzzle.height}/{''.join(out)}"
