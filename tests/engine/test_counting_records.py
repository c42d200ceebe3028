"""The counting records: the 5 x n and 6 x n rectangles tiled by the 12 pentominoes (any number of
each), n = 1..40, counted by the frontier; n x n squares cut into rectangles (A360499) and oblongs
(A360498) of distinct dimensions, n <= 7, counted by enumeration. The expected terms are in
tests/records/sequences.json: published (OEIS) where published, the independent
bench/frontier_reference.py beyond (A174249 past n = 22); never polytile's own output. n = 8 (and
A360498's n = 9) take minutes: bench/bench_records.py runs them."""

from __future__ import annotations

import json

import pytest

import polytile
from paths import EXAMPLES, TESTS

SEQUENCES = json.loads((TESTS / "records" / "sequences.json").read_text())
PENTOMINOES = json.loads((EXAMPLES / "counting" / "pentominoes-any-6x10.json").read_text())["pieces"]
LONGEST = 40


def term(name: str, n: int) -> int:
    """a(n) of a sequence of the corpus: published, or the reference programme's beyond."""
    seq = SEQUENCES[name]
    i = n - seq["offset"]
    if i < len(seq["published"]):
        return int(seq["published"][i])
    ref = seq["reference"]
    return int(ref["terms"][n - ref["from"]])


def rectangle(h: int, n: int) -> int:
    """The published (or reference) count of h x n by the pentominoes, any number of each."""
    if h == 5:
        return term("A174249", n)
    return term("A233430", n // 5) if n % 5 == 0 else 0  # A233427: zero unless 5 divides h * n


def write(tmp_path, name: str, board: list[str], pieces: list[dict]):
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps({"board": board, "pieces": pieces}))
    return polytile.load(path)


def pentomino_board(tmp_path, h: int, n: int):
    pieces = [dict(p, count=h * n // 5, min=0) for p in PENTOMINOES]  # any number of each
    return write(tmp_path, f"pentominoes-{h}x{n}", ["X" * n] * h, pieces)


def distinct_rectangles(tmp_path, n: int, squares: bool):
    """Every a x b (a < b for oblongs only), each at most once; 1 x 2 stands in when no oblong
    fits (n = 1), since a puzzle needs a piece."""
    top = max(n, 2)
    dims = [(a, b) for a in range(1, top + 1) for b in range(a, top + 1) if squares or a < b]
    pieces = [{"name": f"{a}x{b}", "cells": ["X" * b] * a, "count": 1, "min": 0} for a, b in dims]
    return write(tmp_path, f"{'rectangles' if squares else 'oblongs'}-{n}", ["X" * n] * n, pieces)


def test_the_corpus_terms_are_complete():
    assert len(SEQUENCES["A174249"]["published"]) == 23  # a(0)..a(22)
    assert SEQUENCES["A174249"]["reference"]["from"] == 23
    assert all(rectangle(5, n) > 0 for n in range(1, LONGEST + 1))
    assert [n for n in range(1, LONGEST + 1) if rectangle(6, n)] == list(range(5, LONGEST + 1, 5))


@pytest.mark.parametrize("h", [5, 6])
def test_pentomino_rectangles_to_40_by_the_frontier(tmp_path, h):
    got, want = [], []
    for n in range(1, LONGEST + 1):
        r = pentomino_board(tmp_path, h, n).count(method="frontier")
        assert r.complete and r.method == "frontier"
        got.append(r.solutions)
        want.append(rectangle(h, n))
    assert got == want


@pytest.mark.parametrize("name, squares", [("A360499", True), ("A360498", False)])
def test_distinct_rectangles_to_7_by_enumeration(tmp_path, name, squares):
    got = []
    for n in range(1, 8):
        r = distinct_rectangles(tmp_path, n, squares).count(method="enumerate")
        assert r.complete and r.method == "enumerate"
        got.append(r.solutions)
    assert got == [term(name, n) for n in range(1, 8)]
