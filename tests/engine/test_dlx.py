"""`polytile cover` and the DLX format (formats/dlx.py): parse errors, counts known from
outside polytile (published n-queens and Langford numbers, Knuth's examples in dlx1.w and
dlx2.w, the corpus), random matrices against a brute force written here, and puzzles
written by `dump` against the independent checker (tests/checker.py)."""

from __future__ import annotations

import json
import math
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from checker import TooMany, all_solutions, merged_pieces, placements
from cli_helpers import call_cli
from paths import TESTS
from random_puzzles import build

CORPUS = TESTS / "corpus" / "tiling"
GENERAL = ("bitset", "links")
TILING = ("bitboard", "wide", "dlx")

# dlx1.w, section 1 (the matrix (3) of Knuth's "Dancing Links" paper): one solution,
# the options "A D", "E F C" and "B G" (lines 4, 1 and 5 of the options).
KNUTH = "| A simple example\nA B C D E | F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n"
# dlx2.w, section 1: colours; "X:0 Y:1" has no primary item; the unique solution is
# "A C X:1 Y:1" and "B X:1" (options 2 and 4).
KNUTH_COLOURS = "| A simple example of color controls\nA B C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nX:0 Y:1\nB X:1\nC Y:1\n"


def queens(n: int) -> str:
    """n queens as Knuth writes them: rows and columns primary, diagonals secondary."""
    lines = [
        " ".join([f"r{i}" for i in range(n)] + [f"c{j}" for j in range(n)])
        + " | "
        + " ".join([f"a{k}" for k in range(2 * n - 1)] + [f"b{k}" for k in range(2 * n - 1)])
    ]
    lines += [f"r{i} c{j} a{i + j} b{i - j + n - 1}" for i in range(n) for j in range(n)]
    return "\n".join(lines) + "\n"


def langford(n: int) -> str:
    """Langford pairs: digit i at positions j and j + i + 1."""
    lines = [" ".join([f"d{i}" for i in range(1, n + 1)] + [f"s{k}" for k in range(1, 2 * n + 1)])]
    lines += [f"d{i} s{j} s{j + i + 1}" for i in range(1, n + 1) for j in range(1, 2 * n - i)]
    return "\n".join(lines) + "\n"


# ---- an independent reading of the format and a brute force ---------------------------


def read(text: str):
    """(primary, secondary, options): options as lists of (item, colour or None)."""
    rows = [ln.split() for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("|")]
    head = " ".join(rows[0]).split("|")
    primary, secondary = head[0].split(), (head[1].split() if len(head) > 1 else [])
    options = [[(w.split(":")[0], w.split(":")[1] if ":" in w else None) for w in r] for r in rows[1:]]
    return primary, secondary, options


def valid(primary, secondary, options, chosen) -> bool:
    """Every primary item exactly once; a secondary item at most once, or by options that
    all give it the same colour; every option chosen has a primary item."""
    uses: dict = {}
    for o in chosen:
        if not any(item in primary for item, _ in options[o]):
            return False
        for item, colour in options[o]:
            uses.setdefault(item, []).append(colour)
    if any(len(uses.get(p, [])) != 1 for p in primary):
        return False
    for s in secondary:
        cs = uses.get(s, [])
        if len(cs) > 1 and (None in cs or len(set(cs)) > 1):
            return False
    return True


def brute(text: str) -> set[frozenset]:
    """Every solution, as sets of option numbers (from 1), by trying every subset."""
    primary, secondary, options = read(text)
    found = set()
    for k in range(len(primary) + 1):
        for chosen in combinations(range(len(options)), k):
            if valid(primary, secondary, options, chosen):
                found.add(frozenset(o + 1 for o in chosen))
    return found


# ---- running polytile ------------------------------------------------------------------


def cover_json(tmp_path: Path, text: str, *args: str) -> dict:
    path = tmp_path / "m.dlx"
    path.write_text(text)
    r = call_cli("cover", path, "--json", *args)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def counts(text: str, engines=("auto",) + GENERAL) -> set[int]:
    """The count of each engine (through the API: no process, no CLI parsing); the
    bit-set kernel on one thread and on two (its trial cut short, so that the threads
    count, not the trial)."""
    from polytile.engine.bitset import driver as bitset_driver
    from polytile.engine.cover_search import search_matrix
    from polytile.formats.dlx import parse

    matrix = parse(text)
    found = {search_matrix(matrix, engine=e).solutions for e in engines}
    found.add(search_matrix(matrix, engine="bitset", jobs=1).solutions)
    saved, bitset_driver.TRIAL_NODES = bitset_driver.TRIAL_NODES, 2
    try:
        found.add(search_matrix(matrix, engine="bitset", jobs=2).solutions)
    finally:
        bitset_driver.TRIAL_NODES = saved
    return found


def listed(text: str, engine: str) -> list[frozenset]:
    from polytile.engine.cover_search import search_matrix
    from polytile.formats.dlx import parse

    res = search_matrix(parse(text), engine=engine, store=True)
    return [frozenset(int(o) + 1 for o in f) for f in res.found]


# ---- parse errors ----------------------------------------------------------------------

BAD = [
    ("| only a comment\n\n", "m.dlx: no items line (only comments or blank lines)"),
    ("A B A\nA B\n", "m.dlx:1:5: item 'A' is named twice"),
    ("A | B | C\nA\n", "m.dlx:1:7: the items line holds `|` twice"),
    ("A B\nA C\n", "m.dlx:2:3: unknown item 'C'"),
    ("A B\nB A B\n", "m.dlx:2:5: item 'B' appears twice in this option"),
    ("ABCDEFGHI B\nB\n", "m.dlx:1:1: item name 'ABCDEFGHI' is longer than 8 characters"),
    ("A B\nA:x B\n", "m.dlx:2:3: primary item 'A' cannot have a colour"),
    ("A | X\nA X:\n", "m.dlx:2:5: no colour after ':' in 'X:'"),
    ("A | X\nA :c\n", "m.dlx:2:3: empty item name"),
    ("A b:c\nA\n", "m.dlx:1:4: item name 'b:c' holds ':'"),
    ("A é\nA\n", "m.dlx:1:3: item name 'é': character 'é' is not printable ASCII"),
    ("A | X\nA X:toolongcolour\n", "m.dlx:2:5: colour 'toolongcolour' is longer than 8 characters"),
]


@pytest.mark.parametrize("text, message", BAD)
def test_parse_errors_are_one_line_exit_2(tmp_path, text, message):
    path = tmp_path / "m.dlx"
    path.write_text(text)
    r = call_cli("cover", path)
    assert r.returncode == 2
    assert r.stdout == ""
    assert r.stderr.count("\n") == 1
    assert r.stderr.strip().endswith(message), r.stderr
    assert str(tmp_path) in r.stderr


def test_missing_file_and_non_tiling_engine(tmp_path):
    r = call_cli("cover", tmp_path / "absent.dlx")
    assert r.returncode == 2 and "no such file" in r.stderr
    path = tmp_path / "q.dlx"
    path.write_text(queens(4))
    r = call_cli("cover", path, "--engine", "bitboard")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "not one" in r.stderr


# ---- known counts ----------------------------------------------------------------------


def test_knuth_examples_solutions_as_in_dlx1_and_dlx2(tmp_path):
    for text, expected in ((KNUTH, [4, 1, 5]), (KNUTH_COLOURS, [2, 4])):
        for engine in ("auto",) + GENERAL:
            out = cover_json(tmp_path, text, "--all", "--engine", engine)
            assert out["solutions"] == 1 and out["complete"]
            assert out["options"] == [sorted(expected)]
    path = tmp_path / "k.dlx"
    path.write_text(KNUTH)
    r = call_cli("cover", path, "--all")
    assert r.stdout.splitlines()[:4] == ["1:", " C E F", " A D", " B G"]


# OEIS A000170 (n queens: 1, 0, 0, 2, 10, 4, 40, 92)
@pytest.mark.parametrize("n, expected", [(1, 1), (2, 0), (3, 0), (4, 2), (5, 10), (6, 4), (7, 40), (8, 92)])
def test_queens_with_secondary_diagonals(n, expected):
    assert counts(queens(n)) == {expected}


# OEIS A014552 (Langford pairs up to reversal: n=3 1, n=4 1, n=7 26, n=8 150), doubled
@pytest.mark.parametrize("n, expected", [(3, 2), (4, 2), (5, 0), (6, 0), (7, 52), (8, 300)])
def test_langford_pairs(n, expected):
    assert counts(langford(n), ("auto",) + GENERAL + TILING) == {expected}


def sudoku(givens: str) -> str:
    """A sudoku of side n*n (n = 2 or 3) as Knuth writes it: cell, row-digit, column-digit
    and box-digit items; givens row by row, `.` for a blank."""
    side = round(len(givens) ** 0.5)
    n = round(side**0.5)
    assert side * side == len(givens) and n * n == side
    digits = range(1, side + 1)
    head = [f"p{r}{c}" for r in range(side) for c in range(side)]
    head += [f"{k}{i}{v}" for k in "rcb" for i in range(side) for v in digits]
    lines = [" ".join(head)]
    for r in range(side):
        for c in range(side):
            given = givens[r * side + c]
            for v in digits:
                if given == "." or int(given) == v:
                    b = (r // n) * n + c // n
                    lines.append(f"p{r}{c} r{r}{v} c{c}{v} b{b}{v}")
    return "\n".join(lines) + "\n"


# 288 4x4 sudoku grids (shidoku; OEIS A107739); Arto Inkala's 2012 puzzle has one solution
INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."


def test_sudoku():
    from polytile.core.matrix import tiling_cover
    from polytile.formats.dlx import parse

    assert tiling_cover(parse(sudoku("." * 16))) is not None  # a tiling's shape
    assert counts(sudoku("." * 16), ("auto",) + GENERAL + TILING) == {288}
    assert counts(sudoku(INKALA)) == {1}


def test_every_listed_solution_is_a_solution():
    for text in (queens(6), langford(7), KNUTH_COLOURS):
        primary, secondary, options = read(text)
        for engine in GENERAL + ("auto",):
            found = listed(text, engine)
            assert len(set(found)) == len(found)
            assert all(valid(primary, secondary, options, [o - 1 for o in s]) for s in found)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_time_limit_gives_a_partial_count(tmp_path, jobs):
    path = tmp_path / "q.dlx"
    path.write_text(queens(18))
    r = call_cli("cover", path, "--json", "--time-limit", "0.2", "--jobs", jobs)
    assert r.returncode == 124
    out = json.loads(r.stdout)
    assert out["complete"] is False and out["reason"] == "time limit" and out["solutions"] > 0
    assert "time limit reached" in r.stderr


def test_ctrl_c_stops_a_count_on_threads_at_once(tmp_path):
    import signal
    import subprocess
    import time
    from cli_helpers import start_cli

    path = tmp_path / "q.dlx"
    path.write_text(queens(20))
    proc = start_cli("cover", path, "--json", "--jobs", "2", stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(4)
    assert proc.poll() is None
    sent = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert time.perf_counter() - sent < 2
    assert proc.returncode == 130 and "Traceback" not in err
    assert err.splitlines()[-1].endswith(" solutions so far (incomplete)")
    got = json.loads(out)
    assert got["complete"] is False and got["reason"] == "interrupted" and got["nodes"] > 0


def test_limit_lists_the_first_solutions(tmp_path):
    out = cover_json(tmp_path, queens(8), "--limit", "3")
    assert out["solutions"] == 3 and len(out["options"]) == 3 and out["complete"] is False
    primary, secondary, options = read(queens(8))
    assert all(valid(primary, secondary, options, [o - 1 for o in s]) for s in out["options"])


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
    assert cover_json(tmp, out.read_text())["solutions"] == sum(weights)
    event("counted, copies" if any(p["count"] > 1 for p in pieces) else "counted")
