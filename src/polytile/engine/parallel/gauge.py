"""How far a parallel count has come, in a share of its time you can believe.

The tasks are dealt by a quick Knuth estimate (a few random paths per prefix): fine for
handing out the big tasks first, far too noisy for an ETA. The gauge estimates each task
again with many more paths, on other seeds (independent of the dealing, so the tasks
dealt first are not the ones whose estimate happened to be high), in a thread of its own
while the count runs (the probe kernel releases the GIL; it stops when the count ends).
Knuth's figures count a bigger tree than the kernels search (they prune more), so their
scale is learnt from the tasks finished: c = nodes searched / estimate. The share done is
nodes so far / (nodes so far + c x the estimates of what is left); until FIRST_TASKS
tasks have finished and the estimates are in, it is unknown (None: "estimating..."). A task that
runs beyond its estimate is given a tenth of its nodes more to go: never 0 left while a
task is unfinished."""

from __future__ import annotations

import threading
import time

import numpy as np

from ...core.cover import Cover
from ..tree import subtree_sizes

PATHS = 1 << 16  # random paths in all ...
LEAST_PATHS = 64  # ... and at least this many per prefix
BATCH_PATHS = 1 << 12  # paths between two looks at the stop flag
MAX_ROUNDS = 64  # rounds of PATHS paths at most
DUTY = 0.25  # share of one core the rounds after the first take
FIRST_TASKS = 4  # tasks finished before the scale is trusted
MORE = 0.1  # a task beyond its estimate: this share of its nodes to go


class Gauge:
    """How much of a parallel count is done, as a share of the estimated tree: the
    estimates of the tasks' subtrees, rescaled by the tasks finished so far."""

    def __init__(
        self,
        cover: Cover | None,
        keep: np.ndarray | None,
        tasks: list[list[np.ndarray]],
        sizes: np.ndarray | None = None,
    ):
        """Estimates the tasks in a thread of its own, unless their `sizes` are given."""
        self.sizes: np.ndarray | None = sizes  # refined estimate per task
        self.searched: dict[int, int] = {}  # nodes of the finished tasks
        self.spans: dict[int, range] = {}  # ... the tasks each stands for, if not itself
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._estimate, args=(cover, keep, tasks), daemon=True)
        if sizes is None:
            self._thread.start()

    def _estimate(self, cover: Cover, keep: np.ndarray, tasks: list[list[np.ndarray]]) -> None:
        """Round after round of PATHS paths (at least LEAST_PATHS per prefix), each on new
        seeds, averaged: the first at full speed, then at a quarter of one core (Knuth's
        figures are heavy-tailed: a few paths overestimate a task by far, and only many
        paths tame that), until the count ends."""
        owner = np.repeat(np.arange(len(tasks)), [len(t) for t in tasks])
        prefixes = [p for t in tasks for p in t]
        probes = max(LEAST_PATHS, PATHS // max(1, len(prefixes)))
        per_batch = max(1, BATCH_PATHS // probes)
        total = np.zeros(len(tasks))
        for rounds in range(1, MAX_ROUNDS + 1):
            for start in range(0, len(prefixes), per_batch):
                if self._stop.is_set():
                    return
                began = time.perf_counter()
                task = subtree_sizes(
                    cover,
                    keep,
                    prefixes[start : start + per_batch],
                    probes=probes,
                    seed=rounds * len(prefixes) + start + 1,
                )
                np.add.at(total, owner[start : start + per_batch], task)
                if rounds > 1:
                    self._stop.wait((time.perf_counter() - began) * (1 / DUTY - 1))
            self.sizes = total / rounds

    def close(self) -> None:
        """Stop estimating (within a batch of paths, a few hundredths of a second)."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=1.0)

    def finished(self, task: int, nodes: int, tasks: range | None = None) -> None:
        """Task `task` finished after `nodes` nodes; `tasks`: the tasks it stands for (a
        chunk of several tasks, under work stealing), else the task alone."""
        self.searched[task] = nodes
        if tasks is not None:
            self.spans[task] = tasks

    def share(self, running: dict[int, int], spans: dict[int, range] | None = None) -> float | None:
        """The share of the count's work done, given the nodes so far of the tasks under
        way (`spans`: the tasks each stands for, else itself alone); None while unknown."""
        sizes = self.sizes
        if sizes is None or len(self.searched) < min(FIRST_TASKS, len(sizes)):
            return None
        spans = spans or {}
        done = np.zeros(len(sizes), dtype=bool)
        for i in self.searched:
            done[self._tasks(i, self.spans)] = True
        done_estimate = float(sizes[done].sum())
        if done_estimate <= 0:
            return None
        scale = sum(self.searched.values()) / done_estimate
        nodes = float(sum(self.searched.values()) + sum(running.values()))
        waiting = ~done
        left = 0.0
        for i, so_far in running.items():
            tasks = self._tasks(i, spans)
            waiting[tasks] = False
            expected = scale * float(sizes[tasks].sum())
            left += max(expected - so_far, MORE * max(expected, so_far))
        left += scale * float(sizes[waiting].sum())  # not begun
        return nodes / (nodes + left) if nodes + left > 0 else None

    @staticmethod
    def _tasks(task: int, spans: dict[int, range]) -> slice:
        tasks = spans.get(task)
        return slice(task, task + 1) if tasks is None else slice(tasks.start, tasks.stop)


def time_share(node_share: float | None, searching: float, elapsed: float) -> float | None:
    """The share of the count's time done, from the share of its nodes: the time left is
    at the pace of the search (`searching` seconds), not counting the set-up before it,
    which can be most of a short count's time. Consumers take elapsed x (1 - f) / f."""
    if not node_share:
        return None
    if node_share >= 1.0:
        return 1.0
    left = searching * (1 - node_share) / node_share
    return elapsed / (elapsed + left) if elapsed + left > 0 else None
