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


@st.composite
def tilings_with_copies(draw) -> str:
    """A random tiling-shaped matrix in which some pieces come in copies written as
    distinct items with the same cells (as `convert` and Knuth write them): each copy's
    options in its own order, the copies required or not."""
    n_cells = draw(st.integers(2, 7))
    cells = [f"c{i}" for i in range(n_cells)]
    required, optional, lines = [], [], []
    for p in range(draw(st.integers(1, 3))):
        size = draw(st.integers(1, 3))
        options = [draw(st.permutations(cells))[:size] for _ in range(draw(st.integers(1, 3)))]
        names = [f"P{p}.{k}" for k in range(draw(st.integers(1, 3)))]
        (required if draw(st.booleans()) else optional).extend(names)
        for name in names:
            for cs in draw(st.permutations(options)):
                lines.append(name + " " + " ".join(cs))
    head = " ".join(cells + required) + (" | " + " ".join(optional) if optional else "")
    return "\n".join([head] + draw(st.permutations(lines))) + "\n"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tilings_with_copies(), st.integers(1, 5))
def test_copies_merged_against_brute_force(text, limit):
    """The copies merged into one piece (core.copies) and counted once, then multiplied
    back and listed in every order, against the brute force and the kernels that tell
    the copies apart; the counting methods likewise; a solution limit is kept."""
    from polytile.core.matrix import counting_cover, tiling_cover
    from polytile.engine.counting import Refused, choose
    from polytile.engine.counting import count as count_by
    from polytile.engine.cover_search import search_matrix
    from polytile.formats.dlx import parse

    truth = brute(text)
    assert counts(text, ("auto",) + GENERAL + TILING) == {len(truth)}
    for engine in ("auto", "dlx", "bitset"):
        found = listed(text, engine)
        assert len(found) == len(truth) and set(found) == truth, engine
    cut = search_matrix(parse(text), engine="auto", store=True, limit=limit)
    assert cut.solutions == len(cut.found) == min(limit, len(truth))
    assert {frozenset(int(o) + 1 for o in f) for f in cut.found} <= truth
    form = tiling_cover(parse(text))
    event("copies merged" if form is not None and form.factor != 1 else "no copies merged")
    cover, factor = counting_cover(parse(text))
    try:
        choose(cover, "frontier")
    except Refused:
        return
    assert count_by(cover, "frontier").solutions * factor == len(truth)


def test_dominoes_as_distinct_items_counted_by_hand(tmp_path):
    """A 2x2 square and two dominoes written as items d1, d2: two tilings (both across,
    both down), each in 2 orders of the copies: 4; three copies on it: none (6 cells)."""
    cells = "a b c d"
    options = ["a b", "c d", "a c", "b d"]
    two = f"{cells} d1 d2\n" + "".join(f"{d} {o}\n" for d in ("d1", "d2") for o in options)
    assert cover_json(tmp_path, two)["solutions"] == 4
    three = f"{cells} d1 d2 d3\n" + "".join(f"{d} {o}\n" for d in ("d1", "d2", "d3") for o in options)
    assert cover_json(tmp_path, three)["solutions"] == 0


def test_optional_copies_counted_by_hand(tmp_path):
    """Cells a b c, a required monomino M and two optional dominoes d1 d2 (secondary
    items) that fit on "a b" or "b c": M on c with a domino on a b, or M on a with one on
    b c; either domino: 4 (options 1-3 M, 4-5 d1, 6-7 d2)."""
    text = "a b c M | d1 d2\nM a\nM b\nM c\n" + "".join(f"{d} {o}\n" for d in ("d1", "d2") for o in ("a b", "b c"))
    assert cover_json(tmp_path, text)["solutions"] == 4
    listing = cover_json(tmp_path, text, "--all")
    assert sorted(map(sorted, listing["options"])) == [[1, 5], [1, 7], [3, 4], [3, 6]]


def test_copies_that_cannot_fit_are_refused_by_area_at_once(tmp_path):
    """The puzzle a fresh clone's round trip drew (seed 2338: 13 pieces, 8 of them copies
    of a domino, 32 cells on 28): Algorithm X on the copies as distinct items ran past
    100 M nodes; the sizes alone show there is no solution."""
    rp = build(2338, 2, "free", "checker", "copies")
    src = tmp_path / "p.json"
    src.write_text(json.dumps(rp.json))
    out = tmp_path / "p.dlx"
    assert call_cli("convert", src, out).returncode == 0
    got = call_cli("cover", out, "--time-limit", "20")
    assert got.returncode == 0, got.stderr
    assert "solutions: 0" in got.stdout and "complete: no" not in got.stdout
    assert "no solution: the pieces that must be used cover 32 cells" in got.stderr


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
    got = call_cli("cover", out, "--json", "--time-limit", "60")  # (a search that explodes fails, not hangs)
    assert got.returncode == 0, got.stderr
    assert json.loads(got.stdout)["solutions"] == sum(weights)
    event("counted, copies" if any(p["count"] > 1 for p in pieces) else "counted")
