"""core/grids/moves.py turns shapes and boards with numpy; these tests compare it with the
plain way (each point through each motion as tuples, looked up in a dict) on random cell
sets of every registered grid, colours included."""

from __future__ import annotations

from itertools import product

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from polytile.core.grids import registered
from polytile.core.grids.moves import board_permutations, image, orientations

GRIDS = [g for g in registered()]


def _cells(g) -> np.ndarray:
    """Every cell of the grid in a small box around the origin."""
    span = range(-3, 4) if g.dim <= 3 else range(-2, 3)
    pts = np.array(list(product(span, repeat=g.dim)), dtype=np.int64)
    return pts[g.valid(pts)]


def _plain_permutations(g, cells: np.ndarray, colours: np.ndarray) -> set[tuple[int, ...]]:
    pts = g.shift_to_origin([tuple(p) for p in cells.tolist()])
    where = {p: i for i, p in enumerate(pts)}
    out = set()
    for motion in g.motions:
        perm = [where.get(p, -1) for p in g.shift_to_origin(image(motion, pts))]
        if -1 not in perm and all(colours[j] == colours[i] for i, j in enumerate(perm)):
            out.add(tuple(perm))
    return out


def _plain_orientations(g, cells: np.ndarray, colours: np.ndarray, reflect: bool) -> list[tuple]:
    pts = [tuple(p) for p in cells.tolist()]
    cols = colours.tolist()
    seen: dict[tuple, None] = {}
    images = [image(m, pts) for m in g.chosen_motions(reflect)] + g.more_images(pts, reflect)
    for img in images:
        seen.setdefault(tuple(sorted(zip(g.shift_to_origin(img), cols))), None)
    return list(seen)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_board_permutations_and_orientations_match_the_plain_way(data):
    g = data.draw(st.sampled_from(GRIDS), label="grid")
    pool = _cells(g)
    pick = data.draw(st.lists(st.integers(0, len(pool) - 1), min_size=1, max_size=12, unique=True), label="cells")
    cells = pool[sorted(pick)]
    colours = np.array(data.draw(st.lists(st.integers(0, 1), min_size=len(cells), max_size=len(cells))), np.int64)
    got = {tuple(p) for p in board_permutations(g, cells, colours).tolist()}
    assert got == _plain_permutations(g, cells, colours)
    reflect = data.draw(st.booleans(), label="reflect")
    turned = orientations(g, cells, colours, reflect)
    plain = _plain_orientations(g, cells, colours, reflect)
    assert [tuple(zip(map(tuple, a.tolist()), c.tolist())) for a, c in turned] == plain


def test_a_symmetric_board_has_its_whole_group():
    """A hand count: a 2 x 2 square has the 8 motions of the square, a 2 x 3 rectangle 4."""
    square = registered()[0]
    two = np.array([(r, c) for r in range(2) for c in range(2)])
    assert len(board_permutations(square, two, np.zeros(4, np.int64))) == 8
    rect = np.array([(r, c) for r in range(2) for c in range(3)])
    assert len(board_permutations(square, rect, np.zeros(6, np.int64))) == 4
