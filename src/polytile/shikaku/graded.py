"""Shikaku puzzles of a chosen level (`shikaku.grading`): unique puzzles are made
(`shikaku.generate`) and graded until one has the level asked for.

Most unique grids are level 1 or 2: the clues placed where they have the fewest rectangles
give level 1; placed at random, then moved until the solution is unique, a third to a half
are level 2. Levels 3 and 4 are rare (of 40,000 random 6 x 6 grids, the 22,204
unique ones: 3 of level 3, none of level 4; see docs/shikaku.md), so a grid below the level
asked for is climbed: a clue moved within its rectangle, or two rectangles side by side merged into one (its clue on a random
cell), kept when the grid stays unique, its level does not pass the one asked for, and its
grade's work does not fall (`work`). It is all bounded (TRIES grids, each climb stopped after
CLIMB steps without a gain), so a grid of the level may not be found.
"""

from __future__ import annotations

import random

from .generate import MAX_AREA, make_unique, partition
from .grading import RULES, Grade, grade
from .grid import Rect, Shikaku

TRIES = {1: 20, 2: 60, 3: 60, 4: 40}  # grids made per level asked for (4: each climb is long)
CLIMB = 150  # steps of a climb without a gain before it stops (and 20 times that in all)
MAX_CELLS = 225  # --difficulty: grids up to 15 x 15 (each step grades a grid)
WEIGHT = {1: 0, 2: 1, 3: 20, 4: 200}  # a deduction's work by its rule's level
CLUE = 5  # the work a clue is worth


def work(g: Grade, clues: int) -> tuple[int, int]:
    """How hard a graded grid is: its level, then its deductions weighted by their level and
    CLUE for each clue (a merge, which takes a clue away, must buy more work than that)."""
    return (g.level or 0, CLUE * clues + sum(n * WEIGHT[RULES[kind][0]] for kind, _, n in g.rules()))


def _cells(rect: Rect) -> list[tuple[int, int]]:
    r, c, a, b = rect
    return [(y, x) for y in range(r, r + a) for x in range(c, c + b)]


def _puzzle(w: int, h: int, where: dict[Rect, tuple[int, int]]) -> Shikaku:
    return Shikaku(w, h, tuple(sorted((y, x, rect[2] * rect[3]) for rect, (y, x) in where.items())))


def _merged(a: Rect, b: Rect) -> Rect | None:
    """The rectangle two rectangles make side by side, None when they make none."""
    top, left = min(a[0], b[0]), min(a[1], b[1])
    bottom, right = max(a[0] + a[2], b[0] + b[2]), max(a[1] + a[3], b[1] + b[3])
    if (bottom - top) * (right - left) != a[2] * a[3] + b[2] * b[3]:
        return None
    return top, left, bottom - top, right - left


def _step(where: dict[Rect, tuple[int, int]], rng: random.Random) -> dict[Rect, tuple[int, int]] | None:
    """A neighbour of the clue plan: a clue moved, or two rectangles merged (None: no merge)."""
    new = dict(where)
    a = rng.choice(sorted(where))
    if rng.random() < 0.5:
        new[a] = rng.choice(_cells(a))
        return new
    joins = [m for m in (_merged(a, b) for b in where if b != a) if m and m[2] * m[3] <= MAX_AREA]
    if not joins:
        return None
    m = rng.choice(joins)
    for rect in [r for r in where if _merged(a, r) == m] + [a]:
        del new[rect]
    new[m] = rng.choice(_cells(m))
    return new


def climb(p: Shikaku, g: Grade, level: int, rng: random.Random, stall: int = CLIMB) -> Shikaku | None:
    """From a unique grid graded g, steps towards `level` (see the module doc) until `stall`
    steps in a row gain nothing; the grid when it gets there, else None."""
    where = {rect: next((y, x) for y, x, _ in p.clues if (y, x) in set(_cells(rect))) for rect in g.rectangles}
    best, still = work(g, len(p.clues)), 0
    for _ in range(20 * stall):
        still += 1
        new = _step(where, rng)
        if still > stall:
            return None
        if new is None:
            continue
        q = _puzzle(p.width, p.height, new)
        gq = grade(q)
        if gq.level is None or gq.level > level or work(gq, len(q.clues)) < best:
            continue
        if work(gq, len(q.clues)) > best:
            still = 0
        where, best = new, work(gq, len(q.clues))
        if gq.level == level:
            return q
    return None


def generate_graded(w: int, h: int, level: int, seed: int | None = None, tries: int | None = None) -> Shikaku | None:
    """A w x h puzzle with one solution whose grade is `level` (1..4), None when TRIES grids
    (and their climbs) gave none. The same seed gives the same puzzle."""
    rng = random.Random(seed)
    for _ in range(TRIES[level] if tries is None else tries):
        rects = partition(w, h, rng)
        p = make_unique(w, h, rects, rng, rounds=4 * len(rects) + 20, spread=level > 1)
        if p is None:
            continue
        g = grade(p)
        if g.level == level:
            return p
        if g.level is not None and g.level < level:
            q = climb(p, g, level, rng)
            if q is not None:
                return q
    return None
