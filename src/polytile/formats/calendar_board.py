"""Calendar boards as text: a drawing of labelled cells, then the pieces.

    # A-Puzzle-A-Day (DragonFjord)
    Jan Feb Mar Apr May Jun
    Jul Aug Sep Oct Nov Dec
    1  2  3  4  5  6  7
    ...
    29 30 31
    pieces: 2x3 L N P U V Y Z

Each line up to `pieces:` is a row of whitespace-separated labels, one a cell; `.` is no
cell (a short row ends early); a line starting with `#` is a comment. A label is a
month (`Jan`..`Dec`), a day number (`1`..`31`), a weekday (`Sun`..`Sat`), in any case, or
anything else (say `*`): a cell that is always covered. The kinds present are the board's
*groups*: a date leaves one cell of each open (its month, its day, its weekday), so no
month, day or weekday may appear twice. Pieces: pentomino letters (F I L N P T U V W X Y
Z), tetrominoes `I4 L4 O4 S4 T4`, rectangles `AxB` (not 1x1); each once, flipping allowed. The
board's bounding box holds at most 64 cells (rows x columns).

The reader knows nothing of search: it returns the cells, labels and piece shapes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.library import PENTOMINO_ROWS
from ..errors import PuzzleError
from .common import clip

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")  # date.weekday() order
GROUPS = ("month", "day", "weekday")
TETROMINO_ROWS = {"I4": ["XXXX"], "L4": ["XXX", "X.."], "O4": ["XX", "XX"], "S4": [".XX", "XX."], "T4": ["XXX", ".X."]}
NO_CELL = (".",)
MAX_CELLS = 64  # the tally kernel keeps a board (its box) in one 64-bit word

CLASSIC = """\
# DragonFjord's A-Puzzle-A-Day: 43 cells, eight pieces, the month and the day left open
Jan Feb Mar Apr May Jun
Jul Aug Sep Oct Nov Dec
1  2  3  4  5  6  7
8  9  10 11 12 13 14
15 16 17 18 19 20 21
22 23 24 25 26 27 28
29 30 31
pieces: 2x3 L N P U V Y Z
"""

WEEKDAY = """\
# the weekday variant: 50 cells, ten pieces, the month, the day and the weekday left open
Jan Feb Mar Apr May Jun
Jul Aug Sep Oct Nov Dec
1  2  3  4  5  6  7
8  9  10 11 12 13 14
15 16 17 18 19 20 21
22 23 24 25 26 27 28
29 30 31 Sun Mon Tue Wed
.  .  .  .   Thu Fri Sat
pieces: I4 L4 S4 L N P T U V Z
"""
BUILT_IN = {"classic": CLASSIC, "weekday": WEEKDAY}


@dataclass(frozen=True)
class CalendarBoard:
    """A calendar puzzle: cells (row, col) with their labels, the group of each label
    (month/day/weekday, or None: always covered) and the pieces as (name, rows)."""

    name: str
    cells: tuple[tuple[int, int], ...]
    labels: tuple[str, ...]
    groups: tuple[str | None, ...]
    pieces: tuple[tuple[str, tuple[str, ...]], ...]

    def group_names(self) -> tuple[str, ...]:
        """The groups present, in the order month, day, weekday."""
        return tuple(g for g in GROUPS if g in self.groups)

    def cell_of(self, label: str) -> int | None:
        """The index of the cell labelled `label` (a canonical label), or None."""
        return self.labels.index(label) if label in self.labels else None


def classify(label: str) -> tuple[str | None, str]:
    """(group, canonical label) of a cell's label: ('month', 'Jan'), ('day', '7'), ..."""
    title = label[:3].title()
    if title in MONTHS and label.lower() in (title.lower(), _full_month(title).lower()):
        return "month", title
    if title in WEEKDAYS and label.lower() in (title.lower(), _full_weekday(title).lower()):
        return "weekday", title
    if re.fullmatch(r"[0-9]{1,2}", label) and 1 <= int(label) <= 31:  # ASCII: '²'.isdigit() is True
        return "day", str(int(label))
    return None, label


def _full_month(abbr: str) -> str:
    return ("January February March April May June July August September October November December").split()[
        MONTHS.index(abbr)
    ]


def _full_weekday(abbr: str) -> str:
    return "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()[WEEKDAYS.index(abbr)]


def piece_rows(name: str) -> tuple[str, ...] | None:
    """The drawing of a piece named in a `pieces:` line, or None."""
    if name.upper() in PENTOMINO_ROWS:
        return tuple(PENTOMINO_ROWS[name.upper()])
    if name.upper() in TETROMINO_ROWS:
        return tuple(TETROMINO_ROWS[name.upper()])
    m = re.fullmatch(r"([1-9])[xX]([1-9])", name)
    if m and m.group() not in ("1x1", "1X1"):  # the search's dead-end test needs 2+ cells
        return tuple("X" * int(m.group(2)) for _ in range(int(m.group(1))))
    return None


def parse(text: str, name: str = "<calendar>") -> CalendarBoard:
    """Read a calendar board (see the module's docstring); PuzzleError with line and column."""
    cells: list[tuple[int, int]] = []
    labels: list[str] = []
    groups: list[str | None] = []
    seen: dict[str, tuple[int, int]] = {}
    pieces: tuple[tuple[str, tuple[str, ...]], ...] | None = None
    row = 0
    for number, line in enumerate(text.splitlines(), start=1):
        body = line
        if not body.strip() or body.lstrip().startswith("#"):
            continue
        if pieces is not None:
            raise PuzzleError("nothing may follow the pieces line", name, number, 1)
        if body.strip().lower().startswith("pieces:"):
            pieces = _pieces(body, name, number)
            continue
        for col, (start, token) in enumerate(_tokens(body)):
            if token in NO_CELL:
                continue
            group, label = classify(token)
            if group is not None and label in seen:
                raise PuzzleError(f"{token!r} appears twice (first at line {seen[label][0]})", name, number, start + 1)
            seen[label] = (number, start + 1)
            cells.append((row, col))
            labels.append(label)
            groups.append(group)
        row += 1
    return _checked(CalendarBoard(name, tuple(cells), tuple(labels), tuple(groups), pieces or ()))


def _tokens(body: str) -> list[tuple[int, str]]:
    return [(m.start(), m.group()) for m in re.finditer(r"\S+", body)]


def _pieces(body: str, name: str, number: int) -> tuple[tuple[str, tuple[str, ...]], ...]:
    found = []
    offset = body.lower().index("pieces:") + len("pieces:")
    for start, token in _tokens(body[offset:]):
        rows = piece_rows(token)
        if rows is None:
            raise PuzzleError(
                f"unknown piece {clip(token)!r} (pentomino letters, I4 L4 O4 S4 T4, or AxB but 1x1)",
                name,
                number,
                offset + start + 1,
            )
        found.append((token.upper(), rows))
    if not found:
        raise PuzzleError("the pieces line names no piece", name, number, 1)
    return tuple(found)


def _checked(board: CalendarBoard) -> CalendarBoard:
    """Refuse a board that cannot be a calendar puzzle, naming why."""
    name = board.name
    if not board.pieces:
        raise PuzzleError("no pieces line (e.g. `pieces: 2x3 L N P U V Y Z`)", name)
    if not board.group_names():
        raise PuzzleError("no month, day or weekday cell: nothing to leave open", name)
    rows = 1 + max(r for r, _ in board.cells)
    cols = 1 + max(c for _, c in board.cells)
    if rows * cols > MAX_CELLS:
        raise PuzzleError(
            f"the board spans {rows} rows x {cols} columns: calendar boards fit in {MAX_CELLS} (rows x columns)", name
        )
    area = sum(sum(r.count("X") for r in rows) for _, rows in board.pieces)
    fill = len(board.cells) - len(board.group_names())
    if area != fill:
        raise PuzzleError(
            f"the pieces cover {area} cells, the board leaves {fill} to cover "
            f"({len(board.cells)} cells, {len(board.group_names())} left open)",
            name,
        )
    return board
