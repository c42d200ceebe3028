"""Boxing puzzles against the corpus, random solutions, impossible boxes."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from cli_helpers import call_cli

from checker import as_set, check
from conftest import tiling_cases

CASES = {c["id"]: c for c in tiling_cases()}
# the five free tetrominoes, drawn by hand
TETROMINOES = ["XXXX", "XX\nXX", "XXX\n X", "XXX\nX", "XX\n XX"]


def box(*args):
    return call_cli("box", *args)


@pytest.mark.parametrize("case_id, size", [("tetromino-box-8x5-2each", "8x5"), ("tetromino-box-4x5-atmost2", "4x5")])
def test_corpus_boxes(case_id, size):
    case = CASES[case_id]
    out = json.loads(box("--order", 4, "--size", size, "--max-copies", 2, "--count", "--json").stdout)
    assert (out["solutions"], out["unique"]) == (case["solutions"], case["unique"])
    assert set(out) == {"solutions", "unique", "seconds", "nodes", "complete", "method"} and out["complete"] is True


def test_pentomino_box_is_the_6x10():
    case = CASES["pentomino-6x10"]
    out = json.loads(box("--order", 5, "--size", "10x6", "--max-copies", 1, "--count", "--json").stdout)
    assert (out["solutions"], out["unique"]) == (case["solutions"], case["unique"])


def test_random_solutions_repeatable_distinct_verified(tmp_path):
    args = ("--order", 4, "--size", "8x5", "--max-copies", 2, "--random", 20, "--seed", 1, "--format", "json")
    first, second = box(*args), box(*args)
    assert first.returncode == 0 and first.stdout == second.stdout
    sols = [[(p["piece"], p["cells"]) for p in s] for s in json.loads(first.stdout)["solutions"]]
    assert len(sols) == 20 and len({as_set(s) for s in sols}) == 20
    drawing = tmp_path / "box.txt"
    drawing.write_text("\n".join(["X" * 8] * 5) + "\n\n" + "\n\n".join(TETROMINOES * 2) + "\n")
    for s in sols:
        check(drawing, s, reflect=True, partial=False)
    other = box(*args[:-4], "--seed", 2, "--format", "json")
    assert other.stdout != first.stdout


def test_sampling_is_near_uniform():
    """Dominoes in a 4 x 3 box: 11 tilings (a published count). 1100 draws of one random
    solution each, one seed per draw: chi-square with 10 degrees of freedom must stay
    below 29.59 (p = 0.001)."""
    from polytile.tiling.boxing import box_puzzle, sample
    from polytile.tiling.solver import Tiling

    tiling = Tiling(box_puzzle(2, 4, 3, 6))
    seen = Counter()
    for seed in range(1100):
        r, uniform = sample(tiling, 1, seed)
        assert uniform
        seen[as_set([(p.piece, p.cells.tolist()) for p in r.found[0].placements])] += 1
    assert len(seen) == 11
    chi2 = sum((n - 100) ** 2 / 100 for n in seen.values())
    assert chi2 < 29.59, chi2


@pytest.mark.parametrize(
    "args, words",
    [
        (("--order", 4, "--size", "7x5", "--max-copies", 2), "not a multiple of 4"),
        (("--order", 4, "--size", "8x5", "--max-copies", 1), "fewer than"),
    ],
)
def test_impossible_boxes_count_zero(args, words):
    p = box(*args, "--count", "--json")
    assert p.returncode == 0 and json.loads(p.stdout)["solutions"] == 0
    assert words in p.stderr
    p = box(*args)
    assert p.returncode == 1 and words in p.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("--order", 0, "--size", "4x4", "--max-copies", 1),
        ("--order", 4, "--size", "8by5", "--max-copies", 1),
        ("--order", 4, "--size", "8x5", "--max-copies", 1, "--min-copies", 2),
        ("--order", 4, "--size", "8x5", "--max-copies", 2, "--format", "gif"),
    ],
)
def test_invalid_box_input(args):
    p = box(*args)
    assert p.returncode == 2
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in p.stderr


def test_an_interrupted_count_says_what_it_knows_of_unique():
    """A count cut short by its time limit said `unique: 0` beside thousands of solutions. A
    class holds at most |G| = 8 solutions of a square box, so at least solutions / 8 classes
    were met: the report says that much (a lower bound, as its solutions are)."""
    res = box("--order", 4, "--size", "8x8", "--max-copies", 4, "--count", "--json", "--time-limit", 0.5)
    assert res.returncode == 124, res.stderr
    out = json.loads(res.stdout)
    assert out["complete"] is False and out["reason"] == "time limit"
    assert out["solutions"] > 0
    assert -(-out["solutions"] // 8) <= out["unique"] <= out["solutions"]
    text = box("--order", 4, "--size", "8x8", "--max-copies", 4, "--count", "--time-limit", 0.5).stdout
    assert "unique: 0\n" not in text and "complete: no (time limit" in text


def test_an_unknown_unique_is_said_so():
    from polytile.core.results import Report

    cut = Report(solutions=12, unique=None, complete=False, timed_out=True)
    assert "unique: unknown" in cut.text_lines(unique=True)
    assert cut.to_json()["unique"] is None
    assert not any(line.startswith("unique") for line in cut.text_lines(unique=False))
    assert not any(line.startswith("unique") for line in Report(solutions=12).text_lines(unique=True))
