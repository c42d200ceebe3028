"""Shikaku grids whose clues are all 2: perfect matchings of a planar graph, by Kasteleyn.

Each rectangle is a domino holding one clue cell and one blank cell, so a solution is a
perfect matching of the bipartite graph clue cells -- adjacent blank cells. Within one
connected part every grid adjacency joins a clue to a blank (a path alternates clue/blank
and the checkerboard colours together), so each part is an induced subgraph of the square
grid: planar, embedded by the cells' coordinates.

Kasteleyn: orient the edges so that the boundary walk of every bounded face has an odd
number of edges traversed along their orientation; then the Pfaffian of the signed
adjacency matrix counts the perfect matchings, and for a bipartite graph that is |det K|,
K[clue][blank] = +1 or -1 by the orientation. The orientation is built in general (holes,
non-square faces, cut vertices): orient a spanning tree's edges freely; the other edges form
a spanning tree of the dual graph, rooted at the outer face; fix them face by face from the
leaves, each face's last free edge set to make its count odd.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Callable, NamedTuple

from ..engine import determinant, memo, propagation

# Directions in clockwise order on the page (row grows downwards): N, E, S, W.
STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))


class Graph(NamedTuple):
    """One connected part: cells (row, col), which are clues, and edges as vertex pairs."""

    cells: list[tuple[int, int]]
    clue: list[bool]
    edges: list[tuple[int, int]]  # (clue vertex, blank vertex)


def graph_of(cells: list[tuple[int, int]], clue: list[bool], dominoes: list[tuple[int, int]]) -> Graph:
    """The graph with each domino's endpoints ordered (clue first)."""
    edges = [(a, b) if clue[a] else (b, a) for a, b in dominoes]
    return Graph(cells, clue, edges)


def rotation(g: Graph) -> list[list[tuple[int, int]]]:
    """around[v][d]: (neighbour, edge) in direction STEPS[d], or (-1, -1)."""
    where = {cell: v for v, cell in enumerate(g.cells)}
    around = [[(-1, -1)] * 4 for _ in g.cells]
    for e, (a, b) in enumerate(g.edges):
        (ra, ca), (rb, cb) = g.cells[a], g.cells[b]
        d = STEPS.index((rb - ra, cb - ca))
        around[a][d] = (b, e)
        around[b][(d + 2) % 4] = (a, e)
    assert len(where) == len(g.cells)
    return around


def faces(g: Graph, around: list[list[tuple[int, int]]]) -> list[list[tuple[int, int]]]:
    """The boundary walk of every face as darts (from vertex, edge): after u -> v, turn to
    the first neighbour of v clockwise from u (each face on the walk's left)."""
    seen: set[tuple[int, int]] = set()
    out = []
    for a, b in g.edges:
        for start in ((a, b), (b, a)):
            if start in seen:
                continue
            walk, (u, v) = [], start
            while (u, v) not in seen:
                seen.add((u, v))
                d_back = next(d for d in range(4) if around[v][d][0] == u)
                walk.append((u, around[v][d_back][1]))
                for k in range(1, 5):
                    w, _ = around[v][(d_back + k) % 4]
                    if w >= 0:
                        break
                u, v = v, w
            out.append(walk)
    return out


def area2(g: Graph, walk: list[tuple[int, int]], other: Callable[[int, int], int]) -> int:
    """Twice the signed area the walk encloses (x = column, y = -row)."""
    total = 0
    for u, e in walk:
        v = other(u, e)
        (ru, cu), (rv, cv) = g.cells[u], g.cells[v]
        total += cu * -rv - cv * -ru
    return total


def tree_edges(g: Graph, around: list[list[tuple[int, int]]]) -> set[int]:
    """The edges of a breadth-first spanning tree."""
    seen, tree, queue = {0}, set(), deque([0])
    while queue:
        u = queue.popleft()
        for w, e in around[u]:
            if w >= 0 and w not in seen:
                seen.add(w)
                tree.add(e)
                queue.append(w)
    return tree


def orientation(g: Graph) -> list[int]:
    """Kasteleyn signs: +1 when the edge is oriented clue -> blank, -1 otherwise."""
    around = rotation(g)

    def other(u: int, e: int) -> int:
        a, b = g.edges[e]
        return b if u == a else a

    walks = faces(g, around)
    outer = min(range(len(walks)), key=lambda f: area2(g, walks[f], other))
    tree = tree_edges(g, around)
    sign = [1 if e in tree else 0 for e in range(len(g.edges))]
    face_of: dict[int, list[int]] = {}
    for f, walk in enumerate(walks):
        for _, e in walk:
            face_of.setdefault(e, []).append(f)
    parent = _dual_tree(walks, face_of, tree, outer)
    for f in reversed(parent.order):
        _close_face(g, walks[f], parent.edge[f], sign)
    return sign


class DualTree(NamedTuple):
    """The faces as a tree over the non-tree edges: each face's sign is fixed from the leaves
    in, the last edge of a face closing it with an odd count (Kasteleyn's condition)."""

    order: list[int]  # faces in breadth-first order from the outer face
    edge: dict[int, int]  # face -> the non-tree edge to its parent face


def _dual_tree(
    walks: list[list[tuple[int, int]]], face_of: dict[int, list[int]], tree: set[int], outer: int
) -> DualTree:
    """The non-tree edges as a tree on the faces, rooted at the outer face."""
    by_face: list[list[int]] = [[e for _, e in walk if e not in tree] for walk in walks]
    order, edge, queue = [], {}, deque([outer])
    seen = {outer}
    while queue:
        f = queue.popleft()
        for e in by_face[f]:
            for h in face_of[e]:
                if h not in seen:
                    seen.add(h)
                    edge[h] = e
                    order.append(h)
                    queue.append(h)
    return DualTree(order, edge)


def _close_face(g: Graph, walk: list[tuple[int, int]], last: int, sign: list[int]) -> None:
    """Set the sign of `last` so that an odd number of the face's darts go along their edge."""
    along = 0
    for u, e in walk:
        if e != last:
            along += (sign[e] == 1) == g.clue[u]
    sign[last] = 1 if along % 2 == 0 else -1
    if not g.clue[next(u for u, e in walk if e == last)]:
        sign[last] = -sign[last]


def matchings(g: Graph, tick: Callable[[int], None] | None = None) -> int:
    """The number of perfect matchings of one connected part (its vertices numbered along
    the grid's short side, which keeps the elimination's fill in a band)."""
    black = [v for v in range(len(g.cells)) if g.clue[v]]
    if 2 * len(black) != len(g.cells):
        return 0
    white = [v for v in range(len(g.cells)) if not g.clue[v]]
    row_of = {v: k for k, v in enumerate(black)}
    col_of = {v: k for k, v in enumerate(white)}  # vertices come in the counter's order:
    # along the short side, a narrow band
    sign = orientation(g)
    rows: list[dict[int, int]] = [{} for _ in black]
    for e, (a, b) in enumerate(g.edges):
        rows[row_of[a]][col_of[b]] = sign[e]
    return determinant.abs_det(rows, len(white), tick)


def one_matching(n: int, edges: list[tuple[int, int]]) -> list[int] | None:
    """Edge ids of a perfect matching of a bipartite graph on vertices 0..n-1 (edges given
    as (left, right)), or None: augmenting paths by breadth-first search after a greedy start."""
    adj: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for e, (a, b) in enumerate(edges):
        adj[a].append((b, e))
    mate: dict[int, int] = {}  # vertex -> edge, both sides
    for a in range(n):
        for b, e in adj[a]:
            if b not in mate and a not in mate and adj[a]:
                mate[a] = mate[b] = e
                break
    lefts = {a for a, _ in edges}
    for a in lefts:
        if a not in mate and not _augment(a, adj, edges, mate):
            return None
    return sorted({mate[a] for a in lefts})


def _augment(root: int, adj: list[list[tuple[int, int]]], edges: list[tuple[int, int]], mate: dict[int, int]) -> bool:
    """Find an augmenting path from the free left vertex `root` and flip it."""
    came: dict[int, tuple[int, int]] = {}  # right vertex -> (left vertex, edge)
    queue = deque([root])
    while queue:
        a = queue.popleft()
        for b, e in adj[a]:
            if b in came:
                continue
            came[b] = (a, e)
            if b not in mate:
                while True:
                    a, e = came[b]
                    prev = mate.get(a)
                    mate[a] = mate[b] = e
                    if a == root:
                        return True
                    assert prev is not None  # every vertex on the path but the root is matched
                    b = edges[prev][1]
            else:
                queue.append(edges[mate[b]][0])
    return False


class Result(NamedTuple):
    """A Pfaffian count in the memo counter's terms (solutions, one solution's options, an
    uncoverable item), so `shikaku.model` answers both counters alike."""

    solutions: int
    found: list[int] | None  # option ids of one solution (None: none asked or none)
    dead_item: int  # an item propagation found uncoverable, or -1
    parts: int


def count(
    opts: propagation.Options,
    band: int,
    item_cell: Callable[[int], tuple[int, int]],
    is_clue: Callable[[int], bool],
    limits: memo.Limits,
    solution: bool = True,
) -> Result:
    """Count the solutions of an all-2 cover `opts` (propagation.Options, every option two cells):
    forced dominoes placed first, then each independent part by |det K|. `band`: the
    grid's short side (the elimination's fill stays within about twice it)."""
    alive, covered, placed, dead = propagation.propagate(opts)
    if dead >= 0:
        return Result(0, None, dead, 0)
    ids = [o for o, live in enumerate(alive) if live]
    rest = propagation.Options(opts.n_items, opts.primary, [opts.opt_items[o] for o in ids])
    parts = propagation.components(rest, covered)
    _check_budget(parts, band, limits)
    tick = _ticker(limits)
    total, chosen = 1, list(placed)
    for items, options in sorted(parts, key=lambda p: len(p[0])):
        local = {i: k for k, i in enumerate(items)}
        g = graph_of(
            [item_cell(i) for i in items],
            [is_clue(i) for i in items],
            [(local[rest.opt_items[o][0]], local[rest.opt_items[o][1]]) for o in options],
        )
        total *= matchings(g, tick)
        if total == 0:
            return Result(0, None, -1, len(parts))
        if solution:
            found = one_matching(len(g.cells), g.edges)
            assert found is not None, "a part with matchings has one"
            chosen += [ids[options[e]] for e in found]
    return Result(total, sorted(chosen) if solution else None, -1, len(parts))


def _ticker(limits: memo.Limits) -> Callable[[int], None]:
    """A deadline check for the elimination."""

    def tick(col: int) -> None:
        if limits.deadline is not None and time.perf_counter() > limits.deadline:
            raise memo.Stopped("time limit", col)

    return tick


def _check_budget(parts: list[tuple[list[int], list[int]]], band: int, limits: memo.Limits) -> None:
    """Stop before eliminating when its fill would not fit the memory budget. Taking the
    columns along the short side, about 2 * `band` live rows hold up to 2 * `band` entries
    each, the other rows at most 4; an entry is a dict slot and a residue as large as the
    modulus (its bits: about the Hadamard bound's, at most one per row)."""
    if limits.memory is None:
        return
    need = 0
    for items, _ in parts:
        n = len(items)
        entry = 100 + max(61, n // 2) // 8
        need += (4 * band * band + 2 * n) * entry
    if need > limits.memory:
        raise memo.Stopped("memory budget", 0, need)
