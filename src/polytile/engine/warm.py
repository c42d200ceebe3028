"""Load (or compile) the kernels before timing a search, so `seconds` excludes it."""
from __future__ import annotations

import time

import numpy as np

_done: set[str] = set()
compile_seconds = 0.0


def warm(engine: str, n_items: int) -> None:
    """Run the kernel once on a two-cell cover, through every entry point a search uses."""
    global compile_seconds
    from .search import choose_engine
    name = choose_engine(engine, n_items)
    if name in _done:
        return
    t0 = time.perf_counter()
    from .. import symmetry  # noqa: F401  (imported here, not inside a timed search)
    from ..cover import Cover
    from .search import Plan, runner_class
    tiny = Cover(2, np.array([0, 1, 2], np.int64), np.array([0, 1], np.int32),
                 np.array([0, 1], np.int32), np.array([1, 1], np.int32), np.array([1, 1], np.int32),
                 np.array([[1, -1], [0, -1]], np.int32))
    runner = runner_class(name)(tiny, None, Plan(np.ones(2, dtype=bool)), store=True, limit=0)
    runner.begin([np.array([0], dtype=np.int32)])
    runner.advance(100)
    _done.add(name)
    compile_seconds += time.perf_counter() - t0
