"""Published polyiamond and polyhex puzzle counts (tests/lattice-corpus/manifest.json, with sources):
unique counts with and without symmetry breaking, the other kernels, and every solution of
the small cases checked by the independent checker (tests/checker.py), which also counts
one case by itself. Expected numbers come from the manifest only."""

from __future__ import annotations

import json

import pytest

import polytile
from checker import all_solutions, as_set, board_symmetries, canonical, check, classes, read_puzzle
from paths import TESTS

LATTICE = TESTS / "lattice-corpus"  # beside the copy of ../shared/corpus
CASES = json.loads((LATTICE / "manifest.json").read_text())
IDS = [c["id"] for c in CASES]
SMALL = [
    c for c in CASES if c["grid"] == "hex" or c["id"] in ("hexiamonds-ring2", "hexiamonds-crescent2", "hexiamonds-ring")
]
BRUTE = [c for c in CASES if c["grid"] == "hex" or c["id"] == "hexiamonds-ring2"]


def load(case):
    return polytile.load(LATTICE / case["file"])


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_published_unique_counts(case):
    r = load(case).count(unique=True)
    assert r.complete and r.unique == case["unique"]


@pytest.mark.parametrize("case", CASES[:6], ids=IDS[:6])
def test_counts_by_canonical_forms(case):
    """Without symmetry breaking: every solution is visited and classified."""
    r = load(case).count(unique=True, breaking=False)
    assert r.unique == case["unique"]
    assert r.solutions == load(case).count().solutions


@pytest.mark.parametrize("engine", ["wide", "dlx"])
@pytest.mark.parametrize("case", SMALL, ids=[c["id"] for c in SMALL])
def test_other_engines(case, engine):
    r = load(case).count(unique=True, engine=engine)
    assert r.unique == case["unique"]


@pytest.mark.parametrize("case", SMALL, ids=[c["id"] for c in SMALL])
def test_every_solution_verified(case):
    path = LATTICE / case["file"]
    r = load(case).solve(limit=None)
    assert r.complete
    sols = [[(p.piece, p.cells.tolist()) for p in s.placements] for s in r.found]
    for s in sols:
        check(path, s, reflect=True, partial=False)
    assert len({as_set(s) for s in sols}) == len(sols)
    syms = board_symmetries(path)
    assert len({canonical(s, syms) for s in sols}) == case["unique"]


@pytest.mark.parametrize("case", BRUTE, ids=[c["id"] for c in BRUTE])
def test_independent_count(case):
    """The checker's own backtracking finds the published number of classes."""
    path = LATTICE / case["file"]
    board, tiles, dim = read_puzzle(path)
    pieces = [{"cells": t, "count": 1, "min": 1, "reflect": True} for t in tiles]
    sols = all_solutions(board, pieces, dim, grid=case["grid"])
    assert classes(sols, board, dim, case["grid"]) == case["unique"]
    assert len(sols) == load(case).count().solutions
