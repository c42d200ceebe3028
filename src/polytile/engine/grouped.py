"""Count solutions grouped by the placements of one piece: each solution's key is the
set of options it uses for that piece, and each solution weighs the product of its
options' weights (1, or an orbit size for the options of a symmetry-breaking prefix).
The kernels list the solutions into a large buffer; a compiled pass turns each batch
into keys, and the batch is merged into a dictionary. Used by surveys (where do the
holes go), knowing nothing of geometry."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
from numba import njit

from .records import NODES, STORED
from .search import driver_class

BUFFER = 1 << 15  # solutions per batch
F = TypeVar("F", bound=Callable[..., Any])


def _compiled(fn: F) -> F:
    """numba's njit(cache=True, nogil=True), typed as the function it compiles (numba ships
    no types, so mypy would see an untyped decorator)."""
    return cast(F, njit(cache=True, nogil=True)(fn))


@_compiled
def _keys(
    rows: np.ndarray,
    k: int,
    opt_piece: np.ndarray,
    group: int,
    base: int,
    weight: np.ndarray,
    keys: np.ndarray,
    weights: np.ndarray,
) -> None:
    """Key and weight of each of the first k solutions (rows of option ids, -1 padded)."""
    picked = np.empty(rows.shape[1], np.int64)
    for r in range(k):
        m = 0
        w = 1
        for j in range(rows.shape[1]):
            o = rows[r, j]
            if o < 0:
                break
            w *= weight[o]
            if opt_piece[o] == group:
                x = o  # insertion sort: few of them
                i = m
                while i > 0 and picked[i - 1] > x:
                    picked[i] = picked[i - 1]
                    i -= 1
                picked[i] = x
                m += 1
        key = 0
        for i in range(m):
            key = key * base + picked[i]
        keys[r] = key
        weights[r] = w


def merge(tally: dict[int, int], keys: np.ndarray, weights: np.ndarray) -> None:
    """Add a batch's weights to the tally by key: sorted and summed in numpy first, so the
    dictionary sees each key of the batch once."""
    order = np.argsort(keys, kind="stable")
    keys, weights = keys[order], weights[order]
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    sums = np.add.reduceat(weights, starts)
    for key, n in zip(keys[starts].tolist(), sums.tolist()):
        tally[key] = tally.get(key, 0) + n


def decode(key: int, base: int, n: int) -> list[int]:
    """The option ids of a key (n of them, ascending)."""
    out = []
    for _ in range(n):
        key, o = divmod(key, base)
        out.append(o)
    return out[::-1]


_LOCAL = threading.local()


def tally_task(
    setup: Any, chunk: list[np.ndarray], group: int, weight: np.ndarray, stop: threading.Event | None = None
) -> tuple[dict[int, int], int, bool]:
    """Weighted solutions under these prefixes, by key: (tally, nodes, finished)."""
    cover = setup.cover
    base = cover.n_options
    if getattr(_LOCAL, "key", None) != setup.key:
        driver = driver_class(setup.engine, cover)(cover, setup.sym, setup.plan, store=True, limit=0)
        driver.out = np.full((BUFFER, driver.depth), -1, dtype=np.int32)
        _LOCAL.driver, _LOCAL.key = driver, setup.key
        _LOCAL.keys = np.zeros(BUFFER, dtype=np.int64)
        _LOCAL.weights = np.zeros(BUFFER, dtype=np.int64)
    driver = _LOCAL.driver
    before = int(driver.stats[NODES])
    driver.begin(chunk)
    tally: dict[int, int] = {}
    finished = True
    while True:
        code = driver.advance(1 << 22)
        k = int(driver.stats[STORED])
        if k:
            _keys(driver.out, k, cover.opt_piece, group, base, weight, _LOCAL.keys, _LOCAL.weights)
            merge(tally, _LOCAL.keys[:k], _LOCAL.weights[:k])
            driver.stats[STORED] = 0
        if code == "done":
            break
        if stop is not None and stop.is_set():
            finished = False
            break
    return tally, int(driver.stats[NODES]) - before, finished
