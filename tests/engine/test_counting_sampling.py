"""Uniform random solutions (engine/counting/sample.py, `solve --random`): chi-square tests
over every solution of small puzzles (the checker's), both ways of drawing, a checked large
draw, the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter

import pytest

import polytile
from polytile.tiling import sampling
from checker import all_solutions
from paths import ROOT

EXAMPLES = ROOT / "examples" / "counting"


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "polytile", *args], capture_output=True, text=True)


# ---- uniform random solutions ----------------------------------------------------------


def _chi_square_p(observed: list[int], expected: float) -> float:
    """The upper tail of the chi-square statistic of equal expected counts (dof = cells - 1),
    by the series of the regularised lower incomplete gamma function."""
    import math

    x = sum((o - expected) ** 2 / expected for o in observed) / 2
    a = (len(observed) - 1) / 2
    term = total = 1 / a
    n = 0
    while term > 1e-15 * total:
        n += 1
        term *= x / (a + n)
        total += term
    return 1 - math.exp(-x + a * math.log(x) - math.lgamma(a)) * total


def _as_set(solution) -> frozenset:
    return frozenset(frozenset(tuple(int(v) for v in c) for c in p.cells) for p in solution.placements)


@pytest.mark.parametrize("way", ["frontier", "pfaffian"])
def test_random_dominoes_of_4x4_are_uniform(monkeypatch, way):
    """3,600 draws over the 36 tilings (A004003): each seen, chi-square p > 0.001; from the
    frontier's layers, and by the Pfaffian's self-reduction (as wide boards are drawn)."""
    monkeypatch.setattr(sampling, "NARROW_SAMPLES", 64 if way == "frontier" else 0)
    tiling = polytile.load(EXAMPLES / "dominoes-4x4.json")
    r = sampling.sample(tiling, 3600, seed=7)
    assert r.method == way
    data = json.loads((EXAMPLES / "dominoes-4x4.json").read_text())
    truth = all_solutions(*_checker_form(data), 2)
    seen = Counter(_as_set(s) for s in r.found)
    assert len(truth) == 36 and set(seen) == truth
    counts = [seen[s] for s in truth]
    assert _chi_square_p(counts, 100.0) > 0.001, counts


def _checker_form(data: dict) -> tuple[dict, list]:
    """A polytile JSON puzzle of plain squares (rows of "X", or cells) in the checker's form."""
    rows = data["board"]
    if isinstance(rows[0], str):
        cells = [(y, x) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch != " "]  # (row, column)
    else:
        cells = [tuple(c) for c in rows]
    board = {c: "" for c in cells}
    pieces = []
    for p in data["pieces"]:
        shape = p["cells"]
        if isinstance(shape[0], str):
            shape = [(y, x) for y, row in enumerate(shape) for x, ch in enumerate(row) if ch != " "]
        count = p.get("count", 1)
        pieces.append(
            {"cells": {tuple(c): "" for c in shape}, "count": count, "min": p.get("min", count), "reflect": True}
        )
    return board, pieces


def test_random_solutions_with_copies_come_from_the_frontier_uniformly(tmp_path):
    """A 2 x 4 board by monominoes, dominoes and L trominoes, any number of each: every draw
    a solution of the checker's, the draws uniform over all of them."""
    data = {
        "board": ["XXXX", "XXXX"],
        "pieces": [
            {"name": "a", "cells": [[0, 0]], "count": 8, "min": 0},
            {"name": "b", "cells": [[0, 0], [1, 0]], "count": 4, "min": 0},
            {"name": "c", "cells": [[0, 0], [1, 0], [0, 1]], "count": 2, "min": 0},
        ],
    }
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data))
    truth = all_solutions(*_checker_form(data), 2)
    tiling = polytile.load(path)
    r = sampling.sample(tiling, 40 * len(truth), seed=3)
    assert r.method == "frontier" and r.solutions == len(truth)
    seen = Counter(_as_set(s) for s in r.found)
    assert set(seen) <= truth
    assert _chi_square_p([seen[s] for s in truth], 40.0) > 0.001


def test_a_random_20x20_domino_tiling_is_a_tiling():
    r = sampling.sample(polytile.load(EXAMPLES / "dominoes-20x20.json"), 1, seed=1)
    (s,) = r.found
    cells = [tuple(int(v) for v in c) for p in s.placements for c in p.cells]
    assert sorted(cells) == sorted((x, y) for x in range(20) for y in range(20))
    for p in s.placements:
        (a, b) = [tuple(int(v) for v in c) for c in p.cells]
        assert abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def test_random_draws_on_the_command_line():
    p = _run("solve", str(EXAMPLES / "dominoes-4x4.json"), "--random", "5", "--seed", "1", "--format", "json")
    assert p.returncode == 0 and len(json.loads(p.stdout)["solutions"]) == 5
    again = _run("solve", str(EXAMPLES / "dominoes-4x4.json"), "--random", "5", "--seed", "1", "--format", "json")
    assert again.stdout == p.stdout  # (the seed decides)
    p = _run("solve", str(EXAMPLES / "distinct-rectangles-7x7.json"), "--random", "1")
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "frontier" in p.stderr
