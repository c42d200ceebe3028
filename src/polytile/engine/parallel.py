"""Count on every core or on a Dask cluster.

The tree is split into prefixes (the options placed first, as the kernels take them).
On threads, the workers take them by work stealing, in the plan's order, with no
estimate needed first (engine/stealing.py). With a checkpoint or on Dask, each prefix's
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

import hashlib
import os
import queue
import signal
import threading
import time
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from ..core.cover import Cover
from ..core.results import Report
from .dealing import FINE_PREFIXES as FINE_PREFIXES, deal as deal  # re-exported: the tests name parallel.deal
from .dealing import RESUMABLE_WORKERS as RESUMABLE_WORKERS, make_tasks as make_tasks  # re-exported: survey's
from .search import Pacer, Plan, choose_engine, plan, driver_class
from .gauge import Gauge, time_share
from .stealing import Fixed, Shared, Stealing
from .tree import split

if TYPE_CHECKING:  # sqlite3 and hmac (the checkpoint), Dask: imported when used
    from ..core.symmetry import Symmetry
    from .checkpoint import Checkpoint, Counts
    from .driver import Driver

# progress(counts so far, parts done, parts, share of the time done or None)
Progress = Callable[[Report[np.ndarray], int, int, "float | None"], None]
# what a worker puts on the results queue: ("done", i, finished, counts), ("interim", i,
# counts), an exception, INTERRUPT, or None (the worker ended)
Message = Any

INTERRUPT = "ctrl-c"  # on the results queue: Ctrl-C came
STEAL_PER_WORKER = 64  # prefixes per worker when stealing, at least (finer
# costs: 6x10 split into 2376 prefixes, not 138, 1.56x not 1.75x)
STOP_WAIT = 1.0  # seconds the workers get to stop after Ctrl-C


@dataclass
class Job:
    """Everything a worker needs (picklable, sent once to each Dask worker)."""

    cover: Cover
    sym: Symmetry | None
    plan: Plan
    engine: str
    key: str
    shared: Shared | None = None  # threads only: the driver built once, or None


_LOCAL = threading.local()  # one driver per job and thread, reused by its tasks


def _thread_driver(job: Job) -> tuple[Driver, Pacer]:
    """This thread's driver for the job: one of the shared ones, else one built here."""
    if getattr(_LOCAL, "key", None) != job.key:
        driver = job.shared.get() if job.shared is not None else None
        if driver is None:
            driver = driver_class(job.engine)(job.cover, job.sym, job.plan, store=False, limit=0)
        _LOCAL.driver = driver
        _LOCAL.pacer = Pacer()
        _LOCAL.key = job.key
    return _LOCAL.driver, _LOCAL.pacer


def _begin(driver: Driver, chunk: list[np.ndarray]) -> None:
    """driver.begin(chunk), keeping the kernel it had bound to its arguments' types:
    `begin` forgets it (Driver.bind), yet a chunk's arguments have the types of the last
    chunk's (the same records, the prefixes an int32 matrix), and matching them again costs
    ~27 us, most of a small chunk (Soma's 381 prefixes one by one: 14.6 ms, against 1.1 ms
    for the whole count in one call)."""
    bound = getattr(driver, "_run", None)
    driver.begin(chunk)
    if bound is not None and getattr(driver, "_run", bound) is None:
        driver._run = bound


def run_task(
    job: Job,
    chunk: list[np.ndarray],
    stop: threading.Event | None = None,
    report: Callable[[Counts], None] | None = None,
) -> tuple[Counts, bool]:
    """Count the subtrees under these prefixes: the counts, and False when `stop` was set
    before the end (then the counts are those of the part searched). `report` gets the
    counts so far after every slice of the search (a few hundredths of a second)."""
    driver, pacer = _thread_driver(job)
    before = driver.stats.copy()
    _begin(driver, chunk)
    finished = True
    while pacer.advance(driver) != "done":
        if stop is not None and stop.is_set():
            finished = False
            break
        if report is not None:
            s = driver.stats - before
            report((int(s[1]), int(s[2]), int(s[0])))
    s = driver.stats - before
    return (int(s[1]), int(s[2]), int(s[0])), finished


def fingerprint(cover: Cover, p: Plan) -> str:
    """A hash of the cover and the plan: a checkpoint resumes only the count it was
    written for, and Dask names the job's futures by it."""
    h = hashlib.sha256()
    for a in (
        cover.opt_ptr,
        cover.opt_items,
        cover.opt_piece,
        cover.piece_count,
        cover.piece_min,
        p.keep.astype(np.uint8),
    ):
        h.update(np.ascontiguousarray(a).tobytes())
    h.update(f"{p.sym_mode}:{p.sym_piece}:{p.sym_piece2}".encode())
    return h.hexdigest()


# ---------------------------------------------------------------- threads backend


def on_threads(
    job: Job,
    tasks: list[list[np.ndarray]],
    todo: list[int],
    jobs: int,
    done: Callable[..., None],
    task: Callable[..., tuple[Any, bool]] = run_task,  # (counts, finished); a survey's: its tally
    interim: Callable[[int, Counts], None] | None = None,
    deadline: float | None = None,
    source: Stealing | None = None,
) -> bool:
    """`jobs` threads take task numbers in turn (or chunks of `source`, whose numbers are
    then those of its chunks); the kernels release the GIL, so they run
    on as many cores. This thread records results and answers Ctrl-C: then the workers
    stop within a slice and their unfinished parts are reported with task None; a worker
    that does not stop within STOP_WAIT (a loaded machine) has its counts of the last
    slice reported instead, so what the bar showed is never lost.
    `interim(i, counts)`: the counts so far of task i, while it runs (run_task only).
    At the perf_counter `deadline` the workers stop as on Ctrl-C; True when it passed
    before the count was done."""
    results: queue.SimpleQueue[Message] = queue.SimpleQueue()
    stop = threading.Event()
    latest: dict[int, Counts] = {}  # counts so far of the tasks under way
    chunks = source if source is not None else Fixed(tasks, todo, jobs)
    work = _worker(job, chunks, task, results, stop)
    workers = [threading.Thread(target=work, args=(w,), daemon=True) for w in range(chunks.workers)]
    for w in workers:
        w.start()
    running = len(workers)

    def take(got: Message, show: bool = True) -> None:
        nonlocal running
        if got is None:
            running -= 1
        elif isinstance(got, BaseException):
            raise got
        elif got[0] == "interim":
            latest[got[1]] = got[2]
            if show and interim is not None:
                interim(got[1], got[2])
        else:
            _, i, finished, out = got
            latest.pop(i, None)
            done(i if finished else None, out, show=show)

    with _ctrl_c_as_message(results) as interrupted:
        give_up, late = _drain(results, take, lambda: running, stop, latest, done, deadline)
    for w in workers:
        w.join(timeout=max(0.0, give_up - time.perf_counter()))
    if interrupted.is_set():
        raise KeyboardInterrupt
    return late


def _worker(
    job: Job,
    chunks: Fixed | Stealing,
    task: Callable[..., tuple[Any, bool]],
    results: queue.SimpleQueue[Message],
    stop: threading.Event,
) -> Callable[[int], None]:
    """A worker thread's loop: take the next chunk, run it, put ("done", i,
    finished, counts) on `results` (and ("interim", i, counts) as run_task goes), None at
    the end; an exception is handed to the main thread the same way."""
    reporting = task is run_task

    def work(worker: int) -> None:
        try:
            while not stop.is_set():
                got = chunks.take(worker)
                if got is None:
                    break
                i, chunk = got
                if reporting:
                    out, finished = task(job, chunk, stop, lambda c, i=i: results.put(("interim", i, c)))
                else:
                    out, finished = task(job, chunk, stop)
                results.put(("done", i, finished, out))
        except BaseException as e:  # handed to the main thread
            results.put(e)
        results.put(None)

    return work


@contextmanager
def _ctrl_c_as_message(results: queue.SimpleQueue[Message]) -> Iterator[threading.Event]:
    """While the threads count, Ctrl-C (SIGINT) puts INTERRUPT on the results queue
    instead of raising KeyboardInterrupt wherever the main thread happens to be (between
    taking a finished part off the queue and adding it up, say): the count then stops in
    order. Yields an event set on Ctrl-C. Elsewhere than in the main thread, or when
    SIGINT is not Python's default handler (ignored in a web job), nothing changes."""
    interrupted = threading.Event()
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield interrupted
        return

    def on_ctrl_c(signum: int, frame: object) -> None:
        interrupted.set()
        results.put(INTERRUPT)  # SimpleQueue.put is safe in a signal handler

    signal.signal(signal.SIGINT, on_ctrl_c)
    try:
        yield interrupted
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def _drain(
    results: queue.SimpleQueue[Message],
    take: Callable[..., None],
    running: Callable[[], int],
    stop: threading.Event,
    latest: dict[int, Counts],
    done: Callable[..., None],
    deadline: float | None = None,
) -> tuple[float, bool]:
    """Hand every message of the workers to `take` until they end, Ctrl-C or the deadline;
    then (or on an error) stop them and keep what they searched: their last words within
    STOP_WAIT, else the counts of their last slice. The time (perf_counter) to give up
    waiting, and whether the deadline passed first."""
    give_up, late = time.perf_counter(), False
    try:
        while running():
            wait = 0.25  # wake up now and then for Ctrl-C
            if deadline is not None:
                wait = min(wait, deadline - time.perf_counter())
                if wait <= 0:
                    late = True
                    break
            try:
                got = results.get(timeout=wait)
            except queue.Empty:
                continue
            if got is INTERRUPT:
                break
            take(got)
    finally:
        stop.set()  # workers stop within a slice
        give_up = time.perf_counter() + STOP_WAIT
        while running():
            try:
                got = results.get(timeout=max(0.0, give_up - time.perf_counter()))
            except queue.Empty:
                break  # never wait long: the threads are daemons
            if got is not INTERRUPT:
                take(got, show=False)
        for counts in latest.values():  # workers still in a slice: their last counts
            done(None, counts, show=False)
        latest.clear()
    return give_up, late


# ---------------------------------------------------------------- the count


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

            client, jobs = stack.enter_context(dask_client(scheduler, jobs))
        return _count(cover, sym, unique, jobs, engine, checkpoint, progress, client, breaking, deadline)


class _Tally:
    """A parallel count's figures as its chunks finish: the result, the checkpoint, the
    gauge and the progress bar (with the counts so far of the chunks under way). Progress
    counts parts: a chunk finished is `span(chunk)` parts done (a task, or prefixes)."""

    def __init__(
        self,
        res: Report[np.ndarray],
        n_parts: int,
        book: Checkpoint | None,
        gauge: Gauge | None,
        progress: Progress | None,
        t0: float,
        span: Callable[[int], range] = Fixed.span,
    ):
        self.res, self.n_tasks, self.book, self.gauge, self.progress = res, n_parts, book, gauge, progress
        self.span = span
        self.t0 = self.t_search = t0
        self.n_done = 0
        self.running: dict[int, Counts] = {}  # counts so far of the chunks under way

    def done(self, i: int | None, counts: Counts, record: bool = True, show: bool = True) -> None:
        """Chunk i finished (None: part of a chunk, searched before an interrupt)."""
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
        """Finished parts plus the counts so far of the chunks under way, and the share of
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
    p = plan(cover, sym, unique=unique, store=False, breaking=breaking)
    engine = choose_engine(engine, cover.n_items, len(cover.piece_count))
    job = Job(cover, sym, p, engine, fingerprint(cover, p))
    res: Report[np.ndarray] = Report(unique=0, engine=f"{engine} x{jobs}" + (" (dask)" if client else ""))
    try:
        if checkpoint or client is not None:
            late = _count_tasks(job, res, jobs, checkpoint, progress, client, deadline, t0)
        else:
            late = _count_stealing(job, res, jobs, progress, deadline, t0)
        if late:
            res.complete, res.timed_out = False, True
    except KeyboardInterrupt:
        res.complete, res.interrupted = False, True
    if not unique:
        res.unique = None
    res.seconds = time.perf_counter() - t0
    return res


def _count_stealing(
    job: Job, res: Report[np.ndarray], jobs: int, progress: Progress | None, deadline: float | None, t0: float
) -> bool:
    """The count on `jobs` threads by work stealing over fine prefixes (engine/stealing.py);
    True when the deadline passed first."""
    cover, p = job.cover, job.plan
    prefixes = split(cover, p.keep, p.prefixes, STEAL_PER_WORKER * jobs)
    chunks = Stealing(prefixes, jobs, most=-(-len(prefixes) // (16 * jobs)))
    job.shared = Shared(driver_class(job.engine)(cover, job.sym, p, store=False, limit=0), chunks.workers)
    gauge = Gauge(cover, p.keep, [[q] for q in prefixes]) if progress is not None else None
    tally = _Tally(res, len(prefixes), None, gauge, progress, t0, chunks.span)
    tally.t_search = time.perf_counter()
    return _run_threads(job, tally, [], [], jobs, progress, deadline, gauge, chunks)


def _count_tasks(
    job: Job,
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

    cover, p = job.cover, job.plan
    tasks, _ = make_tasks(cover, p, RESUMABLE_WORKERS if checkpoint else jobs, fine=True)
    book = Checkpoint(checkpoint, job.key + ":fine", len(tasks)) if checkpoint else None
    gauge = Gauge(cover, p.keep, tasks) if progress is not None else None
    finished = book.finished() if book else {}
    tally = _Tally(res, len(tasks), book, gauge, progress, t0)
    for i, c in finished.items():
        tally.done(i, c, record=False)
    todo = [i for i in range(len(tasks)) if i not in finished]
    tally.t_search = time.perf_counter()
    if client is not None:
        try:
            return on_dask(client, run_task, job, tasks, todo, tally.done, deadline)
        finally:
            if gauge is not None:
                gauge.close()
    return _run_threads(job, tally, tasks, todo, jobs, progress, deadline, gauge)


def _run_threads(
    job: Job,
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
            job,
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
