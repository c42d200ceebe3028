"""A count on threads by work stealing: the parts of the tree (prefixes, in the plan's
order) in one range per worker; a worker takes chunks from the front of its own range
and, when that is empty, the back half of the largest range left.

Why not fixed tasks dealt biggest first (what checkpoints and Dask still use, see
parallel.make_tasks): dealing needs an estimate of every part before any worker starts
(Knuth's random paths: 3-4 ms of a 0.18 s count, all of it on one core), and dealing
biggest first scatters neighbouring parts over the workers, so that the bitboard kernel's
memo table (per worker, a few thousand entries) meets fewer of the sub-problems it has
seen: 2% more nodes on the 8x8 board with a corner missing. Ranges keep neighbours
together, and stealing balances the load without any estimate: a chunk is a quarter of
what is left of its range, so chunks shrink towards the end and no worker waits long for
the last one (simulated on the measured time of each part: within 0.5% of an even split).

The workers also share one set-up: the kernel's tables are built once (the driver of
`Shared`), the first worker searches with that driver and every other with a copy (a
deep copy: its tables and stack its own; a third of the cost of building the tables,
0.09 ms for Soma, 0.4 ms for the 8x8 boards)."""

from __future__ import annotations

import copy
import threading
from typing import Any

import numpy as np

DIVIDE = 4  # a chunk: this share of what is left of a range


class Stealing:
    """Chunks of `prefixes` for `workers` threads. `take(worker)` gives (chunk number,
    prefixes) or None when nothing is left; `span(chunk)` the prefix numbers of a chunk.
    `most`: no chunk of more prefixes (parallel.py: a sixteenth of a worker's share, so
    that parts finish early for the ETA, and a worker the system stops for a while holds
    up little of the work; a chunk costs ~7 us, tasks._begin)."""

    def __init__(self, prefixes: list[np.ndarray], workers: int, most: int | None = None):
        self.prefixes = prefixes
        self.workers = max(1, min(workers, len(prefixes)))
        n = len(prefixes)
        bounds = [n * k // self.workers for k in range(self.workers + 1)]
        self.lo, self.hi = bounds[:-1], bounds[1:]
        self.most = most
        self.spans: list[range] = []
        self.steals = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.prefixes)

    def take(self, worker: int) -> tuple[int, list[np.ndarray]] | None:
        """The next chunk for this worker (its number and prefixes), from its own range or
        stolen; None when no work is left anywhere."""
        with self._lock:
            if self.lo[worker] >= self.hi[worker] and not self._steal(worker):
                return None
            left = self.hi[worker] - self.lo[worker]
            size = max(1, -(-left // DIVIDE))
            if self.most is not None:
                size = min(size, max(1, self.most))
            start = self.lo[worker]
            self.lo[worker] = start + size
            self.spans.append(range(start, start + size))
            return len(self.spans) - 1, self.prefixes[start : start + size]

    def _steal(self, thief: int) -> bool:
        """The back half of the largest range left becomes the thief's range."""
        victim = max(range(self.workers), key=lambda k: self.hi[k] - self.lo[k])
        left = self.hi[victim] - self.lo[victim]
        if left <= 0:
            return False
        middle = self.hi[victim] - max(1, left // 2)
        self.lo[thief], self.hi[thief] = middle, self.hi[victim]
        self.hi[victim] = middle
        self.steals += 1
        return True

    def span(self, chunk: int) -> range:
        """The prefixes (their indices) a chunk handed out covered."""
        return self.spans[chunk]


class Fixed:
    """The tasks numbered in `todo`, in turn (a checkpointed count, a survey): the same
    interface as Stealing, a chunk being one task."""

    def __init__(self, tasks: list[list[np.ndarray]], todo: list[int], workers: int):
        self.tasks = tasks
        self.workers = max(1, min(workers, len(todo)))
        self._numbers = iter(todo)
        self._lock = threading.Lock()

    def take(self, worker: int) -> tuple[int, list[np.ndarray]] | None:
        """The next task left to do (its number and prefixes), whatever the worker: the
        tasks are fixed, so there is nothing to steal."""
        with self._lock:
            i = next(self._numbers, None)
        return None if i is None else (i, self.tasks[i])

    @staticmethod
    def span(task: int) -> range:
        """A chunk is one task: its own number."""
        return range(task, task + 1)


class Shared:
    """One driver built once for the `workers` of a count, and a copy of it for every
    worker but the first, all made here, before any worker starts: a copy made while a
    worker searches with the original would catch its memo table half written (a count
    of 6x10 came out 9348 instead of 9356 that way)."""

    def __init__(self, driver: Any, workers: int):
        self._drivers = [driver] + [clone(driver) for _ in range(workers - 1)]
        self._lock = threading.Lock()

    def get(self) -> Any:
        """A driver no other worker has, or None when every one is taken."""
        with self._lock:
            return self._drivers.pop() if self._drivers else None


def clone(driver: Any) -> Any:
    """A deep copy of a driver: its tables and its stack copied, the cover and any
    function (the kernel bound to its argument types) shared."""
    keep: dict[int, object] = {id(driver.cover): driver.cover}
    for value in vars(driver).values():
        if callable(value) and not isinstance(value, np.ndarray):
            keep[id(value)] = value
    return copy.deepcopy(driver, keep)
