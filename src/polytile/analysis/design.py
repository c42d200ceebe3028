"""Challenge cards: positions of a puzzle with some pieces placed (taken from a solution) whose
completion by the pieces left is unique, graded by the rules a person needs (`grading`)."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ..core.puzzle import Puzzle, merge_congruent
from ..core.results import Placement, Solution, piece_letters
from ..errors import PuzzleError
from ..formats.polyjson import dump
from ..tiling.solver import Tiling
from .grading import Logic, grade
from .hint import remaining

BATCH = 24  # candidates judged between two choices of how many pieces to place
TRIES = 200  # candidates judged per card asked for before giving up (none of them was unique)


@dataclass
class Card:
    """A position: `placed` (pieces on the board), the `puzzle` left (free cells, pieces
    left), its `level`, and the `solution` it completes to."""

    level: int
    placed: list[Placement]
    puzzle: Puzzle
    solution: Solution

    def to_json(self) -> dict[str, Any]:
        """The card as `design cards --format json` writes it: anyone can re-count its puzzle."""
        given = {(p.letter, tuple(map(tuple, p.cells.tolist()))) for p in self.placed}
        rest = [p for p in self.solution.placements if (p.letter, tuple(map(tuple, p.cells.tolist()))) not in given]
        return {
            "level": self.level,
            "placed": [{"piece": p.letter, "cells": p.cells.tolist()} for p in self.placed],
            "puzzle": json.loads(dump(self.puzzle)),
            "solution": [{"piece": p.letter, "cells": p.cells.tolist()} for p in rest],
        }


def exact(puzzle: Puzzle) -> Puzzle:
    """The puzzle with congruent pieces merged; a PuzzleError unless every piece must be used
    and they cover the board exactly (a card's pieces left fill its free cells)."""
    p = merge_congruent(puzzle)
    if p.partial or p.tiles_area != p.board.area:
        raise PuzzleError("design needs a puzzle whose pieces, all used, cover the board exactly", p.source)
    return p


def position(puzzle: Puzzle, placed: list[Placement]) -> Puzzle:
    """The puzzle left after `placed`: the free cells, the pieces not placed (named by letter)."""
    letters = dict(zip((p.name for p in puzzle.pieces), piece_letters(puzzle)))
    names = [p.name for p in puzzle.pieces]
    used = [names.index(pl.piece) for pl in placed]
    covered = {tuple(c) for pl in placed for c in pl.cells.tolist()}
    rest = remaining(puzzle, used, covered)
    return replace(rest, pieces=[replace(p, name=letters[p.name]) for p in rest.pieces], notes=[])


def judge(puzzle: Puzzle, placed: list[Placement], top: int) -> int | None:
    """The level of the position after `placed` when its completion is unique (polytile's
    count, stopped at the second solution), else None."""
    rest = Tiling(position(puzzle, placed))
    if len(rest.solve(limit=2).found) != 1:
        return None
    return grade(Logic(rest.model().cover), top)


_WORK: tuple[Puzzle, int] | None = None  # what a forked worker judges against


def _judge_one(placed: list[Placement]) -> int | None:
    assert _WORK is not None
    return judge(_WORK[0], placed, _WORK[1])


def _sample(p: Puzzle, m: int, rng: random.Random, time_limit: float | None) -> list[Solution]:
    """Up to `m` solutions drawn evenly from all of them (counted first), so that cards differ
    beyond the first corner a search fills; the first `m` of a shuffled search when the count
    does not finish in the time."""
    import numpy as np

    tiling = Tiling(p)
    total = tiling.count(time_limit=time_limit)
    if not total.complete:
        return tiling.solve(limit=m, shuffle=rng.randrange(1 << 30), time_limit=time_limit).found
    pick = np.array(sorted(rng.sample(range(total.solutions), min(m, total.solutions))), dtype=np.int64)
    return tiling.solve(limit=None, select=pick, time_limit=time_limit).found


def _quotas(n: int, levels: int) -> dict[int, int]:
    return {lv: n // levels + (1 if lv <= n % levels else 0) for lv in range(1, levels + 1)}


def _pick_k(
    rng: random.Random, ks: list[int], hits: dict[int, dict[int, int]], tries: dict[int, int], want: set[int]
) -> int:
    """How many pieces to place next: each K weighed by how often it gave a level still wanted."""
    weights = [(sum(hits[k].get(lv, 0) for lv in want) + 0.5) / (tries[k] + 1) for k in ks]
    return rng.choices(ks, weights)[0]


def _pick_k_for(
    rng: random.Random, ks: list[int], hits: dict[int, dict[int, int]], tries: dict[int, int], want: set[int]
) -> list[int]:
    """How many pieces to place on each candidate of the next batch."""
    return [_pick_k(rng, ks, hits, tries, want) for _ in range(BATCH)]


def _batch(
    rng: random.Random, sols: list[Solution], ks: list[int], seen: set[Any]
) -> list[tuple[int, Solution, list[Placement]]]:
    """Candidates: a solution drawn and K of its pieces kept, each position once."""
    batch = []
    for k in ks:
        sol = rng.choice(sols)
        chosen = sorted(rng.sample(range(len(sol.placements)), k))
        key = frozenset((sol.placements[i].piece, tuple(map(tuple, sol.placements[i].cells.tolist()))) for i in chosen)
        if key in seen:
            continue
        seen.add(key)
        batch.append((k, sol, [sol.placements[i] for i in chosen]))
    return batch


def cards(
    puzzle: Puzzle,
    n: int,
    levels: int = 4,
    placed: int | None = None,
    seed: int = 0,
    time_limit: float | None = None,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[list[Card], bool]:
    """Up to `n` cards spread evenly over levels 1..`levels`, and whether all were found
    (False: the time limit passed first, or the candidates ran out); `progress(made,
    candidates judged)` after each batch."""
    t0 = time.perf_counter()
    p = exact(puzzle)
    pieces = sum(x.count for x in p.pieces)
    ks = [placed] if placed is not None else list(range(1, pieces - 1))
    if any(k < 0 or k >= pieces for k in ks):
        raise PuzzleError(f"--placed must be between 0 and {pieces - 1} for this puzzle", p.source)
    sols = _sample(p, max(50, n), random.Random(seed), time_limit)
    if not sols and time_limit is not None and time.perf_counter() - t0 > time_limit:
        return [], False
    if not sols:
        raise PuzzleError("the puzzle has no solution to take cards from", p.source)
    quotas = _quotas(n, levels)
    got: dict[int, list[Card]] = {lv: [] for lv in quotas}
    rng = random.Random(seed)
    hits: dict[int, dict[int, int]] = {k: {} for k in ks}
    tries = {k: 0 for k in ks}
    seen: set[Any] = set()
    pool = _pool(p, levels, jobs)
    try:
        stale = 0
        while any(len(got[lv]) < quotas[lv] for lv in quotas) and stale < 200 and sum(tries.values()) < TRIES * n:
            if time_limit is not None and time.perf_counter() - t0 > time_limit:
                break
            want = {lv for lv in quotas if len(got[lv]) < quotas[lv]}
            batch = _batch(rng, sols, _pick_k_for(rng, ks, hits, tries, want), seen)
            stale = stale + 1 if not batch else 0
            found = pool(b[2] for b in batch) if pool else [judge(p, b[2], levels) for b in batch]
            for (k, sol, pl), level in zip(batch, found):
                tries[k] += 1
                if level is None:
                    continue
                hits[k][level] = hits[k].get(level, 0) + 1
                if len(got[level]) < quotas[level]:
                    got[level].append(Card(level, pl, position(p, pl), sol))
            if progress is not None:
                progress(sum(map(len, got.values())), sum(tries.values()))
    finally:
        if pool:
            pool.close()
    out = [c for lv in sorted(got) for c in got[lv]]
    return out, len(out) == n


def _pool(p: Puzzle, levels: int, jobs: int) -> Any:
    """A map over `jobs` forked workers (None for one job); the order of answers is the
    order of questions, so the cards do not depend on the number of jobs."""
    if jobs == 1:
        return None
    import multiprocessing

    global _WORK
    _WORK = (p, levels)
    workers = multiprocessing.get_context("fork").Pool(jobs if jobs > 0 else None)

    class Mapper:
        def __call__(self, items: Any) -> list[int | None]:
            return workers.map(_judge_one, list(items))

        def close(self) -> None:
            workers.terminate()

    return Mapper()
