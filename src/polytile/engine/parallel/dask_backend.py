"""Counting on a Dask cluster: a client of a scheduler (or of a LocalCluster), and the
tasks of a parallel count (engine/parallel/counts.py) as its futures."""

from __future__ import annotations

import time
from contextlib import contextmanager
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Callable, Protocol

from ...errors import PuzzleError
from .scheduler_probe import probe

if TYPE_CHECKING:
    from .checkpoint import Counts


class Keyed(Protocol):
    """What the cluster needs of a parallel count's set-up (tasks.CountSetup): a key naming its
    futures; the rest is sent whole to the workers."""

    key: str


CONNECT = 5.0  # seconds to reach a scheduler, at most (less when the time limit is nearer)


@contextmanager
def dask_client(scheduler: str, jobs: int, deadline: float | None = None) -> Iterator[tuple[Any, int]]:
    """A client of the scheduler at this address, or of a LocalCluster of `jobs` worker
    processes ("local"); the workers need polytile installed. Yields (client, threads).
    An address is probed first (scheduler_probe): what is no Dask scheduler, or does not
    answer before the perf_counter `deadline`, is refused in one line."""
    import logging

    cluster = client = None
    try:
        timeout = CONNECT if deadline is None else min(CONNECT, max(0.05, deadline - time.perf_counter()))
        if scheduler != "local":
            probe(scheduler, timeout)
        for name in ("distributed", "tornado", "asyncio"):
            logging.getLogger(name).setLevel(logging.CRITICAL)
        from distributed import Client, LocalCluster

        try:
            if scheduler == "local":
                cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=None)
                client = Client(cluster)
            else:
                client = Client(scheduler, timeout=f"{timeout:.3f}s")
            threads = max(1, sum(client.nthreads().values()))
        except Exception as e:  # distributed's errors are of many kinds: each is the address's fault here
            reason = " ".join(str(e).split()) or type(e).__name__
            raise PuzzleError(f"cannot use the Dask scheduler ({reason[:200]})", scheduler) from None
        yield client, threads
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()


def on_dask(
    client: Any,  # a distributed.Client (distributed is imported only when asked for)
    run_task: Callable[[Any, Any], tuple[Counts, Any]],
    setup: Keyed,
    tasks: list[Any],
    todo: list[int],
    done: Callable[[int | None, Counts], None],
    deadline: float | None = None,
) -> bool:
    """The tasks on the cluster, `run_task(setup, task)` on a worker; True when the deadline
    passed first (the tasks under way are cancelled, their parts not counted: the count is
    then a lower bound)."""
    from distributed import as_completed

    shared = client.scatter(setup, broadcast=True)
    futures = {
        client.submit(run_task, shared, tasks[i], pure=False, key=f"polytile-{setup.key[:12]}-{i}"): i for i in todo
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
