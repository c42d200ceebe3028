"""Domino tilings and perfect matchings of square-grid graphs, by Kasteleyn's Pfaffian.

A domino tiling of a set of grid cells is a perfect matching of its grid graph: planar,
embedded by the cells' integer coordinates, and bipartite by the checkerboard colours
(black: row + column even). Kasteleyn: orient the edges so that the boundary walk of every
bounded face has an odd number of edges traversed along their orientation; then the
Pfaffian of the signed adjacency matrix counts the perfect matchings, and for a bipartite
graph that is |det K|, K[black][white] = +1 or -1 by the orientation.

The orientation is built in general (holes, non-square faces, cut vertices, bridges): orient
a spanning tree's edges freely; the other edges form a spanning tree of the dual graph,
rooted at the outer face; fix them face by face from the leaves, each face's last free edge
set to make its count odd. The determinant is exact (counting/banded.py): the vertices are
numbered along the region's short side, so K is banded.

Darts: the dart 4 * v + d leaves vertex v in direction STEPS[d]; `nb[dart]` is the vertex it
reaches (-1: no edge there) and `edge_of[dart]` its edge.
"""

from __future__ import annotations

import time
from collections import deque
from typing import TYPE_CHECKING, NamedTuple

from ..limits import Stopped

if TYPE_CHECKING:
    import numpy as np

IN_PYTHON = 128  # a part of at most this many cells is eliminated in Python (no numpy import:
# Shikaku's small grids of 2s answer without it)

# Directions in clockwise order (the first coordinate grows downwards): N, E, S, W.
STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))


class Graph(NamedTuple):
    """One connected plane graph on grid cells: the cells, which are black, and its edges
    (pairs of neighbouring cells) as (black vertex, white vertex)."""

    cells: list[tuple[int, int]]
    black: list[bool]
    edges: list[tuple[int, int]]


def graph_of(cells: list[tuple[int, int]], black: list[bool], pairs: list[tuple[int, int]]) -> Graph:
    """The graph with each edge's endpoints ordered (black first)."""
    return Graph(cells, black, [(a, b) if black[a] else (b, a) for a, b in pairs])


def grid_graph(cells: list[tuple[int, int]]) -> Graph:
    """The grid graph on `cells` (every pair of neighbours an edge), black by the
    checkerboard colouring."""
    index = {cell: v for v, cell in enumerate(cells)}
    pairs = [
        (v, w)
        for v, (r, c) in enumerate(cells)
        for w in (index.get((r, c + 1)), index.get((r + 1, c)))
        if w is not None
    ]
    return graph_of(cells, [(r + c) % 2 == 0 for r, c in cells], pairs)


def darts(g: Graph) -> tuple[list[int], list[int]]:
    """(nb, edge_of) of every dart (ValueError: an edge joins cells that are not neighbours)."""
    nb, edge_of = [-1] * (4 * len(g.cells)), [-1] * (4 * len(g.cells))
    for e, (a, b) in enumerate(g.edges):
        (ra, ca), (rb, cb) = g.cells[a], g.cells[b]
        d = STEPS.index((rb - ra, cb - ca))
        nb[4 * a + d], edge_of[4 * a + d] = b, e
        nb[4 * b + (d ^ 2)], edge_of[4 * b + (d ^ 2)] = a, e
    return nb, edge_of


def faces(nb: list[int]) -> list[list[int]]:
    """The boundary walk of every face as its darts: after u -> v, turn to the first
    neighbour of v clockwise from u (each face on the walk's left)."""
    seen = bytearray(len(nb))
    out = []
    for start, v in enumerate(nb):
        if v < 0 or seen[start]:
            continue
        walk, dart = [], start
        while not seen[dart]:
            seen[dart] = 1
            walk.append(dart)
            v, back = nb[dart], (dart + 2) & 3  # the direction from v back to u
            for k in (1, 2, 3, 4):
                dart = 4 * v + ((back + k) & 3)
                if nb[dart] >= 0:
                    break
        out.append(walk)
    return out


def area2(cells: list[tuple[int, int]], nb: list[int], walk: list[int]) -> int:
    """Twice the signed area the walk encloses (x = second coordinate, y = -first)."""
    total = 0
    for dart in walk:
        (ru, cu), (rv, cv) = cells[dart >> 2], cells[nb[dart]]
        total += cv * ru - cu * rv
    return total


def tree_edges(nb: list[int], edge_of: list[int]) -> set[int]:
    """The edges of a breadth-first spanning tree."""
    seen, tree, queue = {0}, set(), deque([0])
    while queue:
        u = queue.popleft()
        for dart in range(4 * u, 4 * u + 4):
            w = nb[dart]
            if w >= 0 and w not in seen:
                seen.add(w)
                tree.add(edge_of[dart])
                queue.append(w)
    return tree


def orientation(g: Graph) -> list[int]:
    """Kasteleyn signs: +1 when the edge is oriented black -> white, -1 otherwise."""
    nb, edge_of = darts(g)
    walks = faces(nb)
    outer = min(range(len(walks)), key=lambda f: area2(g.cells, nb, walks[f]))
    tree = tree_edges(nb, edge_of)
    sign = [1 if e in tree else 0 for e in range(len(g.edges))]
    face_of: list[list[int]] = [[] for _ in g.edges]
    for f, walk in enumerate(walks):
        for dart in walk:
            face_of[edge_of[dart]].append(f)
    order, parent = _dual_tree([[edge_of[d] for d in walk] for walk in walks], face_of, tree, outer)
    for f in reversed(order):
        _close_face(g.black, walks[f], edge_of, parent[f], sign)
    return sign


def _dual_tree(
    by_face: list[list[int]], face_of: list[list[int]], tree: set[int], outer: int
) -> tuple[list[int], dict[int, int]]:
    """The non-tree edges as a tree on the faces, rooted at the outer face: the faces in
    breadth-first order from it, and each one's edge to its parent face."""
    order, parent, queue = [], {}, deque([outer])
    seen = {outer}
    while queue:
        f = queue.popleft()
        for e in by_face[f]:
            if e in tree:
                continue
            for h in face_of[e]:
                if h not in seen:
                    seen.add(h)
                    parent[h] = e
                    order.append(h)
                    queue.append(h)
    return order, parent


def _close_face(black: list[bool], walk: list[int], edge_of: list[int], last: int, sign: list[int]) -> None:
    """Set the sign of `last` so that an odd number of the face's darts go along their edge
    (a dart from a black vertex goes along a +1 edge, from a white one along a -1 edge)."""
    along, at = 0, -1
    for dart in walk:
        e = edge_of[dart]
        if e == last:
            at = dart >> 2
        else:
            along += (sign[e] == 1) == black[dart >> 2]
    sign[last] = 1 if along % 2 == 0 else -1
    if not black[at]:
        sign[last] = -sign[last]


def numbering(g: Graph) -> list[int]:
    """Each vertex's rank among the vertices of its colour, along the short side of the
    cells' bounding box (so that K's band is about half that side)."""
    rows = [r for r, _ in g.cells]
    cols = [c for _, c in g.cells]
    across = max(rows) - min(rows) <= max(cols) - min(cols)  # sweep the columns, each down
    order = sorted(range(len(g.cells)), key=lambda v: (cols[v], rows[v]) if across else (rows[v], cols[v]))
    rank, seen = [0] * len(g.cells), [0, 0]
    for v in order:
        rank[v] = seen[g.black[v]]
        seen[g.black[v]] += 1
    return rank


def kasteleyn(g: Graph) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """K as (rows, cols, values): black vertices by rank, white ones by rank, signs."""
    import numpy as np

    rank = numbering(g)
    rows = np.array([rank[a] for a, _ in g.edges], dtype=np.int64)
    cols = np.array([rank[b] for _, b in g.edges], dtype=np.int64)
    return rows, cols, np.array(orientation(g), dtype=np.int64)


def matchings(g: Graph, deadline: float | None = None) -> int:
    """The number of perfect matchings of one connected part (limits.Stopped past
    `deadline`, a perf_counter time)."""
    n = len(g.cells)
    if 2 * sum(g.black) != n:
        return 0
    if n == 0:
        return 1
    _check(deadline)
    if n <= IN_PYTHON:
        from .determinant import abs_det

        rank, signs = numbering(g), orientation(g)
        matrix: list[dict[int, int]] = [{} for _ in range(n // 2)]
        for (a, b), sign in zip(g.edges, signs):
            matrix[rank[a]][rank[b]] = sign
        return abs_det(matrix, n // 2)
    from . import banded

    rows, cols, values = kasteleyn(g)
    return banded.abs_det(n // 2, rows, cols, values, deadline)


def components(cells: set[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """The cells' connected parts (grid neighbours), each in breadth-first order."""
    left, parts = set(cells), []
    while left:
        start = left.pop()
        part, queue = [start], deque([start])
        while queue:
            r, c = queue.popleft()
            for cell in ((r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1)):
                if cell in left:
                    left.remove(cell)
                    part.append(cell)
                    queue.append(cell)
        parts.append(part)
    return parts


def count_dominoes(cells: list[tuple[int, int]], *, deadline: float | None = None, memory: int | None = None) -> int:
    """The number of domino tilings of a set of square-grid cells (integer coordinates;
    any shape, holes, several parts): the product of the parts' perfect matchings, 0 when a
    part has unequal numbers of black and white cells. limits.Stopped("time limit") past
    `deadline` (a perf_counter time), limits.Stopped("memory budget") before a part's
    determinant would hold more than `memory` bytes."""
    parts = components({(int(r), int(c)) for r, c in cells})
    for part in parts:
        if 2 * sum((r + c) % 2 == 0 for r, c in part) != len(part):
            return 0
    if memory is not None:
        for part in parts:
            rows, cols = [r for r, _ in part], [c for _, c in part]
            need = memory_need(len(part), min(max(rows) - min(rows), max(cols) - min(cols)) + 1)
            if need > memory:
                stop = Stopped("memory budget", 0, need)
                stop.method = "pfaffian"
                raise stop
    total = 1
    for part in sorted(parts, key=len):
        total *= matchings(grid_graph(part), deadline)
        if total == 0:
            return 0
    return total


def memory_need(n: int, band: int) -> int:
    """The bytes the determinant of a part of `n` cells holds when the short side of its
    bounding box is `band` cells (K's band: about half of it each side of the diagonal)."""
    half = (band + 2) // 2
    return 2 * (n // 2) * (1 << (2 * half).bit_length()) * 8  # banded.band_bytes (no numpy import)


def _check(deadline: float | None) -> None:
    """limits.Stopped("time limit") once `deadline` has passed."""
    if deadline is not None and time.perf_counter() > deadline:
        stop = Stopped("time limit", 0)
        stop.method = "pfaffian"
        raise stop
