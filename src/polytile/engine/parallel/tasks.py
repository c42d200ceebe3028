"""One task of a parallel count on this thread: the set-up every worker shares (the cover,
the plan, the driver built once), this thread's driver for it, and the count of a chunk of
prefixes; the set-up's fingerprint names its checkpoint rows and Dask futures."""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

import numpy as np

from ...core.cover import Cover
from ..orbit_split import weight_groups
from ..search import Pacer, Plan, driver_class
from .stealing import Shared

if TYPE_CHECKING:
    from ...core.symmetry import Symmetry
    from .checkpoint import Counts
    from ..driver import Driver


@dataclass
class CountSetup:
    """Everything a worker needs (picklable, sent once to each Dask worker)."""

    cover: Cover
    sym: Symmetry | None
    plan: Plan
    engine: str
    key: str
    shared: Shared | None = None  # threads only: the driver built once, or None


_LOCAL = threading.local()  # one driver per set-up and thread, reused by its tasks


def _thread_driver(setup: CountSetup) -> tuple[Driver, Pacer]:
    """This thread's driver for the setup: one of the shared ones, else one built here."""
    if getattr(_LOCAL, "key", None) != setup.key:
        driver = setup.shared.get() if setup.shared is not None else None
        if driver is None:
            driver = driver_class(setup.engine, setup.cover)(setup.cover, setup.sym, setup.plan, store=False, limit=0)
        _LOCAL.driver = driver
        _LOCAL.pacer = Pacer()
        _LOCAL.key = setup.key
    return _LOCAL.driver, _LOCAL.pacer


def run_task(
    setup: CountSetup,
    chunk: list[np.ndarray],
    stop: threading.Event | None = None,
    report: Callable[[Counts], None] | None = None,
) -> tuple[Counts, bool]:
    """Count the subtrees under these prefixes: the counts, and False when `stop` was set
    before the end (then the counts are those of the part searched). `report` gets the
    counts so far after every slice of the search (a few hundredths of a second). Under a
    weighted plan (engine/orbit_split.py) each prefix's solutions count its weight times."""
    driver, pacer = _thread_driver(setup)
    groups = [(1, chunk)] if setup.plan.weights is None else weight_groups(chunk, setup.plan.weights)
    done = (0, 0, 0)
    for weight, part in groups:
        before = driver.stats.copy()
        driver.begin(part)  # (keeps the kernel bound to the last chunk's argument types)
        while pacer.advance(driver) != "done":
            if stop is not None and stop.is_set():
                return _add(done, weight, driver.stats - before), False
            if report is not None:
                report(_add(done, weight, driver.stats - before))
        done = _add(done, weight, driver.stats - before)
    return done, True


def _add(done: Counts, weight: int, s: np.ndarray) -> Counts:
    """The counts so far: those done, and a group's stats with its solutions weighted."""
    return (done[0] + weight * int(s[1]), done[1] + int(s[2]), done[2] + int(s[0]))


def fingerprint(cover: Cover, p: Plan) -> str:
    """A hash of the cover and the plan: a checkpoint resumes only the count it was
    written for, and Dask names the count's futures by it."""
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
    if p.weights is not None:
        h.update(p.weights.tobytes())
    return h.hexdigest()
