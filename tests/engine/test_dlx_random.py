"""`polytile cover` on random matrices against the brute force of tests/dlx_cases.py, on
every kernel, and the tiling corpus written by `dump` and counted back against the
independent checker (tests/checker.py)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from checker import TooMany, all_solutions, merged_pieces, placements
from cli_helpers import call_cli
from dlx_cases import CORPUS, GENERAL, TILING, brute, counts, cover_json, listed
from random_puzzles import build


# ---- random matrices against the brute force -------------------------------------------


@st.composite
def matrices(draw) -> str:
    """A small random DLX file: primary and secondary items, dlx2 colours sometimes."""
    n_p, n_s = draw(st.integers(1, 6)), draw(st.integers(0, 4))
    prim, sec = [f"p{i}" for i in range(n_p)], [f"s{i}" for i in range(n_s)]
    colours = draw(st.booleans())
    lines = [" ".join(prim) + (" | " + " ".join(sec) if sec else "")]
    for _ in range(draw(st.integers(0, 11))):
        ps = draw(st.lists(st.sampled_from(prim), min_size=1, max_size=3, unique=True))
        ss = draw(st.lists(st.sampled_from(sec), max_size=3, unique=True)) if sec else []
        tags = [s + (draw(st.sampled_from(("", ":a", ":b"))) if colours else "") for s in ss]
        words = ps + tags
        lines.append(" ".join(draw(st.permutations(words))))
    return "\n".join(lines) + "\n"


@st.composite
def tilings(draw) -> str:
    """A random matrix of a tiling's shape: a piece item first in every option (primary
    or secondary), then cells (primary), every option of a piece of one size."""
    n_cells, n_pieces = draw(st.integers(2, 8)), draw(st.integers(1, 4))
    cells = [f"c{i}" for i in range(n_cells)]
    required = [f"P{i}" for i in range(n_pieces) if draw(st.booleans())]
    optional = [f"P{i}" for i in range(n_pieces) if f"P{i}" not in required]
    lines = [" ".join(cells + required) + (" | " + " ".join(optional) if optional else "")]
    for piece in required + optional:
        size = draw(st.integers(1, 3))
        for _ in range(draw(st.integers(1, 4))):
            lines.append(piece + " " + " ".join(draw(st.permutations(cells))[:size]))
    return "\n".join(lines) + "\n"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matrices())
def test_random_matrices_against_brute_force(text):
    truth = brute(text)
    assert counts(text) == {len(truth)}
    for engine in GENERAL:
        found = listed(text, engine)
        assert len(found) == len(truth) and set(found) == truth


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tilings())
def test_random_tiling_matrices_on_every_kernel(text):
    from polytile.core.matrix import tiling_cover
    from polytile.formats.dlx import parse

    truth = brute(text)
    engines = ("auto",) + GENERAL + (TILING if tiling_cover(parse(text)) is not None else ())
    assert counts(text, engines) == {len(truth)}
    for engine in engines:
        assert set(listed(text, engine)) == truth


# ---- polytile puzzles written as matrices ----------------------------------------------


def dumped(path: Path, tmp_path: Path) -> Path:
    out = tmp_path / (path.stem + ".dlx")
    r = call_cli("convert", path, out)
    assert r.returncode == 0, r.stderr
    return out


def corpus(case_id: str) -> dict:
    return next(c for c in json.loads((CORPUS / "manifest.json").read_text()) if c["id"] == case_id)


@pytest.mark.parametrize(
    "case_id, factor",
    [
        ("pentomino-6x10", 1),
        ("pentomino-3x20", 1),
        ("checkerboard-8x8-centre-hole", 1),
        ("tetromino-box-8x5-2each", 2**5),
    ],
)
def test_corpus_puzzles_dumped_and_counted(tmp_path, case_id, factor):
    """The corpus's counts (independent of polytile), times k! for k copies of a piece."""
    case = corpus(case_id)
    out = dumped(CORPUS / case["file"], tmp_path)
    text = out.read_text()
    assert text.startswith("| from ")
    engines = ("auto",) if case["solutions"] > 1000 else ("auto",) + GENERAL
    for engine in engines:
        r = cover_json(tmp_path, text, "--engine", engine)
        assert r["solutions"] == case["solutions"] * factor, engine


def test_puzzle_whose_copies_are_partly_required_is_refused():
    import numpy as np
    from polytile.core.puzzle import Board, Piece, Puzzle
    from polytile.errors import PuzzleError
    from polytile.formats.dlx import dump

    board = Board(np.array([(0, 0), (0, 1), (0, 2), (0, 3)]), np.zeros(4, dtype=np.int64))
    domino = Piece("d", np.array([(0, 0), (0, 1)]), np.zeros(2, dtype=np.int64), count=3, minimum=1)
    with pytest.raises(PuzzleError, match="1 of its 3 copies"):
        dump(Puzzle(board, [domino]), None, "x")


def matrix_multiplicities(rp, solutions: set) -> list[int]:
    """How many matrix solutions each checker solution is: copies are distinct items, so
    j of a piece's k copies can be placed in k!/(k-j)! ways (-1: a cell-set two pieces fit)."""
    pieces = merged_pieces(rp.pieces, rp.dim, rp.grid)
    fits = [placements(rp.board, p, rp.dim, rp.grid) for p in pieces]
    out = []
    for solution in solutions:
        owner = [[i for i, f in enumerate(fits) if cs in f] for cs in solution]
        if any(len(o) != 1 for o in owner):
            out.append(-1)
            continue
        used = [sum(1 for o in owner if o[0] == i) for i in range(len(pieces))]
        out.append(math.prod(math.perm(p["count"], j) for p, j in zip(pieces, used)))
    return out


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 2**32 - 1),
    st.sampled_from((2, 3)),
    st.sampled_from(("none", "checker")),
    st.sampled_from(("copies", "copies", "none", "pieces")),
)
def test_round_trip_counts_times_copies(tmp_path_factory, seed, dim, colours, extras):
    """puzzle -> dump -> cover: the independent checker's solutions, each counted
    k!/(k-j)! times for j of k copies used (k! when every copy is used)."""
    from hypothesis import assume, reject

    rp = build(seed, dim, "free", colours, extras)
    try:
        truth = all_solutions(rp.board, rp.pieces, rp.dim, limit=500, max_nodes=50_000)
    except TooMany:
        reject()
    weights = matrix_multiplicities(rp, truth)
    assume(all(w > 0 for w in weights))
    tmp = tmp_path_factory.mktemp("rt")
    src = tmp / "p.json"
    src.write_text(json.dumps(rp.json))
    out = tmp / "p.dlx"
    r = call_cli("convert", src, out)
    pieces = merged_pieces(rp.pieces, rp.dim, rp.grid)
    full = sum(len(p["cells"]) * p["count"] for p in pieces) == len(rp.board)
    if not full and any(0 < p["min"] < p["count"] for p in pieces):
        assert r.returncode == 2 and "copies must be used" in r.stderr
        event("refused: some but not all copies required")
        return
    assert r.returncode == 0, r.stderr
    got = call_cli("cover", out, "--json", "--time-limit", "30")
    if got.returncode == 124:  # a search that explodes (seed 2338: 0 solutions, >100 M nodes): a known defect
        event("cover: time limit")
        reject()
    assert got.returncode == 0, got.stderr
    assert json.loads(got.stdout)["solutions"] == sum(weights)
    event("counted, copies" if any(p["count"] > 1 for p in pieces) else "counted")
