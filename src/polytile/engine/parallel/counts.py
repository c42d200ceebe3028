"""Count on every core or on a Dask cluster.

The tree is split into prefixes (the options placed first, as the kernels take them).
On threads, the workers take them by work stealing, in the plan's order, with no
estimate needed first (engine/parallel/stealing.py). With a checkpoint or on Dask, each prefix's
subtree size is estimated (Knuth) and the prefixes are dealt into fixed tasks biggest
first by guided self-scheduling. Workers run the prefixes on the same kernel as one
process; the counts add up exactly. The estimated share of the tree done drives the ETA.
With a checkpoint (SQLite) every finished task is committed at once, so a killed run
resumes where it stopped and redoes only unfinished tasks; the tasks then do not depend
on the number of workers, so a run may resume with other --jobs or on a cluster.

Backends: threads on this machine (the compiled kernels release the GIL: no start-up
cost, where forking a process with the compiled kernels in memory costs ~5 ms of page
copies, a tenth of a 5x12 count) and Dask (a scheduler's address, or a LocalCluster of
worker processes)."""

from __future__ import annotations

import os
import time
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from ...core.cover import Cover
from ...core.results import Report
from .dealing import FINE_PREFIXES as FINE_PREFIXES, deal as deal  # re-exported: the tests name parallel.deal
from .dealing import RESUMABLE_WORKERS as RESUMABLE_WORKERS, make_tasks as make_tasks  # re-exported: survey's
from ..search import choose_engine, plan, driver_class
from .gauge import Gauge, time_share
from .stealing import Fixed, Shared, Stealing
from .tasks import CountSetup, fingerprint, run_task
from .threads import on_threads
from ..tree import split

if TYPE_CHECKING:  # sqlite3 and hmac (the checkpoint), Dask: imported when used
    from ...core.symmetry import Symmetry
    from .checkpoint import Checkpoint, Counts

# progress(counts so far, tasks done, tasks, share of the time done or None)
Progress = Callable[[Report[np.ndarray], int, int, "float | None"], None]

STEAL_PER_WORKER = 64  # prefixes per worker when stealing, at least (finer
# costs: 6x10 split into 2376 prefixes, not 138, 1.56x not 1.75x)


def count(
    cover: Cover,
    sym: Symmetry | None = None,
    *,
    unique: bool = False,
    jobs: int = 0,
    engine: str = "auto",
    checkpoint: str | None = None,
    progress: Progress | None = None,
    scheduler: str | None = None,
    breaking: bool = True,
    deadline: float | None = None,
) -> Report[np.ndarray]:
    """Count all solutions on `jobs` threads (0: every core), or on Dask when `scheduler`
    is an address or "local" (a LocalCluster of `jobs` worker processes); stop at the
    perf_counter `deadline` (the report is then incomplete, timed out)."""
    jobs = jobs or os.cpu_count() or 1
    with ExitStack() as stack:
        client = None
        if scheduler:
            from .dask_backend import dask_client

            client, jobs = stack.enter_context(dask_client(scheduler, jobs, deadline))
        return _count(cover, sym, unique, jobs, engine, checkpoint, progress, client, breaking, deadline)


class _Tally:
    """A parallel count's figures as its chunks finish: the result, the checkpoint, the
    gauge and the progress bar (with the counts so far of the chunks under way). Progress
    counts tasks: a chunk finished is `span(chunk)` tasks done (a task, or prefixes)."""

    def __init__(
        self,
        res: Report[np.ndarray],
        n_tasks: int,
        book: Checkpoint | None,
        gauge: Gauge | None,
        progress: Progress | None,
        t0: float,
        span: Callable[[int], range] = Fixed.span,
    ):
        self.res, self.n_tasks, self.book, self.gauge, self.progress = res, n_tasks, book, gauge, progress
        self.span = span
        self.t0 = self.t_search = t0
        self.n_done = 0
        self.running: dict[int, Counts] = {}  # counts so far of the chunks under way

    def done(self, i: int | None, counts: Counts, record: bool = True, show: bool = True) -> None:
        """Chunk i finished (None: some of a chunk, searched before an interrupt)."""
        res = self.res
        res.solutions += counts[0]
        res.unique = (res.unique or 0) + counts[1]  # 0 from the start: never None
        res.nodes += counts[2]
        if i is None:
            return
        self.running.pop(i, None)
        span = self.span(i)
        self.n_done += len(span)
        if self.gauge is not None:
            self.gauge.finished(span.start, counts[2], span)
        if self.book and record:
            self.book.record(i, counts)
        if self.progress is not None and show:
            self.display()

    def display(self) -> None:
        """Finished tasks plus the counts so far of the chunks under way, and the share of
        the work done (None while unknown: see gauge.py)."""
        if self.progress is None:  # (called only with a progress bar)
            return
        res = self.res
        now: Report[np.ndarray] = Report(
            solutions=res.solutions, unique=res.unique, nodes=res.nodes, seconds=time.perf_counter() - self.t0
        )
        for c in self.running.values():
            now.solutions += c[0]
            now.unique = (now.unique or 0) + c[1]
            now.nodes += c[2]
        running = {j: c[2] for j, c in self.running.items()}
        share = None
        if self.gauge is not None:
            share = self.gauge.share(running, {j: self.span(j) for j in running})
        clock = time.perf_counter()
        self.progress(now, self.n_done, self.n_tasks, time_share(share, clock - self.t_search, clock - self.t0))

    def interim(self, i: int, counts: Counts) -> None:
        """Chunk i's counts so far: shown at once, replaced by its next ones."""
        self.running[i] = counts
        self.display()


def _count(
    cover: Cover,
    sym: Symmetry | None,
    unique: bool,
    jobs: int,
    engine: str,
    checkpoint: str | None,
    progress: Progress | None,
    client: Any,
    breaking: bool,
    deadline: float | None = None,
) -> Report[np.ndarray]:
    t0 = time.perf_counter()
    res: Report[np.ndarray] = Report(unique=0 if unique else None)
    if deadline is not None and t0 > deadline:  # spent before: no plan, no tables
        res.complete, res.timed_out = False, True
        return res
    p = plan(cover, sym, unique=unique, store=False, breaking=breaking, weighted=True)
    engine = choose_engine(engine, cover.n_items, len(cover.piece_count), cover)
    setup = CountSetup(cover, sym, p, engine, fingerprint(cover, p))
    res = Report(unique=0, engine=f"{engine} x{jobs}" + (" (dask)" if client else ""))
    try:
        if deadline is not None and time.perf_counter() > deadline:
            late = True
        elif checkpoint or client is not None:
            late = _count_tasks(setup, res, jobs, checkpoint, progress, client, deadline, t0)
        else:
            late = _count_stealing(setup, res, jobs, progress, deadline, t0)
        if late:
            res.complete, res.timed_out = False, True
    except KeyboardInterrupt:
        res.complete, res.interrupted = False, True
    if not unique:
        res.unique = None
    res.seconds = time.perf_counter() - t0
    return res


def _count_stealing(
    setup: CountSetup, res: Report[np.ndarray], jobs: int, progress: Progress | None, deadline: float | None, t0: float
) -> bool:
    """The count on `jobs` threads by work stealing over fine prefixes (engine/parallel/stealing.py);
    True when the deadline passed first."""
    cover, p = setup.cover, setup.plan
    prefixes = split(cover, p.keep, p.prefixes, STEAL_PER_WORKER * jobs)
    chunks = Stealing(prefixes, jobs, most=-(-len(prefixes) // (16 * jobs)))
    setup.shared = Shared(driver_class(setup.engine, cover)(cover, setup.sym, p, store=False, limit=0), chunks.workers)
    if deadline is not None and time.perf_counter() > deadline:  # the split and the tables took it
        return True
    gauge = Gauge(cover, p.keep, [[q] for q in prefixes]) if progress is not None else None
    tally = _Tally(res, len(prefixes), None, gauge, progress, t0, chunks.span)
    tally.t_search = time.perf_counter()
    return _run_threads(setup, tally, [], [], jobs, progress, deadline, gauge, chunks)


def _count_tasks(
    setup: CountSetup,
    res: Report[np.ndarray],
    jobs: int,
    checkpoint: str | None,
    progress: Progress | None,
    client: Any,  # a distributed.Client, or None: threads
    deadline: float | None,
    t0: float,
) -> bool:
    """The count in fixed tasks (the same whatever the number of workers when resumable),
    on threads or Dask; True when the deadline passed first."""
    from .checkpoint import Checkpoint
    from .dask_backend import on_dask

    cover, p = setup.cover, setup.plan
    tasks, _ = make_tasks(cover, p, RESUMABLE_WORKERS if checkpoint else jobs, fine=True)
    book = Checkpoint(checkpoint, setup.key + ":fine", len(tasks)) if checkpoint else None
    gauge = Gauge(cover, p.keep, tasks) if progress is not None else None
    finished = book.finished() if book else {}
    tally = _Tally(res, len(tasks), book, gauge, progress, t0)
    for i, c in finished.items():
        tally.done(i, c, record=False)
    todo = [i for i in range(len(tasks)) if i not in finished]
    tally.t_search = time.perf_counter()
    if client is not None:
        try:
            return on_dask(client, run_task, setup, tasks, todo, tally.done, deadline)
        finally:
            if gauge is not None:
                gauge.close()
    return _run_threads(setup, tally, tasks, todo, jobs, progress, deadline, gauge)


def _run_threads(
    setup: CountSetup,
    tally: _Tally,
    tasks: list[list[np.ndarray]],
    todo: list[int],
    jobs: int,
    progress: Progress | None,
    deadline: float | None,
    gauge: Gauge | None,
    chunks: Stealing | None = None,
) -> bool:
    """on_threads for the tally (True: the deadline passed first); the gauge then stops."""
    try:
        return on_threads(
            setup,
            tasks,
            todo,
            jobs,
            tally.done,
            interim=tally.interim if progress is not None else None,
            deadline=deadline,
            source=chunks,
        )
    finally:
        if gauge is not None:
            gauge.close()
