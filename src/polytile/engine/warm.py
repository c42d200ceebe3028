"""Load (or compile) the kernels before timing a search, so `seconds` excludes it."""
from __future__ import annotations

import time

import numpy as np

_done: set[str] = set()
compile_seconds = 0.0


def warm(engine: str, n_items: int) -> None:
    global compile_seconds
    name = engine if engine != "auto" else ("bitboard" if n_items <= 64 else "dlx")
    if name in _done:
        return
    t0 = time.perf_counter()
    from ..cover import Cover
    from .search import search
    tiny = Cover(1, np.array([0, 1], np.int64), np.array([0], np.int32), np.array([0], np.int32),
                 np.array([1], np.int32), np.array([1], np.int32), np.full((1, 2), -1, np.int32))
    search(tiny, None, store=True, engine=name)
    _done.add(name)
    compile_seconds += time.perf_counter() - t0
