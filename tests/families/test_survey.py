"""Hole surveys: hand-counted small surveys, the class count against Burnside's lemma, the
reasons, resuming, and the committed 8x8 four-hole survey against the corpus."""

from __future__ import annotations

import csv
import gzip
import io
import json
import math

import numpy as np
import pytest
from cli_helpers import call_cli

from conftest import CORPUS, tiling_cases
from paths import DOCS
from polytile.analysis import survey

RESULTS = DOCS / "survey-8x8-4-holes.csv.gz"


@pytest.fixture()
def two_dominoes(tmp_path):
    f = tmp_path / "dominoes.json"
    f.write_text(json.dumps({"board": ["XX"], "pieces": [{"cells": [[0, 0], [0, 1]], "count": 2}]}))
    return str(f)


def run(*args):
    return call_cli("survey", "holes", *args)


# Counted by hand. The 3 x 2 board (rows 0-1, columns 0-2) with 2 holes and 2 dominoes:
# 15 hole pairs, 6 classes under the board's 4 symmetries:
#   {(0,0),(1,0)}  2 boards  a 2x2 block left: 2 tilings
#   {(0,0),(0,1)}  4 boards  (0,2)-(1,2) then (1,0)-(1,1): 1 tiling
#   {(0,0),(1,1)}  4 boards  (1,0) is cut off: 0
#   {(0,0),(0,2)}  2 boards  (0,1)-(1,1) is forced, then (1,0) and (1,2) are alone: 0 (search)
#   {(0,0),(1,2)}  2 boards  (0,1)-(0,2) and (1,0)-(1,1): 1 tiling
#   {(0,1),(1,1)}  1 board   two vertical dominoes: 1 tiling
HAND = {
    ((0, 0), (1, 0)): (2, 2, "tiled"),
    ((0, 0), (0, 1)): (4, 1, "tiled"),
    ((0, 0), (1, 1)): (4, 0, "cut off"),
    ((0, 0), (0, 2)): (2, 0, "search"),
    ((0, 0), (1, 2)): (2, 1, "tiled"),
    ((0, 1), (1, 1)): (1, 1, "tiled"),
}


def test_hand_counted_survey(two_dominoes, tmp_path):
    out_csv = tmp_path / "boards.csv"
    p = run("--board", "3x2", "--holes", 2, "--pieces", two_dominoes, "--csv", out_csv, "--json")
    assert p.returncode == 0, p.stderr
    s = json.loads(p.stdout)
    assert (s["hole_sets"], s["classes"], s["tileable"]) == (15, 6, 4)
    assert s["not_tileable"] == {"cut off": 1, "region size": 0, "search": 1}
    assert s["tilings_all_boards"] == 2 * 2 + 4 * 1 + 2 * 1 + 1 * 1
    rows = list(csv.DictReader(out_csv.open()))
    got = {
        tuple(tuple(map(int, c.split(","))) for c in r["holes"].split()): (
            int(r["boards_in_class"]),
            int(r["tilings"]),
            r["status"],
        )
        for r in rows
    }
    assert got == HAND


def test_text_summary(two_dominoes):
    p = run("--board", "3x2", "--holes", 2, "--pieces", two_dominoes)
    assert p.returncode == 0
    assert "up to symmetry: 6" in p.stdout and "tileable: 4" in p.stdout
    assert "most tilings: 2 with holes at (0,0) (1,0)" in p.stdout


def burnside(width, height, k):
    """Classes of k-sets of cells under the rectangle's symmetries, by Burnside's lemma:
    a k-set is fixed by g when it is a union of g's cycles."""
    cells = [(r, c) for r in range(height) for c in range(width)]
    maps = [
        lambda r, c: (r, c),
        lambda r, c: (height - 1 - r, c),
        lambda r, c: (r, width - 1 - c),
        lambda r, c: (height - 1 - r, width - 1 - c),
    ]
    if width == height:
        n = width - 1
        maps += [lambda r, c: (c, r), lambda r, c: (n - c, n - r), lambda r, c: (c, n - r), lambda r, c: (n - c, r)]
    total = 0
    for g in maps:
        seen, lengths = set(), []
        for x in cells:
            if x not in seen:
                n_cyc, y = 0, x
                while y not in seen:
                    seen.add(y)
                    y = g(*y)
                    n_cyc += 1
                lengths.append(n_cyc)
        ways = [1] + [0] * k  # k-sets made of whole cycles
        for length in lengths:
            for s in range(k, length - 1, -1):
                ways[s] += ways[s - length]
        total += ways[k]
    return total // len(maps)


@pytest.mark.parametrize("w,h,k", [(8, 8, 4), (3, 2, 2), (6, 4, 4), (5, 5, 5), (7, 3, 1)])
def test_hole_classes_match_burnside(w, h, k):
    from polytile.core.cover import build
    from polytile.core.symmetry import analyse

    model = build(survey.survey_puzzle(survey.rectangle(w, h), [], w * h))  # the bare board
    reps, orbit = survey.hole_classes(analyse(model).perms, k)
    assert len(reps) == burnside(w, h, k)
    assert int(orbit.sum()) == math.comb(w * h, k)


def test_region_reasons_on_drawn_boards():
    """8x8 with the pentominoes: holes (0,1) (1,0) cut off the corner cell; the diagonal
    (0,3) (1,2) (2,1) (3,0) walls off 6 cells, not a multiple of 5."""
    from polytile.core.cover import build

    cells = survey.rectangle(8, 8)
    pieces = survey.piece_set("pentominoes")
    model = build(survey.survey_puzzle(cells, pieces, 4))
    index = {tuple(c): i for i, c in enumerate(model.cells.tolist())}
    boards = {
        1: [(0, 1), (1, 0), (7, 7), (7, 6)],
        2: [(0, 3), (1, 2), (2, 1), (3, 0)],
        0: [(3, 3), (3, 4), (4, 3), (4, 4)],
    }
    sets = np.array([sorted(index[c] for c in holes) for holes in boards.values()])
    got = survey._regions(sets, model.cover.neighbours.astype(np.int64), survey.fillable_sizes(pieces, 64), 5)
    assert got.tolist() == list(boards)


def test_interrupted_survey_resumes_to_the_same_results(tmp_path):
    db = str(tmp_path / "s.sqlite")
    calls = []

    def stop_after_one(done, total, fraction, nodes):
        calls.append(done)
        raise KeyboardInterrupt

    first = survey.run(6, 4, 4, "tetrominoes", jobs=2, db=db, progress=stop_after_one)
    assert not first.complete and calls
    again = survey.run(6, 4, 4, "tetrominoes", jobs=2, db=db)
    assert again.complete and again.resumed_tasks >= 1
    whole = survey.run(6, 4, 4, "tetrominoes", jobs=1)
    assert again.summary()["tilings_all_boards"] == whole.summary()["tilings_all_boards"]
    assert [(b.holes, b.tilings, b.status) for b in again.boards] == [
        (b.holes, b.tilings, b.status) for b in whole.boards
    ]
    other = run("--board", "5x5", "--holes", 5, "--pieces", "tetrominoes", "--db", db)
    assert other.returncode == 2 and "another board" in other.stderr


def test_survey_agrees_with_counting_each_board():
    """Two different searches: the survey's one search over all boards, and a count of
    each board of the 7x3 survey with one hole on its own."""
    from polytile.core.puzzle import Board, Puzzle
    from polytile.tiling.solver import Tiling

    res = survey.run(7, 3, 1, "tetrominoes", jobs=2)
    pieces = survey.piece_set("tetrominoes")
    for b in res.boards:
        cells = np.array([c for c in survey.rectangle(7, 3).tolist() if tuple(c) not in b.holes])
        t = Tiling(Puzzle(Board(cells, np.zeros(len(cells), dtype=np.int64)), pieces))
        assert t.count().solutions == b.tilings, b


@pytest.mark.parametrize(
    "args,message",
    [
        (["--board", "8x8", "--holes", 3], "the pieces cover 60 cells"),
        (["--board", "9x9", "--holes", 21], "placements of 21 holes"),
        (["--board", "axb"], "--board"),
        (["--pieces", "heptominoes"], "unknown piece set"),
    ],
)
def test_bad_survey_input(args, message):
    p = run(*args)
    assert p.returncode == 2 and message in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1 and "Traceback" not in p.stderr


# ---- the committed 8x8 survey ---------------------------------------------------------


def d4(holes):
    n = 7
    maps = [
        lambda r, c: (r, c),
        lambda r, c: (n - r, c),
        lambda r, c: (r, n - c),
        lambda r, c: (n - r, n - c),
        lambda r, c: (c, r),
        lambda r, c: (n - c, n - r),
        lambda r, c: (c, n - r),
        lambda r, c: (n - c, r),
    ]
    return {tuple(sorted(g(*h) for h in holes)) for g in maps}


def test_committed_8x8_survey_matches_the_corpus():  # the file is committed: its absence fails
    rows = list(csv.DictReader(io.StringIO(gzip.decompress(RESULTS.read_bytes()).decode())))
    table = {tuple(tuple(map(int, c.split(","))) for c in r["holes"].split()): r for r in rows}
    assert len(rows) == burnside(8, 8, 4)
    assert sum(int(r["boards_in_class"]) for r in rows) == math.comb(64, 4)
    checked = 0
    for case in tiling_cases():
        text = (CORPUS / "tiling" / case["file"]).read_text() if case["file"].endswith(".txt") else ""
        if not case["id"].startswith("pentomino-8x8"):
            continue
        board = text.split("\n\n")[-1].strip("\n").splitlines()
        holes = [(r, c) for r in range(8) for c in range(8) if c >= len(board[r]) or board[r][c] == " "]
        assert len(holes) == 4, case["id"]
        row = next(table[h] for h in d4(holes) if h in table)
        assert int(row["tilings"]) == case["solutions"], case["id"]
        checked += 1
    assert checked == 10
