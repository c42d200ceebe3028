"""Shikaku grades (`shikaku.grading`, `shikaku.graded`): hand-graded grids, generated grids of
each level (unique by the brute force of tests/checker.py, solved at their level and not
below), the rules' soundness on random grids, and the command line."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from checker import shikaku_solutions
from cli_helpers import call_cli
from polytile.shikaku import graded, grading
from polytile.shikaku.generate import partition
from polytile.shikaku.graded import generate_graded
from polytile.shikaku.hardness import measure
from polytile.shikaku.grading import grade, solves
from polytile.shikaku.grid import Shikaku

# Level 1. The 6 at (1, 2) of this 4 x 2 grid fits only as the 2 x 3 on columns 1-3 (on
# columns 0-2 it would hold the 2): "one rectangle left". Cell (1, 0) is then covered only by
# the 2 standing upright: "one rectangle covers a cell". Both are level-1 rules.
LEVEL_1 = [[2, 0, 0, 0], [0, 0, 6, 0]]

# Level 2. Each 6 of this 4 x 3 grid has three rectangles (3 x 2 on its own side, or 2 x 3 on
# the top or bottom two rows), and every cell is covered by at least two: level 1 is stuck.
# Cell (0, 0) is reached by the left 6 only, and so is cell (2, 0): the left 6 keeps the
# rectangles holding both, only the 3 x 2 on columns 0-1 ("a cell only one number reaches");
# the right 6 likewise; then each has one rectangle left.
LEVEL_2 = [[0, 0, 0, 0], [6, 0, 0, 6], [0, 0, 0, 0]]

# Level 3. The 2 at (0, 1) may go left or right; the 4 at (0, 3) is the column 3 or the
# square (0-1, 2-3), so (0, 3) and (1, 3) are its core and the 3 at (1, 1) cannot run right
# along row 1 (level 2); then every rule of levels 1-2 stalls (each number keeps two or more
# rectangles). Trial: if the 2 went left ((0, 0)-(0, 1)), the 4 at (3, 0) could not be column
# 0, so cell (1, 0) is covered only by the 3 running left along row 1 ((1, 0)-(1, 2)); that
# takes (1, 2), which both the 4's square and the 3 at (2, 2) standing in column 2 need, and
# then nothing covers cell (0, 2): a contradiction. So the 2 goes right, and the rest is forced.
LEVEL_3 = [[0, 2, 0, 4], [0, 3, 0, 0], [0, 0, 3, 0], [4, 0, 0, 0]]


# Level 4, found by the climb of `graded` (too large to grade by hand): at the end of level 3
# the 2 at the bottom left is the only number with at most 3 rectangles left (two), and
# neither leads to a contradiction under levels 1-2; the brute force says it is unique.
LEVEL_4 = [
    [0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 6],
    [0, 0, 0, 0, 0, 5, 0, 8, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 9, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0],
    [0, 0, 8, 0, 6, 0, 4, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 12, 0],
    [0, 0, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0],
    [9, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0],
    [0, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 10, 0, 0, 0, 6, 0, 0, 4, 4, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10],
    [2, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0],
]


def _grid(rows: list[list[int]]) -> Shikaku:
    return Shikaku.from_rows(rows)


def _brute(p: Shikaku) -> list:
    return shikaku_solutions(p.width, p.height, {(r, c): v for r, c, v in p.clues})


@pytest.mark.parametrize("rows,level", [(LEVEL_1, 1), (LEVEL_2, 2), (LEVEL_3, 3), (LEVEL_4, 4)])
def test_hand_graded_grids(rows, level):
    p = _grid(rows)
    (solution,) = _brute(p)
    g = grade(p)
    assert g.level == level and g.rectangles == solution
    assert solves(p, level) == solution
    assert level == 1 or solves(p, level - 1) is None
    assert max(grading.RULES[kind][0] for kind, _, _ in g.rules()) == level


def test_rules_counted_by_kind_and_depth():
    g = grade(_grid(LEVEL_3))
    rules = {(kind, depth): n for kind, depth, n in g.rules()}
    assert rules[("core", 0)] == 1  # the 3 running right along row 1
    assert rules[("trial", 1)] == 1  # the 2 going left
    assert all(depth == 0 for kind, depth in rules if kind != "trial")
    assert grade(_grid(LEVEL_2)).rules() == [("one-candidate", 0, 2), ("one-number", 0, 4)]


def test_level_four_stalls_at_level_three_on_one_short_number():
    p = _grid(LEVEL_4)
    b = grading.Board(p)
    st_ = grading.start(b)
    assert grading.propagate(b, st_, 3) == grading.STUCK
    short = [p.clues[k] for k in st_.open() if len(st_.live[k]) <= grading.TRY]
    assert short == [(11, 0, 2)]
    assert ("guess", 1) in grade(p).counts


def test_deeper_trial_counts_its_guesses_by_depth(monkeypatch):
    """Level 4's search, on the level-3 grid with trial switched off (TRY = 0: no number is
    tried): level 2 stalls as above; the search guesses a rectangle of the 2 (it has fewest,
    two): going left runs into the contradiction, going right solves it, so the path to the
    solution holds one guess, at depth 1, and the forced rectangles after it."""
    monkeypatch.setattr(grading, "TRY", 0)
    p = _grid(LEVEL_3)
    g = grade(p)
    assert g.level == 4 and [g.rectangles] == _brute(p)
    rules = {(kind, depth): n for kind, depth, n in g.rules()}
    assert rules[("guess", 1)] == 1 and rules[("core", 0)] == 1
    assert not any(kind == "trial" for kind, _ in rules)
    assert sum(n for (kind, depth), n in rules.items() if depth == 1 and kind != "guess") >= 1
    assert solves(p, 3) is None and solves(p, 4) == g.rectangles


def test_several_solutions_or_none_have_no_level():
    assert grade(_grid([[0, 4, 0, 0], [0, 0, 4, 0]])).reason == "more than one solution"
    assert grade(_grid([[3, 0], [0, 0]])).reason == "no solution"
    assert grade(_grid([[2, 0], [0, 2]])).level is None  # rows or columns


GENERATED = [
    (1, 6, 6, 1),
    (1, 6, 6, 2),
    (1, 8, 8, 3),
    (2, 6, 6, 1),
    (2, 8, 8, 2),
    (2, 8, 8, 3),
    (3, 8, 8, 1),
    (3, 8, 8, 2),
    (3, 8, 8, 4),
    (4, 8, 8, 1),  # level 4: a few seconds each
    (4, 10, 10, 6),
]


@pytest.mark.parametrize("level,w,h,seed", GENERATED)
def test_generated_grid_is_unique_and_solved_at_its_level_not_below(level, w, h, seed):
    p = generate_graded(w, h, level, seed)
    assert p is not None and (p.width, p.height) == (w, h)
    (solution,) = _brute(p)  # exactly one solution, by the independent brute force
    assert grade(p).level == level
    assert solves(p, level) == solution
    assert level == 1 or solves(p, level - 1) is None
    if level < 4:  # (level 4 takes its seconds once)
        assert generate_graded(w, h, level, seed) == p  # the seed decides


@pytest.mark.parametrize("rows,level", [(LEVEL_1, 1), (LEVEL_2, 2), (LEVEL_3, 3), (LEVEL_4, 4)])
def test_measure_finds_the_grade_and_stops_above_top(rows, level):
    """`hardness.measure` walks the grader's steps: the same level; asked for less, it says
    top + 1 without looking further."""
    p = _grid(rows)
    got, within, blame = measure(p)
    assert got == level and within >= 0
    assert (level == 3) == bool(blame)  # the numbers whose trials found contradictions
    if level == 3:  # the 2 at (0, 1), whose going left runs into one (see LEVEL_3)
        assert (0, 1) in blame
    for top in range(1, level):
        assert measure(p, top)[0] == top + 1


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 6), st.integers(2, 6), st.integers(0, 10**6))
def test_measure_agrees_with_grade_on_random_grids(w, h, seed):
    p, _ = _planted(w, h, seed)
    assert measure(p)[0] == grade(p).level


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 8), st.integers(2, 8), st.integers(0, 10**6))
def test_a_climb_step_keeps_a_tiling_with_one_clue_per_rectangle(w, h, seed):
    """Every move of the climb (clue moved, split, merge, edge moved) leaves rectangles that
    tile the grid, each holding its clue, none larger than MAX_AREA."""
    rng = random.Random(seed)
    where = {rect: rng.choice(graded._cells(rect)) for rect in partition(w, h, rng)}
    for _ in range(20):
        where = graded._step(where, rng, frozenset()) or where
        cells = [cell for rect in where for cell in graded._cells(rect)]
        assert sorted(cells) == [(y, x) for y in range(h) for x in range(w)]
        assert all(where[rect] in graded._cells(rect) for rect in where)
        assert all(rect[2] * rect[3] <= graded.MAX_AREA for rect in where)


def _planted(w: int, h: int, seed: int) -> tuple[Shikaku, list]:
    rng = random.Random(seed)
    rects = partition(w, h, rng, max_area=8)
    clues = {(*rng.choice([(y, x) for y in range(r, r + a) for x in range(c, c + b)]), a * b) for r, c, a, b in rects}
    return Shikaku(w, h, tuple(sorted(clues))), sorted(rects)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 7), st.integers(2, 7), st.integers(0, 10**6))
def test_the_rules_never_rule_out_a_solution(w, h, seed):
    """On random grids with a planted solution (one or more solutions), the rules of levels
    1-3 keep every rectangle of every solution the brute force finds, and the search of
    level 4 finds one of them."""
    p, planted = _planted(w, h, seed)
    solutions = _brute(p)
    assert planted in solutions
    b = grading.Board(p)
    st_ = grading.start(b)
    assert grading.propagate(b, st_, 3) != grading.CONTRADICTION
    live = {b.rect(k, m) for k, ms in enumerate(st_.live) for m in ms}
    for sol in solutions:
        assert set(sol) <= live
    found = grading.search(b, grading.start(b), 2)
    assert [grading._rects(b, s) for s in found][:1] in ([sol] for sol in solutions)
    g = grade(p)
    assert (g.level is not None) == (len(solutions) == 1)
    if g.level is not None:  # a unique grid: the grade's solution is the one
        assert [g.rectangles] == solutions


def test_cli_grade_text_and_json(tmp_path):
    path = tmp_path / "level3.txt"
    path.write_text(_grid(LEVEL_3).text())
    res = call_cli("shikaku", path, "--grade")
    assert res.returncode == 0
    lines = res.stdout.splitlines()
    assert lines[0] == "level 3: one level of trial"
    assert lines[1].split() == ["count", "depth", "rule"]
    assert "    1     1 trial: a rectangle that leads to a contradiction" in lines
    res = call_cli("shikaku", path, "--grade", "--format", "json")
    got = json.loads(res.stdout)
    assert got["level"] == 3 and {"rule": "trial", "level": 3, "depth": 1, "count": 1} in got["rules"]


def test_cli_grade_of_a_grid_with_two_solutions(tmp_path):
    path = tmp_path / "two.txt"
    path.write_text("4 2\n0 4 0 0\n0 0 4 0\n")
    res = call_cli("shikaku", path, "--grade")
    assert res.returncode == 1 and res.stdout == "level: none (more than one solution)\n"


def test_cli_grade_time_limit(tmp_path):
    path = tmp_path / "level3.txt"
    path.write_text(_grid(LEVEL_3).text())
    res = call_cli("shikaku", path, "--grade", "--time-limit", "0")
    assert res.returncode == 124 and res.stdout == "level: none (time limit)\n"


def test_cli_generate_with_difficulty():
    res = call_cli("shikaku", "--generate", "6x6", "--difficulty", "2", "--seed", "1")
    assert res.returncode == 0
    p = Shikaku.from_rows([[int(v) for v in line.split()] for line in res.stdout.splitlines()[1:]])
    assert len(_brute(p)) == 1 and grade(p).level == 2
    res = call_cli("shikaku", "--generate", "6x6", "--difficulty", "1", "--seed", "1", "--json")
    assert json.loads(res.stdout)["level"] == 1


def test_cli_level_four_not_found_is_one_line():
    """Level 4 is not found on small grids (see docs/shikaku.md): the tries run out."""
    res = call_cli("shikaku", "--generate", "5x5", "--difficulty", "4", "--seed", "1")
    assert res.returncode == 1 and res.stdout == ""
    assert res.stderr.startswith("polytile shikaku: no 5x5 puzzle of level 4 found in 60 tries")
    assert len(res.stderr.splitlines()) == 1


@pytest.mark.parametrize(
    "args,words",
    [
        (["--generate", "6x6", "--difficulty", "5"], "--difficulty"),
        (["--generate", "6x6", "--difficulty", "two"], "--difficulty"),
        (["-", "--difficulty", "2"], "--difficulty needs --generate"),
        (["-", "--grade", "--count"], "--grade"),
        (["--generate", "30x30", "--difficulty", "2"], "--generate"),
    ],
)
def test_cli_refuses_bad_difficulty_in_one_line(args, words):
    res = call_cli("shikaku", *args, input="2 1\n2 0\n")
    assert res.returncode == 2 and words in res.stderr and len(res.stderr.strip().splitlines()) == 1
