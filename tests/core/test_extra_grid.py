"""A grid that polytile's sources do not know (tests/grids_extra.py: 2 x 1 rectangles, four
motions) loads, counts, draws and meshes once registered: no module outside core/grids asks
which grid it is.

The puzzle: a board of 2 rows x 4 columns of rectangles, two lying dominoes H (two rectangles
side by side) and two standing ones V (one above the other). No motion of this grid turns one
into the other, so (by hand) the standing dominoes fill columns {0, 1}, {0, 3} or {2, 3}, the
lying ones the rest: 3 tilings. The mirror c -> 3 - c swaps the first and the last, so 2 up to
the board's symmetries. (On the square grid the four dominoes would be one piece: 5 tilings of
2 x 4.)"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
import trimesh
from grids_extra import Rectangles

import polytile
from polytile.core import grids
from polytile.draw.mesh import piece_mesh
from polytile.draw.mesh_scene import Shell, on_plate, shells
from polytile.draw.meshfile import stl_bytes
from polytile.draw.pictures import draw
from polytile.draw.render import text_lines

PUZZLE = {
    "grid": "rectangle",
    "board": ["XXXX", "XXXX"],
    "pieces": [{"name": "H", "cells": ["XX"], "count": 2}, {"name": "V", "cells": ["X", "X"], "count": 2}],
}


@pytest.fixture
def rectangles():
    g = grids.register(Rectangles())
    yield g
    grids.unregister(g)


@pytest.fixture
def puzzle_file(rectangles, tmp_path):
    path = tmp_path / "dominoes.json"
    path.write_text(json.dumps(PUZZLE))
    return path


def test_the_grid_is_registered_and_read(rectangles, puzzle_file):
    assert "rectangle" in grids.names() and grids.grid("rectangle") is rectangles
    tiling = polytile.load(puzzle_file)
    assert tiling.puzzle.board.grid is rectangles and tiling.puzzle.board.area == 8
    assert [len(tiling.puzzle.orientations(p)) for p in tiling.puzzle.pieces] == [1, 1]


def test_it_counts_as_counted_by_hand(puzzle_file):
    tiling = polytile.load(puzzle_file)
    assert tiling.count().solutions == 3
    assert tiling.count(unique=True).unique == 2


def test_its_solutions_are_written_and_drawn(puzzle_file):
    found = polytile.load(puzzle_file).solve(limit=None).found
    assert len(found) == 3
    standing = sorted(sorted({int(c) for p in s.placements if p.piece == "V" for c in p.cells[:, 1]}) for s in found)
    assert standing == [[0, 1], [0, 3], [2, 3]]
    assert all(len(text_lines(s, s.board)) == 2 for s in found)
    svg = draw(found, found[0].board, "svg").decode()
    assert svg.count('id="piece-0-') == 4  # one group per piece of the first solution
    widths = {float(w) for w in re.findall(r'<svg[^>]* width="([\d.]+)pt"', svg)}
    assert widths and min(widths) > 0


def test_its_pieces_mesh_closed_with_the_cells_volume(rectangles, puzzle_file):
    sol = polytile.load(puzzle_file).solve().found[0]
    for p in sol.placements:
        for sizes in ((0.0, 0.0), (0.05, 0.0), (0.05, 0.1)):
            m = piece_mesh(rectangles, p.cells, *sizes)
            t = trimesh.Trimesh(m.vertices, m.faces, process=False)
            assert t.is_watertight and t.is_winding_consistent and t.volume > 0
            if sizes == (0.0, 0.0):
                assert t.volume == pytest.approx(2.0 * len(p.cells), rel=1e-9)  # 2 x 1 x 1 per cell
    parts = on_plate(shells(rectangles, [(p.letter, p.cells) for p in sol.placements], 0.05, 0.0))
    stl = stl_bytes(parts, 10.0)
    assert isinstance(parts[0], Shell) and len(stl) == 84 + 50 * int.from_bytes(stl[80:84], "little")
    assert np.frombuffer(stl[84:], dtype=np.uint8).size > 0
