"""Search any exact cover matrix (core.matrix.Matrix): the tiling kernels when the matrix
has a tiling's shape (core.matrix.tiling_cover), else Algorithm C (engine/exact.py).
Runs in slices like engine/search.py: time limits and Ctrl-C stop it with a partial count."""
from __future__ import annotations

import time
from typing import Callable

import numpy as np

from ..core.cover import Cover
from ..core.matrix import Matrix, tiling_cover
from ..core.results import Report
from .search import Pacer
from .status import CODES

BUFFER_ROWS = 1024          # solutions kept between two drains of the buffer


def build_links(matrix: Matrix) -> tuple[np.ndarray, ...]:
    """(top, up, down, colour, length, left, right, opt_of) for engine/exact.py: headers
    1..N, then a spacer before each option and one after the last. Options without a
    primary item are left out (Algorithm C never chooses them; dlx1 ignores them too)."""
    n = matrix.n_items
    lengths = np.diff(matrix.opt_ptr)
    row = np.repeat(np.arange(matrix.n_options), lengths)
    has_primary = np.zeros(matrix.n_options, dtype=bool)
    has_primary[row[matrix.opt_items < matrix.n_primary]] = True
    opts = np.nonzero(has_primary)[0]
    entry = np.repeat(has_primary, lengths)
    items = matrix.opt_items[entry].astype(np.int64) + 1
    colours = matrix.opt_colour[entry]
    size = lengths[opts]
    # node of an entry: n + 1 (first spacer) + its index + 1 per spacer before it
    rank = np.repeat(np.arange(len(opts)), size)
    node = n + 2 + np.arange(len(items)) + rank
    total = n + 2 + len(items) + len(opts)
    top = np.zeros(total, dtype=np.int32)
    top[1:n + 1] = np.arange(1, n + 1)
    top[node] = items
    colour = np.zeros(total, dtype=np.int32)
    colour[node] = colours
    opt_of = np.full(total, -1, dtype=np.int32)
    opt_of[node] = opts[rank]
    up, down = np.arange(total, dtype=np.int32), np.arange(total, dtype=np.int32)
    _spacers(up, down, top, n, size)
    length = _columns(up, down, items, node, n)
    left, right = _rings(n, matrix.n_primary)
    return top, up, down, colour, length, left, right, opt_of


def _spacers(up: np.ndarray, down: np.ndarray, top: np.ndarray, n: int, size: np.ndarray) -> None:
    """Spacer k (before option k, and one after the last): top -k, up the first node of
    the option before, down the last node of the option after."""
    starts = n + 2 + np.concatenate([[0], np.cumsum(size + 1)])[:-1]    # first node of each
    spacers = np.concatenate([[n + 1], starts + size])
    top[spacers] = -np.arange(len(spacers))
    up[spacers[1:]] = starts
    down[spacers[:-1]] = starts + size - 1


def _columns(up: np.ndarray, down: np.ndarray, items: np.ndarray, node: np.ndarray,
             n: int) -> np.ndarray:
    """Link each item's nodes in file order, circularly through its header; the lengths."""
    order = np.lexsort((node, items))
    item_s, node_s = items[order], node[order]
    length = np.zeros(n + 2, dtype=np.int32)
    np.add.at(length, item_s, 1)
    same = item_s[1:] == item_s[:-1]
    down[node_s[:-1][same]] = node_s[1:][same]
    up[node_s[1:][same]] = node_s[:-1][same]
    if len(node_s):
        first = np.concatenate([[True], ~same])
        last = np.concatenate([~same, [True]])
        down[item_s[first]] = node_s[first]
        up[node_s[first]] = item_s[first]
        up[item_s[last]] = node_s[last]
        down[node_s[last]] = item_s[last]
    return length


def _rings(n: int, n_primary: int) -> tuple[np.ndarray, np.ndarray]:
    """The primary items around root 0; the secondary ones around head n + 1."""
    left = np.arange(n + 2, dtype=np.int32)
    right = np.arange(n + 2, dtype=np.int32)
    for ring in ([0, *range(1, n_primary + 1)], [n + 1, *range(n_primary + 1, n + 1)]):
        ids = np.array(ring, dtype=np.int32)
        right[ids] = np.roll(ids, -1)
        left[ids] = np.roll(ids, 1)
    return left, right


class ExactRun:
    """Algorithm C's tables and stack; `advance(budget)` as the tiling runners'."""

    def __init__(self, matrix: Matrix, *, store: bool, limit: int):
        from .kernels import bind
        from . import exact
        self.links = build_links(matrix)
        depth = matrix.n_primary + 2
        self.state = np.zeros(2, dtype=np.int64)
        self.work = (self.state, np.zeros(depth, dtype=np.int32), np.zeros(depth, dtype=np.int32))
        self.stats = np.zeros(3, dtype=np.int64)
        self.out = np.zeros((BUFFER_ROWS if store else 0, depth), dtype=np.int32)
        self.sink = (self.stats, self.out)
        self.limit = limit
        self.run = bind(exact.run, self.links, self.work, self.sink, limit, 0)

    def advance(self, budget: int) -> str:
        return CODES[self.run(self.links, self.work, self.sink, self.limit, budget)]

    def collect(self, res: Report) -> None:
        res.nodes, res.solutions = int(self.stats[0]), int(self.stats[1])
        for row in self.out[:int(self.stats[2])]:
            res.found.append(row[row >= 0].copy())
        self.stats[2] = 0


GENERAL = ("bitset", "links")     # the kernels for any matrix
TILING = ("bitboard", "wide", "dlx")


def search_matrix(matrix: Matrix, *, limit: int | None = None, store: bool = False,
                  time_limit: float | None = None, engine: str = "auto",
                  progress: Callable[[Report], None] | None = None) -> Report[np.ndarray]:
    """Count (or list, `store`) the solutions of `matrix`; found solutions are sorted
    arrays of option numbers (0-based, in the order of the matrix). engine: "auto" (the
    tiling kernels when the matrix is a tiling they suit, see core.matrix.tiling_cover
    and tiling_kernel_fits; else the bit-set kernel up to MAX_OPTIONS options, else
    dancing links), "bitset" or "links" (Algorithm X / C on any matrix), or a tiling
    kernel's name (ValueError when the matrix is not a tiling). The kernel is loaded or
    compiled first; `seconds` is the time after that."""
    from .bitset_driver import fits
    t0 = time.perf_counter()
    tiling = tiling_cover(matrix) if engine not in GENERAL else None
    if tiling is None and engine in TILING:
        raise ValueError(f"the {engine} kernel counts tilings; this matrix is not one")
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
    return _run_general(matrix, engine, limit, store, time_limit, progress,
                        time.perf_counter() - spent)


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
        from .bitset_driver import pick
        return pick(matrix, store=store, limit=limit)
    return ExactRun(matrix, store=store, limit=limit), None


def warm_general(engine: str) -> None:
    """Run the kernel once on a two-item matrix with a coloured secondary item (compiled
    or loaded before a timed search)."""
    tiny = Matrix(["a", "b", "s"], 2, np.array([0, 2, 4, 5], np.int64),
                  np.array([0, 2, 1, 2, 1], np.int32), np.array([0, 1, 0, 1, 0], np.int32), ["x"])
    for store in (False, True):
        if engine == "bitset":
            from .bitset_driver import BitsetRun
            for counted in (False, True):
                BitsetRun(tiny, store=store, limit=0, counted=counted).advance(100)
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
