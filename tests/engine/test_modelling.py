"""The model's one entry point (engine/model.build_model), its compiled way (the
reduction of engine/geometry/modelling.py through engine/geometry/modelling_driver.py and core/reduction.py,
else numpy's build with compiled steps) against its numpy way (core.cover.build and
core.symmetry.board_group, the reference): the same Model, array for array (dtype and
shape included), the same merged pieces and the same board group, on random puzzles of
every grid (the reduction takes the plain square-grid ones and must decline coloured,
triangle, hex, virtual and > 64-cell ones, which the fallback then builds as numpy does)
and the corpus; and counts through it against the independent brute force of
tests/checker.py."""

from __future__ import annotations

import copy
import json
import os
import pickle

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

import polytile
from compiled_counts import check_counts
from paths import TESTS
from polytile.core.cover import Model, build
from polytile.engine import model as entry
from polytile.engine.model import build_model
from polytile.core.puzzle import VIRTUAL, Board, Piece, Puzzle
from polytile.core.reduction import build_compiled, takes
from polytile.core.cover import OverBudget
from polytile.core.symmetry import analyse, analysis_bytes, board_group
from polytile.engine import kernels
from polytile.engine.geometry.modelling_driver import jit_modeller
from polytile.tiling.feasibility import infeasible
from random_puzzles import random_lattice_puzzles, random_puzzles

JIT_RUN = bool(os.environ.get("POLYTILE_JIT"))  # .ci/run's JIT pass: never None then
PROFILE = settings(
    max_examples=120, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck)
)
SYMMETRY = ("perms", "opt_label", "label_img", "opt_stab", "label_piece", "g_exact", "h_mask")
FIELDS = ("opt_ptr", "opt_items", "opt_piece", "piece_count", "piece_min", "neighbours")


def puzzle_of(rp, tmp_path):
    path = tmp_path / "puzzle.json"
    path.write_text(json.dumps(rp.json))
    return polytile.load(path).puzzle


def equal(x: np.ndarray, y: np.ndarray, name: str) -> None:
    assert x.dtype == y.dtype and x.shape == y.shape, name
    assert np.array_equal(x, y), name


def same(fast: Model, plain: Model) -> None:
    """Every array of the Cover, the cells and colours, the merged pieces, the group."""
    assert fast.cover.n_items == plain.cover.n_items
    for name in FIELDS:
        equal(getattr(fast.cover, name), getattr(plain.cover, name), name)
    equal(fast.cells, plain.cells, "cells")
    equal(fast.colours, plain.colours, "colours")
    assert fast.perms is not None
    equal(fast.perms, board_group(plain.cells, plain.colours, plain.puzzle.board.grid), "perms")
    pieces = [
        [(p.name, p.count, p.minimum, p.reflect, p.cells.tobytes()) for p in m.puzzle.pieces] for m in (fast, plain)
    ]
    assert pieces[0] == pieces[1]
    assert fast.checks is not None and plain.checks is None  # infeasible's two counts:
    placed = np.bincount(plain.cover.opt_piece, minlength=len(plain.puzzle.pieces)) > 0
    bits = sum(1 << p for p in np.flatnonzero(placed).tolist())
    covered = np.bincount(plain.cover.opt_items, minlength=plain.cover.n_items)
    assert fast.checks == (bits, int(np.argmin(covered)) if not covered.all() else -1)
    assert infeasible(fast) == infeasible(plain)
    assert fast.analysis is not None
    mine, numpys = analyse(fast), analyse(plain)  # the numpy analysis of numpy's model
    for name in SYMMETRY:
        x, y = getattr(mine, name), getattr(numpys, name)
        if isinstance(x, np.ndarray):
            equal(x, y, name)
        else:
            assert type(x) is type(y) and x == y, name


def reduced(model: Model) -> bool:
    """Whether the model came from the compiled reduction (the only way to make `checks`)."""
    return model.checks is not None


def same_cover(fast: Model, plain: Model) -> None:
    """The fallback's Model (numpy's build, its steps compiled) is numpy's, array for array."""
    for name in FIELDS:
        equal(getattr(fast.cover, name), getattr(plain.cover, name), name)
    equal(fast.cells, plain.cells, "cells")
    equal(fast.colours, plain.colours, "colours")
    assert fast.perms is None and fast.analysis is None


def check(puzzle: Puzzle) -> bool:
    """build_model's compiled ways (numba's dispatcher; the ahead-of-time variants when
    built) give its numpy way's Model, by the reduction where it takes the puzzle, else by
    the fallback; whether the reduction took it."""
    plain = build_model(puzzle, compiled=False)
    fast = build_model(puzzle, jit=True)
    plain_case = takes(puzzle) and not puzzle.board.colours.any() and not any(p.colours.any() for p in puzzle.pieces)
    assert reduced(fast) == plain_case
    assert not reduced(plain)
    built = build_model(puzzle)
    if not plain_case:
        same_cover(fast, plain)
        same_cover(built, plain)
        return False
    same(fast, plain)
    assert reduced(built) == (kernels.using_compiled("geometry.modelling", "model") or JIT_RUN)
    if reduced(built):
        same(built, plain)
    else:
        same_cover(built, plain)
    return True


@PROFILE
@given(random_puzzles())
def test_compiled_model_matches_numpy(tmp_path_factory, rp):
    took = check(puzzle_of(rp, tmp_path_factory.mktemp("p")))
    assert took == (rp.kind[-1] is False)  # every uncoloured square-grid puzzle is taken


@settings(max_examples=30, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
@given(random_lattice_puzzles())
def test_lattices_are_left_to_numpy(tmp_path_factory, rp):
    assert not check(puzzle_of(rp, tmp_path_factory.mktemp("p")))


def test_compiled_model_matches_numpy_on_the_corpus():
    corpus = TESTS / "corpus" / "tiling"
    taken = [check(polytile.load(path).puzzle) for path in sorted(corpus.glob("*.txt")) + [corpus / "soma-3x3x3.json"]]
    assert sum(taken) >= len(taken) - 2  # all but the coloured checkerboard(s)


def _board(w: int, h: int) -> Board:
    cells = np.array([(x, y) for x in range(w) for y in range(h)], dtype=np.int64)
    return Board(cells, np.zeros(len(cells), dtype=np.int64))


def _piece(name: str, cells: list[tuple[int, int]], count: int = 1, minimum: int | None = None) -> Piece:
    return Piece(name, np.array(cells, dtype=np.int64), np.zeros(len(cells), dtype=np.int64), count, minimum)


def test_pieces_in_parts_copies_and_large_pieces():
    """A piece given in two parts (its keys' base is its spread, not its size), pieces
    congruent only with reflection (merged or not as the rule says), a piece larger than
    the board (kept, never placed), and a sparse board whose box is mostly empty."""
    ell = [(0, 0), (1, 0), (2, 0), (2, 1)]
    mirror = [(0, 1), (1, 1), (2, 1), (2, 0)]
    pieces = [
        _piece("a", [(0, 0), (0, 3)]),
        _piece("b", [(3, 0), (0, 0)], 2, 1),
        _piece("L", ell),
        _piece("J", mirror),
        _piece("big", [(x, 0) for x in range(30)]),
    ]
    for reflect in (True, False):
        assert check(Puzzle(_board(5, 4), pieces, reflect))
    sparse = Board(np.array([(0, 0), (0, 1), (9, 9), (9, 10), (40, 3)], dtype=np.int64), np.zeros(5, dtype=np.int64))
    assert check(Puzzle(sparse, [_piece("d", [(0, 0), (0, 1)], 3, 0), _piece("m", [(0, 0)])]))


def test_infeasible_reasons_from_the_call():
    """The compiled call's placed bits and first uncovered item give `infeasible` numpy's
    reasons (by hand: the cell (5, 5) stands alone, no domino covers it; the tromino fits
    nowhere on a 2x2 board with a lone cell)."""
    cells = np.array([(0, 0), (0, 1), (1, 0), (1, 1), (5, 5)], dtype=np.int64)
    board = Board(cells, np.zeros(5, dtype=np.int64))
    puzzle = Puzzle(board, [_piece("d", [(0, 0), (0, 1)], 2, 0), _piece("t", [(0, 0), (0, 1), (0, 2)], 1, 1)])
    assert check(puzzle)
    fast = build_model(puzzle, jit=True)
    assert fast.checks == (0b01, 4)
    assert infeasible(fast) == [
        "piece t (3 cells) fits nowhere on the board",
        "no piece can cover cell (5, 5)",
    ]


def test_what_the_kernel_declines():
    """Over 64 cells, a virtual piece, colour rules, no pieces at all: numpy's build."""
    assert build_compiled(Puzzle(_board(2, 2), []), jit_modeller) is None
    assert not check(Puzzle(_board(13, 5), [_piece("p", [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)], 13)]))
    assert not check(Puzzle(_board(2, 2), [_piece("d", [(0, 0), (0, 1)]), _piece(VIRTUAL, [(0, 0)], 2, 0)]))
    board = _board(2, 2)
    puzzle = Puzzle(board, [_piece("d", [(0, 0), (0, 1)], 2)], allowed=np.ones((1, 1), dtype=bool))
    assert not check(puzzle)


def test_the_kernel_runs_on_the_pentominoes(monkeypatch):
    """On the 3x20 rectangle the count's model comes from the compiled call (not a test of
    the fallback): the twelve pentominoes, 1,236 placements, the rectangle's 4 motions."""
    calls = []

    def counting(*args):
        calls.append(len(args[0]) - 1)  # (the board's cells, then each piece's)
        return jit_modeller(*args)

    monkeypatch.setattr(entry, "jit_modeller", counting)
    puzzle = polytile.load(TESTS / "corpus" / "tiling" / "pentomino-3x20.txt").puzzle
    model = build_model(puzzle, jit=True)
    assert calls == [12] and reduced(model)
    assert model.cover.n_options == 1236 and model.perms is not None and len(model.perms) == 4


@settings(max_examples=40, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
@given(random_puzzles())
def test_counts_match_the_checker(tmp_path_factory, rp):
    """count(unique=True) on the model the kernel builds against the brute force."""
    check_counts(tmp_path_factory, rp, [(entry, "modeller", jit_modeller)])


def test_the_analysis_keeps_to_the_budget():
    """Over the memory budget the kernel leaves the analysis out and core refuses it, as
    numpy's analyse does; at the budget it is made."""
    puzzle = polytile.load(TESTS / "corpus" / "tiling" / "pentomino-3x20.txt").puzzle
    plain = build(puzzle)
    need = analysis_bytes(4, plain.cover)
    assert build_compiled(puzzle, jit_modeller, need).analysis is not None
    model = build_compiled(puzzle, jit_modeller, need - 1)
    assert model.analysis is None and model.perms is not None
    with pytest.raises(OverBudget):
        analyse(model, need - 1)
    with pytest.raises(OverBudget):
        analyse(plain, need - 1)


def test_no_placement_at_all():
    """A piece that fits nowhere (the cover has no options): the model and its (empty)
    analysis are still numpy's."""
    assert check(Puzzle(_board(2, 2), [_piece("big", [(x, 0) for x in range(5)])]))
    assert check(Puzzle(_board(3, 3), [_piece("I", [(x, 0) for x in range(5)], 2, 0), _piece("m", [(0, 0)], 9, 0)]))


def test_a_box_too_wide_for_the_axis_masks():
    """Where the board's box has sides adding up to more than 4,096, the anchors of each
    orientation come from testing every cell (modelling._within) instead of the per-axis
    masks (`_axis_masks` declines): the same Model as numpy's."""
    cells = np.array([(0, 0), (0, 1), (1, 0), (1, 1), (5000, 0), (5000, 1), (2500, 7)], dtype=np.int64)
    board = Board(cells, np.zeros(len(cells), dtype=np.int64))
    lo, hi = cells.min(axis=0), cells.max(axis=0)
    axis_masks = kernels.kernel_module("geometry.modelling")._axis_masks
    ge, _ = getattr(axis_masks, "jit", axis_masks)(cells, lo, hi)
    assert len(ge) == 0
    ell = [(0, 0), (1, 0), (1, 1)]
    assert check(Puzzle(board, [_piece("d", [(0, 0), (0, 1)], 3, 0), _piece("m", [(0, 0)], 3, 0), _piece("l", ell)]))


def test_placements_copied_out_of_a_large_bound():
    """Where the placements' bound (every orientation at every cell, its items) passes
    modelling.RETAINED, they are copied out of the bound's arrays rather than kept as
    views of them: the same Model as numpy's either way (a 4x4x4 box, eight pentacubes
    and two hexacubes that need not all be used)."""
    cells = np.array([(x, y, z) for x in range(4) for y in range(4) for z in range(4)], dtype=np.int64)
    board = Board(cells, np.zeros(64, dtype=np.int64))
    shapes = [
        [(0, 0, 0), (1, 0, 0), (2, 0, 0), (2, 1, 0), (2, 1, 1)],
        [(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 1, 1), (1, 2, 1)],
        [(0, 0, 0), (0, 1, 0), (1, 1, 0), (1, 1, 1), (2, 1, 1)],
        [(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0), (0, 1, 1)],
        [(0, 0, 0), (1, 0, 0), (1, 1, 0), (2, 1, 0), (2, 1, 1)],
        [(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0), (3, 1, 0)],
        [(0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 1, 0), (1, 1, 1)],
        [(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 2, 0), (0, 0, 1)],
        [(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0), (3, 0, 1), (3, 1, 1)],
        [(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 1, 1), (2, 1, 1), (2, 2, 1)],
    ]
    puzzle = Puzzle(board, [_piece(f"p{i}", [tuple(c) for c in s], 1, 0) for i, s in enumerate(shapes)])
    merged = build(puzzle).puzzle
    bound = sum(len(merged.orientations(p)) * 64 * p.size for p in merged.pieces)
    from polytile.engine.geometry.modelling import RETAINED

    assert bound > RETAINED
    assert check(puzzle)


def test_the_merged_puzzle_is_made_when_read():
    """The compiled Model makes its merged Puzzle only when read (a count never does);
    then, copied and pickled, it is numpy's merged Puzzle."""
    puzzle = polytile.load(TESTS / "corpus" / "tiling" / "pentomino-3x20.txt").puzzle
    model = build_model(puzzle, jit=True)
    assert "puzzle" not in vars(model)
    clone = pickle.loads(pickle.dumps(model))
    plain = build(puzzle)
    for m in (model, clone, copy.deepcopy(model)):
        assert [(p.name, p.count, p.minimum, p.reflect) for p in m.puzzle.pieces] == [
            (p.name, p.count, p.minimum, p.reflect) for p in plain.puzzle.pieces
        ]
        assert m.puzzle.board is puzzle.board or np.array_equal(m.puzzle.board.cells, puzzle.board.cells)
    assert "puzzle" in vars(model)
