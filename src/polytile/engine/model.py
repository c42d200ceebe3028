"""The one way to build a puzzle's exact-cover model: the compiled reduction first
(core.reduction with engine/geometry/modelling_driver.py: the whole model in one call, the common
case), else numpy's core.cover.build with its placements and orientations compiled where
they can be (placing_driver, turning_driver). numpy's build alone stays the reference
the tests compare every compiled path with (tests/engine/test_modelling.py)."""

from __future__ import annotations

from ..core.cover import Model, build, check_budget
from ..core.puzzle import Puzzle
from ..core.reduction import build_compiled
from .geometry.modelling_driver import jit_modeller, modeller
from .geometry.placing_driver import jit_placer, placer
from .geometry.turning_driver import jit_turner, turner


def build_model(
    puzzle: Puzzle,
    budget: int | None = None,
    deadline: float | None = None,
    *,
    compiled: bool = True,
    whole: bool = True,
    jit: bool = False,
) -> Model:
    """The puzzle's Model. OverBudget before building when its placements could take more
    than `budget` bytes (None: any; the symmetry analysis made with the model keeps to it
    too, else it is left to core.symmetry.analyse), TimeUp when the perf_counter
    `deadline` passes first (numpy's build looks; the compiled call takes microseconds).
    `compiled=False`: numpy's build alone (the reference); `whole=False`: numpy's build
    with its compiled steps, not the one-call reduction; `jit`: numba's dispatcher
    rather than the ahead-of-time variants (the tests compare both with numpy)."""
    if not compiled:
        check_budget(puzzle, budget)
        return build(puzzle, deadline)
    turn = jit_turner if jit else turner
    if whole:
        model = build_compiled(puzzle, jit_modeller if jit else modeller, budget, True, turn)
        if model is not None:
            return model
    check_budget(puzzle, budget, turn)
    return build(puzzle, deadline, jit_placer if jit else placer, turn)
