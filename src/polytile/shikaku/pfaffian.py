"""Shikaku grids whose clues are all 2: perfect matchings of a planar graph, by Kasteleyn.

Each rectangle is a domino holding one clue cell and one blank cell, so a solution is a
perfect matching of the bipartite graph clue cells -- adjacent blank cells. Within one
connected part every grid adjacency joins a clue to a blank (a path alternates clue/blank
and the checkerboard colours together), so each part is an induced subgraph of the square
grid: planar, embedded by the cells' coordinates. The engine counts its perfect matchings
(engine/counting/pfaffian.py: a Kasteleyn orientation, |det K| exact); the clues are its
black vertices. Here: forced dominoes, the parts, and one solution to show.
"""

from __future__ import annotations

from collections import deque
from typing import Callable, NamedTuple

from ..engine.counting import memo, propagation
from ..engine.counting.pfaffian import Graph as Graph, graph_of as graph_of, matchings as matchings, memory_need


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


class PfaffianReport(NamedTuple):
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
) -> PfaffianReport:
    """Count the solutions of an all-2 cover `opts` (propagation.Options, every option two cells):
    forced dominoes placed first, then each independent part by |det K|. `band`: the
    grid's short side (it bounds each part's, and so the determinants' band)."""
    alive, covered, placed, dead = propagation.propagate(opts)
    if dead >= 0:
        return PfaffianReport(0, None, dead, 0)
    ids = [o for o, live in enumerate(alive) if live]
    rest = propagation.Options(opts.n_items, opts.primary, [opts.opt_items[o] for o in ids])
    parts = propagation.components(rest, covered)
    _check_budget(parts, band, limits)
    total, chosen = 1, list(placed)
    for items, options in sorted(parts, key=lambda p: len(p[0])):
        local = {i: k for k, i in enumerate(items)}
        g = graph_of(
            [item_cell(i) for i in items],
            [is_clue(i) for i in items],
            [(local[rest.opt_items[o][0]], local[rest.opt_items[o][1]]) for o in options],
        )
        total *= matchings(g, limits.deadline)
        if total == 0:
            return PfaffianReport(0, None, -1, len(parts))
        if solution:
            found = one_matching(len(g.cells), g.edges)
            assert found is not None, "a part with matchings has one"
            chosen += [ids[options[e]] for e in found]
    return PfaffianReport(total, sorted(chosen) if solution else None, -1, len(parts))


def _check_budget(parts: list[tuple[list[int], list[int]]], band: int, limits: memo.Limits) -> None:
    """Stop before eliminating when the determinants' band would not fit the memory budget
    (`band`: the grid's short side, which bounds each part's)."""
    if limits.memory is None:
        return
    need = sum(memory_need(len(items), band) for items, _ in parts)
    if need > limits.memory:
        raise memo.Stopped("memory budget", 0, need)
