"""`design cards` and `design unique`: every card's puzzle re-counted by tests/checker.py's
brute force (no polytile code), each card solved by its level's rules and not by the level
below's, and the fixed sets of `design unique` checked by the brute force too."""

from __future__ import annotations

import json
import re
import time
from itertools import combinations

import pytest
from checker import TooMany, all_solutions, card_completions
from cli_helpers import call_cli
from paths import EXAMPLES

from polytile.analysis.design import cards
from polytile.analysis.grading import Logic, solves
from polytile.formats import load
from polytile.formats.polyjson import parse
from polytile.tiling.solver import Tiling

FIVE_BY_TWELVE = EXAMPLES / "pentomino-5x12.txt"


brute_count = card_completions


@pytest.fixture(scope="module")
def made():
    found, complete = cards(load(FIVE_BY_TWELVE), 24, 4, seed=3)
    assert complete
    return found


def test_cards_spread_over_the_four_levels(made):
    assert [sum(1 for c in made if c.level == lv) for lv in (1, 2, 3, 4)] == [6, 6, 6, 6]


def test_every_card_has_exactly_one_completion_by_the_brute_force(made):
    for card in made:
        data = card.to_json()
        assert brute_count(data["puzzle"]) == 1
        # the placed pieces and the solution cover the board, each cell once
        cells = [tuple(c) for p in data["placed"] + data["solution"] for c in p["cells"]]
        assert len(cells) == 60 == len(set(cells))
        assert {tuple(c) for c in data["puzzle"]["board"]} == {tuple(c) for p in data["solution"] for c in p["cells"]}


def test_every_card_is_solved_at_its_level_and_not_below(made):
    for card in made:
        data = card.to_json()
        puzzle = parse(json.dumps(data["puzzle"]))
        model = Tiling(puzzle).model()
        lg = Logic(model.cover)
        got = solves(lg, card.level)
        assert got is not None, card.level
        # (the board read back is translated to the origin)
        dr, dc = (min(c[i] for c in data["puzzle"]["board"]) - int(model.cells[:, i].min()) for i in (0, 1))
        cells = {frozenset((r + dr, c + dc) for r, c in model.placement(o)[1].tolist()) for o in got}
        assert cells == {frozenset(map(tuple, p["cells"])) for p in data["solution"]}
        if card.level > 1:
            assert solves(lg, card.level - 1) is None, card.level


def test_forced_placements_by_hand():
    # a 2x5 and two I pentominoes: the I covering (0, 0) can only lie along row 0 (one fit),
    # then the other along row 1: level 1. With two L pentominoes instead, the L at (0, 0)
    # lies along row 0 or row 1, or stands at the left: every cell has two fits or more, and
    # the rules (sound: they never rule out a solution) cannot choose between its 2 solutions.
    rows = [[r, c] for r in range(2) for c in range(5)]
    two_i = {"board": rows, "pieces": [{"name": "I", "cells": [[0, c] for c in range(5)], "count": 2}]}
    lg = Logic(Tiling(parse(json.dumps(two_i))).model().cover)
    assert solves(lg, 1) is not None
    two_l = {
        "board": rows,
        "pieces": [
            {"name": "L", "cells": [[0, 0], [0, 1], [0, 2], [0, 3], [1, 0]], "count": 2},
        ],
    }
    lg = Logic(Tiling(parse(json.dumps(two_l))).model().cover)
    assert solves(lg, 1) is None


def test_cards_are_the_same_on_one_and_two_jobs():
    one, _ = cards(load(FIVE_BY_TWELVE), 8, 4, seed=5)
    two, _ = cards(load(FIVE_BY_TWELVE), 8, 4, seed=5, jobs=2)
    assert [c.to_json() for c in one] == [c.to_json() for c in two]


@pytest.mark.parametrize(
    "name, rows, cols, n",
    [("pentomino-3x20.txt", 3, 20, 5), pytest.param("pentomino-6x10.txt", 6, 10, 3, marks=pytest.mark.slow)],
)
def test_unique_fixes_proven_minimal_by_the_brute_force(name, rows, cols, n):
    out = call_cli("design", "unique", EXAMPLES / name, "--solution", n, "--json")
    assert out.returncode == 0, out.stderr
    found = json.loads(out.stdout)
    assert found["proven_minimal"]
    fixed = [{tuple(c) for c in p["cells"]} for p in found["fixed"]]
    solution = Tiling(load(EXAMPLES / name)).solve(limit=n).found[n - 1]
    pieces = [set(map(tuple, p.cells.tolist())) for p in solution.placements]
    assert all(f in pieces for f in fixed)

    def completions(kept: list[set]) -> int:
        covered = set().union(*kept) if kept else set()
        board = {(r, c): "" for r in range(rows) for c in range(cols) if (r, c) not in covered}
        shapes = [p for p in solution.placements if set(map(tuple, p.cells.tolist())) not in kept]
        tiles = [
            {"cells": {tuple(c): "" for c in p.cells.tolist()}, "count": 1, "min": 1, "reflect": True} for p in shapes
        ]
        try:
            return len(all_solutions(board, tiles, 2, 1))
        except TooMany:
            return 2

    assert completions(fixed) == 1
    assert len(fixed) >= 1  # (no puzzle here has one solution)
    for smaller in combinations(pieces, len(fixed) - 1):
        assert completions(list(smaller)) == 2


def test_bad_input_is_one_line_and_status_2(tmp_path):
    (tmp_path / "partial.txt").write_text("XXX\nXXX\n\nXX\n")
    out = call_cli("design", "cards", "partial.txt", cwd=tmp_path)
    assert out.returncode == 2 and len(out.stderr.splitlines()) == 1 and "cover the board exactly" in out.stderr
    out = call_cli("design", "cards", FIVE_BY_TWELVE, "--placed", "12")
    assert out.returncode == 2 and len(out.stderr.splitlines()) == 1 and "--placed" in out.stderr
    out = call_cli("design", "unique", EXAMPLES / "pentomino-6x10.txt", "--solution", "999999")
    assert out.returncode == 2 and "solutions, not 999999" in out.stderr


def test_the_time_limit_is_honoured():
    t0 = time.perf_counter()
    out = call_cli("design", "cards", FIVE_BY_TWELVE, "--cards", "1000", "--time-limit", "2")
    assert time.perf_counter() - t0 < 20
    assert out.returncode == 1 and json.loads(out.stdout)["complete"] is False


def test_unique_stops_at_its_time_limit_unproven():
    out = call_cli(
        "design", "unique", EXAMPLES / "pentomino-6x10.txt", "--solution", "5", "--time-limit", "0", "--json"
    )
    assert out.returncode == 1 and json.loads(out.stdout)["proven_minimal"] is False


def test_the_svg_sheet_has_cards_and_mirrored_solutions(tmp_path):
    out = call_cli(
        "design", "cards", FIVE_BY_TWELVE, "--cards", "4", "--format", "svg", "-o", "sheet.svg", cwd=tmp_path
    )
    assert out.returncode == 0, out.stderr
    front, back = (tmp_path / "sheet-1.svg").read_text(), (tmp_path / "sheet-2.svg").read_text()
    assert 'width="210mm"' in front and 'height="297mm"' in front
    assert front.count('class="card"') == back.count('class="card"') == 4
    assert "Level 1" in front and "Solution" in back

    # the back's columns mirrored: the first card's solution at the right of its row
    def x_of(page: str, title: str) -> float:
        return float(re.search(r'<text x="([0-9.]+)"[^>]*>' + title + "<", page).group(1))

    assert x_of(front, "Level . . card 1") < x_of(front, "Level . . card 2")
    assert x_of(back, "Solution 1") > x_of(back, "Solution 2")
    out = call_cli(
        "design",
        "cards",
        FIVE_BY_TWELVE,
        "--cards",
        "4",
        "--format",
        "svg",
        "--paper",
        "letter",
        "-o",
        "l.svg",
        cwd=tmp_path,
    )
    assert out.returncode == 0 and 'width="215.9mm" height="279.4mm"' in (tmp_path / "l-1.svg").read_text()


@pytest.mark.slow
def test_a_hundred_cards_of_five_by_twelve_in_a_minute(tmp_path):
    t0 = time.perf_counter()
    out = call_cli("design", "cards", FIVE_BY_TWELVE, "--cards", "100", "--jobs", "2", "-o", "cards.json", cwd=tmp_path)
    seconds = time.perf_counter() - t0
    assert out.returncode == 0, out.stderr
    assert seconds < 60
    made = json.loads((tmp_path / "cards.json").read_text())["cards"]
    assert sorted({c["level"] for c in made}) == [1, 2, 3, 4] and len(made) == 100
    for card in made:
        assert brute_count(card["puzzle"]) == 1


def test_hint_names_the_rule_it_used(tmp_path):
    # the 2x5 with one P placed on the left: the 5 cells left are a P, each cell with one fit
    # (level 1); on the empty 2x5 the corner has 3 fits of the P and two of them lead to
    # solutions (the two P's swap places): no rule chooses, the search did
    (tmp_path / "p.txt").write_text("XXXXX\nXXXXX\n\nXX\nXX\nX\n\nXX\nXX\nX\n")
    (tmp_path / "g.txt").write_text("AAA..\nAA...\n")
    forced = json.loads(call_cli("hint", "p.txt", "--given", "g.txt", "--json", cwd=tmp_path).stdout)
    assert forced["rule"] == "rule: forced placements (level 1)" and forced["reason"].endswith(forced["rule"])
    free = json.loads(call_cli("hint", "p.txt", "--json", cwd=tmp_path).stdout)
    assert free["rule"] == "rule: search (one of several fits)"
