"""`polytile stats` on boards small enough to work out by hand. Every expected number
below is derived in the comments, never taken from a run of the code under test."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from cli_helpers import call_cli
from paths import EXAMPLES

import polytile
from polytile.analysis.stats import boundary, collect, estimate_tree


def puzzle(tmp_path: Path, drawing: str, name: str = "p.txt") -> Path:
    path = tmp_path / name
    path.write_text(drawing)
    return path


def stats_of(path: Path, **kw):
    return collect(polytile.load(path), **kw)


def cellsets(top) -> list[set[tuple[int, ...]]]:
    return [{tuple(int(x) for x in c) for c in cells} for cells, _, _ in top]


# Two P pentominoes on 2x5. A P in two rows is a 2x3 box minus one corner of the box;
# the two P's share column 2, one taking its top cell and the other its bottom cell:
# 2 solutions, mirror images of each other (unique 1).
P_2X5 = "XX XX\nXX XX\nX  X\n\nXXXXX\nXXXXX\n"


def test_two_p_pentominoes_on_2x5(tmp_path):
    st = stats_of(puzzle(tmp_path, P_2X5), probes=4000)
    assert (st.solutions, st.unique, st.examined, st.complete) == (2, 1, 2, True)
    # boundary: every cell of a two-row board lacks a vertical neighbour; corners are the 4 ends
    assert st.boundary_cells == {"corner": 4, "edge": 10, "face": None}
    [p] = st.pieces  # the two P's are copies of one piece
    assert (p.letter, p.copies, p.size) == ("P", 2, 5)
    # placements: 3 box positions (columns 0-2, 1-3, 2-4) x 4 missing corners
    assert p.placements == 12
    assert p.touches == {"corner": 2, "edge": 2, "face": None} and p.used == 2
    # the 4 placements used (each in one solution) are images of one another under the
    # board's 4 symmetries: one class of 4
    assert [(n, m) for _, n, m in p.top] == [(1, 4)]
    assert cellsets(p.top)[0] in [
        {(0, 0), (1, 0), (0, 1), (1, 1), (1, 2)},
        {(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)},
        {(0, 2), (0, 3), (1, 3), (0, 4), (1, 4)},
        {(1, 2), (0, 3), (1, 3), (0, 4), (1, 4)},
    ]
    # cell (r, c) is covered by the boxes containing column c, 3 placements when it is a
    # corner of the box and 4 otherwise: columns 0..4 get 3, 7, 10, 7, 3
    assert st.hardest == [((0, 0), 3), ((0, 4), 3), ((1, 0), 3), ((1, 4), 3), ((0, 1), 7)]
    # the search fills columns first (the long axis is the most significant): at (0,0)
    # three P's fit; the one leaving (1,0) alone cuts off a region of one cell, so the
    # kernel drops it before the search; the two others are completed by one P each:
    # 2 + 2 = 4 nodes. Knuth's estimate runs on the whole cover: paths 3 (dead) or
    # 3 + 3*1 = 6, each with probability 1/3: expected (3 + 6 + 6) / 3 = 5.
    assert st.tree_nodes == 4
    assert abs(st.estimate.nodes - 5) < 0.2
    assert 2 <= st.first_nodes <= 3


def test_two_dominoes_on_1x4(tmp_path):
    st = stats_of(puzzle(tmp_path, "XX XX\n\nXXXX\n"))
    assert (st.solutions, st.unique) == (1, 1)
    assert st.boundary_cells == {"corner": 2, "edge": 4, "face": None}  # both ends; all cells
    [p] = st.pieces
    assert p.touches == {"corner": 1, "edge": 1, "face": None}
    # (0,0) and (0,3) lie in one domino placement each, the middle cells in two
    assert st.hardest == [((0, 0), 1), ((0, 3), 1), ((0, 1), 2), ((0, 2), 2)]
    # one way at each step: 1 + 1*1 = 2 nodes on every path
    assert st.estimate.nodes == 2 and st.estimate.stderr == 0
    assert st.tree_nodes == 2 and st.first_nodes == 2


def test_domino_and_tromino_on_1x5(tmp_path):
    # the domino at one end and the tromino at the other: 2 solutions, mirror images
    st = stats_of(puzzle(tmp_path, "XX XXX\n\nXXXXX\n"))
    assert (st.solutions, st.unique) == (2, 1)
    assert len(st.pieces) == 2
    for p in st.pieces:  # both ends are corners: each piece takes one
        assert p.touches["corner"] == 2 and p.touches["edge"] == 2
        assert [(n, m) for _, n, m in p.top] == [(1, 2)]  # its two end places, once each
    domino = next(p for p in st.pieces if p.size == 2)
    assert cellsets(domino.top)[0] in [{(0, 0), (0, 1)}, {(0, 3), (0, 4)}]


def test_two_dominoes_on_2x2(tmp_path):
    st = stats_of(puzzle(tmp_path, "XX XX\n\nXX\nXX\n"))
    assert (st.solutions, st.unique) == (2, 1)  # both horizontal or both vertical
    assert st.boundary_cells == {"corner": 4, "edge": 4, "face": None}
    [p] = st.pieces
    assert p.touches["corner"] == 2  # every cell is a corner
    # the tree: 2 dominoes fit at (0,0), then exactly 1 fits: 2 + 2*1 = 4 nodes on every
    # path, so every probe gives exactly 4
    assert st.estimate.nodes == 4.0 and st.estimate.stderr == 0.0
    assert st.tree_nodes == 4
    assert st.first_nodes == 2


def test_three_dominoes_on_2x3(tmp_path):
    path = puzzle(tmp_path, "XX XX XX\n\nXXX\nXXX\n")
    st = stats_of(path)
    # all vertical; a horizontal pair left or right of a vertical domino (mirror images)
    assert (st.solutions, st.unique) == (3, 2)
    # columns are filled first: at (0,0) V or H; after V, at (0,1) V or H, each completed
    # by one more domino; after H, (1,0) takes H and (0,2) V: 2 + 3 + 3 = 8 nodes.
    # Knuth: paths V,V and V,H give 2 + 4 + 4 = 10 (probability 1/4 each), H gives
    # 2 + 2 + 2 = 6 (probability 1/2): expected 8.
    assert st.tree_nodes == 8
    assert abs(st.estimate.nodes - 8) < 0.3
    # over the first 2 solutions only; the tree is then counted by a separate search
    part = stats_of(path, max_solutions=2)
    assert (part.solutions, part.examined, part.complete) == (3, 2, False)
    assert part.tree_nodes == 8


def test_hardest_cell_has_one_placement(tmp_path):
    # a 2x2 square with a tail of two cells below its left column:
    #   XX      placements: the 2x2's 4 dominoes, (1,0)-(2,0) and (2,0)-(3,0);
    #   XX      (3,0) is in one of them, (1,0) in three, every other cell in two.
    #   X       (3,0) must go with (2,0), then the square has 2 tilings; the board has no
    #   X       symmetry, so both are unique.
    st = stats_of(puzzle(tmp_path, "XX XX XX\n\nXX\nXX\nX\nX\n"))
    assert (st.solutions, st.unique) == (2, 2)
    assert st.hardest == [((3, 0), 1), ((0, 0), 2), ((0, 1), 2), ((1, 1), 2), ((2, 0), 2)]
    # corners (two missing axes): (0,0), (0,1), (1,1) and (3,0); all six cells are edges
    assert st.boundary_cells == {"corner": 4, "edge": 6, "face": None}


def test_boundary_around_a_hole():
    # 3x3 with its centre missing: the 4 corners are corners; the 4 middle cells of the
    # sides miss a neighbour on one axis only (the hole is on the same axis as the outside)
    cells = np.array([(r, c) for r in range(3) for c in range(3) if (r, c) != (1, 1)])
    b = boundary(cells)
    assert b["corner"].sum() == 4 and b["edge"].all() and b["face"] is None
    # a 3x3x3 cube: 8 corners, 8 + 12 cells on its edges, all but the centre on its faces
    cube = np.array([(x, y, z) for x in range(3) for y in range(3) for z in range(3)])
    b = boundary(cube)
    assert (b["corner"].sum(), b["edge"].sum(), b["face"].sum()) == (8, 20, 26)


def test_estimate_is_reproducible(tmp_path):
    cover = polytile.load(puzzle(tmp_path, P_2X5)).model().cover
    a, b = estimate_tree(cover, 500, seed=7), estimate_tree(cover, 500, seed=7)
    assert a.nodes == b.nodes and a.stderr == b.stderr


def test_pentominoes_6x10():
    st = stats_of(EXAMPLES / "pentomino-6x10.txt")
    assert (st.solutions, st.unique, st.examined) == (9356, 2339, 9356)  # published counts
    by = {p.letter: p for p in st.pieces}
    # an X arm in a corner would put the centre on the side and an arm off the board
    assert by["X"].touches["corner"] == 0
    # each corner is covered by one piece, and no pentomino reaches two corners of 6x10
    assert sum(p.touches["corner"] for p in st.pieces) == 4 * 9356
    # I: 6 rows x 6 horizontal + 10 columns x 2 vertical; X: centres inside, 4 x 8
    assert by["I"].placements == 56 and by["X"].placements == 32
    assert 0 < st.first_nodes < st.tree_nodes
    assert st.tree_nodes / 4 < st.estimate.nodes < st.tree_nodes * 4  # a sanity bound


def test_soma_cube():
    st = stats_of(EXAMPLES / "soma-3x3x3.json")
    assert (st.solutions, st.unique) == (11520, 240)
    assert st.boundary_cells == {"corner": 8, "edge": 20, "face": 26}
    # only the centre is off the faces, and every piece has at least 3 cells
    assert all(p.touches["face"] == 11520 for p in st.pieces)
    # Two corners differ by 0 or 2 in every coordinate. V, Z, A, B and P have no two cells
    # like that (V, A, B, P fit in a 2x2x2 box; Z's far cells differ by 1 on one axis), so
    # they cover at most one corner each; L and T (3 in a row) at most two. 8 corners
    # = at most 5 from the small pieces + the rest from L and T, so L and T together cover
    # at least 3: both touch a corner in every solution, and the small ones cover >= 4.
    by = {p.piece: p.touches["corner"] for p in st.pieces}
    assert by["L"] == by["T"] == 11520
    assert sum(by[n] for n in "VZABP") >= 4 * 11520


run = call_cli


def test_cli_json(tmp_path):
    p = run("stats", puzzle(tmp_path, "XX XX\n\nXX\nXX\n"), "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert {
        "solutions",
        "unique",
        "examined",
        "complete",
        "boundary_cells",
        "pieces",
        "hardest_cells",
        "difficulty",
        "seconds",
    } <= set(out)
    assert (out["solutions"], out["unique"]) == (2, 1)
    [piece] = out["pieces"]
    assert {"piece", "letter", "copies", "placements", "used", "corner", "edge", "face", "top_placements"} <= set(piece)
    assert piece["corner"] == 2
    assert set(out["difficulty"]) >= {"nodes_to_first", "tree_estimate", "tree_nodes"}
    assert out["difficulty"]["tree_estimate"]["nodes"] == 4.0
    assert out["difficulty"]["tree_nodes"] == 4


def test_cli_text(tmp_path):
    p = run("stats", puzzle(tmp_path, "XX XX XX\n\nXXX\nXXX\n"))
    assert p.returncode == 0, p.stderr
    assert "solutions: 3" in p.stdout and "unique: 2" in p.stdout
    assert "Hardest cells" in p.stdout and "Knuth" in p.stdout


@pytest.mark.parametrize("args", [["missing.txt"], ["EXAMPLE", "--max-solutions", "0"]])
def test_cli_bad_input(tmp_path, args):
    args = [
        str(EXAMPLES / "pentomino-6x10.txt") if a == "EXAMPLE" else str(tmp_path / a) if a.endswith(".txt") else a
        for a in args
    ]
    p = run("stats", *args)
    assert p.returncode == 2
    assert p.stdout == "" and len(p.stderr.strip().splitlines()) == 1


def test_cli_time_limit_gives_the_figures_so_far():
    """A puzzle whose count takes hours (9x9 by distinct rectangles, A360499(9) unknown):
    `--time-limit` stops every search and prints what it has, exit 124 (it ran unbounded)."""
    p = run("stats", EXAMPLES / "counting" / "distinct-rectangles-9x9.json", "--json", "--time-limit", "2")
    assert p.returncode == 124, p.stderr
    out = json.loads(p.stdout)
    assert out["timed_out"] and not out["counted"] and not out["complete"]
    assert out["solutions"] > 0 and out["difficulty"]["tree_estimate"]["nodes"] > 1e9
    assert "time limit" in p.stderr


def test_cli_time_limit_not_reached(tmp_path):
    p = run("stats", puzzle(tmp_path, "XX XX\n\nXX\nXX\n"), "--json", "--time-limit", "60")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["counted"] and not out["timed_out"] and (out["solutions"], out["unique"]) == (2, 1)


def test_a_first_search_cut_short_gives_no_node_figure(tmp_path):
    """The mutilated 12x12 board (two opposite corners removed) has no domino tiling (the two
    corners have one colour: 72 cells of one, 70 of the other); the count proves it at once,
    but the search for a first solution would take ages: stopped by the time limit, its node
    figure is unknown (null), not a number that reads like the whole tree."""
    cells = [[r, c] for r in range(12) for c in range(12) if (r, c) not in ((0, 0), (11, 11))]
    path = tmp_path / "mutilated.json"
    path.write_text(json.dumps({"board": cells, "pieces": [{"name": "D", "cells": [[0, 0], [0, 1]], "count": 71}]}))
    p = run("stats", path, "--json", "--time-limit", "1")
    assert p.returncode == 124, p.stderr
    out = json.loads(p.stdout)
    assert out["solutions"] == 0 and out["difficulty"]["nodes_to_first"] is None
    text = run("stats", path, "--time-limit", "1")
    assert text.returncode == 124 and "nodes to prove there is no solution" in text.stdout
    assert "unknown (stopped after" in text.stdout
