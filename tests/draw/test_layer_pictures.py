"""Solutions on BurrTools' layered grids drawn as layers (draw/layer_pictures.py): prisms as
triangle boards, spheres as square packings, one panel or text block per layer from the
bottom; the rhombic and tetra-octa grids refused in one line (3D only). Expected drawings
written out by hand from the layouts core/grids/layers.py documents."""

from __future__ import annotations

import json

import numpy as np
import pytest
from cli_helpers import call_cli

from polytile.core.grids import grid
from polytile.core.results import Placement, Solution
from polytile.draw.pictures import draw
from polytile.draw.render import text_lines
from polytile.errors import PuzzleError

SPHERE = grid("sphere", 3)
PRISM = grid("prism", 4)
# 14 balls: z = 0 holds 5 (a plus), z = 1 four (a square), z = 2 five; A the lower 7, B the upper
BALLS = [(x, y, z) for z in range(3) for y in range(3) for x in range(3) if (x + y + z) % 2 == 0]


def sphere_solution() -> tuple[Solution, np.ndarray]:
    board = np.array(BALLS)
    return Solution([Placement("A", "A", board[:7]), Placement("B", "B", board[7:])], board, SPHERE), board


def test_sphere_layers_as_text():
    """Layer z = 1: A holds (1, 0, 1) and (0, 1, 1), squares (0, 0) and (-1, 0); B holds (2, 1, 1)
    and (1, 2, 1), squares (0, 1) and (-1, 1): a column each, in the rows -1..0 of the
    board's -1..1 (the plusses' rows)."""
    sol, board = sphere_solution()
    assert text_lines(sol, board) == [" A    AB    B", "AAA   AB   BBB", " A          B"]


def test_prism_layers_as_text_and_picture():
    up, down = (0, 1, 1), (0, 1, 0)  # a triangle pointing up and its neighbour across an edge
    cells = np.array([(*up, 0), (*up, 1), (*down, 1)])
    assert PRISM.valid(cells).all()
    sol = Solution([Placement("A", "A", cells[:1]), Placement("B", "B", cells[1:])], cells, PRISM)
    # the triangle drawing: (row, column) (0, 0) points up, (0, 1) down beside it
    assert text_lines(sol, cells) == ["A   BB"]
    svg = draw(sol, cells).decode()
    assert "layer 1" in svg and "layer 2" in svg and "layer 3" not in svg
    assert svg.count('id="layer-0-0-') == 1 and svg.count('id="layer-0-1-') == 1  # layer 2: B alone


def test_sphere_picture_has_a_panel_per_layer():
    sol, board = sphere_solution()
    svg = draw(sol, board).decode()
    assert all(f"layer {k}" in svg for k in (1, 2, 3))
    assert svg.count('id="layer-0-1-') == 2  # the middle layer holds both pieces


@pytest.mark.parametrize("name, cells", [("rhombic", [(0, 2, 1), (2, 1, 0)]), ("tetra-octa", [(1, 1, 1)])])
def test_3d_only_grids_are_refused_in_one_line(name, cells):
    g = grid(name, 3)
    board = np.array(cells)
    sol = Solution([Placement("A", "A", board)], board, g)
    with pytest.raises(PuzzleError, match="no drawing of the .*3D only.*polytile mesh"):
        draw(sol, board)
    assert text_lines(sol, board) == ["A A: " + " ".join(f"({x}, {y}, {z})" for x, y, z in cells)]


def test_solve_format_svg_refused_exit_2(tmp_path):
    src = tmp_path / "r.json"
    cells = [[0, 2, 1], [2, 1, 0]]
    src.write_text(json.dumps({"grid": "rhombic", "board": cells, "pieces": [{"name": "A", "cells": cells}]}))
    r = call_cli("solve", str(src), "--format", "svg", "-o", str(tmp_path / "r.svg"))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "no drawing of the rhombic grid" in r.stderr
    assert "polytile mesh" in r.stderr
    assert not (tmp_path / "r.svg").exists()


def test_layer_and_footprint_agree_with_the_drawn_layers():
    from polytile.core.grids import grid as named

    for g, cells in ((SPHERE, np.array(BALLS)), (PRISM, np.array([(0, 1, 1, 0), (0, 1, 0, 1), (1, 0, 0, -2)]))):
        zs, flat_name, flat = g.flat_layers(cells)
        flat_grid = named(flat_name)
        for cell, z, f in zip(map(tuple, cells.tolist()), zs.tolist(), flat.tolist()):
            assert g.layer(cell) == z
            assert g.footprint(cell) == flat_grid.corners(tuple(f))
