"""The triangle and hex lattices: motions, polyiamonds and polyhexes, board groups, the
polytile JSON "grid" key and `polytile pieces --grid`.

Counts are the published sequences: OEIS A000577 (free polyiamonds), A006534 (one-sided),
A001420 (fixed); A000228 (free polyhexes), A006535 (one-sided), A001207 (fixed). Board
groups are counted by hand (a regular hexagon has 12 motions, a 60-degree rhombus 4, an
equilateral triangle 6).
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from cli_helpers import call_cli
from paths import EXAMPLES, TESTS

import polytile
from polytile.core import grids, lattice_forms, symmetry
from polytile.core.grids import moves
from polytile.errors import PuzzleError
from polytile.formats import polyjson

SEQUENCES = {
    ("triangle", "free"): [1, 1, 1, 3, 4, 12, 24, 66],
    ("triangle", "one-sided"): [1, 1, 1, 4, 6, 19, 43, 120],
    ("triangle", "fixed"): [2, 3, 6, 14, 36, 94, 250, 675],
    ("hex", "free"): [1, 1, 3, 7, 22, 82, 333],
    ("hex", "one-sided"): [1, 1, 3, 10, 33, 147, 620],
    ("hex", "fixed"): [1, 3, 11, 44, 186, 814, 3652],
}


@pytest.mark.parametrize("grid,kind", list(SEQUENCES))
def test_published_sequences(grid, kind):
    seq = SEQUENCES[(grid, kind)]
    assert [lattice_forms.count(n, grids.grid(grid), kind) for n in range(1, len(seq) + 1)] == seq
    assert len(lattice_forms.polyforms(len(seq), grids.grid(grid), kind)) == seq[-1]


def _key(m):
    return (m[0], m[1])


@pytest.mark.parametrize("grid", ["triangle", "hex"])
def test_motions_form_the_dihedral_group_of_order_12(grid):
    lat = grids.grid(grid)
    assert len(set(lat.motions)) == 12 and lat.n_rotations == 6
    cell = (0, 0, 2) if grid == "triangle" else (0, 0)
    pts = [cell] + [
        tuple(x + s for x, s in zip(cell, st)) for st in lat.steps if lat.holds(tuple(x + s for x, s in zip(cell, st)))
    ]
    for m in lat.motions:  # motions keep cells cells and neighbours neighbours
        img = moves.image(m, pts)
        assert all(lat.holds(p) for p in img)
        nbs = {tuple(a - b for a, b in zip(p, img[0])) for p in img[1:]}
        assert nbs <= set(lat.steps)
    # the rotations are closed under composition; a rotation composed with a reflection is one
    rot = {tuple(moves.image(m, pts)) for m in lat.motions[:6]}
    for m in lat.motions[:6]:
        for k in lat.motions[:6]:
            assert tuple(moves.image(m, moves.image(k, pts))) in rot


def test_monoiamond_and_moniamond_orientations():
    lat = grids.grid("triangle")
    one = np.array([[0, 0, 2]])
    assert len(moves.orientations(lat, one, None, True)) == 2  # up and down
    diamond = np.array([[0, 0, 2], [0, 0, 1]])
    assert len(moves.orientations(lat, diamond, None, True)) == 3


def _board(grid, rows):
    text = json.dumps({"grid": grid, "board": rows, "pieces": [{"cells": rows[:1]}]})
    return polyjson.parse(text).board


@pytest.mark.parametrize(
    "grid,rows,order",
    [
        ("triangle", ["XXX", "XXX"], 12),  # hexagon of 6 triangles
        ("triangle", [".XXXX", "..XXXX"], 4),  # rhombus of side 2
        ("triangle", ["..X", ".XXX"], 6),  # triangle of side 2
        ("triangle", ["XX"], 2),  # diamond: 4 motions, 2 permutations
        ("hex", [" X X", "X X X", " X X"], 12),  # hexagon of 7 hexes
        ("hex", ["X X", " X X"], 4),  # rhombus of 4 hexes
        ("hex", ["X X X"], 2),  # bar of 3: 4 motions, 2 permutations
    ],
)
def test_board_groups(grid, rows, order):
    board = _board(grid, rows)
    assert len(symmetry.board_group(board.cells, board.colours, board.grid)) == order


def test_drawings_and_coordinates_agree():
    tri = _board("triangle", ["XXX", "XXX"])
    listed = [[0, 1, 1], [0, 1, 0], [0, 2, 0], [-1, 1, 1], [-1, 2, 1], [-1, 2, 0]]
    other = _board("triangle", listed)
    assert sorted(map(tuple, tri.cells.tolist())) == sorted(map(tuple, other.cells.tolist()))
    hexes = _board("hex", ["X X", " X X"])
    assert sorted(map(tuple, hexes.cells.tolist())) == [(0, 0), (0, 1), (1, 0), (1, 1)]


@pytest.mark.parametrize(
    "data,message",
    [
        ({"grid": "pentagon"}, "grid: expected one of square, triangle, hex"),
        ({"grid": "triangle", "board": [[0, 0, 0]]}, "board[0]: no triangle"),
        ({"grid": "triangle", "board": [[0, 1]]}, "board: a triangle cell is a list of 3 integers"),
        ({"grid": "hex", "board": ["XX"]}, "row 1, column 2: in a hex drawing, hexes are one space apart"),
        ({"grid": "hex", "pieces": ["F"]}, 'pieces[0]: no "cells"'),
    ],
)
def test_bad_grid_input(data, message):
    base = {"board": ["X"], "pieces": [{"cells": ["X"]}]}
    with pytest.raises(PuzzleError, match=message.replace("[", r"\[").replace("]", r"\]")):
        polyjson.parse(json.dumps({**base, **data}), "t.json")


run = call_cli


def test_pieces_command():
    out = run("pieces", 6, "--grid", "triangle", "--count")
    assert out.returncode == 0 and out.stdout.strip() == "12"
    out = run("pieces", 4, "--grid", "hex", "--one-sided", "--format", "json")
    forms = json.loads(out.stdout)
    assert len(forms) == 10 and all(f["grid"] == "hex" and len(f["cells"]) == 4 for f in forms)
    out = run("pieces", 2, "--grid", "triangle")
    assert "▲▼" in out.stdout
    bad = run("pieces", 20, "--grid", "hex")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "n-hexes" in bad.stderr


def test_hexiamond_names():
    names = [f.name for f in lattice_forms.polyforms(6, grids.grid("triangle"))]
    assert sorted(names) == sorted(
        [
            "bar",
            "sphinx",
            "crook",
            "crown",
            "lobster",
            "signpost",
            "snake",
            "butterfly",
            "chevron",
            "hook",
            "yacht",
            "hexagon",
        ]
    )
    sided = [f.name for f in lattice_forms.polyforms(6, grids.grid("triangle"), "one-sided")]
    assert "sphinx'" in sided and "hexagon'" not in sided


def _adjacent_pairs(cells) -> int:
    steps = {(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)}
    cells = [tuple(c) for c in cells.tolist()]
    return sum((a[0] - b[0], a[1] - b[1]) in steps for i, a in enumerate(cells) for b in cells[i + 1 :])


def test_tetrahex_names():
    """Gardner's names as Wikipedia ("Polyhex (mathematics)") lists them; the mirror-symmetric
    ones are Polyform Puzzler's symmetric pieces (I4 O4 U4 Y4: bar, bee, arch, propeller); each
    name's shape checked by what the name says (counted by hand)."""
    forms = {f.name: f.cells for f in lattice_forms.polyforms(4, grids.grid("hex"))}
    assert sorted(forms) == sorted(["bar", "worm", "pistol", "propeller", "arch", "bee", "wave"])
    sided = [f.name for f in lattice_forms.polyforms(4, grids.grid("hex"), "one-sided")]
    assert sorted(n for n in sided if n.endswith("'")) == ["pistol'", "wave'", "worm'"]
    pairs = {name: _adjacent_pairs(cells) for name, cells in forms.items()}
    assert pairs == {"bar": 3, "worm": 3, "arch": 3, "propeller": 3, "wave": 3, "pistol": 4, "bee": 5}
    assert len(set(forms["bar"][:, 1].tolist())) == 1 or len(set(forms["bar"][:, 0].tolist())) == 1
    blades = forms["propeller"].tolist()
    hub = [c for c in blades if sum(_adjacent_pairs(np.array([c, d])) for d in blades if d != c) == 3]
    assert len(hub) == 1  # one hex touches the three blades


def test_solutions_drawn_in_text_and_pictures(tmp_path):
    """Text rows follow the drawing conventions (each letter where its cell is drawn); the
    SVG has one filled path per piece; PNG bytes start with the PNG signature."""
    from polytile.draw.pictures import draw

    t = polytile.load(EXAMPLES / "tetrahexes-4x7.json")
    out = run("solve", EXAMPLES / "tetrahexes-4x7.json")
    rows = out.stdout.splitlines()
    assert len(rows) == 4 and all(len(r.split()) == 7 for r in rows)
    assert all(r.startswith(" " * i) and r[i] != " " for i, r in enumerate(rows))
    sol = t.solve().found[0]
    svg = draw([sol], sol.board, "svg").decode()
    assert svg.count('id="piece-0-') == 7
    tri = polytile.load(EXAMPLES / "hexiamonds-6x6.json").solve().found[0]
    assert tri.grid.name == "triangle"
    assert draw([tri], tri.board, "png").startswith(b"\x89PNG")
    text = run("solve", EXAMPLES / "hexiamonds-6x6.json").stdout.splitlines()
    assert [len(r.strip()) for r in text] == [12] * 6


def test_example_drawings_load_as_the_corpus_coordinates():
    ex = polytile.load(EXAMPLES / "hexiamonds-6x6.json").count(unique=True)
    corpus = polytile.load(TESTS / "lattice-corpus" / "hexiamonds-6x6.json")
    assert (ex.solutions, ex.unique) == (corpus.count(unique=True).solutions, corpus.count(unique=True).unique)


@pytest.mark.parametrize("command", ["hint", "stats"])
def test_square_only_commands_refuse_other_grids(command):
    out = run(command, EXAMPLES / "tetrahexes-4x7.json")
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "square grid only" in out.stderr
