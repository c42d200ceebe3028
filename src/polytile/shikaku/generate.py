"""Make Shikaku puzzles with exactly one solution.

Cut the grid into random rectangles, put each one's number on a random cell of it, and
search for two solutions. While there is a second solution, take each rectangle R of it that the
planted solution lacks; R holds one clue, and the clue's planted rectangle has a cell
outside R (same area, different rectangle), so moving the clue there forbids R.
"""

from __future__ import annotations

import random

from ..engine.search import search
from .grid import Rect, Shikaku, verify
from .reduction import reduce

MAX_AREA = 12
MAX_CELLS = 6400  # beyond, the two-solution search can stall (to do)


def partition(w: int, h: int, rng: random.Random, max_area: int = MAX_AREA) -> list[Rect]:
    """Random rectangles covering the grid: at each free cell (row-major), a random shape
    that fits the free space to its right and below, areas 2..max_area when possible."""
    used = [[False] * w for _ in range(h)]
    rects: list[Rect] = []
    for r in range(h):
        for c in range(w):
            if used[r][c]:
                continue
            shapes = [
                (a, b)
                for a in range(1, h - r + 1)
                for b in range(1, w - c + 1)
                if a * b <= max_area and _free(used, r, c, a, b)
            ]
            big = [s for s in shapes if s[0] * s[1] >= 2]
            a, b = rng.choice(big or shapes)
            for y in range(r, r + a):
                used[y][c : c + b] = [True] * b
            rects.append((r, c, a, b))
    return rects


def _free(used: list[list[bool]], r: int, c: int, a: int, b: int) -> bool:
    return not any(used[y][x] for y in range(r, r + a) for x in range(c, c + b))


def _fits(w: int, h: int, rect: Rect, cell: tuple[int, int], taken: set[tuple[int, int]]) -> int:
    """How many rectangles of rect's area could hold a clue at `cell` and no other clue:
    moving a clue where it has fewest choices makes a second solution least likely."""
    area, (y, x), n = rect[2] * rect[3], cell, 0
    for a in range(1, area + 1):
        if area % a:
            continue
        b = area // a
        for r in range(max(0, y - a + 1), min(y, h - a) + 1):
            for c in range(max(0, x - b + 1), min(x, w - b) + 1):
                n += not any((yy, xx) in taken for yy in range(r, r + a) for xx in range(c, c + b))
    return n


def _cells(rect: Rect) -> list[tuple[int, int]]:
    r, c, a, b = rect
    return [(y, x) for y in range(r, r + a) for x in range(c, c + b)]


def make_unique(
    w: int, h: int, rects: list[Rect], rng: random.Random, rounds: int, spread: bool = False
) -> Shikaku | None:
    """Place the clues, then move them until the planted solution is the only one (`spread`:
    each first on a random cell of its rectangle, which leaves harder puzzles)."""
    where: dict[Rect, tuple[int, int]] = {}
    taken: set[tuple[int, int]] = set()
    for rect in rects:  # each clue where it has the fewest rectangles so far
        if spread:
            where[rect] = rng.choice(_cells(rect))
        else:
            where[rect] = min(_cells(rect), key=lambda cell: (_fits(w, h, rect, cell, taken), rng.random()))
        taken.add(where[rect])
    planted = set(rects)
    for _ in range(rounds):
        p = Shikaku(w, h, tuple(sorted((y, x, rect[2] * rect[3]) for rect, (y, x) in where.items())))
        solutions = two_solutions(p)
        if len(solutions) == 1:
            return p
        other_solution = next(sol for sol in solutions if set(sol) != planted)
        clue_at = {cell: rect for rect, cell in where.items()}
        moved = set()
        for other in (rect for rect in other_solution if rect not in planted):
            inside = set(_cells(other))
            owner = next(clue_at[cell] for cell in inside if cell in clue_at)
            if owner not in moved:
                moved.add(owner)
                outside = [cell for cell in _cells(owner) if cell not in inside]
                taken = set(clue_at) - {where[owner]}
                where[owner] = min(outside, key=lambda cell: (_fits(w, h, owner, cell, taken), rng.random()))
    return None


def two_solutions(p: Shikaku) -> list[list[Rect]]:
    """At most two solutions, from the shared engine's fewest-options search (a uniqueness
    check prunes far better this way than by filling cells in order)."""
    red = reduce(p)
    res = search(red.cover, limit=2, store=True, engine="dlx")
    return [[red.rects[o] for o in found] for found in res.found]


def generate(w: int, h: int, seed: int | None = None) -> Shikaku:
    """A w x h puzzle with exactly one solution (the tests check it by counting)."""
    rng = random.Random(seed)
    while True:
        rects = partition(w, h, rng)
        p = make_unique(w, h, rects, rng, rounds=4 * len(rects) + 20)
        if p is not None:
            assert verify(p, sorted(rects)) is None
            return p
