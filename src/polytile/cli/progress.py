"""Progress of long counts: a bar on a terminal (rich), a plain line every few seconds
elsewhere (a log, a pipe), nothing when POLYTILE_PROGRESS=0."""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Callable

PLAIN_EVERY = 5.0  # seconds between two plain lines off a terminal (the first after as long)
TRUSTED_AFTER = 1.0  # seconds of a count before its pace gives a time left


def mode(enabled: bool | None = None) -> str | None:
    """How progress is shown: "bar" on a terminal, "lines" elsewhere, None not at all
    (enabled False, or POLYTILE_PROGRESS=0 in the environment). `enabled` True: the bar."""
    if enabled is not None:
        return "bar" if enabled else None
    if os.environ.get("POLYTILE_PROGRESS", "").strip() == "0":
        return None
    return "bar" if sys.stderr.isatty() else "lines"


@contextmanager
def counting(enabled: bool | None = None, after: float = 1.0) -> Iterator[Callable[..., None] | None]:
    """Yield a callback for the searches: (result) for one process; (result, done, total,
    fraction) for parallel counts, where fraction is the estimated share of the work done
    (None while unknown: "estimating...", the tasks done shown instead), which drives the
    time left. On a terminal a bar (the elapsed time and the time left first, so a narrow
    terminal cuts the counts, not them), shown after `after` seconds; elsewhere a line on
    stderr every PLAIN_EVERY seconds (`mode`)."""
    how = mode(enabled)
    if how is None:
        yield None
        return
    with _lines() if how == "lines" else _bar(after) as update:
        yield update


class _State:
    """What the last call of the callback said, and when: the display's clock runs on from
    it (a survey calls back only when a task finishes, minutes apart)."""

    def __init__(self, res: Any, done: int | None, total: int | None, fraction: float | None, own: float):
        self.at = time.perf_counter()
        self.elapsed = _elapsed(res, own)
        self.fraction, self.total = fraction, total
        self.tasks = None if total is None else _tasks(done or 0, total)
        self.info = _info(res, self.elapsed)

    def now(self) -> float:
        """The count's elapsed seconds now."""
        return self.elapsed + (time.perf_counter() - self.at)


@contextmanager
def _lines() -> Iterator[Callable[..., None]]:
    """A plain line on stderr every PLAIN_EVERY seconds from a thread of its own, whether
    or not the count has called back since (the callback only keeps what it is told); once
    a line is out, the last thing the count said is the last line too."""
    t0 = time.perf_counter()
    state: list[_State] = []
    stop = threading.Event()

    def update(res: Any, done: int | None = None, total: int | None = None, fraction: float | None = None) -> None:
        state[:] = [_State(res, done, total, fraction, time.perf_counter() - t0)]

    printed: list[_State | None] = []

    def say() -> None:
        printed.append(state[0] if state else None)
        print(f"polytile: {_line(printed[-1], time.perf_counter() - t0)}", file=sys.stderr, flush=True)

    def tick() -> None:
        while not stop.wait(PLAIN_EVERY):
            say()

    ticker = threading.Thread(target=tick, name="polytile-progress", daemon=True)
    ticker.start()
    try:
        yield update
    finally:
        stop.set()
        ticker.join()
        if printed and state and printed[-1] is not state[0]:  # a log that had lines ends with the last word
            say()


def _line(s: _State | None, own: float) -> str:
    """A plain progress line: elapsed, time left and tasks (parallel counts), counts."""
    if s is None:
        return f"{_clock(own)} elapsed, counting..."
    elapsed = s.now()
    left = "" if s.total is None else f", {time_left(elapsed, s.fraction)}"
    tasks = "" if s.tasks is None else f", {s.tasks}"
    return f"{_clock(elapsed)} elapsed{left}{tasks}, {s.info}"


@contextmanager
def _bar(after: float) -> Iterator[Callable[..., None]]:
    """The rich bar's callback: nothing before `after` seconds, then the bar until the end."""
    from rich.console import Console
    from rich.progress import BarColumn, Progress, ProgressColumn, TextColumn
    from rich.table import Column
    from rich.text import Text

    t0 = time.perf_counter()

    class Times(ProgressColumn):
        """The elapsed time and the time left, worked out each time the bar is drawn: they
        run on between two calls (a survey's come minutes apart)."""

        def render(self, task: Any) -> Text:
            s = task.fields.get("state")
            if s is None:
                return Text(_clock(time.perf_counter() - t0), style="progress.elapsed")
            left = "" if s.total is None else " " + time_left(s.now(), s.fraction)
            return Text(_clock(s.now()), style="progress.elapsed") + Text(left)

    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(bar_width=20),
        Times(),
        TextColumn("{task.fields[info]}", table_column=Column(no_wrap=True, overflow="ellipsis", ratio=1)),
        console=Console(stderr=True),
        transient=True,
        expand=True,
    )
    task = None

    def update(res: Any, done: int | None = None, total: int | None = None, fraction: float | None = None) -> None:
        nonlocal task
        now = time.perf_counter()
        if now - t0 < after:
            return
        if task is None:
            bar.start()
            task = bar.add_task("counting", total=None if total is None else 1.0, info="", state=None)
        s = _State(res, done, total, fraction, now - t0)
        if s.tasks is None and fraction is None:
            bar.update(task, info=s.info, state=s)
            return
        share = fraction if fraction is not None else (done or 0) / max(1, total or 1)  # at least the tasks done
        info = s.info if s.tasks is None else f"{s.tasks}, {s.info}"
        bar.update(task, total=1.0, completed=share, info=info, state=s)

    try:
        yield update
    finally:
        if task is not None:
            bar.stop()


def _elapsed(res: Any, own: float) -> float:
    """The count's seconds (its search, the pace the time left goes by), or the display's
    own clock where the result keeps none (a survey's)."""
    seconds = getattr(res, "seconds", 0.0) or 0.0
    return seconds if seconds > 0 else own


def _tasks(done: int, total: int) -> str:
    return f"{done:,}/{total:,} tasks ({done / max(1, total):.0%})"


def _info(res: Any, elapsed: float) -> str:
    """The counts so far, or what the result says of itself (`info`)."""
    if getattr(res, "info", None):
        return str(res.info)
    rate = res.solutions / elapsed if elapsed > 0 else 0.0
    return f"{res.solutions:,} solutions ({rate:,.0f}/s), {res.nodes:,} nodes"


def _clock(seconds: float) -> str:
    whole = int(seconds)
    return f"{whole // 3600}:{whole % 3600 // 60:02d}:{whole % 60:02d}"


def time_left(elapsed: float, fraction: float | None) -> str:
    """The time left at the pace so far: 'estimating...' while the share done is unknown
    or the count too young for its pace to say anything (TRUSTED_AFTER)."""
    if not fraction or fraction <= 0 or elapsed < TRUSTED_AFTER:
        return "estimating..."
    left = max(1, round(elapsed * (1 - fraction) / fraction))  # never 0 while it runs
    return f"{_clock(left)} left"
