"""`polytile cover`'s search: any exact cover matrix (core.matrix.Matrix) on the kernel
that suits it. A matrix of a tiling's shape (core.matrix.tiling_cover) that the tiling
kernels suit goes to them (bitboard, wide); any other to Algorithm X on bit sets
(engine/bitset/: counting on every core) up to some thousands of options, or to Knuth's
dancing links with colours (engine/exact/) beyond. Runs in slices like engine/search.py:
time limits and Ctrl-C stop it with a partial count."""

from __future__ import annotations

import time
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Callable

import numpy as np

from ..core.cover import Cover, OverBudget
from ..core.matrix import Matrix, tiling_cover
from ..core.tiling_form import TilingForm
from ..core.results import Report
from .exact.driver import ExactDriver
from .search import Pacer

if TYPE_CHECKING:
    from .bitset.driver import BitsetDriver

GENERAL = ("bitset", "links")  # the kernels for any matrix
TILING = ("bitboard", "wide", "dlx")


def search_matrix(
    matrix: Matrix,
    *,
    limit: int | None = None,
    store: bool = False,
    time_limit: float | None = None,
    engine: str = "auto",
    progress: Callable[[Report[np.ndarray]], None] | None = None,
    jobs: int = 0,
    memory: int | None = None,
    deadline_from: float | None = None,
) -> Report[np.ndarray]:
    """Count (or list, `store`) the solutions of `matrix`; found solutions are sorted
    arrays of option numbers (0-based, in the order of the matrix). engine: "auto" (the
    tiling kernels when the matrix is a tiling they suit, see core.matrix.tiling_cover
    and tiling_kernel_fits; else the bit-set kernel up to MAX_OPTIONS options, else
    dancing links), "bitset" or "links" (Algorithm X / C on any matrix), or a tiling
    kernel's name (ValueError when the matrix is not a tiling). jobs: threads of a count
    on the bit-set kernel (0: every core). The kernel is loaded or compiled first;
    `seconds` is the time after that. memory: the bytes the bit-set kernel may take (auto
    then takes dancing links; OverBudget when it is named). deadline_from: when the
    clock started (perf_counter; default now)."""
    import os

    from .bitset.driver import fits, memory_need

    t0 = time.perf_counter() if deadline_from is None else deadline_from
    deadline = None if time_limit is None else t0 + time_limit
    tiling = tiling_cover(matrix, deadline) if engine not in GENERAL else None
    if tiling is None and engine in TILING:
        raise ValueError(f"the {engine} kernel counts tilings; this matrix is not one")
    if tiling is not None and tiling.short is not None:
        return Report(0, seconds=time.perf_counter() - t0, reasons=[tiling.short])
    if tiling is not None:
        spent = time.perf_counter() - t0  # the search times itself after the warm-up: what is left
        left = None if time_limit is None else max(0.0, time_limit - spent)
        res = _run_tiling(tiling, engine, limit, store, left, progress)
        if res is not None:
            res.seconds += spent
            return res
    if engine == "auto":
        engine = "bitset" if fits(matrix, memory) else "links"
    threads = 0 if store or limit or jobs == 1 else jobs or os.cpu_count() or 1
    if engine == "bitset" and memory is not None and memory_need(matrix, threads) > memory:
        raise OverBudget("the bit-set kernel's tables", memory_need(matrix, threads))
    spent = time.perf_counter() - t0
    warm_general(engine)
    t0 = time.perf_counter() - spent
    if engine == "bitset" and not store and not limit and jobs != 1:
        return _count_threads(matrix, jobs, time_limit, t0)
    return _run_general(matrix, engine, limit, store, time_limit, progress, t0)


def _count_threads(matrix: Matrix, jobs: int, time_limit: float | None, t0: float) -> Report[np.ndarray]:
    """Count on the bit-set kernel with `jobs` threads (0: every core), after a trial on
    one thread that picks the way of choosing (and finishes small counts alone)."""
    import os
    from .bitset import parallel as bitset_parallel
    from .bitset.driver import Tables, pick

    res: Report[np.ndarray] = Report(engine="bitset")
    tabs = Tables(matrix)
    try:
        driver, code = pick(tabs, store=False, limit=0)
    except KeyboardInterrupt:
        res.complete, res.interrupted = False, True
        res.seconds = time.perf_counter() - t0
        return res
    if code == "done":
        driver.collect(res)
    else:
        deadline = None if time_limit is None else t0 + time_limit
        tally, how = bitset_parallel.count(tabs, driver.counted, jobs or os.cpu_count() or 1, deadline)
        res.solutions, res.nodes = tally.solutions, tally.nodes
        res.complete = how == "done"
        res.timed_out, res.interrupted = how == "time limit", how == "interrupted"
    res.seconds = time.perf_counter() - t0
    return res


NARROW = 6  # the widest fill front (in cells) the tiling kernels take


def fill_front(cover: Cover) -> int:
    """How many cells apart in the cells' order neighbours most often are, beyond the
    next cell (a board filled along a side of 6 cells: 6); 0 without neighbours."""
    nb = cover.neighbours
    steps = (nb - np.arange(cover.n_items)[:, None])[nb >= 0]
    steps = steps[steps > 1]
    return int(np.bincount(steps).argmax()) if len(steps) else 0


def tiling_kernel_fits(cover: Cover) -> bool:
    """Whether "auto" hands a tiling-shaped matrix to the tiling kernels: at most 256
    cells (bitboard, wide), 64 pieces, of 3 cells or more on average, filled along a
    front of at most NARROW cells (core.matrix.neighbours finds the board's neighbours
    from the matrix). The kernels fill the first empty cell, which suits pieces on a
    narrow board (polytile writes the cells in that order); wider boards (8x8: the front
    is 8 cells, and filling runs into cells cut off late), small pieces (Langford pairs)
    and many pieces (sudoku: one a square) do better with the fewest-options choice of
    Algorithm X. Measured (bench/bench_dlx.py, one thread): bitboard / bitset 0.17 /
    0.81 s on 5x12, 0.55 / 1.38 s on 6x10, but 0.28 / 0.12 s on the 8x8 board with a
    centre hole and 0.70 / 0.36 s on Langford n=12."""
    sizes = cover.piece_size
    return (
        cover.n_items <= 256 and 0 < len(sizes) <= 64 and float(sizes.mean()) >= 3 and 0 < fill_front(cover) <= NARROW
    )


def _run_tiling(
    tiling: TilingForm,
    engine: str,
    limit: int | None,
    store: bool,
    time_limit: float | None,
    progress: Callable[[Report[np.ndarray]], None] | None,
) -> Report[np.ndarray] | None:
    """The tiling kernels on the matrix's Cover form; None when Algorithm X should run
    instead (see tiling_kernel_fits; a matrix with copies never: Algorithm X would try
    their orders). The Cover places the copies of a piece once; each of its solutions is
    so many of the matrix's (TilingForm.splits: one search per number of optional copies
    used), listed in every order of the copies."""
    from .search import choose_engine, search
    from .warm import warm

    cover = tiling.cover
    if engine == "auto" and tiling.factor == 1 and not tiling_kernel_fits(cover):
        return None
    kernel = choose_engine(engine, cover.n_items, len(cover.piece_count), cover)
    warm(kernel, cover.n_items)
    t0 = time.perf_counter()
    total: Report[np.ndarray] = Report(engine=kernel)
    for counts, minimum, weight in tiling.splits():
        if limit is not None and total.solutions >= limit:
            break
        left = None if time_limit is None else time_limit - (time.perf_counter() - t0)
        wanted = None if limit is None else limit - total.solutions
        base = total.solutions
        shown = None if progress is None else partial(_progress_of_split, progress, base, weight)
        part = search(
            replace(cover, piece_count=counts, piece_min=minimum),
            None,
            limit=None if wanted is None else -(-wanted // weight),
            store=store,
            time_limit=None if left is None else max(left, 0.0),
            breaking=False,
            engine=kernel,
            progress=shown,
        )
        total.solutions += part.solutions * weight
        total.nodes += part.nodes
        total.found += [f for found in part.found for f in tiling.expand(found)]
        if not part.complete:
            total.complete, total.timed_out, total.interrupted = False, part.timed_out, part.interrupted
            break
    if limit is not None and total.solutions >= limit:
        total.solutions, total.complete = limit, False
    del total.found[limit or len(total.found) :]
    total.seconds = time.perf_counter() - t0
    return total


def _progress_of_split(
    progress: Callable[[Report[np.ndarray]], None], base: int, weight: int, r: Report[np.ndarray]
) -> None:
    """A split's progress as the whole count's: the splits before it, then its own."""
    progress(replace(r, solutions=base + r.solutions * weight))


def _start_driver(
    matrix: Matrix, engine: str, store: bool, limit: int
) -> tuple[BitsetDriver | ExactDriver, str | None]:
    """The driver for a kernel on any matrix, and the status of its first slice (None
    when it has not run yet)."""
    if engine == "bitset":
        from .bitset.driver import Tables, pick

        return pick(Tables(matrix), store=store, limit=limit)
    return ExactDriver(matrix, store=store, limit=limit), None


def warm_general(engine: str) -> None:
    """Run the kernel once on a two-item matrix with a coloured secondary item (compiled
    or loaded before a timed search)."""
    tiny = Matrix(
        ["a", "b", "s"],
        2,
        np.array([0, 2, 4, 5], np.int64),
        np.array([0, 2, 1, 2, 1], np.int32),
        np.array([0, 1, 0, 1, 0], np.int32),
        ["x"],
    )
    for store in (False, True):
        if engine == "bitset":
            from .bitset.driver import BitsetDriver, Tables

            for counted in (False, True):
                BitsetDriver(Tables(tiny), store=store, limit=0, counted=counted).advance(100)
        else:
            ExactDriver(tiny, store=store, limit=0).advance(100)


def _run_general(
    matrix: Matrix,
    engine: str,
    limit: int | None,
    store: bool,
    time_limit: float | None,
    progress: Callable[[Report[np.ndarray]], None] | None,
    t0: float,
) -> Report[np.ndarray]:
    """A kernel for any matrix, in slices until done, the limit, the deadline or Ctrl-C."""
    res: Report[np.ndarray] = Report(engine=engine)
    driver = None
    deadline = None if time_limit is None else t0 + time_limit
    pacer = Pacer()
    try:
        driver, code = _start_driver(matrix, engine, store, limit or 0)
        while True:
            if code is None:
                code = pacer.advance(driver)
            driver.collect(res)
            if code == "done":
                break
            if code == "limit":
                res.complete = False
                break
            if deadline is not None and time.perf_counter() > deadline:
                res.complete, res.timed_out = False, True
                break
            if progress is not None:
                res.seconds = time.perf_counter() - t0
                progress(res)
            code = None
    except KeyboardInterrupt:
        if driver is not None:
            driver.collect(res)
        res.complete, res.interrupted = False, True
    for f in res.found:
        f.sort()
    res.seconds = time.perf_counter() - t0
    return res
