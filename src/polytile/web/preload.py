"""Imported once by the fork server that starts the jobs: load numba, compile (or load from
the cache) every kernel, import matplotlib's colours. Every job process is forked from that
warm process, so a job's first search starts at once instead of after seconds of set-up."""

from __future__ import annotations

import time

t0 = time.perf_counter()


def _warm() -> None:
    from ..engine.warm import warm

    for engine, items in (("bitboard", 64), ("wide", 200), ("dlx", 300)):
        warm(engine, items)
    from ..shikaku.model import Shikaku, solve

    solve(Shikaku.from_rows([[2, 0], [0, 2]]))
    import importlib

    for name in ("analysis.hint", "tiling.katamino", "analysis.stats", "web.worker"):
        importlib.import_module(f"polytile.{name}")
    from ..draw import pictures

    pictures.piece_colours([])


try:
    _warm()
except Exception:  # a job still works without the warm-up, only slower to start
    pass

seconds = time.perf_counter() - t0
