"""`polytile cover`'s search: any exact cover matrix (core.matrix.Matrix) on the kernel
that suits it. A matrix of a tiling's shape (core.matrix.tiling_cover) that the tiling
kernels suit goes to them (bitboard, wide); any other to Algorithm X on bit sets
(engine/bitset.py: counting on every core) up to some thousands of options, or to Knuth's
dancing links with colours (engine/exact.py) beyond. Runs in slices like engine/search.py:
time limits and Ctrl-C stop it with a partial count."""
from __future__ import annotations

import time
from typing import Callable

import numpy as np

from ..core.cover import Cover
from ..core.matrix import Matrix, tiling_cover
from ..core.results import Report
from .exact_driver import ExactRun
from .search import Pacer

GENERAL = ("bitset", "links")     # the kernels for any matrix
TILING = ("bitboard", "wide", "dlx")


def search_matrix(matrix: Matrix, *, limit: int | None = None, store: bool = False,
                  time_limit: float | None = None, engine: str = "auto",
                  progress: Callable[[Report], None] | None = None,
                  jobs: int = 0) -> Report[np.ndarray]:
    """Count (or list, `store`) the solutions of `matrix`; found solutions are sorted
    arrays of option numbers (0-based, in the order of the matrix). engine: "auto" (the
    tiling kernels when the matrix is a tiling they suit, see core.matrix.tiling_cover
    and tiling_kernel_fits; else the bit-set kernel up to MAX_OPTIONS options, else
    dancing links), "bitset" or "links" (Algorithm X / C on any matrix), or a tiling
    kernel's name (ValueError when the matrix is not a tiling). jobs: threads of a count
    on the bit-set kernel (0: every core). The kernel is loaded or compiled first;
    `seconds` is the time after that."""
    from .bitset_driver import fits
    t0 = time.perf_counter()
    tiling = tiling_cover(matrix) if engine not in GENERAL else None
    if tiling is None and engine in TILING:
        raise ValueError(f"the {engine} kernel counts tilings; this matrix is not one")
    if (tiling is not None and engine == "auto" and not store and not limit and jobs != 1
            and tiling_kernel_fits(tiling[0]) and fits(matrix)):
        return _race(matrix, tiling[0], time_limit, t0)
    if tiling is not None:
        spent = time.perf_counter() - t0           # the search times itself after the warm-up
        res = _run_tiling(tiling, engine, limit, store, time_limit, progress)
        if res is not None:
            res.seconds += spent
            return res
    if engine == "auto":
        engine = "bitset" if fits(matrix) else "links"
    spent = time.perf_counter() - t0
    warm_general(engine)
    t0 = time.perf_counter() - spent
    if engine == "bitset" and not store and not limit and jobs != 1:
        return _count_threads(matrix, jobs, time_limit, t0)
    return _run_general(matrix, engine, limit, store, time_limit, progress, t0)


def _count_threads(matrix: Matrix, jobs: int, time_limit: float | None, t0: float) -> Report:
    """Count on the bit-set kernel with `jobs` threads (0: every core), after a trial on
    one thread that picks the way of choosing (and finishes small counts alone)."""
    import os
    from . import bitset_parallel
    from .bitset_driver import Tables, pick
    res: Report[np.ndarray] = Report(engine="bitset")
    tabs = Tables(matrix)
    try:
        runner, code = pick(tabs, store=False, limit=0)
    except KeyboardInterrupt:
        res.complete, res.interrupted = False, True
        res.seconds = time.perf_counter() - t0
        return res
    if code == "done":
        runner.collect(res)
    else:
        deadline = None if time_limit is None else t0 + time_limit
        tally, how = bitset_parallel.count(tabs, runner.counted, jobs or os.cpu_count() or 1,
                                           deadline)
        res.solutions, res.nodes = tally.solutions, tally.nodes
        res.complete = how == "done"
        res.timed_out, res.interrupted = how == "time limit", how == "interrupted"
    res.seconds = time.perf_counter() - t0
    return res


def tiling_kernel_fits(cover: Cover) -> bool:
    """Whether "auto" hands a tiling-shaped matrix to the tiling kernels: at most 256
    cells (bitboard, wide), 64 pieces, of 3 cells or more on average. They fill the first
    empty cell, which suits pieces on a board (the cells in a good order: polytile writes
    them so); smaller pieces (Langford pairs) and many of them (sudoku: one piece a
    square) do better with the fewest-options choice of Algorithm X (measured: Langford
    n=12 0.70 s on bitboard, 0.36 s on bitset)."""
    sizes = cover.piece_size
    return (cover.n_items <= 256 and len(sizes) <= 64 and len(sizes) > 0
            and float(sizes.mean()) >= 3)


def _run_tiling(tiling, engine: str, limit, store, time_limit, progress) -> Report | None:
    """The tiling kernels on the matrix's Cover form; None when Algorithm X should run
    instead (see tiling_kernel_fits)."""
    from .search import choose_engine, search
    from .warm import warm
    cover, back = tiling
    if engine == "auto" and not tiling_kernel_fits(cover):
        return None
    kernel = choose_engine(engine, cover.n_items, len(cover.piece_count))
    warm(kernel, cover.n_items)
    res = search(cover, None, limit=limit, store=store, time_limit=time_limit,
                 breaking=False, engine=kernel, progress=progress)
    res.found = [np.sort(back[f]) for f in res.found]
    return res


def _runner(matrix: Matrix, engine: str, store: bool, limit: int):
    """The runner for a kernel on any matrix, and the status of its first slice (None
    when it has not run yet)."""
    if engine == "bitset":
        from .bitset_driver import Tables, pick
        return pick(Tables(matrix), store=store, limit=limit)
    return ExactRun(matrix, store=store, limit=limit), None


def warm_general(engine: str) -> None:
    """Run the kernel once on a two-item matrix with a coloured secondary item (compiled
    or loaded before a timed search)."""
    tiny = Matrix(["a", "b", "s"], 2, np.array([0, 2, 4, 5], np.int64),
                  np.array([0, 2, 1, 2, 1], np.int32), np.array([0, 1, 0, 1, 0], np.int32), ["x"])
    for store in (False, True):
        if engine == "bitset":
            from .bitset_driver import BitsetRun, Tables
            for counted in (False, True):
                BitsetRun(Tables(tiny), store=store, limit=0, counted=counted).advance(100)
        else:
            ExactRun(tiny, store=store, limit=0).advance(100)


def _run_general(matrix: Matrix, engine: str, limit: int | None, store: bool,
                 time_limit: float | None, progress: Callable[[Report], None] | None,
                 t0: float) -> Report[np.ndarray]:
    """A kernel for any matrix, in slices until done, the limit, the deadline or Ctrl-C."""
    res: Report[np.ndarray] = Report(engine=engine)
    runner = None
    deadline = None if time_limit is None else t0 + time_limit
    pacer = Pacer()
    try:
        runner, code = _runner(matrix, engine, store, limit or 0)
        while True:
            if code is None:
                code = pacer.advance(runner)
            runner.collect(res)
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
        if runner is not None:
            runner.collect(res)
        res.complete, res.interrupted = False, True
    for f in res.found:
        f.sort()
    res.seconds = time.perf_counter() - t0
    return res


class Lost(Exception):
    """Raised in a contender of _race when the other has finished (or the race stops)."""


def _race(matrix: Matrix, cover: Cover, time_limit: float | None, t0: float) -> Report:
    """Count a tiling-shaped matrix with the tiling kernel and the bit-set kernel side by
    side, on two threads: the first to finish answers, the other stops. Neither wins
    everywhere without the board's geometry (which the matrix does not carry): filling
    the first empty cell counts the 5x12 pentomino matrix 5 times faster than the fewest
    options choice, the 8x8 board with a centre hole 2 times slower."""
    import threading
    from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
    from .search import choose_engine, search
    from .warm import warm
    kernel = choose_engine("auto", cover.n_items, len(cover.piece_count))
    spent = time.perf_counter() - t0
    warm(kernel, cover.n_items)
    warm_general("bitset")
    t0 = time.perf_counter() - spent
    stop, partial = threading.Event(), {}

    def watch(name: str) -> Callable[[Report], None]:
        def check(res: Report) -> None:
            partial[name] = res
            if stop.is_set():
                raise Lost
        return check

    def timed(run: Callable[..., Report], *args, **kw) -> tuple[Report, float]:
        res = run(*args, **kw)
        return res, time.perf_counter()          # when it finished (the loser stops later)

    with ThreadPoolExecutor(max_workers=2) as pool:
        sides = [pool.submit(timed, search, cover, None, time_limit=time_limit, breaking=False,
                             engine=kernel, progress=watch(kernel)),
                 pool.submit(timed, _run_general, matrix, "bitset", None, False, time_limit,
                             watch("bitset"), time.perf_counter())]
        try:
            while not (done := wait(sides, timeout=0.05, return_when=FIRST_COMPLETED).done):
                pass
        except KeyboardInterrupt:
            stop.set()
            wait(sides)
            res = partial.get(kernel) or partial.get("bitset") or Report(engine=kernel)
            res.complete, res.interrupted = False, True
            end = time.perf_counter()
        else:
            stop.set()
            res, end = next(iter(done)).result()   # the first to finish (its error, if any)
    res.found = []
    res.seconds = end - t0
    return res
