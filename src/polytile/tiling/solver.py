"""The verbs: count and solve a tiling puzzle, with solutions turned back into pieces."""

from __future__ import annotations

import gc
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from ..budget import over
from ..core.cover import Model, OverBudget, TimeUp
from ..core.puzzle import Puzzle
from ..core.results import LETTERS, Placement, Report, Solution, piece_letters
from ..core.symmetry import Symmetry, analyse
from ..errors import PuzzleError
from ..engine.model import build_model
from ..engine.geometry.orbits_driver import analyser
from ..engine.geometry.turning_driver import permuter
from ..engine.warm import warm
from ..engine.search import choose_engine, search
from ..formats import load as read
from .by_method import Progress, count_first
from .feasibility import area_reasons, infeasible

LISTING_GRACE = 0.1  # seconds to list what a stopped search found
# a count on every core first tries this many nodes on one thread (some tens of ms on each
# kernel): a small puzzle is done (the flat pentomino boards: 4,000 to 1.3 million nodes on
# the bitboard kernel, 0.3-50 ms) before the split of the tree over threads would be (~20 ms)
QUICK_NODES = {"bitboard": 2_000_000, "wide": 300_000, "dlx": 100_000}
TABLE_BYTES = 48  # bytes of the search's tables per option cell (dancing links: ~32)


class Tiling:
    """A loaded tiling puzzle: `count()` and `solve()`."""

    def __init__(self, puzzle: Puzzle, max_memory: int | None = None):
        self.puzzle = puzzle
        self.max_memory = max_memory  # bytes the model, symmetry and tables may take (None: any)
        self._model: Model | None = None
        self._sym: Symmetry | None = None

    @property
    def notes(self) -> list[str]:
        """What reading the puzzle noticed (e.g. not all tiles are used), for the command to
        print."""
        return self.puzzle.notes

    def no_reflect(self) -> "Tiling":
        """The same puzzle, rotate-only (`--no-reflect`)."""
        return Tiling(self.puzzle.without_reflection(), self.max_memory)

    def model(self, deadline: float | None = None) -> Model:
        """The exact-cover model (TimeUp when the perf_counter `deadline` passes first; a
        PuzzleError before building when it could exceed the memory budget)."""
        if self._model is None:
            try:
                model = build_model(self.puzzle, self.max_memory, deadline)
            except OverBudget as e:
                raise self._over(e) from None
            self._model = model
        return self._model

    def symmetry(self, deadline: float | None = None) -> Symmetry:
        """The board's symmetry group acting on the options (OverBudget when it would
        exceed the memory budget, TimeUp when the perf_counter `deadline` passes first)."""
        if self._sym is None:
            self._sym = analyse(self.model(), self.max_memory, analyser, permuter, deadline)
        return self._sym

    def _over(self, e: OverBudget) -> PuzzleError:
        """The one line of a phase beyond the budget."""
        assert self.max_memory is not None
        return over(e.what, e.need, self.max_memory, self.puzzle.source)

    def _symmetry_within_budget(self, unique: bool, deadline: float | None) -> Symmetry | None:
        """The symmetry for `unique` (a PuzzleError over the budget) or for breaking only
        (then None: the search runs without it); None when the deadline has passed."""
        if deadline is not None and time.perf_counter() > deadline:
            return None
        try:
            return self.symmetry(deadline)
        except OverBudget as e:
            if unique:
                raise self._over(e) from None
            return None
        except TimeUp:
            return None

    def _check_tables(self, model: Model) -> None:
        """The search kernels' tables: about TABLE_BYTES per option cell (dancing links'
        nodes, the wide kernel's rows), refused over the budget before they are built."""
        cover = model.cover
        need = TABLE_BYTES * (len(cover.opt_items) + cover.n_options)
        if self.max_memory is not None and need > self.max_memory:
            raise self._over(OverBudget("the search's tables", need))

    def _begin(
        self, engine: str, unique: bool, parallel: bool, time_limit: float | None = None
    ) -> tuple[float, Model | None, Report[Solution] | None]:
        """Kernels loaded (not timed), then the clock, the model, and a Report at once when
        the puzzle has no solution for reasons found without search, or when the time
        limit passes while the model is built: (t0, model or None, report)."""
        t0 = time.perf_counter()
        tiles_area = self.puzzle.tiles_area  # (infeasible reads it again: once, before the clock)
        reasons = area_reasons(self.puzzle, tiles_area)
        if reasons:  # no kernels, no model needed
            return t0, None, Report(0, 0 if unique else None, time.perf_counter() - t0, reasons=reasons)
        warm(engine, self.puzzle.board.area, parallel=parallel, dynamic=self.puzzle.board.dim == 3)
        gc.freeze()  # numba's many objects: keep the collector from rescanning them mid-search
        t0 = time.perf_counter()
        deadline = None if time_limit is None else t0 + time_limit
        try:
            model = self.model(deadline)
            t0 += self._warm_chosen(engine, model)
            reasons = infeasible(model, True, tiles_area, deadline)  # (area_reasons above found none)
        except TimeUp:
            return t0, None, Report(0, 0 if unique else None, time.perf_counter() - t0, complete=False, timed_out=True)
        if reasons:
            return t0, model, Report(0, 0 if unique else None, time.perf_counter() - t0, reasons=reasons)
        return t0, model, None

    @staticmethod
    def _warm_chosen(engine: str, model: Model) -> float:
        """The kernel the search will run on, loaded when the board's size alone chose another
        (`choose_engine` given the cover: scattered options go to dancing links); the seconds
        that took, which the count's clock leaves out."""
        cover = model.cover
        chosen = choose_engine(engine, cover.n_items, len(cover.piece_count), cover)
        if chosen == choose_engine(engine, cover.n_items, len(cover.piece_count)):
            return 0.0
        t0 = time.perf_counter()
        warm(chosen, cover.n_items)
        return time.perf_counter() - t0

    def _search(
        self,
        *,
        unique: bool,
        limit: int | None,
        store: bool,
        time_limit: float | None,
        engine: str,
        breaking: bool,
        progress: Progress | None,
        select: np.ndarray | None = None,
        shuffle: int | None = None,
        node_budget: int | None = None,
        memo: bool = True,
    ) -> Report[Solution]:
        t0, model, hopeless = self._begin(engine, unique, parallel=False, time_limit=time_limit)
        if hopeless or model is None:
            assert hopeless is not None
            return hopeless
        self._check_tables(model)
        deadline = None if time_limit is None else t0 + time_limit
        sym = self._symmetry_within_budget(unique, deadline) if (unique or breaking) else None
        if unique and sym is None:  # the time limit passed first
            return Report(0, 0, time.perf_counter() - t0, complete=False, timed_out=True)
        if time_limit is not None:  # what the model build left
            time_limit = max(0.0, time_limit - (time.perf_counter() - t0))
        res = search(
            model.cover,
            sym,
            unique=unique,
            limit=limit,
            store=store,
            time_limit=time_limit,
            breaking=breaking,
            engine=engine,
            progress=progress,
            select=select,
            shuffle=shuffle,
            node_budget=node_budget,
            memo=memo,
        )
        return replace(res, seconds=time.perf_counter() - t0).with_found(self._solutions(model, res))

    @classmethod
    def _solutions(cls, model: Model, res: Report[np.ndarray]) -> list[Solution]:
        """The solutions found, as pieces. After a time limit or Ctrl-C, only those turned
        into pieces within LISTING_GRACE seconds: listing is slower than finding. A search
        stopped by its solution limit lists every solution it found, however long that takes."""
        letters = piece_letters(model.puzzle) if res.found else []
        stop = time.perf_counter() + LISTING_GRACE if res.timed_out or res.interrupted else None
        found = []
        for opts in res.found:
            if stop is not None and time.perf_counter() > stop:
                break
            found.append(cls._solution(model, opts, letters))
        return found

    @staticmethod
    def _solution(model: Model, opts: np.ndarray, letters: list[str]) -> Solution:
        """Placements in reading order of their first cell; one letter per physical piece
        (the piece's letter, or a letter per placement when a piece has copies)."""
        copies = any(p.count > 1 for p in model.puzzle.pieces)
        out = []
        for i, o in enumerate(sorted(int(o) for o in opts)):
            p, cells = model.placement(o)
            letter = LETTERS[i % len(LETTERS)] if copies else letters[p]
            out.append(Placement(model.puzzle.pieces[p].name, letter, cells))
        return Solution(out, model.cells, model.puzzle.board.grid)

    def count(
        self,
        unique: bool = False,
        *,
        time_limit: float | None = None,
        engine: str = "auto",
        breaking: bool = True,
        progress: Progress | None = None,
        jobs: int = 1,
        checkpoint: str | None = None,
        scheduler: str | None = None,
        node_budget: int | None = None,
        memo: bool = True,
        method: str = "auto",
    ) -> Report[Solution]:
        """Count all solutions (and, with unique=True, the classes under board symmetry).
        `method` (engine.counting.METHODS): "auto" chooses (enumerating when a kernel, a
        checkpoint, a cluster, jobs >= 2 or breaking=False is asked for), the others but
        "enumerate" count without listing (one thread; PuzzleError when one cannot apply).
        jobs > 1 (0: every core): on threads; a checkpoint file: resumable; scheduler:
        on Dask ("local": a LocalCluster of `jobs` worker processes, or an address);
        `time_limit` (seconds, model included) holds for every one of them.
        node_budget (one thread): give up, incomplete, after about that many nodes.
        memo=False (one thread): visit every node of the tree (no count of a sub-problem
        reused), as statistics need."""
        tree = engine != "auto" or checkpoint or scheduler or not breaking or jobs >= 2 or not memo
        tried = 0.0  # seconds a method spent before auto chose to enumerate: in the report's
        if method != "enumerate" and not (method == "auto" and (tree or node_budget is not None)):
            counted, time_limit, tried = count_first(self, method, unique, time_limit, progress, checkpoint)
            if counted is not None:
                return counted
        report = self._enumerate(
            unique, time_limit, engine, breaking, progress, jobs, checkpoint, scheduler, node_budget, memo
        )
        report.seconds += tried
        return report.unique_known(self._sym.order if self._sym is not None else None) if unique else report

    def _enumerate(
        self,
        unique: bool,
        time_limit: float | None,
        engine: str,
        breaking: bool,
        progress: Progress | None,
        jobs: int,
        checkpoint: str | None,
        scheduler: str | None,
        node_budget: int | None,
        memo: bool,
    ) -> Report[Solution]:
        """`count` by visiting the solutions: one thread, or a quick try on one and then
        threads, a checkpointed count or a cluster."""
        if jobs != 1 or checkpoint or scheduler:
            quick = None
            if jobs == 0 and not checkpoint and not scheduler:
                quick = self._search(
                    unique=unique,
                    limit=None,
                    store=False,
                    time_limit=time_limit,
                    engine=engine,
                    breaking=breaking,
                    progress=progress,
                    node_budget=QUICK_NODES[self._engine(engine)],
                )
                if quick.complete or quick.interrupted or quick.timed_out:
                    return quick
            left = None if time_limit is None else time_limit - (quick.seconds if quick else 0.0)
            if quick is not None and left is not None and left <= 0:  # the try spent the time
                return replace(quick, complete=False, timed_out=True)
            report = self._count_parallel(unique, engine, jobs, checkpoint, progress, scheduler, breaking, left)
            report.seconds += quick.seconds if quick else 0.0  # the try counts as time spent
            return report
        return self._search(
            unique=unique,
            limit=None,
            store=False,
            time_limit=time_limit,
            engine=engine,
            breaking=breaking,
            progress=progress,
            node_budget=node_budget,
            memo=memo,
        )

    def _engine(self, engine: str) -> str:
        """The kernel a search of this puzzle runs on."""
        return choose_engine(engine, self.puzzle.board.area, len(self.puzzle.pieces))

    def _count_parallel(
        self,
        unique: bool,
        engine: str,
        jobs: int,
        checkpoint: str | None,
        progress: Progress | None,
        scheduler: str | None,
        breaking: bool,
        time_limit: float | None = None,
    ) -> Report[Solution]:
        from ..engine.parallel.counts import count  # numba (engine.tree): only a parallel count needs it

        t0, model, hopeless = self._begin(engine, unique, parallel=True, time_limit=time_limit)
        if hopeless or model is None:
            assert hopeless is not None
            return hopeless
        self._check_tables(model)
        deadline = None if time_limit is None else t0 + time_limit
        sym = self._symmetry_within_budget(unique, deadline)
        if unique and sym is None:  # the time limit passed first
            return Report(0, 0, time.perf_counter() - t0, complete=False, timed_out=True)
        res = count(
            model.cover,
            sym,
            unique=unique,
            jobs=jobs,
            engine=engine,
            checkpoint=checkpoint,
            progress=progress,
            scheduler=scheduler,
            breaking=breaking,
            deadline=deadline,
        )
        return replace(res, seconds=time.perf_counter() - t0).with_found(self._solutions(model, res))

    def solve(
        self,
        limit: int | None = 1,
        unique: bool = False,
        *,
        time_limit: float | None = None,
        engine: str = "auto",
        progress: Progress | None = None,
        select: np.ndarray | None = None,
        shuffle: int | None = None,
    ) -> Report[Solution]:
        """Find up to `limit` solutions (None: all), one per symmetry class if `unique`.
        `select`: of all solutions in search order, keep these indices; `shuffle`: seed of
        a random option order (a randomised search)."""
        return self._search(
            unique=unique,
            limit=limit,
            store=True,
            time_limit=time_limit,
            engine=engine,
            breaking=unique,
            progress=progress,
            select=select,
            shuffle=shuffle,
        )


def load(path: str | Path, fmt: str | None = None) -> Tiling:
    """Read a puzzle file (any format polytile reads) ready to count or solve."""
    return Tiling(read(path, fmt))
