"""The larger examples load, and their first solutions pass the independent checker. Their
full counts (minutes) are in examples/README.md against the published values; here only
what is quick."""

from __future__ import annotations

import json

import polytile
from checker import check
from paths import EXAMPLES


def solved(path, tmp_path=None):
    t = polytile.load(path)
    r = t.solve()
    assert r.found, path
    return [(p.piece, p.cells.tolist()) for p in r.found[0].placements]


def test_bedlam_cube_first_solution_is_valid():
    path = EXAMPLES / "bedlam-cube.json"
    check(path, solved(path), reflect=False, partial=False)


def test_cornucopia_first_solution_is_valid(tmp_path):
    path = EXAMPLES / "hexomino-cornucopia-6x17.json"
    data = json.loads(path.read_text())

    def coords(rows):  # the checker reads cells as coordinate lists
        if not isinstance(rows[0], str):
            return rows
        return [[r, c] for r, row in enumerate(rows) for c, ch in enumerate(row) if ch not in " ."]

    data["board"] = coords(data["board"])
    for piece in data["pieces"]:
        piece["cells"] = coords(piece["cells"])
    plain = tmp_path / "cornucopia.json"
    plain.write_text(json.dumps(data))
    check(plain, solved(path), reflect=True, partial=False)


def test_lucky_thirteen_reading_is_impossible_and_says_why():
    """12 pentominoes and the square tetromino in a 4x4x4 cube: the I pentomino is 5 long."""
    r = polytile.load(EXAMPLES / "lucky-thirteen.json").count()
    assert r.solutions == 0
    assert any("piece I" in why and "fits nowhere" in why for why in r.reasons)
