"""What a job's process tells the server through its pipe: progress (at most ten times a
second, or twice a second for a library call that reports none of its own), solutions in
batches, rows, and the result or one error line. Counts beyond what JavaScript numbers hold
exactly travel as strings, so the page never shows a rounded count."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from multiprocessing.connection import Connection
from typing import Any

MAX_LISTED_CELLS = 2_000_000  # cells of the solutions one job lists, in all (the server keeps them)


def big(n: int | None) -> int | str | None:
    """Counts beyond what JavaScript numbers hold exactly travel as strings."""
    return n if n is None or abs(n) < 2**53 else str(n)


class Out:
    """Messages to the server; progress at most ten times a second (the page polls at most
    that often, and a count's callback may fire thousands of times a second)."""

    def __init__(self, conn: Connection):
        self.conn = conn
        self.last = 0.0
        self.t0 = time.perf_counter()

    def send(self, kind: str, **fields: Any) -> None:
        """One message, {"type": kind, ...}: the job thread of the server applies it to the job."""
        self.conn.send({"type": kind, **fields})

    def progress(self, force: bool = False, **fields: Any) -> None:
        """A progress message with the job's clock, unless one went out under 0.1 s ago."""
        now = time.perf_counter()
        if force or now - self.last >= 0.1:
            self.last = now
            self.send("progress", elapsed=round(now - self.t0, 3), **fields)

    def engine_progress(self, res: Any, *more: Any) -> None:
        """The search's callback: one thread (res), or a parallel count (res, parts done,
        parts, the estimated share of the tree done)."""
        done, total, share = (list(more) + [None] * 3)[:3]
        fields = {
            "solutions": big(res.solutions),
            "nodes": res.nodes,
            "seconds": round(res.seconds, 3),
        }  # the search's clock: the ETA's pace
        if getattr(res, "unique", None) is not None:
            fields["unique"] = big(res.unique)
        if done is not None and total:
            fields.update(done=done, total=total)
        if share is not None:
            fields["share"] = share  # None while the count's gauge learns; a sweep's share of its layers
        if getattr(res, "found", None):
            fields["listed"] = len(res.found)
        self.progress(**fields)


@contextlib.contextmanager
def ticking(out: Out, phase: str, every: float = 0.5) -> Iterator[None]:
    """Progress twice a second (elapsed time, the phase) for a library call that reports none
    of its own, so the page shows a live job within 1 s."""
    stop = threading.Event()
    lock = threading.Lock()

    def tick() -> None:
        while not stop.wait(every):
            with lock:
                out.progress(force=True, phase=phase)

    t = threading.Thread(target=tick, daemon=True)
    out.progress(force=True, phase=phase)
    t.start()
    try:
        yield
    finally:
        stop.set()
        t.join()
