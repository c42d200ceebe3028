"""The dynamic bitboard kernel (engine/bitboard/dynamic.py: near the end, the live
placements and the most constrained item) against the independent brute force of
tests/checker.py and against the lowest-item kernel, on random 2D and 3D puzzles (copies,
minimum 0, pieces left over, dead ends) and on the Soma cube (published: 240 / 11,520)."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

import polytile
from checker import TooMany, all_solutions, board_motions, class_form
from polytile.core.results import Report
from polytile.engine.bitboard import driver as bitboard_driver
from polytile.engine.bitboard.driver import BitboardDriver
from polytile.engine.bitboard.dynamic_driver import DynamicDriver
from polytile.engine.search import Pacer, driver_class, plan
from random_puzzles import build

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PROFILE = settings(
    max_examples=80, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck)
)
MOST_NODES = 200_000
CELLS = (0, 7, 13, 64)  # never, the last pieces, about half the board, every node


def _count(tiling, unique: bool, cells: int | None, budget: int = 0, fewest: int = 0) -> tuple[int, int | None, int]:
    """(solutions, classes or None, nodes): the dynamic driver (cells), or the lowest-item
    one (None), run in slices of `budget` nodes (0: the Pacer's)."""
    cover, sym = tiling.model().cover, tiling.symmetry()
    if not unique:
        sym = None
    p = plan(cover, sym, unique=unique, store=False)
    if cells is None:
        driver = BitboardDriver(cover, sym, p, store=False, limit=0)
    else:
        driver = DynamicDriver(cover, sym, p, store=False, limit=0, cells=cells, fewest=fewest)
    driver.begin(p.prefixes)
    res: Report[np.ndarray] = Report(unique=0 if p.sym_mode == 2 or unique else None)
    pacer = Pacer()
    while (driver.advance(budget) if budget else pacer.advance(driver)) != "done":
        if driver.stats[0] > MOST_NODES:  # without the memo, a few 2D puzzles with monominoes
            reject()  # run millions of nodes
    driver.collect(res, False)
    return res.solutions, res.unique if unique else None, res.nodes


def test_soma_cube_published_counts():
    """240 classes, 11,520 solutions at every threshold; the dynamic choice takes nodes away."""
    tiling = polytile.load(EXAMPLES / "soma-3x3x3.json")
    plain = _count(tiling, True, None)
    assert plain[:2] == (11520, 240)
    for cells in CELLS:
        solutions, unique, nodes = _count(tiling, True, cells, budget=997 if cells == 13 else 0)
        assert (solutions, unique) == (11520, 240), cells
        if cells >= 13:
            assert nodes < plain[2], (cells, nodes, plain[2])


def _checked(seed, dim, extras):
    """A random puzzle (tests/random_puzzles' build), its solutions and its classes by
    tests/checker.py (with the board's motions); rejected where the checker would take too long."""
    rp = build(seed, dim, "mixed", "none", extras)
    try:
        truth = all_solutions(rp.board, rp.pieces, rp.dim, limit=300, max_nodes=20_000)
    except TooMany:
        reject()
    gs = board_motions(rp.board, rp.dim)
    return rp, truth, gs, {class_form(s, truth, gs) for s in truth}


def test_random_puzzles_match_the_checker(tmp_path):
    """Random 2D and 3D puzzles with copies, minimum 0 and pieces left over: solutions and
    classes by the checker, by the dynamic kernel at every threshold (paused every few
    nodes at one of them), and without symmetry."""
    path = tmp_path / "puzzle.json"
    seen = {"none": 0, "some": 0}

    @PROFILE
    @given(st.integers(0, 2**32 - 1), st.sampled_from((2, 3, 3)), st.sampled_from(("none", "copies", "pieces")))
    def run(seed, dim, extras):
        rp, truth, _, classes = _checked(seed, dim, extras)
        expected = (len(truth), len(classes))
        seen["some" if truth else "none"] += 1
        path.write_text(json.dumps(rp.json))
        tiling = polytile.load(path)
        if tiling.count(unique=True, engine="bitboard").nodes == 0:  # answered before any kernel
            reject()  # (areas that cannot match: tiling.solver's checks, not the kernels')
        for cells in CELLS:
            assert _count(tiling, True, cells, budget=4096)[:2] == expected, cells
        assert _count(tiling, True, 7, budget=3)[:2] == expected
        assert _count(tiling, False, 13)[0] == expected[0]

    run()
    assert seen["none"] >= 3 and seen["some"] >= 20, seen  # dead ends and solutions both met


def test_wide_frontiers_get_the_dynamic_kernel():
    """search.driver_class: the 4x4x4 cube (options spanning 20 items or more on average)
    gets the dynamic kernel; Soma and the 2D boards keep the lowest-item kernel."""
    for name, kind in (
        ("bedlam-cube.json", DynamicDriver),
        ("soma-3x3x3.json", BitboardDriver),
        ("pentomino-6x10.txt", BitboardDriver),
    ):
        cover = polytile.load(EXAMPLES / name).model().cover
        assert driver_class("bitboard", cover) is kind, name
        assert driver_class("wide", cover) is not DynamicDriver


def test_random_puzzles_through_the_hook_match_the_checker(tmp_path):
    """Every bitboard search given the dynamic kernel (MEMO_SPAN 0: every frontier wide),
    through the public calls: counts with and without symmetry breaking, on two threads,
    every solution listed and one per class, against tests/checker.py; and the lowest-item
    choice again below a few empty items (FEWEST)."""
    path = tmp_path / "puzzle.json"
    seen = {"none": 0, "some": 0}

    @PROFILE
    @given(st.integers(0, 2**32 - 1), st.sampled_from((2, 3, 3)), st.sampled_from(("none", "copies", "pieces")))
    def run(seed, dim, extras):
        rp, truth, gs, classes = _checked(seed, dim, extras)
        path.write_text(json.dumps(rp.json))
        tiling = polytile.load(path)
        seen["some" if truth else "none"] += 1
        with wide_everywhere():
            cover = tiling.model().cover
            assert cover.n_items > 64 or driver_class("bitboard", cover) is DynamicDriver
            r = tiling.count(unique=True, engine="bitboard")
            assert (r.solutions, r.unique) == (len(truth), len(classes))
            assert tiling.count(breaking=False, engine="bitboard").solutions == len(truth)
            r = tiling.count(unique=True, jobs=2, engine="bitboard")
            assert (r.solutions, r.unique) == (len(truth), len(classes))
            listed = [as_set(s) for s in tiling.solve(limit=None, engine="bitboard").found]
            assert len(listed) == len(set(listed)) and set(listed) == truth
            unique = [as_set(s) for s in tiling.solve(limit=None, unique=True, engine="bitboard").found]
            assert sorted(class_form(s, truth, gs) for s in unique) == sorted(classes)
        if tiling.count(unique=True, engine="bitboard").nodes > 0:
            assert _count(tiling, True, 64, fewest=5, budget=7)[:2] == (len(truth), len(classes))

    run()
    assert seen["none"] >= 3 and seen["some"] >= 20, seen


@contextlib.contextmanager
def wide_everywhere():
    """bitboard.driver.narrow_frontier false for every cover (MEMO_SPAN 0) for a while."""
    saved = bitboard_driver.MEMO_SPAN
    bitboard_driver.MEMO_SPAN = 0.0
    try:
        yield
    finally:
        bitboard_driver.MEMO_SPAN = saved


def as_set(solution) -> frozenset:
    """A listed solution as the checker gives it: the cells of each placement."""
    return frozenset(frozenset(tuple(int(x) for x in c) for c in p.cells) for p in solution.placements)
