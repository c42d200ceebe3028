"""Uniform random solutions of a tiling puzzle, drawn from the counted structure
(engine/counting/sample.py): the frontier's layers, or the Pfaffian's self-reduction for
dominoes on wide boards."""

from __future__ import annotations

import time
from typing import Callable

import numpy as np

from ..budget import over
from ..core.cover import Cover
from ..core.results import Report, Solution, piece_letters
from ..engine.limits import Stopped
from ..errors import PuzzleError
from .solver import Tiling, area_reasons, infeasible


def sample(tiling: Tiling, how_many: int, seed: int | None = None, *, distinct: bool = False) -> Report[Solution]:
    """`how_many` solutions drawn independently and exactly uniformly (with replacement)
    from the counted structure: the frontier's layers, or the Pfaffian's counts for
    dominoes. A PuzzleError when neither can count the puzzle or its layers would pass the
    memory budget. `distinct`: draws repeated are drawn again (a uniform random set of
    min(how_many, all) solutions)."""
    import random

    from ..engine.counting import Refused, choose
    from ..engine.counting.sample import frontier_sampler, reduction_draw

    t0 = time.perf_counter()
    model = tiling.model()
    rng = random.Random(seed)
    board = tiling.puzzle.board
    plane = model.cells if board.grid.rect_plane else None
    reasons = area_reasons(tiling.puzzle) or infeasible(model)
    if reasons:
        return Report(0, None, time.perf_counter() - t0, reasons=reasons, method="frontier")
    budget = tiling.max_memory if tiling.max_memory is not None else 1 << 30
    method = _sampling_method(model.cover, plane)
    draws: list[np.ndarray] = []
    if method == "pfaffian":
        from ..engine.counting.pfaffian import count_dominoes

        assert plane is not None
        cells = [tuple(c) for c in plane.tolist()]

        def count(items: list[int]) -> int:
            return count_dominoes([cells[i] for i in items])

        total = count(list(range(model.cover.n_items)))
        if total:
            draws = _draws(lambda: reduction_draw(model.cover, count, total, rng), how_many, total, distinct)
    else:
        try:
            choose(model.cover, "frontier")
            layers = frontier_sampler(model.cover, budget)
        except Refused as e:
            raise PuzzleError(
                f"--random needs a puzzle the frontier or the Pfaffian counts: {e}", tiling.puzzle.source
            ) from None
        except Stopped as stop:
            raise over("the layers a uniform draw needs", stop.need, budget, tiling.puzzle.source) from None
        total = layers.total
        if total:
            draws = _draws(lambda: layers.draw(rng), how_many, total, distinct)
    letters = piece_letters(model.puzzle) if draws else []
    found = [tiling._solution(model, d, letters) for d in draws]
    return Report(total, None, time.perf_counter() - t0, method=method, found=found)


def _draws(draw: Callable[[], list[int]], how_many: int, total: int, distinct: bool) -> list[np.ndarray]:
    """`how_many` draws (distinct ones: min(how_many, total), repeats drawn again)."""
    if not distinct:
        return [np.array(draw()) for _ in range(how_many)]
    seen: dict[tuple[int, ...], None] = {}
    while len(seen) < min(how_many, total):
        seen.setdefault(tuple(draw()), None)
    return [np.array(d) for d in seen]


NARROW_SAMPLES = 16  # frontiers up to this many cells wide are sampled from the sweep's layers


def _sampling_method(cover: Cover, plane: np.ndarray | None) -> str:
    """How uniform draws are made: from the frontier's layers while the frontier is narrow
    (a draw then costs a walk back), by the Pfaffian's self-reduction for dominoes on wider
    boards (a draw costs a determinant per domino), else from the frontier's layers."""
    from ..engine.counting import Refused, choose
    from ..engine.counting.frontier import plan

    try:
        narrow = plan(cover).window <= NARROW_SAMPLES
    except ValueError:
        narrow = False
    if not narrow:
        try:
            return choose(cover, "pfaffian", plane=plane)
        except Refused:
            pass
    return "frontier"
