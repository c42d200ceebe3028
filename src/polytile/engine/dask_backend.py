"""Counting on a Dask cluster: a client of a scheduler (or of a LocalCluster), and the
tasks of a parallel count (engine/parallel.py) as its futures."""

from __future__ import annotations

import time
from contextlib import contextmanager
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Callable, Protocol

from ..errors import PuzzleError

if TYPE_CHECKING:
    from .checkpoint import Counts


class Keyed(Protocol):
    """What the cluster needs of a parallel count's job (tasks.Job): a key naming its
    futures; the rest is sent whole to the workers."""

    key: str


@contextmanager
def dask_client(scheduler: str, jobs: int) -> Iterator[tuple[Any, int]]:
    """A client of the scheduler at this address, or of a LocalCluster of `jobs` worker
    processes ("local"); the workers need polytile installed. Yields (client, threads)."""
    import logging

    for name in ("distributed", "tornado", "asyncio"):
        logging.getLogger(name).setLevel(logging.CRITICAL)
    from distributed import Client, LocalCluster

    cluster = client = None
    try:
        try:
            if scheduler == "local":
                cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=None)
                client = Client(cluster)
            else:
                client = Client(scheduler, timeout="5s")
        except (OSError, TimeoutError, ValueError) as e:
            reason = " ".join(str(e).split()) or type(e).__name__
            raise PuzzleError(f"cannot reach the Dask scheduler ({reason[:200]})", scheduler) from None
        yield client, max(1, sum(client.nthreads().values()))
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()


def on_dask(
    client: Any,  # a distributed.Client (distributed is imported only when asked for)
    run_task: Callable[[Any, Any], tuple[Counts, Any]],
    job: Keyed,
    tasks: list[Any],
    todo: list[int],
    done: Callable[[int | None, Counts], None],
    deadline: float | None = None,
) -> bool:
    """The tasks on the cluster, `run_task(job, task)` on a worker; True when the deadline
    passed first (the tasks under way are cancelled, their parts not counted: the count is
    then a lower bound)."""
    from distributed import as_completed

    shared = client.scatter(job, broadcast=True)
    futures = {
        client.submit(run_task, shared, tasks[i], pure=False, key=f"polytile-{job.key[:12]}-{i}"): i for i in todo
    }
    try:
        remaining = None if deadline is None else max(0.0, deadline - time.perf_counter())
        for future in as_completed(futures, timeout=remaining):
            counts, _ = future.result()
            done(futures[future], counts)
    except TimeoutError:
        return True
    finally:
        client.cancel(list(futures))
    return False
