"""Knuth's DLX format (dlx1, dlx2; xcover reads it too), in and out.

Reading: lines whose first non-blank character is `|` are comments, blank lines are
skipped; the first other line names the items, primary ones first, then `|` and the
secondary ones; every later line is an option, the names of its items, where a secondary
item may carry a colour, `item:colour` (dlx2). A name is 1 to 8 printable ASCII
characters other than `:` and `|` (dlx1.w's rule). Anything else is refused with
file:line:column: an item named twice, `|` twice, an option naming an unknown item or an
item twice, a colour on a primary item, a name too long, no items line. An option without
a primary item is kept but can never be chosen (dlx1 drops it with a warning).

Writing (`dump`): a polytile puzzle as the matrix polytile's model builds (core.cover.build,
so colours are already respected by the placements): items are the board's cells, named
from their coordinates, then one item per copy of each piece (`F`, or `T1`, `T2` for copies),
primary when the copy must be used, secondary when the puzzle lets it stay unused (tiles
exceeding the board); one option per placement and copy, the piece's item first. Copies
become distinct pieces, so a solution using all k copies of a piece is counted k! times."""

from __future__ import annotations

import math
import re
from itertools import repeat
from typing import TYPE_CHECKING

import numpy as np

from ..errors import PuzzleError
from .common import clip

if TYPE_CHECKING:
    from ..core.cover import Model
    from ..core.matrix import Matrix
    from ..core.puzzle import Piece
    from ..core.results import Solution
    from ..core.puzzle import Puzzle

NAME_LENGTH = 8  # dlx1.w: "from one to eight characters long"
MAX_OPTIONS = 2_000_000  # options `dump` writes (copies of a piece are distinct items: placements x copies)
NAME = re.compile(r"[!-~]+")  # printable ASCII, no blank
TOKEN = re.compile(r"\S+")
PLAIN = re.compile(r"[!-9;-{}~\t ]*")  # printable ASCII but `:` and `|`, blanks: names only


class _Reader:
    """The parser's state: item numbers by name, the option entries so far."""

    def __init__(self, source: str):
        self.source = source
        self.names: list[str] = []
        self.index: dict[str, int] = {}
        self.n_primary = -1
        self.ptr = [0]
        self.items: list[int] = []
        self.colours: list[int] = []
        self.colour_index: dict[str, int] = {}

    def fail(self, message: str, line: int, col: int) -> PuzzleError:
        return PuzzleError(message, self.source, line, col)

    def check_name(self, name: str, line: int, col: int, what: str = "item name") -> None:
        if not name:
            raise self.fail(f"empty {what}", line, col)
        if not NAME.fullmatch(name):
            bad = next(i for i, ch in enumerate(name) if not ("!" <= ch <= "~"))
            raise self.fail(f"{what} {clip(name)!r}: character {name[bad]!r} is not printable ASCII", line, col + bad)
        for ch in ":|":
            if ch in name:
                raise self.fail(f"{what} {clip(name)!r} holds {ch!r}", line, col + name.index(ch))
        if len(name) > NAME_LENGTH:
            raise self.fail(f"{what} {clip(name)!r} is longer than {NAME_LENGTH} characters", line, col)

    def item_line(self, text: str, line: int) -> None:
        """The first line: primary items, `|`, secondary items."""
        if not self.items_at_once(text):
            self.checked_item_line(text, line)
        if self.n_primary < 0:
            self.n_primary = len(self.names)
        if self.n_primary == 0:
            raise self.fail("no primary items (an exact cover needs at least one)", line, 1)

    def items_at_once(self, text: str) -> bool:
        """The items line read at C speed when it holds valid names only, each once, and at
        most one `|` starting a word (700,000 names: a second less); False, nothing read,
        leaves it to checked_item_line."""
        before, bar, after = text.partition("|")
        if "|" in after or (before and bar and not before[-1].isspace()):
            return False
        if PLAIN.fullmatch(before) is None or PLAIN.fullmatch(after) is None:
            return False
        primary, secondary = before.split(), after.split()
        names = primary + secondary
        if len(set(names)) != len(names) or max(map(len, names), default=0) > NAME_LENGTH:
            return False
        self.names, self.index = names, {name: i for i, name in enumerate(names)}
        self.n_primary = len(primary) if bar else -1
        return True

    def checked_item_line(self, text: str, line: int) -> None:
        """item_line's way with faults: each word checked where it stands."""
        for m in TOKEN.finditer(text):
            word, col = m.group(), m.start() + 1
            if word.startswith("|"):
                if self.n_primary >= 0:
                    raise self.fail("the items line holds `|` twice", line, col)
                self.n_primary = len(self.names)
                word, col = word[1:], col + 1
                if not word:
                    continue
            self.check_name(word, line, col)
            if word in self.index:
                raise self.fail(f"item {clip(word)!r} is named twice", line, col)
            self.index[word] = len(self.names)
            self.names.append(word)

    def option_line(self, text: str, line: int) -> None:
        """One option: item names, a secondary item optionally `name:colour`. Names of
        items (checked on the items line), each once, take a short way: a file of a
        million options is read in a second or two."""
        items = [self.index.get(word, -1) for word in text.split()]
        if -1 not in items and len(set(items)) == len(items):
            self.items.extend(items)
            self.colours.extend([0] * len(items))
            self.ptr.append(len(self.items))
            return
        self.checked_option_line(text, line)

    def checked_option_line(self, text: str, line: int) -> None:
        """option_line's way with colours and faults: each word checked where it stands."""
        seen: set[int] = set()
        for m in TOKEN.finditer(text):
            word, col = m.group(), m.start() + 1
            name, _, colour = word.partition(":")
            self.check_name(name, line, col)
            item = self.index.get(name)
            if item is None:
                raise self.fail(f"unknown item {clip(name)!r}", line, col)
            if item in seen:
                raise self.fail(f"item {clip(name)!r} appears twice in this option", line, col)
            seen.add(item)
            self.items.append(item)
            self.colours.append(self.colour(colour, word, item, line, col) if ":" in word else 0)
        self.ptr.append(len(self.items))

    def colour(self, colour: str, word: str, item: int, line: int, col: int) -> int:
        """The number of a colour (from 1), checked."""
        at = col + word.index(":") + 1
        if item < self.n_primary:
            raise self.fail(f"primary item {clip(self.names[item])!r} cannot have a colour", line, at)
        if not colour:
            raise self.fail(f"no colour after ':' in {clip(word)!r}", line, at)
        self.check_name(colour, line, at, "colour")
        return self.colour_index.setdefault(colour, len(self.colour_index) + 1)

    def matrix(self) -> Matrix:
        from ..core.matrix import Matrix

        return Matrix(
            self.names,
            self.n_primary,
            np.array(self.ptr, dtype=np.int64),
            np.array(self.items, dtype=np.int32),
            np.array(self.colours, dtype=np.int32),
            list(self.colour_index),
        )


def parse(text: str, source: str = "<dlx>") -> Matrix:
    """A DLX file's matrix; PuzzleError (file:line:column) for anything malformed."""
    reader = _Reader(source)
    lines = text.split("\n")
    first = 0
    for first, line in enumerate(lines, 1):
        body = line.rstrip("\r")
        stripped = body.lstrip()
        if stripped and not stripped.startswith("|"):
            reader.item_line(body, first)
            break
    if not reader.names:
        raise PuzzleError("no items line (only comments or blank lines)", source)
    if not _all_at_once(reader, lines[first:]):
        for number, line in enumerate(lines[first:], first + 1):
            body = line.rstrip("\r")
            stripped = body.lstrip()
            if stripped and not stripped.startswith("|"):
                reader.option_line(body, number)
    return reader.matrix()


def _all_at_once(reader: _Reader, lines: list[str]) -> bool:
    """The options of `lines` read in a few passes at C speed when every word names an
    item, once in its option (no colours, no faults): a file of millions of short options
    in a second. False, nothing read, leaves them to the line by line reading, which says
    where a fault is."""
    body = [s for line in lines if (s := line.strip()) and not s.startswith("|")]
    counts = list(map(len, map(str.split, body)))
    words = " ".join(body).split()
    found = list(map(reader.index.get, words, repeat(-1)))  # (map: C speed, a million words in 0.1 s)
    colours = [0] * len(found)
    if -1 in found:  # `item:colour` (each distinct word resolved once, in order), or a fault
        item_of, colour_of = dict(reader.index), {}
        for word in dict.fromkeys(w for w, item in zip(words, found) if item < 0):
            name, _, colour = word.partition(":")
            item = reader.index.get(name, -1)
            if item < reader.n_primary or not _colour_name(colour):
                reader.colour_index.clear()
                return False
            item_of[word] = item
            colour_of[word] = reader.colour_index.setdefault(colour, len(reader.colour_index) + 1)
        found, colours = list(map(item_of.__getitem__, words)), list(map(colour_of.get, words, repeat(0)))
    items = np.array(found, dtype=np.int64)
    key = np.sort(np.repeat(np.arange(len(counts), dtype=np.int64), counts) * len(reader.names) + items)
    if (key[1:] == key[:-1]).any():  # an item twice in an option
        reader.colour_index.clear()
        return False
    reader.items, reader.colours = found, colours
    reader.ptr = [0, *np.cumsum(counts, dtype=np.int64).tolist()]
    return True


def _colour_name(name: str) -> bool:
    """Whether a colour is 1 to 8 printable ASCII characters other than `:` and `|`."""
    return 0 < len(name) <= NAME_LENGTH and NAME.fullmatch(name) is not None and ":" not in name and "|" not in name


def load(path: str) -> Matrix:
    """Read and parse a DLX file (`-`: standard input)."""
    from .common import read_text

    return parse(read_text(path), str(path))


# ---- writing -------------------------------------------------------------------------


def cell_names(cells: np.ndarray) -> list[str]:
    """Each cell's coordinates from the board's least corner, joined by `.` (`3.10`); the
    cell's number in base 36 (`#a3`) when some name would exceed 8 characters."""
    rel = cells - cells.min(axis=0)
    names = [".".join(str(v) for v in row) for row in rel.tolist()]
    if max(len(n) for n in names) <= NAME_LENGTH:
        return names
    return ["#" + np.base_repr(i, 36).lower() for i in range(len(cells))]


def piece_names(names: list[str], counts: list[int], taken: set[str]) -> list[list[str]]:
    """Item names for the copies of each piece: its name (plus 1..k for copies, after a
    `.` when the name ends in a digit) when it makes a valid, fresh name, else `p<number>`."""
    out: list[list[str]] = []
    used = set(taken)
    for i, (name, count) in enumerate(zip(names, counts)):
        for base in (name, f"p{i + 1}", f"q{i + 1}"):
            cut = "." if base[-1:].isdigit() else ""  # t1 -> t1.1, t1.2; P -> P1, P2
            tags = [base] if count == 1 else [f"{base}{cut}{c}" for c in range(1, count + 1)]
            if all(
                NAME.fullmatch(t) and ":" not in t and "|" not in t and len(t) <= NAME_LENGTH and t not in used
                for t in tags
            ):
                break
        else:
            raise PuzzleError(f"no DLX item name fits piece {clip(name)!r} ({count} copies)")
        used.update(tags)
        out.append(tags)
    return out


def dump(puzzle: Puzzle, solutions: list[Solution] | None, source: str) -> bytes:
    """The puzzle as a DLX matrix (see the module's docstring); solutions, if given, as
    comment lines naming their options. PuzzleError when a piece must be used a number
    of times between none and all of its copies (DLX has no such item)."""
    from ..budget import CLI_BYTES, over
    from ..core.cover import OverBudget, build, check_budget

    try:
        check_budget(puzzle, CLI_BYTES)
    except OverBudget as e:
        raise over(e.what, e.need, CLI_BYTES, source) from None
    model = build(puzzle)
    pieces = model.puzzle.pieces
    for p in pieces:
        if 0 < p.least < p.count:
            raise PuzzleError(
                f"piece {clip(p.name)!r}: {p.least} of its {p.count} copies must be used; a DLX matrix says all or any",
                source,
            )
    written = int((np.array([p.count for p in pieces], dtype=np.int64)[model.cover.opt_piece]).sum())
    if written > MAX_OPTIONS:
        raise PuzzleError(
            f"the matrix would have {written} options, one per placement and copy (limit {MAX_OPTIONS})", source
        )
    cells = cell_names(model.cells)
    copies = piece_names(_names(pieces), [p.count for p in pieces], set(cells))
    required = [t for p, tags in zip(pieces, copies) if p.least == p.count for t in tags]
    optional = [t for p, tags in zip(pieces, copies) if p.least < p.count for t in tags]
    cover = model.cover
    lines = _header(puzzle, source, len(cells), cover.n_options, copies, pieces)
    lines.append(" ".join(cells + required) + (" | " + " ".join(optional) if optional else ""))
    for o in range(cover.n_options):
        names = " ".join(cells[i] for i in cover.option_items(o).tolist())
        lines.extend(f"{tag} {names}" for tag in copies[int(cover.opt_piece[o])])
    if solutions:
        lines += _solution_comments(solutions, model, cells)
    return ("\n".join(lines) + "\n").encode("ascii")


def _names(pieces: list[Piece]) -> list[str]:
    """The pieces' names, or their pentomino letters when they are the twelve (or some of
    them, each once): drawings name their pieces t1, t2..."""
    from ..core.library import pentomino_name

    letters = [pentomino_name(p.cells) for p in pieces]
    if all(letters) and len(set(letters)) == len(letters):
        return [str(x) for x in letters]
    return [p.name for p in pieces]


def _header(
    puzzle: Puzzle, source: str, n_cells: int, n_placements: int, copies: list[list[str]], pieces: list[Piece]
) -> list[str]:
    """Comment lines: where the matrix came from and how its count relates to polytile's."""
    factor = _factorials([p.count for p in pieces])
    lines = [
        f"| from {_ascii(source)} by polytile convert: {n_cells} cells, "
        f"{sum(len(c) for c in copies)} piece items, {n_placements} placements",
        "| items: cells (coordinates from the board's least corner), then pieces; options: piece, then its cells",
    ]
    if factor:
        lines.append(
            f"| copies are distinct items: each solution of the puzzle that uses every copy appears {factor} times here"
        )
    if puzzle.partial:
        lines.append("| secondary items: pieces that may stay unused")
    return lines


def _factorials(counts: list[int]) -> str:
    """The product of the counts' factorials, written out up to 30 digits, else as the
    factorials ("10000!": its 35,660 digits are past Python's int-to-text limit); "" for 1."""
    if all(c <= 1 for c in counts):
        return ""
    value = 1
    for c in counts:
        value *= math.factorial(min(c, 30))
        if c > 30 or value >= 10**30:
            return " x ".join(f"{c}!" for c in counts if c > 1)
    return str(value)


def _solution_comments(solutions: list[Solution], model: Model, cells: list[str]) -> list[str]:
    """`| solution k:` then one comment line per placed piece: its name and cells."""
    index = {tuple(c): i for i, c in enumerate(model.cells.tolist())}
    lines = []
    for k, sol in enumerate(solutions, 1):
        lines.append(f"| solution {k}:")
        for pl in sol.placements:
            names = sorted((index[tuple(c)] for c in pl.cells.tolist()))
            lines.append(f"|   {_ascii(pl.piece)}: " + " ".join(cells[i] for i in names))
    return lines


def _ascii(text: str) -> str:
    """`text` with every character outside printable ASCII as `?` (the file is ASCII)."""
    return "".join(ch if " " <= ch <= "~" else "?" for ch in text)
