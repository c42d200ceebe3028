"""A parallel count's fixed tasks (a checkpointed count, Dask, a survey): the prefixes
with each subtree's size estimated (Knuth), dealt biggest first by guided
self-scheduling. A count on threads without a checkpoint steals work instead
(engine/parallel/stealing.py)."""

from __future__ import annotations

import numpy as np

from ...core.cover import Cover
from ..search import Plan
from ..tree import split, subtree_sizes

TASKS_PER_WORKER = 16  # prefixes wanted per worker
FINE_PREFIXES = 256  # prefixes of a count (for its ETA), at least
RESUMABLE_WORKERS = 16  # tasks of a checkpointed count: as for 16 workers


def deal(
    prefixes: list[np.ndarray], sizes: np.ndarray, jobs: int, most: float | None = None
) -> tuple[list[list[np.ndarray]], list[float]]:
    """Guided self-scheduling by estimated subtree size: prefixes biggest first, each task
    takes about 1/(2 jobs) of the estimated work left (at most `most`, unless a single
    prefix is more), so tasks shrink to single small prefixes at the end and no worker
    waits long for the last. Tasks and their sizes."""
    order = np.argsort(-sizes, kind="stable").tolist()
    left = float(sizes.sum())
    tasks: list[list[np.ndarray]] = []
    weights: list[float] = []
    i = 0
    while i < len(order):
        task: list[np.ndarray] = []
        goal, weight = left / (2 * jobs), 0.0
        if most is not None:
            goal = min(goal, most)
        while i < len(order) and (not task or weight + sizes[order[i]] <= goal):
            task.append(prefixes[order[i]])
            weight += float(sizes[order[i]])
            i += 1
        tasks.append(task)
        weights.append(weight)
        left -= weight
    return tasks, weights


def make_tasks(cover: Cover, p: Plan, workers: int, fine: bool = False) -> tuple[list[list[np.ndarray]], list[float]]:
    """The plan's tree in tasks for this many workers, and their estimated sizes. Resumable
    work asks for RESUMABLE_WORKERS, whatever the real number, so its tasks stay the same.
    `fine`: at least FINE_PREFIXES prefixes, and no task above 1/(8 workers) of the tree,
    so parts finish from the first seconds on and the ETA learns early."""
    want = TASKS_PER_WORKER * workers
    prefixes = split(cover, p.keep, p.prefixes, max(want, FINE_PREFIXES) if fine else want)
    sizes = subtree_sizes(cover, p.keep, prefixes, probes=4)
    return deal(prefixes, sizes, workers, most=float(sizes.sum()) / (8 * workers) if fine else None)
