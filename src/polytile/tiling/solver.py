"""The verbs: count and solve a tiling puzzle, with solutions turned back into pieces."""

from __future__ import annotations

import gc
import time
from dataclasses import replace
from pathlib import Path
from typing import Callable

import numpy as np

from ..budget import over
from ..core.cover import Model, OverBudget, TimeUp, build, check_budget
from ..core.puzzle import Puzzle
from ..core.reduction import build_compiled
from ..core.results import LETTERS, Placement, Report, Solution, piece_letters
from ..core.symmetry import Symmetry, analyse
from ..core.shape import use_compiled
from ..errors import PuzzleError
from ..engine.modelling_driver import modeller
from ..engine.orbits_driver import analyser
from ..engine.placing_driver import placer
from ..engine.turning_driver import permuter, turner
from ..engine.limits import Stopped
from ..engine.warm import warm
from ..engine.search import choose_engine, search
from ..formats import load as read

use_compiled(turner)  # the pieces' orientations in one compiled call (engine/turning.py)

Progress = Callable[..., None]  # the report so far; parallel counts add (parts done, parts, share done)
LISTING_GRACE = 0.1  # seconds to list what a stopped search found
# a count on every core first tries this many nodes on one thread (some tens of ms on each
# kernel): a small puzzle is done (the flat pentomino boards: 4,000 to 1.3 million nodes on
# the bitboard kernel, 0.3-50 ms) before the split of the tree over threads would be (~20 ms)
QUICK_NODES = {"bitboard": 2_000_000, "wide": 300_000, "dlx": 100_000}
AUTO_SHARE = 0.5  # of a time limit, what a count by method chosen by auto may spend before the
# search counts instead (and gives at least a partial figure)
TABLE_BYTES = 48  # bytes of the search's tables per option cell (dancing links: ~32)


def area_reasons(puzzle: Puzzle, tiles_area: int | None = None) -> list[str]:
    """Reasons, from the areas alone (before any model is built), why there is no solution
    (`tiles_area`: puzzle.tiles_area, when the caller has it)."""
    area = puzzle.board.area
    tiles_area = puzzle.tiles_area if tiles_area is None else tiles_area
    least = sum(p.size * p.least for p in puzzle.pieces)
    reasons = []
    if least > area:
        reasons.append(f"the pieces that must be used cover {least} cells, the board has {area}")
    if tiles_area < area:
        reasons.append(f"the tiles cover {tiles_area} cells, the board has {area}")
    return reasons


def infeasible(
    model: Model, areas_checked: bool = False, tiles_area: int = -1, deadline: float | None = None
) -> list[str]:
    """Reasons, found without search, why the puzzle has no solution (`areas_checked`:
    area_reasons found none before the model was built; merging pieces keeps the sums;
    `tiles_area`: the tiles' cells, when the caller has it). TimeUp when the perf_counter
    `deadline` passes first."""
    checks = model.checks
    if areas_checked and checks is not None and checks[0] == (1 << len(model.cover.piece_count)) - 1:
        if checks[1] < 0 and tiles_area == len(model.cells):  # (every tile placed, no cell bare:
            return []  # nothing below can object; the merged puzzle is not even made)
    puzzle = model.puzzle
    area = puzzle.board.area
    reasons = [] if areas_checked else area_reasons(puzzle)
    pieces = puzzle.pieces
    placed, every = _placed(model), (1 << len(pieces)) - 1
    if placed != every:
        for p, piece in enumerate(pieces):
            if not placed >> p & 1 and piece.least > 0:
                reasons.append(f"piece {piece.name} ({piece.size} cells) fits nowhere on the board")
    if not reasons and (placed != every or puzzle.tiles_area != area):  # (else all the tiles cover it)
        counts = [min(piece.count, area // piece.size) if placed >> p & 1 else 0 for p, piece in enumerate(pieces)]
        if not _sums(area, [piece.size for piece in pieces], counts, deadline) >> area & 1:
            reasons.append(f"no choice of the tiles that fit on the board covers exactly {area} cells")
    uncovered = _uncovered(model)
    if uncovered >= 0:
        cell = model.cells[uncovered]
        reasons.append(f"no piece can cover cell {tuple(int(x) for x in cell)}")
    return reasons


def _sums(area: int, sizes: list[int], counts: list[int], deadline: float | None) -> int:
    """Bit s set when some choice of the tiles (counts[p] copies of sizes[p] cells at most)
    covers s <= area cells. Copies are taken in groups of 1, 2, 4, ... (and the rest): the
    same sums, in log(count) shifts of an area-bit number rather than count shifts (a
    million one-cell fillers took a minute)."""
    sums, within = 1, (2 << area) - 1
    for size, count in zip(sizes, counts):
        group = 1
        while count > 0:
            take = min(group, count)
            sums |= (sums << (take * size)) & within
            count, group = count - take, 2 * group
            if deadline is not None and time.perf_counter() > deadline:
                raise TimeUp
    return sums


def _placed(model: Model) -> int:
    """Bit p set when (merged) piece p has a placement: the compiled reduction's bits when
    it made them (Model.checks), else a count over the options."""
    if model.checks is not None and model.checks[0] >= 0:
        return model.checks[0]
    counts = np.bincount(model.cover.opt_piece, minlength=len(model.puzzle.pieces))
    return sum(1 << p for p, n in enumerate(counts.tolist()) if n > 0)  # (Python ints: numpy's scalars cost more)


def _uncovered(model: Model) -> int:
    """The first item no option covers, -1 when every item is covered (Model.checks when
    the compiled reduction made it)."""
    if model.checks is not None:
        return model.checks[1]
    covered = np.bincount(model.cover.opt_items, minlength=model.cover.n_items)
    return -1 if covered.all() else int(np.argmin(covered))


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
                # one compiled call in the common case (engine/modelling.py; it checks the
                # budget itself), else numpy's build with the placements compiled (placing.py)
                model = build_compiled(self.puzzle, modeller, self.max_memory, check=True)
                if model is None:
                    check_budget(self.puzzle, self.max_memory)
                    model = build(self.puzzle, deadline, placer=placer)
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
            reasons = infeasible(model, True, tiles_area, deadline)  # (area_reasons above found none)
        except TimeUp:
            return t0, None, Report(0, 0 if unique else None, time.perf_counter() - t0, complete=False, timed_out=True)
        if reasons:
            return t0, model, Report(0, 0 if unique else None, time.perf_counter() - t0, reasons=reasons)
        return t0, model, None

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
            counted, time_limit, tried = self._by_method_first(method, unique, time_limit, progress, checkpoint)
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

    def _by_method_first(
        self, method: str, unique: bool, time_limit: float | None, progress: Progress | None, checkpoint: str | None
    ) -> tuple[Report[Solution] | None, float | None, float]:
        """`_count_by_method`, the time a search has left after it (None: auto chose to
        enumerate, or gave the search the rest), and the seconds it spent (its kernels'
        loading left out, as every count leaves it out)."""
        from ..engine.counting import warm as warm_counting

        warm_counting()
        t0 = time.perf_counter()
        counted = self._count_by_method(method, unique, time_limit, progress, checkpoint)
        spent = time.perf_counter() - t0
        if time_limit is not None:
            time_limit = max(0.0, time_limit - spent)
        return counted, time_limit, spent

    def _count_by_method(
        self, method: str, unique: bool, time_limit: float | None, progress: Progress | None, checkpoint: str | None
    ) -> Report[Solution] | None:
        """A count by a method that does not enumerate (engine.counting), or None when
        "auto" chooses to enumerate. `checkpoint`: the frontier's file (it resumes from it)."""
        from ..engine.counting import Refused, choose
        from ..engine.counting import count as count_by
        from ..engine.counting.resume import CheckpointError

        t0 = time.perf_counter()
        share = AUTO_SHARE if method == "auto" else 1.0  # (auto leaves the search the rest)
        deadline = None if time_limit is None else t0 + share * time_limit
        ready = self._counting_model(method, unique, t0, deadline)
        if not isinstance(ready, Model):
            return ready
        board = self.puzzle.board
        plane = ready.cells if board.grid.rect_plane else None
        try:
            chosen = choose(ready.cover, method, plane=plane, unique=unique)
            if chosen == "enumerate":
                return None
            perms = self._burnside_group(ready) if unique else None
            budget = self.max_memory if self.max_memory is not None else 1 << 30
            done = _progress_share(progress, t0)
            got = count_by(
                ready.cover,
                chosen,
                perms=perms,
                plane=plane,
                deadline=deadline,
                memory=budget,
                progress=done,
                checkpoint=checkpoint,
            )
        except CheckpointError as e:
            raise PuzzleError(str(e), checkpoint or "") from None
        except Refused as e:
            if method == "auto":
                return None
            raise PuzzleError(str(e), self.puzzle.source) from None
        except Stopped as stop:
            if method == "auto":  # (past the budget, or half the time gone: the search counts
                return None  # what it can, a partial figure where the method has none)
            if stop.reason == "memory budget":
                raise over(f"counting by the {chosen} method", stop.need, budget, self.puzzle.source) from None
            return self._stopped(chosen, t0, timed_out=True)
        except KeyboardInterrupt:
            return self._stopped(chosen, t0, interrupted=True)
        return Report(got.solutions, got.unique, time.perf_counter() - t0, nodes=got.states, method=chosen)

    def _counting_model(
        self, method: str, unique: bool, t0: float, deadline: float | None
    ) -> Model | Report[Solution] | None:
        """The model for a count by method; or the Report when there is no solution for
        reasons found without search (a forced method) or the deadline passed; or None:
        let the search say why (auto)."""
        reasons = area_reasons(self.puzzle)
        if reasons and method == "auto":
            return None  # (the search's path says why there is no solution)
        try:
            model = self.model(deadline)
            reasons = reasons or infeasible(model, deadline=deadline)
        except TimeUp:
            return self._stopped(method, t0, timed_out=True)
        if reasons:
            if method == "auto":
                return None
            return Report(0, 0 if unique else None, time.perf_counter() - t0, reasons=reasons, method=method)
        return model

    def _burnside_group(self, model: Model) -> np.ndarray:
        """The board's motions as item permutations (Burnside's lemma averages over them;
        engine.counting refuses them when one maps a placement onto no placement). The
        group alone: not the symmetry analysis of every option's images."""
        from ..core.symmetry import board_group

        if model.perms is not None:
            return model.perms
        try:
            return board_group(model.cells, model.colours, self.puzzle.board.grid, permuter, self.max_memory)
        except OverBudget as e:
            raise self._over(e) from None

    @staticmethod
    def _stopped(method: str, t0: float, *, timed_out: bool = False, interrupted: bool = False) -> Report[Solution]:
        """A count by method stopped: no partial figure."""
        seconds = time.perf_counter() - t0
        return Report(
            0, None, seconds, complete=False, timed_out=timed_out, interrupted=interrupted, method=method, counted=False
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
        from ..engine.parallel import count  # numba (engine.tree): only a parallel count needs it

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


def _progress_share(progress: Progress | None, t0: float) -> Callable[[float], None] | None:
    """The progress callback as a count by method calls it (the share done, 0..1)."""
    if progress is None:
        return None
    from types import SimpleNamespace

    def share(done: float) -> None:
        seconds = time.perf_counter() - t0
        info = f"sweeping: {done:.0%} of the layers"
        progress(SimpleNamespace(solutions=0, seconds=seconds, nodes=0, info=info), None, None, done)

    return share


def load(path: str | Path, fmt: str | None = None) -> Tiling:
    """Read a puzzle file (any format polytile reads) ready to count or solve."""
    return Tiling(read(path, fmt))
