"""Calendar design: which sets of pieces make every date of a calendar board solvable, and
how evenly they serve the dates.

A study is a board (formats.calendar_board; its own pieces set aside), a pool of free
pieces (named sets such as `pentominoes`, or pieces by name) and the sizes wanted (`5x7,6x1`:
7 distinct 5-cell pieces and 1 6-cell piece). Every such set is tallied over every date of
the board in one search (tiling/calendar.py `Calendar.tally_counts`), on `jobs` threads (the
tally kernel runs without the GIL), each finished set's per-date counts kept in a SQLite file
(calendar_design_results.py) so a killed study resumes; the sets are then ranked by the
spread of their counts (spread.py)."""

from __future__ import annotations

import itertools
import math
import queue
import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

import numpy as np

from ..core.library import PENTOMINO_ROWS
from ..core.polyforms import polyforms
from ..errors import PuzzleError
from ..formats.calendar_board import TETROMINO_ROWS, CalendarBoard, piece_rows
from ..tiling.calendar import Calendar
from .calendar_design_results import Checkpoint

NAMED = {"dominoes": 2, "trominoes": 3, "tetrominoes": 4, "pentominoes": 5, "hexominoes": 6}
MAX_SETS = 10_000_000  # sets in one study, at most
Piece = tuple[str, tuple[str, ...]]  # (name, rows) as a calendar board keeps its pieces


def rows_of(cells: np.ndarray) -> tuple[str, ...]:
    """The drawing of a piece's cells, rows of X and '.'."""
    cells = cells - cells.min(axis=0)
    h, w = (cells.max(axis=0) + 1).tolist()
    grid = [["."] * w for _ in range(h)]
    for r, c in cells.tolist():
        grid[r][c] = "X"
    return tuple("".join(row) for row in grid)


def _shape_key(rows: Sequence[str]) -> frozenset[tuple[int, int]]:
    """The same key for congruent pieces (rotations and flips)."""
    cells = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "X"]
    forms = []
    for _ in range(2):
        for _ in range(4):
            cells = [(c, -r) for r, c in cells]
            lo = (min(r for r, _ in cells), min(c for _, c in cells))
            forms.append(tuple(sorted((r - lo[0], c - lo[1]) for r, c in cells)))
        cells = [(r, -c) for r, c in cells]
    return frozenset(min(forms))


def _named(rows: tuple[str, ...], fallback: str) -> str:
    """A piece's usual name: a pentomino's letter, I4 L4 O4 S4 T4, AxB for a rectangle."""
    key = _shape_key(rows)
    for name, drawn in list(PENTOMINO_ROWS.items()) + list(TETROMINO_ROWS.items()):
        if _shape_key(drawn) == key:
            return name
    if all(set(r) == {"X"} for r in rows):
        a, b = sorted((len(rows), len(rows[0])))
        return f"{a}x{b}"
    return fallback


def _one(name: str) -> Piece | None:
    """A piece named in a pool: a letter, I4.., AxB, or n-i (polyforms' i-th free n-omino)."""
    rows = piece_rows(name)
    if rows is not None:
        return _named(rows, name), rows
    if "-" in name:
        n, _, i = name.partition("-")
        if n.isdigit() and i.isdigit() and 2 <= int(n) <= 8:
            forms = polyforms(int(n))
            if 1 <= int(i) <= len(forms):
                rows = rows_of(forms[int(i) - 1].cells)
                return _named(rows, name), rows
    return None


def _natural(piece: Piece) -> tuple[object, ...]:
    """Letters first (F I L ...), then names with numbers by their numbers (1x6 2x3 6-1 6-2 ...)."""
    name = piece[0]
    return (any(ch.isdigit() for ch in name), [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name)])


def pool(spec: str) -> list[Piece]:
    """The pieces of a pool: comma-separated named sets (pentominoes, hexominoes, ...) and
    pieces (L, I4, 2x3, 6-17), each shape once, in the order given."""
    found: dict[frozenset[tuple[int, int]], Piece] = {}
    for item in (s.strip() for s in spec.split(",")):
        if item.lower() in NAMED:
            forms = polyforms(NAMED[item.lower()])
            pieces = sorted(((_named(rows_of(f.cells), f.name), rows_of(f.cells)) for f in forms), key=_natural)
        else:
            one = _one(item)
            if one is None:
                raise PuzzleError(
                    f"unknown piece or set {item!r} ({', '.join(NAMED)}, a pentomino letter, I4, 2x3, 6-17)", "--pool"
                )
            pieces = [one]
        for p in pieces:
            found.setdefault(_shape_key(p[1]), p)
    return list(found.values())


def sizes(spec: str) -> list[tuple[int, int]]:
    """`5x7,6x1` as [(5, 7), (6, 1)]: pieces of 5 cells, 7 of them; of 6 cells, one."""
    out: list[tuple[int, int]] = []
    for item in spec.split(","):
        size, _, k = item.strip().partition("x")
        if not (size.isdigit() and k.isdigit() and int(size) >= 2 and int(k) >= 1):
            raise PuzzleError(f"expected CELLSxHOW_MANY, e.g. 5x7,6x1 (got {item.strip()!r})", "--sizes")
        if any(s == int(size) for s, _ in out):
            raise PuzzleError(f"{size}-cell pieces named twice", "--sizes")
        out.append((int(size), int(k)))
    return out


@dataclass
class Study:
    """Every set of distinct pool pieces of the sizes wanted, on one board."""

    board: CalendarBoard
    pieces: list[Piece]
    wanted: list[tuple[int, int]]

    def __post_init__(self) -> None:
        area = sum(s * k for s, k in self.wanted)
        fill = len(self.board.cells) - len(self.board.group_names())
        if area != fill:
            raise PuzzleError(f"the sets cover {area} cells, the board leaves {fill} to cover", "--sizes")
        for s, k in self.wanted:
            if len(self.of_size(s)) < k:
                raise PuzzleError(f"the pool has {len(self.of_size(s))} pieces of {s} cells, not {k}", "--sizes")
        if self.total > MAX_SETS:
            raise PuzzleError(f"{self.total:,} sets: a study takes {MAX_SETS:,} at most", "--sizes")

    def of_size(self, size: int) -> list[Piece]:
        """The pool's pieces of `size` cells."""
        return [p for p in self.pieces if sum(r.count("X") for r in p[1]) == size]

    @cached_property
    def total(self) -> int:
        """How many sets."""
        return math.prod(math.comb(len(self.of_size(s)), k) for s, k in self.wanted)

    def sets(self) -> Iterator[tuple[Piece, ...]]:
        """Every set, in a fixed order (its place in it is the set's id)."""
        parts = [itertools.combinations(self.of_size(s), k) for s, k in self.wanted]
        for chosen in itertools.product(*parts):
            yield tuple(p for part in chosen for p in part)

    @cached_property
    def template(self) -> Calendar:
        """The board with its own pieces: the dates and where each date's count lies."""
        return Calendar(self.board)

    @cached_property
    def dates(self) -> list[tuple[int, int, int | None]]:
        """Every date of the board, in calendar order."""
        return self.template.dates()

    @cached_property
    def where(self) -> np.ndarray:
        """The place of each date's open set in a tally's counts."""
        return np.array([self.template.index(d) for d in self.dates], np.int64)

    def tally(self, pieces: Sequence[Piece]) -> list[int]:
        """The solutions of every date (calendar order) with these pieces."""
        return tally_set(self.board, tuple(pieces), self.where)

    def key(self) -> str:
        """What the checkpoint is made for: the board's cells and labels, the pool, the sizes."""
        cells = ";".join(f"{r},{c}={lab}" for (r, c), lab in zip(self.board.cells, self.board.labels))
        pieces = ";".join(f"{n}:{'/'.join(rows)}" for n, rows in self.pieces)
        return f"calendar design v1|{cells}|{pieces}|{self.wanted}"


Progress = Callable[[int, int, int, float], None]  # (sets done, sets, done this run, seconds)
Done = tuple[int, tuple[Piece, ...], list[int]]  # a finished set: (id, pieces, counts)


def tally_set(board: CalendarBoard, pieces: tuple[Piece, ...], where: np.ndarray) -> list[int]:
    """The per-date counts of one set (`where`: each date's place in the tally), as a Dask
    worker runs it."""
    counts, _ = Calendar(replace(board, pieces=pieces)).tally_counts(1)
    return [int(c) for c in counts[where]]


def run(
    study: Study,
    store: Checkpoint,
    jobs: int = 1,
    progress: Progress | None = None,
    time_limit: float | None = None,
    client: Any = None,
) -> bool:
    """Tally every set the checkpoint lacks, on `jobs` threads or on the Dask `client`'s
    workers, each finished set recorded as it comes; True when all are done (False: the
    time limit or Ctrl-C came first)."""
    done = store.finished()
    todo = [(i, s) for i, s in enumerate(study.sets()) if i not in done]
    t0, new = time.perf_counter(), [0]
    deadline = None if time_limit is None else t0 + time_limit

    def take(got: list[Done]) -> None:
        store.record(got)
        new[0] += len(got)
        if progress is not None and got:
            progress(len(done) + new[0], study.total, new[0], time.perf_counter() - t0)

    study.where  # noqa: B018  (worked out once, before the workers)
    try:
        if client is not None:
            _on_dask(client, study, todo, take, deadline)
        else:
            _on_threads(study, todo, jobs, take, deadline)
    except KeyboardInterrupt:
        pass
    return new[0] == len(todo)


def _on_threads(
    study: Study,
    todo: list[tuple[int, tuple[Piece, ...]]],
    jobs: int,
    take: Callable[[list[Done]], None],
    deadline: float | None,
) -> None:
    """The sets on threads (the tally kernel runs without the GIL), handed to `take` in
    batches from this thread, until all are done or the perf_counter `deadline`."""
    feed, results, stop, lock = iter(todo), queue.Queue[Done](), threading.Event(), threading.Lock()

    def work() -> None:
        while not stop.is_set():
            with lock:
                item = next(feed, None)
            if item is None:
                return
            results.put((item[0], item[1], study.tally(item[1])))

    threads = [threading.Thread(target=work, daemon=True) for _ in range(max(1, min(jobs, len(todo))))]
    for t in threads:
        t.start()
    left = len(todo)
    try:
        while left and (deadline is None or time.perf_counter() < deadline):
            try:
                got = [results.get(timeout=0.2)]
            except queue.Empty:
                continue
            while not results.empty():
                got.append(results.get_nowait())
            take(got)
            left -= len(got)
    finally:
        stop.set()
        for t in threads:
            t.join()
        late = []
        while not results.empty():
            late.append(results.get_nowait())
        take(late)


def _on_dask(
    client: Any,
    study: Study,
    todo: list[tuple[int, tuple[Piece, ...]]],
    take: Callable[[list[Done]], None],
    deadline: float | None,
) -> None:
    """The sets as futures on a Dask cluster (the workers need polytile installed), handed
    to `take` in batches as they finish, until all are done or the `deadline` (then the
    futures left are cancelled)."""
    from distributed import as_completed

    board, where = client.scatter([study.board, study.where], broadcast=True)
    futures = {client.submit(tally_set, board, pieces, where, pure=False): (i, pieces) for i, pieces in todo}
    try:
        remaining = None if deadline is None else max(0.0, deadline - time.perf_counter())
        for batch in as_completed(futures, timeout=remaining).batches():
            take([(*futures[f], f.result()) for f in batch])
    except TimeoutError:
        pass
    finally:
        client.cancel(list(futures))
