"""tiling.solver.infeasible's coverage pass (engine/coverage.py, compiled ahead of time)
against numpy's bincounts (modelling_driver.plain_coverage, the reference) on random
covers, random puzzles of every grid and the corpus; and infeasible's reasons on boards
whose answers are counted by hand."""

from __future__ import annotations

import json

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import polytile
from paths import TESTS
from polytile.engine.kernels import kernel_module
from polytile.engine.modelling_driver import coverage, plain_coverage
from polytile.tiling.solver import infeasible
from random_puzzles import random_lattice_puzzles

PROFILE = settings(
    max_examples=150, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck)
)


def compiled(opt_piece, opt_items, n_pieces, n_items):
    """The pass through numba's dispatcher (the ahead-of-time variant is `coverage`'s)."""
    function = kernel_module("coverage").coverage
    placed, uncovered = getattr(function, "jit", function)(opt_piece, opt_items, n_pieces, n_items)
    return placed.tolist(), int(uncovered)


@st.composite
def covers(draw):
    n_items = draw(st.integers(1, 80))
    n_pieces = draw(st.integers(1, 12))
    n_opt = draw(st.integers(0, 60))
    opt_piece = np.array(draw(st.lists(st.integers(0, n_pieces - 1), min_size=n_opt, max_size=n_opt)), np.int32)
    opt_items = np.array(draw(st.lists(st.integers(0, n_items - 1), max_size=4 * n_opt)), np.int32)
    return opt_piece, opt_items, n_pieces, n_items


@PROFILE
@given(covers())
def test_random_covers_match_numpy(cover):
    expected = plain_coverage(*cover)
    assert coverage(*cover) == expected
    assert compiled(*cover) == expected


def test_the_ahead_of_time_variant_is_used_for_the_compiled_models_types():
    from polytile.engine.kernels import type_key, using_compiled

    if not using_compiled("coverage", "coverage"):  # (a stale or absent extension: numpy)
        return
    model = polytile.load(TESTS / "corpus" / "tiling" / "pentomino-3x20.txt").model()
    cover = model.cover
    args = (cover.opt_piece, cover.opt_items, len(cover.piece_count), cover.n_items)
    assert kernel_module("coverage").coverage.variants.get(tuple(type_key(a) for a in args)) is not None


@settings(PROFILE, max_examples=60)
@given(random_lattice_puzzles())
def test_random_puzzles_of_every_grid_match_numpy(tmp_path_factory, rp):
    path = tmp_path_factory.mktemp("c") / "puzzle.json"
    path.write_text(json.dumps(rp.json))
    cover = polytile.load(path).model().cover
    args = (cover.opt_piece, cover.opt_items, len(cover.piece_count), cover.n_items)
    assert coverage(*args) == plain_coverage(*args) == compiled(*args)


def test_corpus_matches_numpy():
    files = sorted((TESTS / "corpus" / "tiling").glob("*.txt"))
    assert files
    for f in files:
        cover = polytile.load(f).model().cover
        args = (cover.opt_piece, cover.opt_items, len(cover.piece_count), cover.n_items)
        placed, uncovered = coverage(*args)
        assert (placed, uncovered) == plain_coverage(*args), f.name
        assert sum(placed) == cover.n_options and uncovered == -1, f.name


def test_reasons_counted_by_hand(tmp_path):
    # a 1x3 board with a hole in the middle cannot take the 2-cell straight piece: both
    # the piece and the cells are reported; a 2x2 board with two dominoes is feasible
    board = {"board": [[0, 0], [0, 2]], "pieces": [{"name": "I", "cells": [[0, 0], [0, 1]]}]}
    path = tmp_path / "gap.json"
    path.write_text(json.dumps(board))
    reasons = infeasible(polytile.load(path).model())
    assert any("fits nowhere" in r for r in reasons)
    assert any("no piece can cover cell (0, 0)" in r for r in reasons)
    square = {
        "board": [[0, 0], [0, 1], [1, 0], [1, 1]],
        "pieces": [{"name": "I", "cells": [[0, 0], [0, 1]], "count": 2}],
    }
    path.write_text(json.dumps(square))
    assert infeasible(polytile.load(path).model()) == []
