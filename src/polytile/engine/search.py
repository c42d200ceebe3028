"""Drive a compiled kernel: choose the symmetry mode, run in slices, keep time limits,
Ctrl-C and progress in Python, collect solutions as lists of option ids."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Protocol

import numpy as np

from ..core.cover import Cover
from ..core.results import Report
from .kernels import kernel_module

if TYPE_CHECKING:
    from ..core.symmetry import Symmetry
    from .driver import Driver

SLICE_NODES = 1 << 20  # most nodes in one slice
SLICE_SECONDS = 0.05  # a slice's goal: Ctrl-C and limits answer at once
FIRST_SLICE_NODES = 1 << 16  # a few ms on any kernel: small counts in one call
FIRST_SLICE_ITEMS = 64  # ... on boards of this many cells; a node costs more on larger ones


def first_slice(n_items: int) -> int:
    """The first slice's nodes: FIRST_SLICE_NODES on small boards, fewer on large ones,
    whose nodes cost more (dancing links scan every column: 40 us a node on 15,625 cells,
    where 65,536 nodes overran a 2 s time limit by 2 s before the pace was known)."""
    return max(1 << 8, FIRST_SLICE_NODES * FIRST_SLICE_ITEMS // max(FIRST_SLICE_ITEMS, n_items))


class Advancing(Protocol):
    """What a Pacer drives: the tiling drivers (Driver) and the general ones (bitset,
    exact) alike."""

    def advance(self, budget: int) -> str:
        """Run about `budget` nodes; a status word ('paused', 'done', ...)."""
        ...


class Collecting(Advancing, Protocol):
    """What search._drive runs: a driver, or orbit_split.Weighted around one."""

    def collect(self, res: Report[np.ndarray], store: bool) -> None:
        """Copy the figures (and the solutions found) into `res`."""
        ...


class Pacer:
    """Runs a kernel in slices of about SLICE_SECONDS whatever its speed (from a few
    thousand to millions of nodes a second): each budget follows the last slice's pace."""

    def __init__(self, budget: int = FIRST_SLICE_NODES):
        self.budget = min(budget, SLICE_NODES)
        self.given = 0  # the last slice's budget

    def advance(self, driver: Advancing, most: int | None = None) -> str:
        """One slice of the driver's search ('paused', 'done', ...: Driver.advance) of at
        most `most` nodes, and the next slice's budget from this one's pace."""
        t = time.perf_counter()
        budget = self.budget if most is None else max(1, min(self.budget, most))
        code = driver.advance(budget)
        took = time.perf_counter() - t
        if code == "paused":
            scale = min(4.0, SLICE_SECONDS / max(took, 1e-6))
            self.budget = int(min(SLICE_NODES, max(1 << 8, budget * scale)))
        self.given = budget
        return code


@dataclass
class Plan:
    """How to search: which options, which symmetry mode."""

    keep: np.ndarray  # bool per option: in the search at all
    sym_mode: int = 0  # 0 none, 1 canonical check, 2 breaking
    sym_piece: int = -1
    canonical_only: bool = False
    prefixes: list[np.ndarray] = field(default_factory=lambda: [np.zeros(0, dtype=np.int32)])
    sym_piece2: int = -1  # a second piece broken where the first has symmetries
    ban_ptr: np.ndarray | None = None  # ... its placements banned under each option (CSR)
    ban_opts: np.ndarray | None = None
    never_placed: bool | None = None  # piece_never_placed(cover), when the plan's compiled call found it
    weights: np.ndarray | None = None  # (n_opt,) a prefix's solutions count weights[prefix[0]] times (orbit_split)


def plan(
    cover: Cover,
    sym: Symmetry | None,
    *,
    unique: bool,
    store: bool,
    breaking: bool = True,
    second: bool = True,
    weighted: bool = False,
) -> Plan:
    """Use symmetry breaking when it is sound and every solution need not be listed.

    Breaking places the fixed piece first, one placement per orbit; where that placement
    has symmetries, a second piece keeps one placement per orbit under them (see
    core.symmetry.second_breaking, compiled in engine/geometry/breaking.py; `second=False` skips
    it). With no such piece, a count (`weighted`) places the options covering one item
    first, one per orbit, each weighing its orbit's size (engine/orbit_split.py). (Placing
    the most constrained piece first without symmetry helps square boards
    and hurts narrow ones,
    where filling the first empty cell is already tight; measured on the corpus, so
    plain filling is kept there.)"""
    piece, never = -1, None
    if breaking and (unique or not store) and sym is not None and sym.order > 1:
        piece, first, keep, piece2, ban_ptr, ban_opts, never = kernel_module("bitboard.chained").breaking(
            np.uint64(sym.h_mask),
            sym.opt_label,
            sym.label_img,
            sym.label_piece,
            sym.opt_stab,
            cover.opt_piece,
            cover.piece_count,
            cover.piece_min,
            second,
        )  # breaking_piece and second_breaking below in one compiled call
    if piece < 0:
        if weighted and breaking and not unique and not store and sym is not None and sym.order > 1:
            from .orbit_split import orbit_split

            split = orbit_split(cover, sym)
            if split is not None:
                prefixes, weights = split
                return Plan(
                    np.ones(cover.n_options, dtype=bool), 0, -1, False, prefixes, weights=weights, never_placed=never
                )
        mode = 1 if unique and sym is not None else 0
        return Plan(np.ones(cover.n_options, dtype=bool), mode, -1, unique, never_placed=never)
    prefixes = list(first)  # one option each: the fixed piece's placements kept (keep: not it)
    if piece2 < 0:
        return Plan(keep, 2, int(piece), True, prefixes, never_placed=never)
    return Plan(keep, 2, int(piece), True, prefixes, int(piece2), ban_ptr, ban_opts, never)


def piece_never_placed(cover: Cover) -> bool:
    """Some piece that every solution uses (minimum >= 1) has no option. The kernels would
    find no solution too, but only after trying every way of filling the board without it:
    1.4 billion nodes and 50 s on Lucky Thirteen (docs/history/parts/bedlam8.md)."""
    return bool(kernel_module("bitboard.chained").never_placed(cover.opt_piece, cover.piece_min))


def choose_engine(engine: str, n_items: int, n_pieces: int = 1, cover: Cover | None = None) -> str:
    """One word of bits up to 64 items (and 64 pieces: the bitboard kernel keeps the pieces
    left in one word too; with more, the words of `wide`), several words up to 256 items,
    dancing links beyond, and (given the cover) where its options are scattered along the
    cell order (`scattered`)."""
    if engine == "bitboard" and (n_pieces > 64 or n_items > 64):  # (its one word would not hold them)
        return "wide"
    if engine != "auto":
        return engine
    if n_items <= 64 and n_pieces <= 64:
        return "bitboard"
    return "wide" if n_items <= 256 and (cover is None or not scattered(cover)) else "dlx"


SCATTER = 4.5  # an option spanning more than this many items per cell it covers: `scattered`


def scattered(cover: Cover) -> bool:
    """Whether the options span (last item minus first, in the cell order) more than SCATTER
    items per item they cover, on average: pieces spread over several layers of a 3D board,
    where the wide kernel's rule (fill the lowest empty item) branches far more than dancing
    links' (fill the item the fewest options cover). Measured on BurrTools' examples
    (tests/xmpuzzle, nodes wide -> dlx): Prisgon 11.1 (879,321 -> 33,002), AlPackino 8.3
    (285,665 -> 17,024), CubeInCage 5.5 and Bermuda 4.6 (time alike or better); kept on
    the wide kernel: SolidSixPieceBurrs 3.5 (2.8 M nodes in 3.8 s there, 0.6 M in 13.6 s on
    dlx), PiecesOfEight 2.6-4.4 and the flat boards of examples/ (2.0-3.3)."""
    if cover.n_options == 0:
        return False
    items, ptr = cover.opt_items, cover.opt_ptr
    spans = int(np.add.reduce(items[ptr[1:] - 1] - items[ptr[:-1]]))
    return spans > SCATTER * int(ptr[-1] - ptr[0])


def driver_class(engine: str, cover: Cover | None = None) -> type[Driver]:
    """The driver of an engine, imported on demand: a search loads one kernel family's
    modules, not all three (kept once found: an import statement's look-up is ~4 us of a
    fresh process's count). For the bitboard engine, a cover whose options span many items
    (not bitboard.driver.narrow_frontier: the 4x4x4 cube) gets the dynamic kernel, which
    fills the item the fewest placements cover (the Bedlam cube: 32.6M nodes instead of
    621.7M, docs/history/parts/bedlam10.md); the 2D boards and Soma keep the lowest-item kernel."""
    if engine == "bitboard" and cover is not None:
        narrow = _NARROW[0] if _NARROW else _narrow_frontier()
        if not narrow(cover):
            engine = "dynamic"
    found = _DRIVERS.get(engine)
    if found is None:
        found = _DRIVERS[engine] = _import_driver(engine)
    return found


_DRIVERS: dict[str, type[Driver]] = {}  # driver_class's
_NARROW: list[Callable[[Cover], bool]] = []  # bitboard.driver.narrow_frontier, once imported


def _narrow_frontier() -> Callable[[Cover], bool]:
    """bitboard.driver.narrow_frontier, imported once (driver_class's test)."""
    from .bitboard.driver import narrow_frontier

    _NARROW.append(narrow_frontier)
    return narrow_frontier


def _import_driver(engine: str) -> type[Driver]:
    """The driver class of an engine ("dynamic": the bitboard engine's kernel for wide
    frontiers), imported."""
    if engine == "bitboard":
        from .bitboard.driver import BitboardDriver

        return BitboardDriver
    if engine == "dynamic":
        from .bitboard.dynamic_driver import DynamicDriver

        return DynamicDriver
    if engine == "wide":
        from .wide.driver import WideDriver

        return WideDriver
    if engine == "dlx":
        from .dlx.driver import DlxDriver

        return DlxDriver
    raise ValueError(f"unknown engine {engine!r}")


def search(
    cover: Cover,
    sym: Symmetry | None = None,
    *,
    unique: bool = False,
    limit: int | None = None,
    store: bool = False,
    time_limit: float | None = None,
    breaking: bool = True,
    engine: str = "auto",
    progress: Callable[[Report[np.ndarray]], None] | None = None,
    select: np.ndarray | None = None,
    shuffle: int | None = None,
    node_budget: int | None = None,
    memo: bool = True,
) -> Report[np.ndarray]:
    """Count or list solutions. `limit` stops after that many (unique ones if `unique`).
    `select`: keep only the solutions with these indices in the order of the search;
    `shuffle`: a seed that puts the options in a random order (randomised search);
    `node_budget`: give up (incomplete, neither timed out nor interrupted) after about
    that many nodes; `memo`: counting may reuse the counts of sub-problems (False: every
    node of the tree is visited, for statistics)."""
    t0 = time.perf_counter()
    deadline = None if time_limit is None else t0 + time_limit
    if time_limit is not None and time_limit <= 0:  # spent before the search: no tables built
        return Report(unique=0 if unique else None, complete=False, timed_out=True)
    engine = choose_engine(engine, cover.n_items, len(cover.piece_count), cover)
    counting = not store and not limit and select is None and shuffle is None and memo
    p = plan(cover, sym, unique=unique, store=store, breaking=breaking, weighted=counting)
    if _past(deadline):  # the plan, then the driver's tables, may take seconds on a large board
        return Report(unique=0 if unique else None, complete=False, timed_out=True, seconds=time.perf_counter() - t0)
    if piece_never_placed(cover) if p.never_placed is None else p.never_placed:
        # no solution, however long a search would take to say so
        return Report(unique=0 if unique else None, engine=engine, seconds=time.perf_counter() - t0)
    Driver = driver_class(engine, cover)
    res: Report[np.ndarray] = Report(unique=0 if (unique or p.sym_mode == 2) else None, engine=engine)
    driver = Driver(
        cover,
        sym,
        p,
        store=store,
        limit=limit or 0,
        select=None if select is None else np.sort(np.asarray(select, dtype=np.int64)),
        shuffle=shuffle,
        memo=memo,
    )
    driving = _begun(driver, p)
    if _past(deadline):
        res.complete, res.timed_out = False, True
    else:
        _drive(driving, res, store, node_budget, deadline, progress, t0, first_slice(cover.n_items))
    if not unique:
        res.unique = None  # known for free under symmetry breaking, but not asked for
    res.seconds = time.perf_counter() - t0
    return res


def _begun(driver: Driver, p: Plan) -> Collecting:
    """The driver begun on the plan's prefixes, or, under a weighted plan, the driver that
    searches them weight by weight (orbit_split.Weighted)."""
    if p.weights is not None:
        from .orbit_split import Weighted

        return Weighted(driver, p.prefixes, p.weights)
    if driver.begun is not p.prefixes:  # (a driver may have begun with the plan's)
        driver.begin(p.prefixes)
    return driver


def _past(deadline: float | None) -> bool:
    return deadline is not None and time.perf_counter() > deadline


def _drive(
    driver: Collecting,
    res: Report[np.ndarray],
    store: bool,
    node_budget: int | None,
    deadline: float | None,
    progress: Callable[[Report[np.ndarray]], None] | None,
    t0: float,
    first: int = FIRST_SLICE_NODES,
) -> None:
    """Run a begun driver to its end, its limit, the node budget, the deadline or Ctrl-C,
    collecting into `res` after every slice (so an interruption keeps every node searched).
    The node budget too is spent in slices: the deadline is looked at between them."""
    pacer = Pacer(first)
    left = node_budget
    try:
        while True:
            code = pacer.advance(driver, left)
            driver.collect(res, store)
            if code == "done":
                return
            if left is not None:
                left -= pacer.given
            if code == "limit" or (left is not None and left <= 0):
                res.complete = False
                return
            if deadline is not None and time.perf_counter() > deadline:
                res.complete, res.timed_out = False, True
                return
            if progress is not None:
                res.seconds = time.perf_counter() - t0
                progress(res)
    except KeyboardInterrupt:
        driver.collect(res, store)
        res.complete, res.interrupted = False, True
