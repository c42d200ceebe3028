"""`polytile convert` to polytile JSON: the file written reads back to the same puzzle, so
its counts are the published ones (examples/README.md and the corpus name the sources)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_helpers import call_cli
from paths import EXAMPLES, TESTS

# file, all solutions, unique: published counts (Soma: Conway/Guy 240 unique; pentominoes 6x10:
# 2339 unique; hexiamonds 6x6 and tetrahexes 4x7: Polyform Puzzler; the 8x8 checkerboard
# with a centre hole: 6 unique, 24 in all, as the corpus records it)
PUBLISHED = [
    ("soma-3x3x3.json", 11520, 240),
    ("pentomino-5x12.txt", 4040, 1010),
    ("hexiamonds-6x6.json", 624, 156),
    ("tetrahexes-4x7.json", 18, 9),
    ("checkerboard-8x8-centre-hole.txt", 24, 6),
    ("../tests/corpus/tiling/partial-x-triplication.txt", 160, 20),  # corpus manifest
]


def counts(path: Path) -> tuple[int, int]:
    r = call_cli("count", path, "--unique", "--json", "--jobs", "1")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    return out["solutions"], out["unique"]


@pytest.mark.parametrize("name,solutions,unique", PUBLISHED)
def test_json_round_trip_keeps_the_counts(tmp_path, name, solutions, unique):
    out = tmp_path / "puzzle.json"
    r = call_cli("convert", EXAMPLES / name, out)
    assert r.returncode == 0, r.stderr
    data = json.loads(out.read_text())
    assert {"board", "pieces", "grid"} <= set(data)
    assert counts(out) == (solutions, unique)


def test_round_trip_keeps_rotate_only_and_minimums(tmp_path):
    src = tmp_path / "src.json"
    src.write_text(
        json.dumps(
            {
                "board": ["XXX", "XXX"],
                "pieces": [
                    {"name": "L", "cells": ["X.", "XX"], "count": 3, "min": 1, "reflect": False},
                    {"name": "I", "cells": ["XXX"], "count": 1, "min": 0},
                ],
            }
        )
    )
    out = tmp_path / "out.json"
    assert call_cli("convert", src, out).returncode == 0
    pieces = {p["name"]: p for p in json.loads(out.read_text())["pieces"]}
    assert pieces["L"]["reflect"] is False and pieces["L"]["min"] == 1 and pieces["L"]["count"] == 3
    assert pieces["I"]["min"] == 0
    # counted by hand: two L trominoes tile the 2x3 board in 2 ways (each is a rotation of
    # the L, so rotate-only changes nothing); the I takes a row and leaves a straight row,
    # which no L covers
    assert counts(out)[0] == counts(src)[0] == 2


def test_rotate_only_survives_the_round_trip(tmp_path):
    corpus = TESTS / "corpus" / "tiling" / "rotate-only-4L4-4x4.txt"
    out = tmp_path / "out.json"
    assert call_cli("convert", corpus, out, "--no-reflect").returncode == 0
    assert counts(out) == (3, 2)  # the corpus manifest: 3 solutions, 2 unique


def test_unknown_suffix_is_one_line(tmp_path):
    r = call_cli("convert", EXAMPLES / "pentomino-6x10.txt", tmp_path / "x.foo")
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1 and ".foo" in r.stderr
    assert not (tmp_path / "x.foo").exists()
