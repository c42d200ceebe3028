"""`polytile cover` and the DLX format (formats/dlx.py): parse errors, counts known from
outside polytile (published n-queens and Langford numbers, Knuth's examples in dlx1.w and
dlx2.w, a Sudoku), limits and Ctrl-C. Random matrices and the corpus written by `dump`:
test_dlx_random.py."""

from __future__ import annotations

import json

import pytest

from cli_helpers import call_cli
from dlx_cases import GENERAL, KNUTH, KNUTH_COLOURS, TILING, counts, cover_json, langford, listed, queens, read, valid


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
    from cli_helpers import start_cli, wait_busy

    path = tmp_path / "q.dlx"
    path.write_text(queens(20))
    proc = start_cli("cover", path, "--json", "--jobs", "2", stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert wait_busy(proc, 4.0)  # 4 s of CPU: into the count, however loaded the machine
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
