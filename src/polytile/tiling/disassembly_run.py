"""Disassembly of a puzzle's assemblies as `burrTxt -d` does it: every BurrTools assembly
(tiling/burr.py: one per class under the result's symmetries, pieces told apart by part) is
taken apart (tiling/disassembly.py); those that come apart are BurrTools' solutions.

The pieces are in BurrTools' order: by part in the problem's order (copies of a part by
their cells). Weights and piece groups come from the BurrTools file when the puzzle is one
(other files: weight 1, no groups). Only grids whose unit translations are known take part
(the cube grid: one step along each axis)."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np

from ..core.puzzle import VIRTUAL, Puzzle
from typing import TYPE_CHECKING, Any
from ..errors import PuzzleError
from .disassembly import MAX_NODES, Disassembler, Groups, Move, Separation, Stopped, gap_table

if TYPE_CHECKING:
    from ..core.grids.base import Grid
    from .solver import Tiling

SORTS = ("level", "moves")


def refuse_grid(puzzle: Puzzle) -> Grid:
    """The puzzle's grid when it has BurrTools' disassembly (Grid.disassembly_steps), or a
    PuzzleError on a grid without."""
    from ..core.grids import coerce

    grid = coerce(puzzle.board.grid, puzzle.dim)
    if grid.disassembly_steps() is None:
        raise PuzzleError(
            f"--disassemble works on the cube and prism grids only (this puzzle: the {grid.title})", puzzle.source
        )
    return grid


def _to_grid(grid: Grid, v: tuple[int, ...]) -> tuple[int, ...]:
    """A translation in BurrTools' voxel coordinates as one of the grid's cells."""
    moved = grid.from_burr(np.array([v, (0, 0, 0)], np.int64))
    return tuple(int(c) for c in moved[0] - moved[1])


@dataclass
class Result:
    """One BurrTools assembly: its pieces (names, cells) and its disassembly (None: it does
    not come apart)."""

    names: list[str]
    cells: list[np.ndarray]
    separation: Separation | None
    grid: Grid | None = None  # the moves' vectors turned into its coordinates (None: as they are)

    @property
    def apart(self) -> bool:
        """Whether it comes apart."""
        return self.separation is not None

    @property
    def level(self) -> str | None:
        """BurrTools' level string (None: it does not come apart)."""
        return None if self.separation is None else self.separation.level()

    def moves(self) -> list[Move]:
        """The plan, move by move."""
        if self.separation is None:
            return []
        moves = self.separation.plan(self.names)
        if self.grid is not None:
            for m in moves:
                m.vector = _to_grid(self.grid, m.vector)
        return moves

    def to_json(self) -> dict[str, object]:
        """Pieces (cells), whether it comes apart, level and moves."""
        out: dict[str, object] = {
            "pieces": {n: c.tolist() for n, c in zip(self.names, self.cells)},
            "disassemblable": self.apart,
        }
        if self.separation is not None:
            out["level"] = self.level
            out["moves"] = [m.to_json() for m in self.moves()]
        return out


@dataclass
class Outcome:
    """Every assembly's result (in the order found), and whether the run stopped early."""

    results: list[Result]
    timed_out: bool = False
    nodes: int = 0

    @property
    def assemblies(self) -> int:
        """BurrTools' assemblies taken apart (all of them unless stopped)."""
        return len(self.results)

    @property
    def disassemblable(self) -> int:
        """Those that come apart: burrTxt -d's solutions."""
        return sum(r.apart for r in self.results)


def file_rules(puzzle: Puzzle, path: Path | None, problem: str | None) -> tuple[list[int], Groups]:
    """Each part's weight and the piece groups, from the BurrTools file the puzzle came from."""
    n = len([p for p in puzzle.pieces if p.name != VIRTUAL])
    if path is None or path.suffix.lower() != ".xmpuzzle":
        return [1] * n, Groups([[] for _ in range(n)])
    from ..formats.xmpuzzle import choose, read_file

    burr = read_file(path)
    prob = burr.problems[choose(burr, problem, str(path))]
    kept = [(sid, g) for (sid, _, hi), g in zip(prob.parts, prob.groups) if hi > 0]
    return [burr.shapes[sid].weight for sid, _ in kept], Groups([g for _, g in kept])


def disassemble_puzzle(
    puzzle: Puzzle,
    weights: list[int] | None = None,
    groups: Groups | None = None,
    time_limit: float | None = None,
    max_nodes: int = MAX_NODES,
    into: Outcome | None = None,
    tiling: Tiling | None = None,
    jobs: int = 1,
    progress: Callable[..., None] | None = None,
) -> Outcome:
    """Take every BurrTools assembly of the puzzle apart (into `into`, which holds what was
    done when Ctrl-C stops it), on `jobs` threads (0: every core; the results in the same
    order, the same as on one). The time limit stops a search in its course; `progress`
    (cli/progress.py's callback) hears how far it is five times a second."""
    grid = refuse_grid(puzzle)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    out = Outcome([]) if into is None else into
    control = np.zeros(2, np.int64)  # every search's [stop, states entered]
    try:
        tasks = _tasks(puzzle, grid, (weights, groups, max_nodes), tiling, deadline)
    except Stopped:  # the time limit, in the listing of the assemblies
        out.timed_out = True
        return out
    for task in tasks:
        task[2].control = control
    with _Watch(control, deadline, out, len(tasks), progress):
        _run_all(tasks, out, deadline, jobs)
    return out


def _tasks(
    puzzle: Puzzle,
    grid: Grid,
    rules: tuple[list[int] | None, Groups | None, int],
    tiling: Tiling | None,
    deadline: float | None,
) -> list[Task]:
    """A disassembler for each BurrTools assembly, its pieces in BurrTools' order and frame
    (`rules`: weights, groups, the states one search may visit); Stopped at the deadline."""
    from .burr import _as_3d, _image, parts_of
    from .burr_order import Chooser

    weights, groups, max_nodes = rules
    steps = np.array(grid.disassembly_steps(), np.int64)
    table = gap_table(grid.disassembly_steps() or (), grid.disassembly_checks())
    parts = parts_of(puzzle)
    k = len(parts.names)
    weights = weights or [1] * k
    groups = groups or Groups([[] for _ in range(k)])
    board = grid.to_origin(_as_3d(puzzle.board.cells))
    voxels = grid.to_burr(board)  # BurrTools' frame: its voxel types and steps
    chooser = Chooser(puzzle, board, parts.mirrors, partial(_image, parts)) if grid.boxes else None
    tasks: list[Task] = []
    for items in _assemblies(puzzle, tiling, deadline):
        if deadline is not None and time.monotonic() > deadline:
            raise Stopped
        used = [0] * k
        for p, _ in items:
            used[p] += 1
        ordered = chooser.choose(items, used) if chooser is not None else sorted(items)
        names = _names(parts.names, [p for p, _ in ordered], parts.high)
        cells = [board[list(c)] for _, c in ordered]
        pieces = [p for p, _ in ordered]
        dis = Disassembler(
            [voxels[list(c)] for _, c in ordered], pieces, [weights[p] for p in pieces], groups, steps, max_nodes, table
        )
        tasks.append((names, cells, dis, grid))
    return tasks


class _Watch:
    """A thread that stops the searches at the deadline (the kernel looks at control[0]
    before each state) and tells `progress` the assemblies done and the states so far."""

    def __init__(self, control: np.ndarray, deadline: float | None, out: Outcome, total: int, progress: Any):
        self.control, self.deadline, self.out, self.total, self.progress = control, deadline, out, total, progress
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, name="polytile-disassembly-watch", daemon=True)

    def __enter__(self) -> _Watch:
        if self.deadline is not None or self.progress is not None:
            self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.done.set()
        if self.thread.is_alive():
            self.thread.join()

    def _run(self) -> None:
        while True:
            if self.deadline is not None and time.monotonic() >= self.deadline:
                self.control[0] = 1
            if self.progress is not None:
                n = len(self.out.results)
                news = _News(
                    f"{self.out.disassemblable:,} of {n:,} assemblies come apart, {int(self.control[1]):,} states"
                )
                self.progress(news, n, self.total, n / max(1, self.total))
            if self.done.wait(0.02 if self.progress is None else 0.1):
                return


@dataclass
class _News:
    """What a progress line shows of a disassembly (cli/progress.py reads `info`)."""

    info: str
    seconds: float = 0.0


Task = tuple[list[str], list[np.ndarray], Disassembler, "Grid"]


def _run_one(task: Task, deadline: float | None) -> tuple[Result, int] | None:
    """One assembly taken apart, or None when the time limit has passed."""
    if deadline is not None and time.monotonic() > deadline:
        return None
    names, cells, dis, grid = task
    try:
        return Result(names, cells, dis.run(), grid), dis.nodes
    except Stopped:
        return None


def _run_all(tasks: list[Task], out: Outcome, deadline: float | None, jobs: int) -> None:
    """Every task, in order, into `out` (up to the first one the time limit stopped)."""
    threads = (os.cpu_count() or 1) if jobs == 0 else jobs
    if threads <= 1 or len(tasks) < 2:
        done: Iterator[tuple[Result, int] | None] = (_run_one(t, deadline) for t in tasks)
        _collect(done, out)
        return
    from concurrent.futures import ThreadPoolExecutor

    pool = ThreadPoolExecutor(min(threads, len(tasks)))  # the kernel lets the GIL go
    try:
        futures = [pool.submit(_run_one, t, deadline) for t in tasks]
        _collect((f.result() for f in futures), out)
    finally:
        pool.shutdown(cancel_futures=True)


def _collect(done: Iterator[tuple[Result, int] | None], out: Outcome) -> None:
    for found in done:
        if found is None:
            out.timed_out = True
            return
        out.results.append(found[0])
        out.nodes += found[1]


def _assemblies(
    puzzle: Puzzle, tiling: Tiling | None = None, deadline: float | None = None
) -> Iterator[list[tuple[int, tuple[int, ...]]]]:
    """BurrTools' assemblies as (part, cell indices) lists: polytile's unique solutions
    where they are the same (tiling.burr.same_as_unique), else the classes of every solution
    (Stopped when the listing passes the deadline)."""
    from .burr import _as_3d, all_solutions, burr_assemblies, parts_of, same_as_unique

    if not same_as_unique(puzzle):
        yield from burr_assemblies(puzzle, all_solutions(puzzle))
        return
    if tiling is None or tiling.puzzle is not puzzle:
        from .solver import Tiling

        tiling = Tiling(puzzle)
    part = {name: members[0] for name, members in parts_of(puzzle).of_class.items()}
    cells = _as_3d(puzzle.board.cells)
    low = cells.min(axis=0)
    index = {tuple(c): i for i, c in enumerate((cells - low).tolist())}
    left = None if deadline is None else max(0.0, deadline - time.monotonic())
    report = tiling.solve(limit=None, unique=True, time_limit=left)
    if report.interrupted:  # Ctrl-C in the listing: the caller reports what was done
        raise KeyboardInterrupt
    if report.timed_out:
        raise Stopped
    for sol in report.found:
        yield [
            (part[pl.piece], tuple(sorted(index[tuple(c)] for c in (_as_3d(pl.cells) - low).tolist())))
            for pl in sol.placements
            if pl.piece != VIRTUAL
        ]


def _names(part_names: list[str], parts: list[int], high: list[int]) -> list[str]:
    """Piece names: the part's, numbered when the part has copies."""
    seen: dict[int, int] = {}
    out = []
    for p in parts:
        seen[p] = seen.get(p, 0) + 1
        out.append(part_names[p] if high[p] == 1 else f"{part_names[p]}#{seen[p]}")
    return out


def sort_results(results: list[Result], by: str | None) -> list[Result]:
    """The assemblies that come apart, hardest first: by level (BurrTools' comparison of
    the move sequences, disassembly_c::compare) or by the total number of moves."""
    apart = [r for r in results if r.separation is not None]
    if by == "level":
        return sorted(apart, key=lambda r: _sequences(r.separation), reverse=True)  # type: ignore[arg-type]
    if by == "moves":
        return sorted(apart, key=lambda r: r.separation.total(), reverse=True)  # type: ignore[union-attr]
    return apart


def _sequences(s: Separation) -> list[int]:
    """The move counts of every separation, this one first, then the staying part's, then
    the other's (the order BurrTools compares them in)."""
    out = [s.moves]
    for sub in (s.left, s.taken):
        if sub is not None:
            out.extend(_sequences(sub))
    return out


def disassemble(
    puzzle: str | Path | Puzzle | object, problem: str | None = None, time_limit: float | None = None, jobs: int = 0
) -> Outcome:
    """Take a puzzle's BurrTools assemblies apart (the Python API: `polytile.disassemble`):
    `polytile.disassemble("CubeInCage.xmpuzzle")` has 96 `assemblies`, 1 `disassemblable`,
    and that one's `results[i].level` is "4.9.3", its `moves()` the plan.

    `puzzle`: a file name (a BurrTools file's weights and piece groups are read too; `problem`
    chooses its problem), a `Tiling` or a `Puzzle`. `jobs`: threads (0: every core, 1: none;
    the same results)."""
    path: Path | None = None
    if isinstance(puzzle, (str, Path)):
        from ..formats import load

        path = Path(puzzle)
        puzzle = load(path, problem=problem)
    else:
        puzzle = getattr(puzzle, "puzzle", puzzle)
    assert isinstance(puzzle, Puzzle)
    weights, groups = file_rules(puzzle, path, problem)
    return disassemble_puzzle(puzzle, weights, groups, time_limit, jobs=jobs)
