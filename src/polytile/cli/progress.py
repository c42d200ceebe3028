"""A progress display for long counts on a terminal (rich); silent otherwise."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Callable


@contextmanager
def counting(enabled: bool | None = None, after: float = 1.0) -> Iterator[Callable[..., None] | None]:
    """Yield a callback for the searches: (result) for one process; (result, done, total,
    fraction) for parallel counts, where fraction is the estimated share of the work done
    (None while unknown: "estimating..."), which drives the ETA. The elapsed time and the
    ETA come first, so a narrow terminal cuts the counts, not them. Nothing is shown
    before `after` seconds or when stderr is no terminal."""
    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled:
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Column

    t0 = time.perf_counter()
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(bar_width=20),
        TimeElapsedColumn(),
        TextColumn("{task.fields[left]}"),
        TextColumn("{task.fields[info]}", table_column=Column(no_wrap=True, overflow="ellipsis", ratio=1)),
        console=Console(stderr=True),
        transient=True,
        expand=True,
    )
    task = None

    def update(res: Any, done: int | None = None, total: int | None = None, fraction: float | None = None) -> None:
        nonlocal task
        if time.perf_counter() - t0 < after:
            return
        if task is None:
            bar.start()
            task = bar.add_task("counting", total=None if total is None else 1.0, info="", left="")
        rate = res.solutions / res.seconds if res.seconds else 0.0
        info = getattr(res, "info", None) or f"{res.solutions:,} solutions ({rate:,.0f}/s), {res.nodes:,} nodes"
        if total is not None:
            bar.update(
                task,
                total=None if fraction is None else 1.0,
                completed=fraction or 0.0,
                left=time_left(res.seconds, fraction),
                info=f"{done}/{total} parts, {info}",
            )
        else:
            bar.update(task, info=info)

    try:
        yield update
    finally:
        if task is not None:
            bar.stop()


def time_left(elapsed: float, fraction: float | None) -> str:
    """The ETA at the pace so far: 'estimating...' while the share done is unknown."""
    if not fraction or fraction <= 0:
        return "estimating..."
    left = max(1, round(elapsed * (1 - fraction) / fraction))  # never 0 while it runs
    hours, rest = divmod(left, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d} left"
