"""Counting by a method that does not enumerate (engine.counting: the frontier sweep, the
Pfaffian, ...), as Tiling.count tries it first: the model and the reasons found without
search, the method chosen or refused, Burnside's lemma for the classes, the time limit's
share, and the report."""

from __future__ import annotations

import time
from typing import Callable, Protocol

import numpy as np

from ..budget import over
from ..core.cover import Model, OverBudget, TimeUp
from ..core.puzzle import Puzzle
from ..core.results import Report, Solution
from ..engine.limits import Stopped
from ..engine.geometry.turning_driver import permuter
from ..errors import PuzzleError
from .feasibility import area_reasons, infeasible

Progress = Callable[..., None]  # the report so far; parallel counts add (parts done, parts, share done)
AUTO_SHARE = 0.5  # of a time limit, what a count by method chosen by auto may spend before the
# search counts instead (and gives at least a partial figure)


class Modelled(Protocol):
    """What a count by method reads of a Tiling (tiling/solver.py)."""

    puzzle: Puzzle
    max_memory: int | None

    def model(self, deadline: float | None = None) -> Model:
        """The exact-cover model (TimeUp when the perf_counter `deadline` passes first)."""
        ...


def count_first(
    tiling: Modelled,
    method: str,
    unique: bool,
    time_limit: float | None,
    progress: Progress | None,
    checkpoint: str | None,
) -> tuple[Report[Solution] | None, float | None, float]:
    """`count_by_method`, the time a search has left after it (None: auto chose to
    enumerate, or gave the search the rest), and the seconds it spent (its kernels'
    loading left out, as every count leaves it out)."""
    from ..engine.counting import warm as warm_counting

    warm_counting()
    t0 = time.perf_counter()
    counted = count_by_method(tiling, method, unique, time_limit, progress, checkpoint)
    spent = time.perf_counter() - t0
    if time_limit is not None:
        time_limit = max(0.0, time_limit - spent)
    return counted, time_limit, spent


def count_by_method(
    tiling: Modelled,
    method: str,
    unique: bool,
    time_limit: float | None,
    progress: Progress | None,
    checkpoint: str | None,
) -> Report[Solution] | None:
    """A count by a method that does not enumerate (engine.counting), or None when
    "auto" chooses to enumerate. `checkpoint`: the frontier's file (it resumes from it)."""
    from ..engine.counting import Refused, choose
    from ..engine.counting import count as count_by
    from ..engine.counting.resume import CheckpointError

    t0 = time.perf_counter()
    share = AUTO_SHARE if method == "auto" else 1.0  # (auto leaves the search the rest)
    deadline = None if time_limit is None else t0 + share * time_limit
    ready = _counting_model(tiling, method, unique, t0, deadline)
    if not isinstance(ready, Model):
        return ready
    board = tiling.puzzle.board
    plane = ready.cells if board.grid.rect_plane else None
    try:
        chosen = choose(ready.cover, method, plane=plane, unique=unique)
        if chosen == "enumerate":
            return None
        perms = _burnside_group(tiling, ready) if unique else None
        budget = tiling.max_memory if tiling.max_memory is not None else 1 << 30
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
        raise PuzzleError(str(e), tiling.puzzle.source) from None
    except Stopped as stop:
        if method == "auto":  # (past the budget, or half the time gone: the search counts
            return None  # what it can, a partial figure where the method has none)
        if stop.reason == "memory budget":
            raise over(f"counting by the {chosen} method", stop.need, budget, tiling.puzzle.source) from None
        return _stopped(chosen, t0, timed_out=True)
    except KeyboardInterrupt:
        return _stopped(chosen, t0, interrupted=True)
    return Report(got.solutions, got.unique, time.perf_counter() - t0, nodes=got.states, method=chosen)


def _counting_model(
    tiling: Modelled, method: str, unique: bool, t0: float, deadline: float | None
) -> Model | Report[Solution] | None:
    """The model for a count by method; or the Report when there is no solution for
    reasons found without search (a forced method) or the deadline passed; or None:
    let the search say why (auto)."""
    reasons = area_reasons(tiling.puzzle)
    if reasons and method == "auto":
        return None  # (the search's path says why there is no solution)
    try:
        model = tiling.model(deadline)
        reasons = reasons or infeasible(model, deadline=deadline)
    except TimeUp:
        return _stopped(method, t0, timed_out=True)
    if reasons:
        if method == "auto":
            return None
        return Report(0, 0 if unique else None, time.perf_counter() - t0, reasons=reasons, method=method)
    return model


def _burnside_group(tiling: Modelled, model: Model) -> np.ndarray:
    """The board's motions as item permutations (Burnside's lemma averages over them;
    engine.counting refuses them when one maps a placement onto no placement). The
    group alone: not the symmetry analysis of every option's images."""
    from ..core.symmetry import board_group

    if model.perms is not None:
        return model.perms
    try:
        return board_group(model.cells, model.colours, tiling.puzzle.board.grid, permuter, tiling.max_memory)
    except OverBudget as e:
        assert tiling.max_memory is not None
        raise over(e.what, e.need, tiling.max_memory, tiling.puzzle.source) from None


def _stopped(method: str, t0: float, *, timed_out: bool = False, interrupted: bool = False) -> Report[Solution]:
    """A count by method stopped: no partial figure."""
    seconds = time.perf_counter() - t0
    return Report(
        0, None, seconds, complete=False, timed_out=timed_out, interrupted=interrupted, method=method, counted=False
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
