"""Counting with the bit-set kernel on several threads (the kernel releases the GIL): the
root's item is chosen once, and each of its options is one task, taken by the next free
thread. Every thread stops at a shared flag (time limit, Ctrl-C) with its count so far."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor, wait

from ..records import NODES, SOLUTIONS
from .driver import BitsetDriver, Tables

TASK_SLICE = 1 << 16  # nodes between two looks at the stop flag


class Tally:
    """Counts of all threads, the next task, and the stop flag."""

    def __init__(self, tasks: list[int]):
        self.tasks, self.next = tasks, 0
        self.solutions = self.nodes = 0
        self.lock = threading.Lock()
        self.stop = threading.Event()

    def take(self) -> int | None:
        """The next task for a thread, or None when all are handed out or the run stops."""
        with self.lock:
            if self.next >= len(self.tasks) or self.stop.is_set():
                return None
            self.next += 1
            return self.tasks[self.next - 1]

    def add(self, driver: BitsetDriver) -> None:
        """Add a thread's finished task's counts (under the lock: threads finish at once)."""
        with self.lock:
            self.solutions += int(driver.stats[SOLUTIONS])
            self.nodes += int(driver.stats[NODES])


def _worker(tabs: Tables, counted: bool, tally: Tally) -> None:
    while (option := tally.take()) is not None:
        driver = BitsetDriver(tabs, store=False, limit=0, counted=counted)
        driver.start_at(option)
        while driver.advance(TASK_SLICE) == "paused" and not tally.stop.is_set():
            pass
        tally.add(driver)


def count(tabs: Tables, counted: bool, jobs: int, deadline: float | None) -> tuple[Tally, str]:
    """Count all solutions on `jobs` threads: (tally, "done" | "time limit" | "interrupted")."""
    root = BitsetDriver(tabs, store=False, limit=0, counted=counted)
    tally = Tally(root.root_options())
    how = "done"
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(_worker, tabs, counted, tally) for _ in range(jobs)]
        try:
            while wait(futures, timeout=0.05).not_done:
                if deadline is not None and time.perf_counter() > deadline:
                    how = "time limit"
                    tally.stop.set()
        except KeyboardInterrupt:
            how = "interrupted"
            tally.stop.set()
            wait(futures)
    for f in futures:
        f.result()
    if how == "done" and tally.stop.is_set():
        how = "time limit"
    return tally, how
