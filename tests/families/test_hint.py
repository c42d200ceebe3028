"""Hints on small boards whose answers are worked out by hand in the comments."""

from __future__ import annotations

import json
from cli_helpers import call_cli


def hint(tmp_path, puzzle: str, given: str | None = None, *extra):
    (tmp_path / "p.txt").write_text(puzzle)
    args = ["hint", "p.txt", "--json", *extra]
    if given is not None:
        (tmp_path / "g.txt").write_text(given)
        args += ["--given", "g.txt"]
    return call_cli(*args, cwd=tmp_path)


TWO_P = "XXXXX\nXXXXX\n\nXX\nXX\nX\n\nXX\nXX\nX\n"


def test_forced_last_piece(tmp_path):
    # One P covers the left of the 2x5; the five cells left form a P: the only move.
    p = hint(tmp_path, TWO_P, "AAA..\nAA...\n")
    h = json.loads(p.stdout)
    assert h["verdict"] == "place"
    assert sorted(map(tuple, h["cells"])) == [(0, 3), (0, 4), (1, 2), (1, 3), (1, 4)]
    assert "only 1 placement" in h["reason"]


def test_empty_board_hint_leads_to_a_solution(tmp_path):
    # On the empty 2x5 the corner (row 1, column 1) is covered by the P in 3 ways
    # (P's orientations containing that corner and fitting in 2 rows; counted by hand:
    # the 2x2 block at the left with the fifth cell at (0,2) or (1,2), and the 2x2 block at
    # columns 1-2 with the tail at (0,0)); the hint must be one that leaves a P shape.
    h = json.loads(hint(tmp_path, TWO_P).stdout)
    assert h["verdict"] == "place" and "only 3 placements" in h["reason"]
    left = {(r, c) for r in range(2) for c in range(5)} - set(map(tuple, h["cells"]))
    assert len(left) == 5 and (0, 0) not in left


def test_isolated_cell_is_a_dead_end(tmp_path):
    # 1x6 with two I-trominoes; one placed on columns 2-4 cuts off column 1 alone.
    p = hint(tmp_path, "XXXXXX\n\nXXX\n\nXXX\n", ".AAA..\n")
    h = json.loads(p.stdout)
    assert h["verdict"] == "dead end" and "region of 1 cell" in h["reason"]


def test_piece_that_fits_nowhere(tmp_path):
    # A 2x2 board with an I-tromino and a monomino: the areas match (3 + 1) but the
    # tromino is longer than the board.
    h = json.loads(hint(tmp_path, "XX\nXX\n\nXXX\n\nX\n").stdout)
    assert h["verdict"] == "dead end" and "fits nowhere" in h["reason"]


def test_dead_end_found_by_search(tmp_path):
    # The T-tetromino board with two dominoes: 4 = 2 + 2 and every cell can be covered,
    # but any domino leaves two separate cells: only search shows it.
    h = json.loads(hint(tmp_path, "XXX\n X\n\nXX\n\nXX\n").stdout)
    assert h["verdict"] == "dead end" and "no way to finish" in h["reason"]


def test_solved_position(tmp_path):
    h = json.loads(hint(tmp_path, TWO_P, "AAABB\nAABBB\n").stdout)
    assert h["verdict"] == "solved"


def test_bad_given(tmp_path):
    # a 6-cell group is no pentomino P
    p = hint(tmp_path, TWO_P, "AAA..\nAAA..\n")
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1
    assert "g.txt:1:1" in p.stderr
    p = hint(tmp_path, TWO_P, "......\n.....\n")
    assert p.returncode == 2 and "not on the puzzle's board" in p.stderr


SIX_BY_TEN = (
    "XXXXXXXXXX\n" * 6
    + "\n"
    + "\n\n".join(
        [
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
    )
    + "\n"
)


def test_placed_x_pentomino_is_honoured(tmp_path):
    # The board is drawn in X, and X is a pentomino: an X placed on the position (rows 1-3,
    # columns 1-3 of the 6 x 10) must be taken as placed, so no hint may cover its cells.
    given = ".X........\nXXX.......\n.X........\n" + "..........\n" * 3
    p = hint(tmp_path, SIX_BY_TEN, given)
    h = json.loads(p.stdout)
    x_cells = {(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)}
    assert h["verdict"] in ("place", "dead end")
    assert not x_cells & set(map(tuple, h["cells"]))
    # the corner cell (0, 0) is cut off by the X: a region of one cell, a dead end
    assert h["verdict"] == "dead end" and "region of 1 cell" in h["reason"]
