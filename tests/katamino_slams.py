"""Katamino's slam lists as the corpus holds them (tests/corpus/tiling/katamino-slam*): the
pentominoes of each case named by Conway's letters, drawn here independently of polytile's
library. Shared by tests/families/test_katamino.py and tests/web/test_web_api.py."""

from __future__ import annotations

import re

from checker import read_puzzle
from conftest import CORPUS, tiling_cases

TILING = CORPUS / "tiling"
# Conway's letters drawn independently of polytile's library (rows of the shape)
SHAPES = {
    "F": [".XX", "XX.", ".X."],
    "I": ["XXXXX"],
    "L": ["X...", "XXXX"],
    "N": ["XX..", ".XXX"],
    "P": ["XX", "XX", "X."],
    "T": ["XXX", ".X.", ".X."],
    "U": ["X.X", "XXX"],
    "V": ["X..", "X..", "XXX"],
    "W": ["X..", "XX.", ".XX"],
    "X": [".X.", "XXX", ".X."],
    "Y": [".X..", "XXXX"],
    "Z": ["XX.", ".X.", ".XX"],
}


def _free_key(cells):
    """The checker's key of a free pentomino (turns and flips)."""
    from checker import _shape_key

    return _shape_key({tuple(c): "" for c in cells}, 2, True)


LETTER_OF = {
    _free_key([(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "X"]): k
    for k, rows in SHAPES.items()
}


def pieces_of(case_file: str) -> list[str]:
    """The letters of a corpus case's pieces, in the file's order."""
    _, tiles, _ = read_puzzle(TILING / case_file)
    return [LETTER_OF[_free_key(list(t))] for t in tiles]


def slam_lists() -> dict[str, tuple[list[str], dict[int, dict]]]:
    """The corpus's slam cases grouped by list; the list order from growing prefixes."""
    out: dict[str, tuple[list[str], dict[int, dict]]] = {}
    for case in tiling_cases():
        m = re.fullmatch(r"katamino-(slam\d+)-(\d+)", case["id"])
        if m:
            out.setdefault(m.group(1), ([], {}))[1][int(m.group(2))] = case
    for order, cases in out.values():
        for n in sorted(cases):
            new = [p for p in pieces_of(cases[n]["file"]) if p not in order]
            assert len(order) + len(new) == n
            order.extend(sorted(new))
    return out
