"""The set-up's shortcuts against plain references: the bitboard tables built in
compiled calls (engine/bitboard/tables.py) against loops over the cover written here, symmetry
breaking's choices compiled (engine/geometry/breaking.py) against numpy's (core/symmetry.py), and
the memory pre-check's bound without orientations (core/cover.crude_bound) against the
exact bound and the placements actually built, on random puzzles of every grid
(tests/random_puzzles.py)."""

from __future__ import annotations

import json

import numpy as np
from hypothesis import HealthCheck, given, settings

import polytile
from polytile.core import symmetry
from polytile.core.cover import Cover, crude_bound, placement_bound
from polytile.core.symmetry import Symmetry
from polytile.engine.kernels import kernel_module
from polytile.engine.bitboard.driver import MAX_SHIFTS, build
from paths import TESTS
from random_puzzles import random_lattice_puzzles, random_puzzles

PROFILE = settings(
    max_examples=150, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck)
)


def breaking_piece(cover: Cover, sym: Symmetry) -> tuple[int, np.ndarray] | None:
    """core.symmetry.breaking_piece, compiled (engine/geometry/breaking.py; search.plan calls it through
    bitboard.chained.breaking): the piece to place first and its placements kept, or None."""
    if len(sym.h_rows) == 1:
        return None
    piece, first, _ = kernel_module("geometry.breaking").first_and_fixable(
        sym.h_images, sym.opt_label, sym.label_piece, cover.opt_piece, cover.piece_count, cover.piece_min
    )
    return None if piece < 0 else (int(piece), first)


def second_breaking(
    cover: Cover, sym: Symmetry, piece: int, first: np.ndarray
) -> tuple[int, np.ndarray, np.ndarray] | None:
    """core.symmetry.second_breaking, compiled (engine/geometry/breaking.py): (second piece, the
    CSR of its placements banned under each of `first`), or None."""
    _, _, fit = kernel_module("geometry.breaking").first_and_fixable(
        sym.h_images, sym.opt_label, sym.label_piece, cover.opt_piece, cover.piece_count, cover.piece_min
    )
    second, ptr, flat = kernel_module("geometry.breaking").second_piece_of(
        first, piece, fit, np.uint64(sym.h_mask), sym.opt_label, sym.label_img, sym.opt_stab, cover.opt_piece
    )
    return None if second < 0 else (int(second), ptr, flat)


def model_of(rp, tmp_path):
    path = tmp_path / "puzzle.json"
    path.write_text(json.dumps(rp.json))
    return polytile.load(path)


def check_tables(cover) -> None:
    """build.board_masks, neighbour_shifts and lists_by_first_item against loops."""
    n = cover.n_items
    opt_mask, nb_mask, opt_border = build.board_masks(n, cover.opt_ptr, cover.opt_items, cover.neighbours)
    neighbours = [{int(j) for j in row if j >= 0} for row in cover.neighbours]
    assert [int(m) for m in nb_mask] == [sum(1 << j for j in nb) for nb in neighbours]
    for o in range(cover.n_options):
        items = {int(i) for i in cover.option_items(o)}
        assert int(opt_mask[o]) == sum(1 << i for i in items)
        border = set().union(*(neighbours[i] for i in items)) - items
        assert int(opt_border[o]) == sum(1 << j for j in border)
    diffs, masks = build.neighbour_shifts(cover.neighbours, MAX_SHIFTS)
    pairs = {(i, j) for i, nb in enumerate(neighbours) for j in nb}
    if len(diffs):  # the shifts give back every neighbour pair
        got = {(i, i + int(d)) for d, m in zip(diffs, masks) for i in range(n) if int(m) >> i & 1}
        assert got == pairs
    else:
        assert len({j - i for i, j in pairs}) > MAX_SHIFTS
    keep = np.arange(cover.n_options) % 3 != 1
    opts, start = build.lists_by_first_item(n, cover.opt_ptr, cover.opt_items, keep)
    for t in range(n):
        want = [o for o in range(cover.n_options) if keep[o] and cover.option_items(o).min() == t]
        assert opts[start[t] : start[t + 1]].tolist() == want


@PROFILE
@given(random_puzzles())
def test_compiled_bitboard_tables_match_loops(tmp_path_factory, rp):
    cover = model_of(rp, tmp_path_factory.mktemp("p")).model().cover
    if cover.n_items <= 64:
        check_tables(cover)


@PROFILE
@given(random_lattice_puzzles())
def test_compiled_bitboard_tables_match_loops_on_lattices(tmp_path_factory, rp):
    cover = model_of(rp, tmp_path_factory.mktemp("p")).model().cover
    if cover.n_items <= 64:
        check_tables(cover)


@PROFILE
@given(random_puzzles())
def test_the_crude_bound_bounds_the_placements(tmp_path_factory, rp):
    """crude_bound >= placement_bound's cells >= the cells of the placements built."""
    tiling = model_of(rp, tmp_path_factory.mktemp("p"))
    puzzle = tiling.puzzle
    built = int(np.diff(tiling.model().cover.opt_ptr).sum())
    assert crude_bound(puzzle) >= placement_bound(puzzle)[1] >= built


@PROFILE
@given(random_lattice_puzzles())
def test_the_crude_bound_bounds_the_placements_on_lattices(tmp_path_factory, rp):
    tiling = model_of(rp, tmp_path_factory.mktemp("p"))
    puzzle = tiling.puzzle
    built = int(np.diff(tiling.model().cover.opt_ptr).sum())
    assert crude_bound(puzzle) >= placement_bound(puzzle)[1] >= built


def check_breaking(tiling) -> None:
    """The compiled choices of the pieces to fix are numpy's, placement for placement."""
    cover, sym = tiling.model().cover, tiling.symmetry()
    if sym.order == 1:
        return
    plain, compiled = symmetry.breaking_piece(cover, sym), breaking_piece(cover, sym)
    assert (plain is None) == (compiled is None)
    if plain is None or compiled is None:
        return
    assert plain[0] == compiled[0] and plain[1].tolist() == compiled[1].tolist()
    plain2 = symmetry.second_breaking(cover, sym, plain[0], plain[1])
    compiled2 = second_breaking(cover, sym, plain[0], plain[1])
    assert (plain2 is None) == (compiled2 is None)
    if plain2 is not None and compiled2 is not None:
        assert plain2[0] == compiled2[0]
        assert plain2[1].tolist() == compiled2[1].tolist()
        assert plain2[2].tolist() == compiled2[2].tolist()


@PROFILE
@given(random_puzzles())
def test_compiled_breaking_matches_numpy(tmp_path_factory, rp):
    check_breaking(model_of(rp, tmp_path_factory.mktemp("p")))


@PROFILE
@given(random_lattice_puzzles())
def test_compiled_breaking_matches_numpy_on_lattices(tmp_path_factory, rp):
    check_breaking(model_of(rp, tmp_path_factory.mktemp("p")))


def test_compiled_breaking_matches_numpy_on_the_corpus():
    """The pentomino rectangles and squares, where both pieces are fixed (X, then another
    on the middle row's symmetric placements)."""
    corpus = TESTS / "corpus" / "tiling"
    for name in (
        "pentomino-6x10.txt",
        "pentomino-5x12.txt",
        "pentomino-3x20.txt",
        "pentomino-8x8-centre-hole.txt",
        "pentomino-8x8-corner-missing.txt",
    ):
        check_breaking(polytile.load(corpus / name))
