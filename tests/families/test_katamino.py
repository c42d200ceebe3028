"""Katamino: pieces by letter/colour/number, slam lists checked against the corpus."""

from __future__ import annotations

import json

import pytest
from cli_helpers import call_cli

from checker import check
from conftest import tiling_cases
from katamino_slams import SHAPES, TILING, slam_lists


def run(*args):
    return call_cli("katamino", *args)


@pytest.mark.parametrize("name", sorted(slam_lists()))
def test_slam_matches_corpus(name):
    order, cases = slam_lists()[name]
    p = run("--slam", ",".join(order), "--json")
    assert p.returncode == 0, p.stderr
    rows = {r["n"]: r for r in json.loads(p.stdout)}
    for n, case in cases.items():
        r = rows[n]
        assert (r["solutions"], r["unique"]) == (case["solutions"], case["unique"]), n
        assert r["solvable"] == (case["solutions"] > 0)
        assert r["first_seconds"] >= 0


def test_pieces_by_letter_colour_and_number():
    order, cases = slam_lists()["slam1"]
    case = cases[4]
    numbers = {"I": 1, "L": 2, "Y": 3, "N": 4, "V": 5, "P": 6, "U": 7, "Z": 8, "F": 9, "T": 10, "W": 11, "X": 12}
    colours = {
        "I": "lightbrown",
        "L": "orange",
        "Y": "darkbrown",
        "N": "purple",
        "V": "darkblue",
        "P": "pink",
        "U": "yellow",
        "Z": "lightblue",
        "F": "grey",
        "T": "darkgreen",
        "W": "lightgreen",
        "X": "red",
    }
    four = order[:4]
    mixed = [four[0], colours[four[1]], str(numbers[four[2]]), four[3].lower()]
    out = json.loads(run(*mixed, "--count", "--json").stdout)
    assert (out["solutions"], out["unique"]) == (case["solutions"], case["unique"])


def test_solutions_verified_against_corpus_drawing():
    order, cases = slam_lists()["slam2"]
    case = cases[6]
    p = run(*order[:6], "--all", "--json")
    sols = json.loads(p.stdout)["solutions"]
    assert len(sols) == case["solutions"]
    for s in sols:
        check(TILING / case["file"], [(x["piece"], x["cells"]) for x in s], reflect=True, partial=False)


def test_no_flip_counts_are_a_subset():
    """Rotate-only solutions are solutions with flips allowed; the board is the same."""
    order, cases = slam_lists()["slam1"]
    flip = json.loads(run(*order[:5], "--count", "--json").stdout)["solutions"]
    rot = json.loads(run(*order[:5], "--no-flip", "--count", "--json").stdout)["solutions"]
    assert 0 <= rot <= flip == cases[5]["solutions"]


def test_other_heights():
    """3 x 20 with all twelve is the corpus's 3x20 rectangle."""
    case = next(c for c in tiling_cases() if c["id"] == "pentomino-3x20")
    out = json.loads(run(*SHAPES, "--height", "3", "--count", "--json").stdout)
    assert (out["solutions"], out["unique"]) == (case["solutions"], case["unique"])


@pytest.mark.parametrize(
    "args, words",
    [
        (["F", "Q"], "unknown piece"),
        (["F", "red", "F"], "twice"),
        (["F", "I", "L", "--width", "4"], "cells"),
        (["F", "I", "L", "--height", "4"], "height"),
        (["--slam", "1,2"], "at least 3"),
        (["--slam", "1,2,99"], "unknown piece"),
        ([], "no pieces"),
    ],
)
def test_bad_katamino_input(args, words):
    p = run(*args)
    assert p.returncode == 2
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0] and "Traceback" not in p.stderr
