"""Puzzles that once got wrong counts (tests/regressions/manifest.json: expected values from
hand counts, published counts and the independent brute force of tests/checker.py), counted
in every mode: each kernel, one and two threads, with and without symmetry breaking."""

from __future__ import annotations

import json

import pytest

import polytile
from checker import all_solutions, classes, read_puzzle
from cli_helpers import call_cli
from paths import TESTS

DIR = TESTS / "regressions"
CASES = json.loads((DIR / "manifest.json").read_text())
MODES = [dict(engine="bitboard"), dict(engine="wide"), dict(engine="dlx"), dict(jobs=2), dict(breaking=False)]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_counts_in_every_mode(case):
    tiling = polytile.load(DIR / case["file"])
    if not case["allow_reflection"]:
        tiling = tiling.no_reflect()
    for mode in MODES:
        r = tiling.count(unique=case["unique"] is not None, **mode)
        assert (r.solutions, r.unique) == (case["solutions"], case["unique"]), mode
    listed = tiling.solve(limit=None).found
    assert len(listed) == case["solutions"]


@pytest.mark.parametrize("case", [c for c in CASES if c.get("checker")], ids=lambda c: c["id"])
def test_manifest_values_are_the_checkers(case):
    board, tiles, dim = read_puzzle(DIR / case["file"])
    pieces = [{"cells": t, "count": 1, "min": 1, "reflect": case["allow_reflection"]} for t in tiles]
    truth = all_solutions(board, pieces, dim)
    assert (len(truth), classes(truth, board, dim)) == (case["solutions"], case["unique"])


@pytest.mark.parametrize("letters, solutions", [("L Y P W", 4), ("F I L N P T U V W X Y Z", 52)])
def test_katamino_rotate_only(letters, solutions):
    """Katamino's competition variant (no flipping): `--count` must agree with `--all`
    (L Y P W had printed 2 of 4, the twelve 32 of 52)."""
    p = call_cli("katamino", *letters.split(), "--no-flip", "--count")
    assert p.returncode == 0, p.stderr
    assert f"solutions: {solutions}" in p.stdout
