"""Counting through the orbits of the options covering one cell (engine/orbit_split.py),
checked against the plain count (breaking off: every solution visited) and the independent
brute force of tests/checker.py, on random symmetric puzzles nobody wrote down whose
pieces may be left out or used several times (where symmetry breaking has no piece to fix)."""

from __future__ import annotations

import json
import os
import random

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

import polytile
from checker import TooMany, all_solutions
from polytile.engine import orbit_split as split_module
from random_puzzles import _cut, _lattice_cells

LONG = os.environ.get("POLYTILE_FUZZ") == "long"
EXAMPLES = 20_000 if LONG else 300


@st.composite
def symmetric_puzzles(draw):
    """A board with symmetries (a rectangle or square, maybe its centre cell out; a box; a
    rhombus of triangles or hexes), pieces cut from it (so it has a solution) plus a few
    extra ones, each with 1-3 copies and a minimum of 0 or 1 (no piece that every solution
    uses exactly once, mostly)."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    kind = draw(st.sampled_from(("square", "square", "rectangle", "box", "triangle", "hex")))
    grid, dim = ("square", 2)
    if kind in ("square", "rectangle"):
        w = rng.randint(2, 5)
        h = w if kind == "square" else rng.randint(2, 5)
        cells = [(x, y) for x in range(w) for y in range(h)]
        if w % 2 and h % 2 and rng.random() < 0.3:
            cells.remove((w // 2, h // 2))
    elif kind == "box":
        dim, sides = 3, sorted(rng.choice((1, 2, 2, 3)) for _ in range(3))
        cells = [(x, y, z) for x in range(sides[0]) for y in range(sides[1]) for z in range(sides[2])]
    else:
        grid, dim = kind, 3 if kind == "triangle" else 2
        cells = _lattice_cells(rng, grid)
    if not 4 <= len(cells) <= 26:
        reject()
    parts = _cut(rng, cells, rng.choice((2, 3, 4)), grid)
    parts += [rng.choice(_cut(rng, cells, 3, grid)) for _ in range(rng.randint(0, 2))]
    allow = rng.random() < 0.7
    pieces, specs = [], []
    for part in parts:
        count = rng.randint(1, 3)
        least = 0 if rng.random() < 0.8 else 1
        pieces.append({"cells": {c: "" for c in part}, "count": count, "min": least, "reflect": allow})
        specs.append({"name": f"p{len(specs)}", "cells": [list(c) for c in part], "count": count, "min": least})
    data = {"board": [list(c) for c in cells], "pieces": specs, "allow_reflection": allow}
    if grid != "square":
        data["grid"] = grid
    return data, {c: "" for c in cells}, pieces, dim, grid


@pytest.fixture
def splits(monkeypatch):
    """How many counts took the orbit split."""
    taken = [0]
    plain = split_module.orbit_split

    def counted(cover, sym):
        out = plain(cover, sym)
        taken[0] += out is not None
        return out

    monkeypatch.setattr(split_module, "orbit_split", counted)
    return taken


def test_orbit_split_counts_match_the_plain_count_and_the_checker(tmp_path, splits, capsys):
    path = tmp_path / "puzzle.json"
    checked = [0]

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=not LONG,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(symmetric_puzzles())
    def run(puzzle):
        data, board, pieces, dim, grid = puzzle
        try:
            truth = len(all_solutions(board, pieces, dim, limit=3_000, max_nodes=50_000, grid=grid))
        except TooMany:
            reject()
        path.write_text(json.dumps(data))
        tiling = polytile.load(path)
        assert tiling.count(method="enumerate").solutions == truth
        assert tiling.count(method="enumerate", breaking=False).solutions == truth
        assert tiling.count(method="enumerate", jobs=2).solutions == truth
        checked[0] += 1

    run()
    with capsys.disabled():
        print(f"\n{checked[0]} random symmetric puzzles checked, the orbit split taken {splits[0]} times")
    assert checked[0] >= EXAMPLES // 2
    assert splits[0] >= checked[0] // 4, f"the orbit split was taken {splits[0]} times in {checked[0]} puzzles"


def monomers_dimers(tmp_path, n: int):
    data = {
        "board": [[x, y] for x in range(n) for y in range(n)],
        "pieces": [
            {"name": "I1", "cells": [[0, 0]], "count": n * n, "min": 0},
            {"name": "I2", "cells": [[0, 0], [1, 0]], "count": n * n // 2, "min": 0},
        ],
    }
    path = tmp_path / f"md{n}.json"
    path.write_text(json.dumps(data))
    return polytile.load(path)


def test_orbit_split_on_the_centre_of_an_odd_square(tmp_path):
    """Every motion of a 3x3 board fixes its centre; the options covering it are the
    monomino's one and the domino's four, two orbits (by hand: sizes 1 and 4)."""
    tiling = monomers_dimers(tmp_path, 3)
    cover, sym = tiling.model().cover, tiling.symmetry()
    prefixes, weights = split_module.orbit_split(cover, sym)
    assert sorted(int(weights[p[0]]) for p in prefixes) == [1, 4]
    assert int(weights.sum()) == cover.n_options - 2 + 5  # the other options weigh 1


@pytest.mark.parametrize("n, published", [(2, 7), (3, 131), (4, 10012)])
def test_monomer_dimer_squares(tmp_path, splits, n, published):
    """Monomer-dimer tilings of the n x n square (OEIS A028420: 1, 7, 131, 10012, ...)."""
    tiling = monomers_dimers(tmp_path, n)
    assert tiling.count(method="enumerate").solutions == published
    assert tiling.count(method="enumerate", jobs=2).solutions == published
    assert splits[0] >= 2
