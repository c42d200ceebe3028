"""A progress display for long counts on a terminal (rich); silent otherwise."""
from __future__ import annotations

import sys
import time
from contextlib import contextmanager


@contextmanager
def counting(enabled: bool | None = None, after: float = 1.0):
    """Yield a callback for the searches: (result) for one process; (result, done, total,
    fraction) for parallel counts, where fraction is the estimated share of the tree done,
    which drives the ETA. Nothing is shown before `after` seconds or when stderr is no
    terminal."""
    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled:
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
    t0 = time.perf_counter()
    bar = Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.fields[info]}"),
                   TimeElapsedColumn(), TimeRemainingColumn(), console=Console(stderr=True),
                   transient=True)
    task = None

    def update(res, done=None, total=None, fraction=None):
        nonlocal task
        if time.perf_counter() - t0 < after:
            return
        if task is None:
            bar.start()
            task = bar.add_task("counting", total=None if total is None else 1.0, info="")
        rate = res.solutions / res.seconds if res.seconds else 0.0
        info = getattr(res, "info", None) or f"{res.solutions:,} solutions ({rate:,.0f}/s), {res.nodes:,} nodes"
        if total is not None:
            bar.update(task, completed=fraction if fraction is not None else done / total,
                       info=f"{done}/{total} parts, {info}")
        else:
            bar.update(task, info=info)

    try:
        yield update
    finally:
        if task is not None:
            bar.stop()
