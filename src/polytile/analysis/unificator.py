"""The fewest fixed pieces that leave one solution the only one (BurrTools' "unificator"),
proven minimal: every smaller set of the solution's pieces was tried and leaves another."""

from __future__ import annotations

import time
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from ..core.puzzle import Puzzle
from ..core.results import Placement
from ..errors import PuzzleError
from ..tiling.solver import Tiling
from .design import exact, position


@dataclass
class Fixed:
    """The answer: `fixed` pieces of solution `solution`; `proven` when every set of
    `len(fixed) - 1` pieces was tried (`tried` sets in all) and none made it unique."""

    solution: int
    fixed: list[Placement]
    proven: bool
    tried: int
    seconds: float

    def to_json(self) -> dict[str, Any]:
        """As `design unique --json` prints it."""
        return {
            "solution": self.solution,
            "fixed": [{"piece": p.letter, "cells": p.cells.tolist()} for p in self.fixed],
            "proven_minimal": self.proven,
            "sets_tried": self.tried,
            "seconds": round(self.seconds, 3),
        }

    def text(self) -> str:
        """As `design unique` prints it."""
        pieces = "; ".join(f"{p.letter} on {' '.join(str(tuple(c)) for c in p.cells.tolist())}" for p in self.fixed)
        if not self.proven:
            return (
                f"solution {self.solution}: the time limit passed ({self.tried} sets tried in "
                f"{self.seconds:.2f} s); no fewest set proven"
            )
        state = "proven minimal"
        k = len(self.fixed)
        return (
            f"solution {self.solution}: {k} fixed piece{'s' if k != 1 else ''} leave{'s' if k == 1 else ''} "
            f"it the only one ({state}; {self.tried} sets tried in {self.seconds:.2f} s)\n{pieces}"
        )


def only(puzzle: Puzzle, placed: list[Placement]) -> bool:
    """Whether the pieces left complete the position after `placed` in exactly one way."""
    return len(Tiling(position(puzzle, placed)).solve(limit=2).found) == 1


def fewest(puzzle: Puzzle, n: int, time_limit: float | None = None) -> Fixed:
    """The fewest pieces of the `n`-th solution (in `solve`'s order) to fix so that it is
    the only one: sizes tried from 0 up, every set of a size before the next."""
    t0 = time.perf_counter()
    p = exact(puzzle)
    report = Tiling(p).solve(limit=n, time_limit=time_limit)
    found = report.found
    if len(found) < n and report.timed_out:
        return Fixed(n, [], False, 0, time.perf_counter() - t0)
    if len(found) < n:
        raise PuzzleError(f"the puzzle has {len(found)} solutions, not {n}", p.source)
    sol = found[n - 1].placements
    tried = 0
    for k in range(len(sol) + 1):
        for subset in combinations(sol, k):
            if time_limit is not None and time.perf_counter() - t0 > time_limit:
                return Fixed(n, list(sol), False, tried, time.perf_counter() - t0)
            tried += 1
            if only(p, list(subset)):
                return Fixed(n, list(subset), True, tried, time.perf_counter() - t0)
    raise AssertionError("fixing every piece leaves one solution")
