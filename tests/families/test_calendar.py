"""Calendar puzzles (`polytile calendar`): counts of every date against the published
table (tests/calendar/), sample dates against the independent checker, every printed
solution verified, the one-search tally against per-date plain counts, bad input."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import checker
from paths import TESTS
from polytile.cli.main import main
from polytile.formats.calendar_board import BUILT_IN, parse
from polytile.tiling.calendar import Calendar

MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()
WEEKDAYS = "Mon Tue Wed Thu Fri Sat Sun".split()
# the pieces drawn here, independently of polytile's library
SHAPES = {
    "2X3": ["XXX", "XXX"],
    "L": ["X...", "XXXX"],
    "N": ["XX..", ".XXX"],
    "P": ["XX", "XX", "X."],
    "U": ["X.X", "XXX"],
    "V": ["X..", "X..", "XXX"],
    "Y": [".X..", "XXXX"],
    "Z": ["XX.", ".X.", ".XX"],
    "T": ["XXX", ".X.", ".X."],
    "I4": ["XXXX"],
    "L4": ["XXX", "X.."],
    "S4": [".XX", "XX."],
}
CLASSIC_ROWS = ["Jan Feb Mar Apr May Jun", "Jul Aug Sep Oct Nov Dec"] + [
    " ".join(str(d) for d in range(r, min(r + 7, 32))) for r in range(1, 32, 7)
]
WEEKDAY_ROWS = CLASSIC_ROWS[:6] + ["29 30 31 Sun Mon Tue Wed", ". . . . Thu Fri Sat"]


@pytest.fixture(scope="module")
def classic() -> Calendar:
    return Calendar(parse(BUILT_IN["classic"], "classic"))


@pytest.fixture(scope="module")
def weekday() -> Calendar:
    return Calendar(parse(BUILT_IN["weekday"], "weekday"))


def published() -> dict[tuple[int, int], int]:
    table = {}
    for line in (TESTS / "calendar" / "anowell-count_solutions.txt").read_text().splitlines():
        m = re.fullmatch(r"(\d\d)-(\d\d) has (\d+) solutions", line)
        assert m, line
        table[int(m.group(1)), int(m.group(2))] = int(m.group(3))
    return table


def labelled_cells(rows: list[str]) -> dict[str, tuple[int, int]]:
    return {label: (r, c) for r, row in enumerate(rows) for c, label in enumerate(row.split()) if label != "."}


def checker_count(rows: list[str], pieces: list[str], open_labels: list[str]) -> int:
    """tests/checker.py's brute force on the board without the open cells."""
    cells = labelled_cells(rows)
    board = {cell: "" for label, cell in cells.items() if label not in open_labels}
    tiles = [
        {
            "cells": {(r, c): "" for r, row in enumerate(SHAPES[p]) for c, ch in enumerate(row) if ch == "X"},
            "count": 1,
            "min": 1,
            "reflect": True,
        }
        for p in pieces
    ]
    return len(checker.all_solutions(board, tiles, 2))


# ---- counts from outside --------------------------------------------------------------------


def test_the_classic_board_is_the_published_one(classic):
    assert classic.board.labels == tuple(" ".join(CLASSIC_ROWS).split())
    assert [tuple(c) for c in classic.cells.tolist()] == list(labelled_cells(CLASSIC_ROWS).values())


@pytest.mark.parametrize("jobs", [1, 2])
def test_every_date_of_the_classic_puzzle_matches_the_published_table(classic, jobs):
    tally = classic.tally(jobs)
    assert len(tally.dates) == 366 and tally.packings == 25061
    assert {(m, d): n for (m, d, _), n in zip(tally.dates, tally.counts)} == published()


def test_the_tree_in_parts_is_the_whole_tree(classic):
    """Each part alone (a fresh memo each), summed: the same counts as one search."""
    whole = classic._run(0, True, 0)[0]
    parts = [classic._run(0, True, 0, part)[0] for part in classic.parts()]
    assert len(parts) > 10 and (sum(parts) == whole).all()


@pytest.mark.parametrize("month, day", [(10, 6), (4, 6), (1, 25)])
def test_classic_sample_dates_against_the_independent_checker(classic, month, day):
    pieces = ["2X3", "L", "N", "P", "U", "V", "Y", "Z"]
    expected = checker_count(CLASSIC_ROWS, pieces, [MONTHS[month - 1], str(day)])
    assert expected == published()[month, day]
    assert classic.count((month, day, None)) == expected


def test_a_weekday_date_against_the_independent_checker(weekday):
    pieces = ["I4", "L4", "S4", "L", "N", "P", "T", "U", "V", "Z"]
    expected = checker_count(WEEKDAY_ROWS, pieces, ["Apr", "6", "Mon"])
    assert weekday.count((4, 6, 0)) == expected
    tally = weekday.tally()
    assert dict(zip(tally.dates, tally.counts))[(4, 6, 0)] == expected
    assert len(tally.dates) == 2562 and min(tally.counts) > 0


# ---- every printed solution verified ---------------------------------------------------------


def free_forms(cells) -> set:
    """The shapes a set of cells takes under rotation and reflection, each normalised."""
    out = set()
    for flip in (False, True):
        pts = [(r, -c) if flip else (r, c) for r, c in cells]
        for _ in range(4):
            pts = [(c, -r) for r, c in pts]
            lo = (min(r for r, _ in pts), min(c for _, c in pts))
            out.add(frozenset((r - lo[0], c - lo[1]) for r, c in pts))
    return out


def verify(cal: Calendar, solution, open_labels: list[str]) -> None:
    """Each cell covered once, exactly the date's cells open, each piece once in its shape."""
    cells = labelled_cells(WEEKDAY_ROWS if "Sun" in cal.board.labels else CLASSIC_ROWS)
    covered = [tuple(c) for pl in solution.placements for c in pl.cells.tolist()]
    assert len(covered) == len(set(covered))
    assert set(covered) == {cell for label, cell in cells.items() if label not in open_labels}
    names = sorted(pl.piece for pl in solution.placements)
    assert names == sorted(name for name, _ in cal.board.pieces)
    for pl in solution.placements:
        shape = [(r, c) for r, row in enumerate(SHAPES[pl.piece]) for c, ch in enumerate(row) if ch == "X"]
        assert free_forms([tuple(c) for c in pl.cells.tolist()]) == free_forms(shape)


@pytest.mark.parametrize("date, labels", [((10, 6, None), ["Oct", "6"]), ((2, 29, None), ["Feb", "29"])])
def test_every_solution_of_a_date_is_valid_and_distinct(classic, date, labels):
    total, found = classic.solve(date, 1000)
    assert total == published()[date[:2]] == len(found)
    for s in found:
        verify(classic, s, labels)
    assert len({frozenset(frozenset(map(tuple, pl.cells.tolist())) for pl in s.placements) for s in found}) == total


def test_weekday_solutions_are_valid(weekday):
    total, found = weekday.solve((11, 25, 2), 5)
    assert total > 0 and len(found) == 5
    for s in found:
        verify(weekday, s, ["Nov", "25", "Wed"])


def test_the_printed_solution_shows_the_open_labels(capsys):
    assert main(["calendar", "--date", "2026-10-06", "--solve", "7"]) == 0
    out = capsys.readouterr().out
    head, *grids = out.strip().split("\n\n")
    assert head == "Oct 6: 7 solutions" and len(grids) == 7
    cells = labelled_cells(CLASSIC_ROWS)
    seen = set()
    for grid in grids:
        rows = grid.split("\n")
        shown = {(r, c): row[4 * c : 4 * c + 4].strip() for r, row in enumerate(rows) for c in range(len(row) // 4)}
        assert {cell for cell, text in shown.items() if text} == set(cells.values())
        assert {shown[cells["Oct"]], shown[cells["6"]]} == {"Oct", "6"}
        letters = {}
        for cell, text in shown.items():
            if cell not in (cells["Oct"], cells["6"]) and text:
                assert len(text) == 1
                letters.setdefault(text, []).append(cell)
        assert sorted(len(v) for v in letters.values()) == [5] * 7 + [6]
        seen.add(frozenset(frozenset(v) for v in letters.values()))
    assert len(seen) == 7


# ---- the tally against plain searches ---------------------------------------------------------


def plain_count(cal: Calendar, open_cells: list[int]) -> int:
    """polytile's ordinary Tiling count on the board with the date's cells removed."""
    import numpy as np
    from polytile.core.library import cells_from_rows
    from polytile.core.puzzle import Board, Piece, Puzzle
    from polytile.tiling.solver import Tiling

    keep = [i for i in range(len(cal.cells)) if i not in open_cells]
    board = Board(cal.cells[keep], np.zeros(len(keep), np.int64))
    pieces = [
        Piece(name, cells_from_rows(list(rows)), np.zeros(sum(r.count("X") for r in rows), np.int64))
        for name, rows in cal.board.pieces
    ]
    return Tiling(Puzzle(board, pieces)).count().solutions


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 365))
def test_the_tally_agrees_with_plain_counts_of_random_dates(classic, i):
    tally = classic.tally()
    date = tally.dates[i]
    assert tally.counts[i] == plain_count(classic, classic.open_cells(date)) == classic.count(date)


@st.composite
def custom_boards(draw):
    """A random board: a few month and day cells among plain cells in a 4 x 5 frame with
    holes, pieces chosen so the areas agree."""
    holes = draw(st.sets(st.integers(0, 19), max_size=4))
    slots = [i for i in range(20) if i not in holes]
    months = draw(st.integers(1, 3))
    days = draw(st.integers(1, 4))
    chosen = draw(st.permutations(slots))
    labels = {i: "*" for i in slots}
    labels.update({i: MONTHS[k] for k, i in enumerate(chosen[:months])})
    labels.update({i: str(k + 1) for k, i in enumerate(chosen[months : months + days])})
    fill = len(slots) - 2
    sets = _piece_sets(fill)
    assume(sets)
    pieces = draw(st.sampled_from(sets))
    rows = [" ".join(labels.get(r * 5 + c, ".") for c in range(5)) for r in range(4)]
    return "\n".join(rows) + "\npieces: " + " ".join(pieces) + "\n"


def _piece_sets(area: int) -> list[list[str]]:
    sizes = {"L": 5, "P": 5, "U": 5, "V": 5, "I4": 4, "L4": 4, "S4": 4, "2x3": 6, "T": 5}
    out = []
    names = sorted(sizes)
    for a in names:
        for b in names:
            for c in names:
                if a < b < c and sizes[a] + sizes[b] + sizes[c] == area:
                    out.append([a, b, c])
                for d in names:
                    if a < b < c < d and sizes[a] + sizes[b] + sizes[c] + sizes[d] == area:
                        out.append([a, b, c, d])
    return out


@settings(max_examples=12, deadline=None)
@given(custom_boards())
def test_the_tally_of_a_random_board_agrees_with_plain_counts(text):
    cal = Calendar(parse(text, "random"))
    tally = cal.tally()
    group, weight, members = cal.groups
    for date, n in zip(tally.dates, tally.counts):
        assert n == plain_count(cal, cal.open_cells(date)), (text, date)
    assert tally.packings == sum(tally.counts) + _off_calendar(cal, tally)


def _off_calendar(cal: Calendar, tally) -> int:
    """Packings whose open month and day make no date (say Feb 30): the tally's rest."""
    counts, _, _ = cal._run(0, True, 0)
    return int(counts.sum()) - sum(tally.counts)


# ---- the command and bad input ------------------------------------------------------------------


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "polytile", "calendar", *args], capture_output=True, text=True)


def test_all_dates_json_and_csv_from_the_command():
    p = run("--all-dates", "--format", "json")
    data = json.loads(p.stdout)
    assert data["every_date_solvable"] and data["number_of_dates"] == 366
    assert data["hardest"] == {"solutions": 7, "dates": ["Oct 6"]}
    assert data["easiest"] == {"solutions": 216, "dates": ["Jan 25"]}
    assert {
        (MONTHS.index(r["month"]) + 1 if isinstance(r["month"], str) else r["month"], r["day"]): r["solutions"]
        for r in data["dates"]
    } == published()
    rows = run("--all-dates", "--format", "csv").stdout.splitlines()
    assert rows[0] == "month,day,weekday,solutions" and rows[1] == "Jan,1,,64" and len(rows) == 367


def test_the_year_picture_renders(tmp_path):
    out = tmp_path / "year.svg"
    assert main(["calendar", "--all-dates", "--format", "svg", "-o", str(out)]) == 0
    svg = out.read_text()
    assert svg.startswith("<?xml") and "<svg" in svg
    assert "<image" in svg and svg.count("<use") > 366  # the heat map, a figure per date
    png = tmp_path / "year.png"
    assert main(["calendar", "--all-dates", "--format", "png", "-o", str(png)]) == 0
    assert png.read_bytes().startswith(b"\x89PNG")


def test_a_board_file(tmp_path, capsys):
    board = tmp_path / "board.txt"
    board.write_text("# two months, three days\nJan Feb * *\n1 2 3 *\n* * * *\npieces: L4 2x3\n")
    assert main(["calendar", "--board", str(board), "--all-dates", "--format", "csv"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[0] == "month,day,weekday,solutions" and len(rows) == 1 + 6


@pytest.mark.parametrize(
    "args, says",
    [
        (["--date", "Feb 30"], "--date: Feb has no day 30"),
        (["--date", "2026-02-30"], "is not a date"),
        (["--date", "Smarch 3"], "cannot read 'Smarch 3' as a date"),
        (["--board", "weekday", "--date", "Nov 25"], "give a full date"),
        (["--board", "/nonexistent/board.txt"], "no such file"),
        (["--all-dates", "--date", "Nov 25"], "leave out --date"),
        (["--format", "png"], "needs -o FILE"),
        (["--format", "bmp"], "unknown format"),
    ],
)
def test_bad_input_is_one_line_exit_2(args, says):
    p = run(*args)
    assert p.returncode == 2 and p.stdout == ""
    assert len(p.stderr.splitlines()) == 1 and says in p.stderr, p.stderr


@pytest.mark.parametrize(
    "text, says",
    [
        ("Jan Feb\n1 1\npieces: I4\n", "'1' appears twice (first at line 2)"),
        ("Jan Feb\n1 2\npieces: Q\n", "unknown piece 'Q'"),
        ("Jan Feb\n1 2\npieces: 1x1 1x1\n", "unknown piece '1x1'"),
        ("Jan Feb\n1 2\n", "no pieces line"),
        ("* * *\npieces: L4\n", "no month, day or weekday cell"),
        ("Jan Feb * *\n1 2 * *\npieces: L4 I4\n", "the pieces cover 8 cells, the board leaves 6"),
        ("Jan Feb\n1 2\npieces: I4\nJan\n", "nothing may follow the pieces line"),
        ("Jan\n" + "* " * 64 + "1\npieces: I4\n", "spans 2 rows x 65 columns"),
    ],
)
def test_bad_boards_name_the_place(tmp_path, text, says):
    path = tmp_path / "b.txt"
    path.write_text(text)
    p = run("--board", str(path), "--count", "--date", "Jan 1")
    assert p.returncode == 2 and len(p.stderr.splitlines()) == 1 and says in p.stderr, p.stderr
    assert str(path) in p.stderr
