"""Load (or compile) the kernels before timing a search, so `seconds` excludes it."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from ..core.cover import Cover

_done: set[str] = set()
compile_seconds = 0.0


def warm(engine: str, n_items: int, parallel: bool = False, dynamic: bool = False) -> None:
    """Run the kernel once on a two-cell cover, through every entry point a search uses
    (and the tree splitting and estimating of parallel counts; `dynamic`: the dynamic
    bitboard kernel too, which search.driver_class gives 3D boxes)."""
    global compile_seconds
    from .search import choose_engine

    name = choose_engine(engine, n_items)
    if parallel and "tree" not in _done:
        _warm_tree()
    if dynamic and name == "bitboard" and "dynamic" not in _done:
        _warm_dynamic()
    if name in _done:
        return
    t0 = time.perf_counter()
    from ..core import symmetry  # noqa: F401  (imported here, not inside a timed search)
    from .search import Plan, driver_class

    tiny = _tiny()
    driver = driver_class(name)(tiny, None, Plan(np.ones(2, dtype=bool)), store=True, limit=0)
    driver.begin([np.array([0], dtype=np.int32)])
    driver.advance(100)
    _warm_model(name)
    _done.add(name)
    compile_seconds += time.perf_counter() - t0


def _tiny() -> Cover:
    """A two-cell board and two monominoes: the smallest cover that runs every kernel of a
    search once, so numba compiles (or loads) them before the timed work."""
    from ..core.cover import Cover

    return Cover(
        2,
        np.array([0, 1, 2], np.int64),
        np.array([0, 1], np.int32),
        np.array([0, 1], np.int32),
        np.array([1, 1], np.int32),
        np.array([1, 1], np.int32),
        np.array([[1, -1], [0, -1]], np.int32),
    )


def _warm_dynamic() -> None:
    """The dynamic bitboard kernel once on the two-cell cover, counting and listing."""
    global compile_seconds
    t0 = time.perf_counter()
    from .bitboard.dynamic_driver import DynamicDriver
    from .search import Plan

    for store in (False, True):
        driver = DynamicDriver(_tiny(), None, Plan(np.ones(2, dtype=bool)), store=store, limit=0)
        driver.begin([np.array([0], dtype=np.int32)])
        driver.advance(100)
    _done.add("dynamic")
    compile_seconds += time.perf_counter() - t0


def _warm_tree() -> None:
    global compile_seconds
    t0 = time.perf_counter()
    from .tree import split, subtree_sizes

    tiny = _tiny()
    keep = np.ones(2, dtype=bool)
    subtree_sizes(tiny, keep, split(tiny, keep, [np.zeros(0, np.int32)], 2))
    _done.add("tree")
    compile_seconds += time.perf_counter() - t0


def _warm_model(engine: str) -> None:
    """Run the reduction and the symmetry analysis once on a 2 x 2 board in 2D and 3D,
    and a whole count with symmetry breaking on a 3 x 3 board on `engine` (a straight
    tromino placed first, one placement per orbit, then two L-trominoes: 8 tilings, one up
    to symmetry; not on another engine, whose modules the count would not need),
    so one-time set-up (numpy's first calls, the tables of motions, the first run
    of each step's Python) is not timed: what the timed count then does is its own
    puzzle's work only."""
    from ..core.puzzle import Board, Piece, Puzzle
    from ..core.symmetry import analyse
    from .model import build_model
    from .geometry.orbits_driver import analyser
    from .geometry.turning_driver import permuter
    from .search import search

    for dim in (2, 3):
        cells = np.array([(0, 0, 0), (0, 1, 0), (1, 0, 0), (1, 1, 0)], dtype=np.int64)[:, :dim]
        domino = np.array([(0, 0, 0), (0, 1, 0)], dtype=np.int64)[:, :dim]
        zeros = np.zeros(4, dtype=np.int64)
        puzzle = Puzzle(Board(cells, zeros), [Piece("d", domino, zeros[:2], 2)], dim == 2)
        analyse(build_model(puzzle, whole=False), compiled=analyser, grouper=permuter)  # (numpy's, its steps compiled)
        analyse(build_model(puzzle), compiled=analyser)
    square = np.array([(r, c) for r in range(3) for c in range(3)], dtype=np.int64)
    straight = np.array([(0, 0), (0, 1), (0, 2)], dtype=np.int64)
    ell = np.array([(0, 0), (1, 0), (1, 1)], dtype=np.int64)
    zeros = np.zeros(9, dtype=np.int64)
    puzzle = Puzzle(Board(square, zeros), [Piece("I", straight, zeros[:3]), Piece("L", ell, zeros[:3], 2)])
    model = build_model(puzzle, 1 << 30)
    search(model.cover, analyse(model, compiled=analyser, grouper=permuter), unique=True, engine=engine)
