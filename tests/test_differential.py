"""Random differential tests: random small puzzles nobody wrote down (tests/random_puzzles.py),
counted by polytile with every shortcut (symmetry breaking, every kernel, two threads) and
without, and by the independent brute force of tests/checker.py.

CI runs a fixed-seed profile; `make fuzz` (POLYTILE_FUZZ=long) a long one."""
from __future__ import annotations

import json
import os
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, reject, settings

import polytile
from checker import TooMany, all_solutions, board_motions, class_form
from random_puzzles import random_lattice_puzzles, random_puzzles

LONG = os.environ.get("POLYTILE_FUZZ") == "long"
EXAMPLES = 100_000 if LONG else 2_000
LATTICE_EXAMPLES = 20_000 if LONG else 300
MAX_SOLUTIONS = 2_000 if LONG else 300        # larger puzzles are skipped (brute force)
MAX_NODES = 200_000 if LONG else 20_000
ENGINES = ("bitboard", "wide", "dlx")
PROFILE = settings(max_examples=EXAMPLES, deadline=None, derandomize=not LONG, database=None,
                   suppress_health_check=list(HealthCheck))


def as_set(solution) -> frozenset:
    return frozenset(frozenset(tuple(int(x) for x in c) for c in p.cells) for p in solution.placements)


def check_puzzle(rp, path) -> None:
    try:
        truth = all_solutions(rp.board, rp.pieces, rp.dim, limit=MAX_SOLUTIONS, max_nodes=MAX_NODES,
                              grid=rp.grid)
    except TooMany:
        reject()
    gs = board_motions(rp.board, rp.dim, rp.grid)
    classes = {class_form(s, truth, gs) for s in truth}
    expected = (len(truth), len(classes))
    path.write_text(json.dumps(rp.json))
    tiling = polytile.load(path)
    for engine in ENGINES:
        r = tiling.count(unique=True, engine=engine)
        assert (r.solutions, r.unique) == expected, (engine, rp.kind)
    r = tiling.count(unique=True, jobs=2)
    assert (r.solutions, r.unique) == expected, ("2 jobs", rp.kind)
    r = tiling.count(unique=True, breaking=False)
    assert (r.solutions, r.unique) == expected, ("no breaking", rp.kind)
    assert tiling.count().solutions == len(truth)
    listed = [as_set(s) for s in tiling.solve(limit=None).found]
    assert len(listed) == len(set(listed)) and set(listed) == truth
    unique = [as_set(s) for s in tiling.solve(limit=None, unique=True).found]
    assert set(unique) <= truth
    assert sorted(class_form(s, truth, gs) for s in unique) == sorted(classes)


def test_random_tilings_match_the_checker(tmp_path, capsys):
    seen: Counter = Counter()
    path = tmp_path / "puzzle.json"

    @PROFILE
    @given(random_puzzles())
    def run(rp):
        check_puzzle(rp, path)
        seen[rp.kind] += 1

    run()
    with capsys.disabled():
        dims = Counter(k[0] for k in seen.elements())
        print(f"\n{sum(seen.values())} random puzzles checked, {len(seen)} kinds "
              f"(dim, reflection, one-sided piece, copies, partial, colours); 2D {dims[2]}, 3D {dims[3]}")
    for i, name in enumerate(("dim", "reflection", "one-sided", "copies", "partial", "colours")):
        assert len({k[i] for k in seen}) >= 2, f"the random puzzles never varied {name}"
    assert sum(seen.values()) >= EXAMPLES // 2


def test_random_lattice_tilings_match_the_checker(tmp_path, capsys):
    """The same on the triangle and hex grids."""
    seen: Counter = Counter()
    path = tmp_path / "puzzle.json"

    @settings(PROFILE, max_examples=LATTICE_EXAMPLES)
    @given(random_lattice_puzzles())
    def run(rp):
        check_puzzle(rp, path)
        seen[rp.kind] += 1

    run()
    with capsys.disabled():
        grids = Counter(k[0] for k in seen.elements())
        print(f"\n{sum(seen.values())} random lattice puzzles checked, {len(seen)} kinds; "
              f"triangle {grids['triangle']}, hex {grids['hex']}")
    for i, name in enumerate(("grid", "reflection", "one-sided", "copies", "partial", "colours")):
        assert len({k[i] for k in seen}) >= 2, f"the random puzzles never varied {name}"
    assert sum(seen.values()) >= LATTICE_EXAMPLES // 2
