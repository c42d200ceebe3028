"""The threads backend of a parallel count: workers running tasks on this machine's cores
(the compiled kernels release the GIL), their messages on one queue, Ctrl-C turned into a
message, and the counts of workers slow to stop kept."""

from __future__ import annotations

import queue
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from .stealing import Fixed, Stealing
from .tasks import CountSetup, run_task

if TYPE_CHECKING:
    from .checkpoint import Counts

# what a worker puts on the results queue: ("done", i, finished, counts), ("interim", i,
# counts), an exception, INTERRUPT, or None (the worker ended)
Message = Any

INTERRUPT = "ctrl-c"  # on the results queue: Ctrl-C came
STOP_WAIT = 1.0  # seconds the workers get to stop after Ctrl-C


def on_threads(
    setup: CountSetup,
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
    work = _worker(setup, chunks, task, results, stop)
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
    setup: CountSetup,
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
                    out, finished = task(setup, chunk, stop, lambda c, i=i: results.put(("interim", i, c)))
                else:
                    out, finished = task(setup, chunk, stop)
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
