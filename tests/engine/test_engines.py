"""Engines on boards beyond the corpus, with counts known in closed form."""

from __future__ import annotations

import json

import pytest

import polytile
from checker import check
from conftest import CORPUS

XMPUZZLE = CORPUS.parent / "xmpuzzle"


def fibonacci(n: int) -> int:
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def domino_strip(tmp_path, n: int, copies: int | None = None):
    """A 2 x n board and n dominoes: F(n+1) tilings (count by the last column)."""
    f = tmp_path / f"strip{n}.json"
    f.write_text(
        json.dumps({"board": ["X" * n, "X" * n], "pieces": [{"name": "D", "cells": ["XX"], "count": copies or n}]})
    )
    return f


@pytest.mark.parametrize(
    "n, engine", [(5, "bitboard"), (12, "dlx"), (12, "wide"), (30, "auto"), (33, "auto"), (20, "dlx")]
)
def test_domino_strips(tmp_path, n, engine):
    f = domino_strip(tmp_path, n)
    r = polytile.load(f).count(engine=engine)
    assert r.solutions == fibonacci(n + 1) and r.complete


def test_engine_choice_by_size(tmp_path):
    small = polytile.load(domino_strip(tmp_path, 30)).count(method="enumerate")
    wide = polytile.load(domino_strip(tmp_path, 33)).count(method="enumerate")
    big = polytile.load(domino_strip(tmp_path, 140)).solve(limit=1)
    assert (small.engine, wide.engine, big.engine) == ("bitboard", "wide", "dlx")
    # counted without enumerating, dominoes go to Kasteleyn's Pfaffian (F(n+1) tilings)
    assert polytile.load(domino_strip(tmp_path, 33)).count().method == "pfaffian"


PENTOMINOES = [
    "XXXXX",
    "X\nXXXX",
    "XX\n XXX",
    "XXX\nXX",
    "XXX\n X\n X",
    "X X\nXXX",
    "X\nX\nXXX",
    "X\nXX\n XX",
    " X\nXXX\n X",
    " X\nXXXX",
    "XX\n X\n XX",
    " XX\nXX\n X",
]


@pytest.mark.parametrize("engine", ["wide", "dlx"])
def test_large_board_first_solution_verified(tmp_path, engine):
    """Two sets of pentominoes on 10 x 12 (120 cells): a first solution, verified."""
    f = tmp_path / "double.txt"
    f.write_text("\n".join(["X" * 12] * 10) + "\n\n" + "\n\n".join(PENTOMINOES * 2) + "\n")
    r = polytile.load(f).solve(limit=1, engine=engine, time_limit=60)
    assert len(r.found) == 1
    check(f, [(p.piece, p.cells.tolist()) for p in r.found[0].placements], reflect=True, partial=False)


def test_scattered_options_go_to_dancing_links():
    """Between 65 and 256 items, a cover whose options spread over many more items than they
    cover (BurrTools' Prisgon: prisms across several layers) is counted by dancing links, whose
    fewest-options rule visits far fewer nodes there than the wide kernel's lowest-item rule
    (count checked against burrTxt: 1 assembly, 6 solutions); SolidSixPieceBurrs' compact
    pieces stay on the wide kernel."""
    from polytile.engine.search import choose_engine, scattered
    from polytile.formats import load

    prisgon = polytile.Tiling(load(XMPUZZLE / "Prisgon.xmpuzzle"))
    auto = prisgon.count(method="enumerate")
    wide = prisgon.count(method="enumerate", engine="wide")
    assert (auto.engine, wide.engine) == ("dlx", "wide")
    assert auto.solutions == wide.solutions == 6 and auto.nodes * 10 < wide.nodes
    burrs = polytile.Tiling(load(XMPUZZLE / "SolidSixPieceBurrs.xmpuzzle")).model().cover
    assert not scattered(burrs) and choose_engine("auto", burrs.n_items, len(burrs.piece_count), burrs) == "wide"
