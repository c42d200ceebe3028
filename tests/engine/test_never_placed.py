"""A piece that every solution uses and that fits nowhere: no solution, and no search
(engine/search.piece_never_placed). Checked by tests/checker.py's brute force on random
puzzles given such a piece, and on Lucky Thirteen (its I pentomino is five cubes long and
the board four)."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

import polytile
from checker import TooMany, all_solutions
from random_puzzles import build

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_lucky_thirteen_without_a_search():
    r = polytile.load(EXAMPLES / "lucky-thirteen.json").count(unique=True)
    assert (r.solutions, r.unique, r.nodes, r.complete) == (0, 0, 0, True)


@settings(max_examples=60, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 2**32 - 1), st.sampled_from((2, 3)), st.sampled_from((0, 1)))
def test_random_puzzles_with_a_piece_too_long(tmp_path_factory, seed, dim, least):
    """A straight piece longer than the board's every side, with minimum `least`: with 1,
    no solution (the checker agrees) and no node; with 0, the count the checker finds."""
    rp = build(seed, dim, "free", "none", "none")
    longest = 1 + max(max(c[i] for c in rp.board) for i in range(dim))
    cells = [tuple(k if i == 0 else 0 for i in range(dim)) for k in range(longest + 1)]
    rp.pieces.append({"cells": {c: "" for c in cells}, "count": 1, "min": least, "reflect": True})
    rp.json["pieces"].append({"name": "long", "cells": [list(c) for c in cells], "count": 1, "min": least})
    try:
        truth = all_solutions(rp.board, rp.pieces, rp.dim, limit=300, max_nodes=20_000)
    except TooMany:
        reject()
    path = tmp_path_factory.mktemp("p") / "puzzle.json"
    path.write_text(json.dumps(rp.json))
    tiling = polytile.load(path)
    for engine in ("bitboard", "wide", "dlx"):
        r = tiling.count(engine=engine)
        assert r.solutions == len(truth) and r.complete
        if least:
            assert len(truth) == 0 and r.nodes == 0
