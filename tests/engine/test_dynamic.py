"""The dynamic bitboard kernel (engine/bitboard/dynamic.py: near the end, the live
placements and the most constrained item) against the independent brute force of
tests/checker.py and against the lowest-item kernel, on random 2D and 3D puzzles (copies,
minimum 0, pieces left over, dead ends) and on the Soma cube (published: 240 / 11,520)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

import polytile
from checker import TooMany, all_solutions, board_motions, class_form
from polytile.core.results import Report
from polytile.engine.bitboard.driver import BitboardDriver
from polytile.engine.bitboard.dynamic_driver import DynamicDriver
from polytile.engine.search import Pacer, plan
from random_puzzles import build

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PROFILE = settings(
    max_examples=80, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck)
)
MOST_NODES = 200_000
CELLS = (0, 7, 13, 64)  # never, the last pieces, about half the board, every node


def _count(tiling, unique: bool, cells: int | None, budget: int = 0) -> tuple[int, int | None, int]:
    """(solutions, classes or None, nodes): the dynamic driver (cells), or the lowest-item
    one (None), run in slices of `budget` nodes (0: the Pacer's)."""
    cover, sym = tiling.model().cover, tiling.symmetry()
    if not unique:
        sym = None
    p = plan(cover, sym, unique=unique, store=False)
    if cells is None:
        driver = BitboardDriver(cover, sym, p, store=False, limit=0)
    else:
        driver = DynamicDriver(cover, sym, p, store=False, limit=0, cells=cells)
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


def test_random_puzzles_match_the_checker(tmp_path):
    """Random 2D and 3D puzzles with copies, minimum 0 and pieces left over: solutions and
    classes by the checker, by the dynamic kernel at every threshold (paused every few
    nodes at one of them), and without symmetry."""
    path = tmp_path / "puzzle.json"
    seen = {"none": 0, "some": 0}

    @PROFILE
    @given(st.integers(0, 2**32 - 1), st.sampled_from((2, 3, 3)), st.sampled_from(("none", "copies", "pieces")))
    def run(seed, dim, extras):
        rp = build(seed, dim, "mixed", "none", extras)
        try:
            truth = all_solutions(rp.board, rp.pieces, rp.dim, limit=300, max_nodes=20_000)
        except TooMany:
            reject()
        gs = board_motions(rp.board, rp.dim)
        expected = (len(truth), len({class_form(s, truth, gs) for s in truth}))
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
