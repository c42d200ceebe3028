"""The neighbours a tiling-shaped matrix's cells are given (core.matrix.neighbours): the
spanning forests found for all options at once against Kruskal's algorithm written out
plainly here, and a board's grid recovered from its matrix alone."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from polytile.core.matrix import neighbours, spanning_forests


def kruskal(rows: list[list[int]], together: np.ndarray) -> set[tuple[int, int]]:
    """Each row's spanning tree: its pairs (a before b in the row) sorted by how often
    they are found together, most first, ties in the order of the pairs; a pair is taken
    when it joins two trees."""
    edges = set()
    for row in rows:
        parent = {c: c for c in row}
        pairs = [(a, b) for i, a in enumerate(row) for b in row[i + 1 :]]
        for a, b in sorted(pairs, key=lambda p: -together[p[0], p[1]]):
            ra, rb = root(parent, a), root(parent, b)
            if ra != rb:
                parent[ra] = rb
                edges.add((a, b))
    return edges


def root(parent: dict, x: int) -> int:
    while parent[x] != x:
        x = parent[x]
    return x


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_forests_at_once_equal_kruskal_row_by_row(data):
    n_cells = data.draw(st.integers(2, 9))
    size = data.draw(st.integers(2, min(5, n_cells)))
    rows = data.draw(
        st.lists(
            st.lists(st.integers(0, n_cells - 1), min_size=size, max_size=size, unique=True), min_size=1, max_size=12
        )
    )
    rows = [sorted(r) for r in rows]
    together = np.array(
        data.draw(st.lists(st.integers(0, 3), min_size=n_cells * n_cells, max_size=n_cells * n_cells))
    ).reshape(n_cells, n_cells)
    assert spanning_forests(np.array(rows, dtype=np.int64), together) == kruskal(rows, together)


def test_a_boards_grid_is_recovered_from_its_placements():
    """Every placement of the 12 pentominoes on 6x10 (generated here from the shapes'
    cells, rotated and reflected): every pair of cells side by side is found, and every
    placement is connected under what is found (all the kernels' dead-end tests assume;
    a few more pairs, two cells apart near the sides, are found too)."""
    pentominoes = [
        [(0, 1), (0, 2), (1, 0), (1, 1), (2, 1)],
        [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)],
        [(0, 0), (1, 0), (2, 0), (3, 0), (3, 1)],
        [(0, 1), (1, 1), (2, 0), (2, 1), (3, 0)],
        [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)],
        [(0, 0), (0, 1), (0, 2), (1, 1), (2, 1)],
        [(0, 0), (0, 2), (1, 0), (1, 1), (1, 2)],
        [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2)],
        [(0, 0), (1, 0), (1, 1), (2, 1), (2, 2)],
        [(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)],
        [(0, 1), (1, 0), (1, 1), (2, 1), (3, 1)],
        [(0, 0), (0, 1), (1, 1), (2, 1), (2, 2)],
    ]
    h, w = 6, 10
    rows = set()
    for shape in pentominoes:
        for _ in range(2):
            shape = [(c, r) for r, c in shape]  # reflect
            for _ in range(4):
                shape = [(c, -r) for r, c in shape]  # rotate
                for dr in range(-5, h):
                    for dc in range(-5, w):
                        cells = [(r + dr, c + dc) for r, c in shape]
                        if all(0 <= r < h and 0 <= c < w for r, c in cells):
                            rows.add(tuple(sorted(r * w + c for r, c in cells)))
    opts = sorted(rows)
    ptr = np.concatenate([[0], np.cumsum([len(o) for o in opts])]).astype(np.int64)
    items = np.array([c for o in opts for c in o], dtype=np.int32)
    nb = neighbours(h * w, ptr, items)
    found = {(a, int(b)) for a in range(h * w) for b in nb[a] if b >= 0}
    grid = set()
    for r in range(h):
        for c in range(w):
            for r2, c2 in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if 0 <= r2 < h and 0 <= c2 < w:
                    grid.add((r * w + c, r2 * w + c2))
    assert grid <= found
    for o in opts:
        reached, todo = {o[0]}, [o[0]]
        while todo:
            a = todo.pop()
            for b in o:
                if b not in reached and (a, b) in found:
                    reached.add(b)
                    todo.append(b)
        assert reached == set(o)
