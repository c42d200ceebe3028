"""Calendar puzzles: which packings of the pieces leave a date's cells open.

`Calendar(board)` turns a calendar board (formats.calendar_board: labelled cells, pieces)
into the tally kernel's data (engine/tally.py): each cell a bit of a uint64, each
placement of a piece an option, the month, day and weekday cells grouped. Then:
- `count(date)` / `solve(date, n)`: one date, its open cells filled before the search;
- `tally()`: every date at once, one search over every packing of all the pieces that
  leaves one cell of each group open, each counted under the cells it leaves open
  (DragonFjord's board: 366 dates from one tree instead of 366 trees).
Dates are `datetime.date`s or (month, day[, weekday]) with 1-based month and day and
weekday 0 = Monday (as `date.weekday()`); calendar_dates.py reads them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..core.results import LETTERS, Placement, Solution
from ..formats.calendar_board import MONTHS, WEEKDAYS, CalendarBoard

WORD = 64  # bits of the kernel's board
KEYS = 4  # key cells by whose occupancy options are blocked


def key_steps(w: int) -> list[int]:
    """The key cells of a cell, as steps in the word: the next two in the row, the next
    row's cell and the one before it (6 keys searched no faster than 4)."""
    return [1, 2, w, w - 1, w + 1, 3][:KEYS]


MEMO_ROWS = 21  # the memo's table: 2**(2 * pieces + 1) states, at most 2**MEMO_ROWS
MEMO_POOL = 4  # (open set, count) pairs it may keep, per row of the table
MEMO_LOG = 1 << 20
MEMO_LEFT = 4  # the memo where this many pieces are left, or more
MEMO_WORTH = 8  # keep subtrees of this many nodes, or more
Date = tuple[int, int, "int | None"]  # (month 1..12, day 1..31, weekday 0..6 or None)


@dataclass
class Tally:
    """The counts of every date of a board (`dates` in calendar order)."""

    board: CalendarBoard
    dates: list[Date]
    counts: list[int]
    packings: int  # every packing found (each a solution of one open set)
    nodes: int


class Calendar:
    """A calendar board ready for the tally kernel."""

    def __init__(self, board: CalendarBoard):
        self.board = board
        self.cells = np.array(board.cells, dtype=np.int64).reshape(-1, 2)
        self.width = int(self.cells[:, 1].max()) + 1
        # cell i is bit bit[i] of a word, row by row from the bottom right corner (the search
        # fills the lowest empty bit first; neighbours are shifts): calendars end in short
        # rows (29 30 31, Thu Fri Sat), and starting there the tree is half the size
        turned = self.cells.max(axis=0) - self.cells
        self.bit = turned[:, 0] * self.width + turned[:, 1]
        self.full = np.uint64(_bits(self.bit.tolist()))
        self.start, self.masks, self.piece = placements(board, self.cells, self.bit)

    @cached_property
    def groups(self) -> tuple[np.ndarray, np.ndarray, list[list[int]]]:
        """(group of each bit or -1, its weight in the tally's index, the cells of each
        group in board order); the index of an open set is the sum of its cells' weights."""
        group = np.full(WORD, -1, np.int64)
        weight = np.zeros(WORD, np.int64)
        members: list[list[int]] = []
        stride = 1
        for g, name in enumerate(self.board.group_names()):
            cells = [i for i, kind in enumerate(self.board.groups) if kind == name]
            for rank, i in enumerate(cells):
                group[self.bit[i]], weight[self.bit[i]] = g, rank * stride
            members.append(cells)
            stride *= len(cells)
        return group, weight, members

    @cached_property
    def pruning(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """What the kernel's dead-end test needs: neighbours as shifts of the word (right,
        left, down, up) and the bits of each group."""
        w = self.width
        col = np.uint64(_bits([i for i in range(WORD) if i % w == w - 1]))
        first = np.uint64(_bits([i for i in range(WORD) if i % w == 0]))
        every = np.uint64((1 << WORD) - 1)
        shift = np.array([1, -1, w, -w], np.int64)
        shift_mask = np.array([every & ~col, every & ~first, every, every], np.uint64)
        _, _, members = self.groups
        group_mask = np.array([_bits([int(self.bit[i]) for i in m]) for m in members], np.uint64)
        return shift, shift_mask, group_mask

    @cached_property
    def blocks(self) -> tuple[np.ndarray, ...]:
        """The options by lowest cell and the occupancy of its key cells (the next two
        in the row, the next row's cell and the one before it, in the turned board): (keys,
        blocks, members, their masks, their pieces' bits) as the kernel takes them, so a
        node tries only options that miss the key cells already covered."""
        w = self.width
        keys = (np.arange(WORD)[:, None] + np.array(key_steps(w))[None]) % WORD
        patterns = np.arange(1 << KEYS)
        blocks, members = [np.zeros(1, np.int64)], []
        for c in range(WORD):
            options = np.arange(self.start[c], self.start[c + 1])
            on = (patterns[:, None] >> np.arange(KEYS)[None]) & 1  # (2**K, K)
            taken = (on.astype(np.uint64) << keys[c].astype(np.uint64)[None]).sum(axis=1).astype(np.uint64)
            fits = (self.masks[options][None, :] & taken[:, None]) == 0  # (2**K, n)
            members.append(np.broadcast_to(options, fits.shape)[fits])
            blocks.append(blocks[-1][-1] + np.cumsum(fits.sum(axis=1)))
        blocks = [np.concatenate(blocks)]
        ids = np.concatenate(members).astype(np.int64)
        bit = np.left_shift(np.uint64(1), self.piece[ids].astype(np.uint64))
        return keys.astype(np.int64), blocks[0].astype(np.int64), ids, self.masks[ids], bit

    def open_bits(self, date: Date) -> list[int]:
        """The tally kernel's bits of the cells a date leaves open."""
        return [int(self.bit[i]) for i in self.open_cells(date)]

    def open_cells(self, date: Date) -> list[int]:
        """The cells a date leaves open (KeyError naming a label the board lacks)."""
        month, day, weekday = date
        wanted = {
            "month": MONTHS[month - 1],
            "day": str(day),
            "weekday": None if weekday is None else WEEKDAYS[weekday],
        }
        out = []
        for name in self.board.group_names():
            label = wanted[name]
            index = None if label is None else self.board.cell_of(label)
            if index is None:
                raise KeyError(label or name)
            out.append(index)
        return out

    def _run(
        self,
        init: int,
        tally: bool,
        limit: int,
        part: tuple[int, int, int] = (0, 0, 0),
        memo: tuple[np.ndarray, ...] | None = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """One kernel call: (counts by open set, packings stored, stats). `part`: the
        root's choices searched (see `parts`; (0, 0, 0): all); `memo`: the arrays of an
        earlier call to go on with (counts, stats, table, pool, log)."""
        from ..engine.tally import tally as kernel

        group, weight, _ = self.groups
        if not tally:
            group, weight = np.full_like(group, -1), np.zeros_like(weight)
        counts, stats, table, pool, log = memo or self.memo(tally and limit == 0)
        stored = np.full((limit, len(self.board.pieces)), -1, np.int64)
        words = np.array([int(self.full), init, len(self.board.pieces), MEMO_LEFT, MEMO_WORTH, *part], np.uint64)
        shift, shift_mask, group_mask = self.pruning
        if not tally:
            group_mask = group_mask[:0]
        kernel(
            words, *self.blocks, group, weight, counts, stored, stats, shift, shift_mask, group_mask, table, pool, log
        )
        return counts, stored[: stats[1]], stats

    def memo(self, tally: bool) -> tuple[np.ndarray, ...]:
        """Fresh (counts, stats, table, pool, log) for the kernel (a memo when tallying)."""
        _, _, members = self.groups
        size = int(np.prod([len(m) for m in members])) if tally else 1
        rows = 1 << min(MEMO_ROWS, 2 * len(self.board.pieces) + 1) if tally else 0
        return (
            np.zeros(size, np.int64),
            np.zeros(5, np.int64),
            np.zeros((rows, 4), np.uint64),
            np.zeros((MEMO_POOL * rows, 2), np.int64),
            np.zeros((MEMO_LOG if tally else 0, 2), np.int64),
        )

    def parts(self) -> list[tuple[int, int, int]]:
        """The tree in parts for threads: leaving the first item open, then each option
        placed there (the search fills the lowest empty bit first), as the kernel's
        (lo, hi + 1, open)."""
        keys, blocks, _, _, _ = self.blocks
        full = int(self.full)
        first = (full & -full).bit_length() - 1
        j = first << KEYS  # nothing covered yet: the block of no key taken
        out = [(int(blocks[j]), int(blocks[j]) + 1, 1)] if self.groups[0][first] >= 0 else []
        return out + [(i, i + 2, 0) for i in range(int(blocks[j]), int(blocks[j + 1]))]

    def tally_counts(self, jobs: int, progress: Callable[[int, int], None] | None = None) -> tuple[np.ndarray, int]:
        """(counts by open set, nodes) of every packing: the parts of the tree shared out
        to `jobs` threads, each with a memo of its own (the kernel runs without the GIL).
        `progress(parts done, parts)` after each part (the page's bar; one thread then goes
        part by part too, keeping its memo from part to part)."""
        if jobs <= 1 and progress is None:
            counts, _, stats = self._run(0, True, 0)
            return counts, int(stats[0])
        import threading

        parts, lock, results = self.parts(), threading.Lock(), []
        total, done = len(parts), [0]

        def work() -> None:
            memo = self.memo(True)
            while True:
                with lock:
                    if not parts:
                        break
                    part = parts.pop(0)
                self._run(0, True, 0, part, memo)
                with lock:
                    done[0] += 1
                    if progress is not None:
                        progress(done[0], total)
            results.append(memo)

        threads = [threading.Thread(target=work) for _ in range(max(1, jobs))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return np.add.reduce([m[0] for m in results]), sum(int(m[1][0]) for m in results)

    def count(self, date: Date) -> int:
        """The number of solutions of one date."""
        return int(self._run(_bits(self.open_bits(date)), False, 0)[0][0])

    def solve(self, date: Date, limit: int) -> tuple[int, list[Solution]]:
        """(the number of solutions, the first `limit` of them) of one date."""
        counts, stored, _ = self._run(_bits(self.open_bits(date)), False, limit)
        return int(counts[0]), [self.solution(row) for row in stored]

    def tally(self, jobs: int = 1, progress: Callable[[int, int], None] | None = None) -> Tally:
        """Every date's count, from one search (in parts on `jobs` threads, each with a
        memo of its own: more work in all, less time only where cores are idle)."""
        counts, nodes = self.tally_counts(jobs, progress)
        dates = self.dates()
        index = [self.index(d) for d in dates]
        return Tally(self.board, dates, [int(counts[i]) for i in index], int(counts.sum()), nodes)

    def index(self, date: Date) -> int:
        """The place of a date's open set in the tally's counts."""
        _, weight, _ = self.groups
        return int(sum(weight[i] for i in self.open_bits(date)))

    def dates(self) -> list[Date]:
        """The dates of a leap year this board shows (with each weekday on a weekday
        board), in calendar order."""
        names = self.board.group_names()
        weekdays: list[int | None] = list(range(7)) if "weekday" in names else [None]
        out = []
        for month, day in year_days():
            for weekday in weekdays:
                try:
                    self.open_cells((month, day, weekday))
                except KeyError:
                    continue
                out.append((month, day, weekday))
        return out

    def solution(self, row: np.ndarray) -> Solution:
        """A packing (option ids) as placed pieces."""
        found = []
        for o in row[row >= 0]:
            p = int(self.piece[o])
            cells = self.cells[[i for i, b in enumerate(self.bit) if int(self.masks[o]) >> int(b) & 1]]
            found.append(Placement(self.board.pieces[p][0], self.letters[p], cells))
        return Solution(found, self.cells)

    @cached_property
    def letters(self) -> list[str]:
        """A letter per piece for drawings: a pentomino's own, R for a rectangle, i l s ...
        for the tetrominoes I4 L4 S4 (another letter where two would clash)."""
        out: list[str] = []
        for name, _ in self.board.pieces:
            letter = name if len(name) == 1 else "R" if name[0].isdigit() else name[0].lower()
            out.append(letter if letter not in out else next(c for c in LETTERS if c not in out))
        return out


def year_days() -> list[tuple[int, int]]:
    """(month, day) of every day of a leap year."""
    lengths = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
    return [(m, d) for m in range(1, 13) for d in range(1, lengths[m - 1] + 1)]


def _bits(cells: list[int]) -> int:
    return sum(1 << i for i in cells)


def placements(board: CalendarBoard, cells: np.ndarray, bit: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every placement of every piece on the board (all orientations, flips allowed):
    (start, masks, piece) sorted by lowest cell, as the tally kernel takes them."""
    from ..core import shape
    from ..core.library import cells_from_rows

    lo, hi = cells.min(axis=0), cells.max(axis=0)
    grid = np.full(tuple(hi - lo + 1), -1, np.int64)
    grid[tuple((cells - lo).T)] = bit
    masks, pieces, lowest = [], [], []
    for p, (_, rows) in enumerate(board.pieces):
        for form, _ in shape.orientations(cells_from_rows(list(rows))):
            span = hi - lo + 2 - form.max(axis=0) - 1
            if (span <= 0).any():
                continue
            shifts = np.indices(tuple(span)).reshape(2, -1).T  # (T, 2)
            where = grid[tuple((shifts[:, None, :] + form[None]).transpose(2, 0, 1))]  # (T, k)
            where = where[(where >= 0).all(axis=1)]
            masks.append(np.bitwise_or.reduce(np.left_shift(np.uint64(1), where.astype(np.uint64)), axis=1))
            lowest.append(where.min(axis=1))
            pieces.append(np.full(len(where), p, np.int64))
    mask, low, piece = (np.concatenate(x) if x else np.zeros(0, np.int64) for x in (masks, lowest, pieces))
    order = np.lexsort((piece, low))
    start = np.searchsorted(low[order], np.arange(WORD + 1)).astype(np.int64)
    return start, mask[order].astype(np.uint64), piece[order]
