"""Shikaku puzzles of a chosen level (`shikaku.grading`): unique puzzles are made
(`shikaku.generate`), and one below the level asked for is climbed towards it.

Most unique grids are level 1 or 2: the clues placed where they have the fewest rectangles
give level 1; placed at random, then moved until the solution is unique, a third to a half
are level 2. Levels 3 and 4 are rare (of 40,000 random 6 x 6 grids, the 22,204 unique ones:
3 of level 3, none of level 4; see docs/shikaku.md), so the grid is climbed: the planted
rectangles and their clues change by one `_step` (a clue moved within its rectangle, two
rectangles merged, one split, the edge between two moved; most often a rectangle whose
number's trial found a contradiction, `hardness.measure`'s blame), and the new grid is kept
when it stays unique, its level does not pass the one asked for, and its score (level, then
the measure's nearness to the next level) does not fall by much: simulated annealing, a fall
of d kept with probability exp(-d / HEAT). It is all bounded (TRIES grids, each climb stopped
after CLIMB steps without a better score), so a grid of the level may not be found.
"""

from __future__ import annotations

import math
import random

from .generate import make_unique, partition
from .grading import grade
from .grid import Rect, Shikaku
from .hardness import measure

TRIES = {1: 20, 2: 60, 3: 40, 4: 60}  # grids made per level asked for
CLIMB = {1: 100, 2: 200, 3: 300, 4: 300}  # a climb stops after this many steps without a gain
MAX_CELLS = 225  # --difficulty: grids up to 15 x 15 (each step grades a grid)
MAX_AREA = 12  # the largest rectangle a step makes
BLAME = 0.7  # how often a step changes a rectangle `measure` blames (when there is one)
HEAT = 0.3  # the annealing's temperature, in score units (a level is 10)

Plan = dict[Rect, tuple[int, int]]  # the planted rectangles and each one's clue cell


def _cells(rect: Rect) -> list[tuple[int, int]]:
    r, c, a, b = rect
    return [(y, x) for y in range(r, r + a) for x in range(c, c + b)]


def _puzzle(w: int, h: int, where: Plan) -> Shikaku:
    return Shikaku(w, h, tuple(sorted((y, x, rect[2] * rect[3]) for rect, (y, x) in where.items())))


def _merged(a: Rect, b: Rect) -> Rect | None:
    """The rectangle two rectangles make side by side, None when they make none."""
    top, left = min(a[0], b[0]), min(a[1], b[1])
    bottom, right = max(a[0] + a[2], b[0] + b[2]), max(a[1] + a[3], b[1] + b[3])
    if (bottom - top) * (right - left) != a[2] * a[3] + b[2] * b[3]:
        return None
    return top, left, bottom - top, right - left


def _cuts(m: Rect) -> list[tuple[Rect, Rect]]:
    """Every way to cut m in two rectangles of area 2 or more."""
    r, c, a, b = m
    out = [((r, c, i, b), (r + i, c, a - i, b)) for i in range(1, a) if min(i, a - i) * b >= 2]
    return out + [((r, c, a, j), (r, c + j, a, b - j)) for j in range(1, b) if min(j, b - j) * a >= 2]


def _replant(new: Plan, parts: tuple[Rect, Rect], clues: list[tuple[int, int]], rng: random.Random) -> None:
    """Put the two parts in the plan, each keeping the one old clue inside it, if just one."""
    for part in parts:
        inside = [cell for cell in clues if cell in set(_cells(part))]
        new[part] = inside[0] if len(inside) == 1 else rng.choice(_cells(part))


def _step(where: Plan, rng: random.Random, blame: frozenset[tuple[int, int]]) -> Plan | None:
    """A neighbour of the plan (None: the move drawn has none here): most often it changes a
    rectangle whose clue is to `blame` (`hardness.measure`)."""
    new = dict(where)
    suspects = sorted(rect for rect, cell in where.items() if cell in blame)
    a = rng.choice(suspects if suspects and rng.random() < BLAME else sorted(where))
    move = rng.random()
    if move < 0.4:  # the clue moved within its rectangle
        new[a] = rng.choice(_cells(a))
        return new
    if move < 0.55:  # split in two
        cuts = _cuts(a)
        if not cuts:
            return None
        del new[a]
        _replant(new, rng.choice(cuts), [where[a]], rng)
        return new
    joins = [(b, m) for b in where if b != a for m in [_merged(a, b)] if m and m[2] * m[3] <= MAX_AREA]
    if not joins:
        return None
    b, m = rng.choice(joins)
    del new[a], new[b]
    if move < 0.75:  # merged into one
        new[m] = rng.choice(_cells(m))
        return new
    cuts = [cut for cut in _cuts(m) if set(cut) != {a, b} and max(x[2] * x[3] for x in cut) <= MAX_AREA]
    if not cuts:  # the edge between the two moved (they are cut the other way)
        return None
    _replant(new, rng.choice(cuts), [where[a], where[b]], rng)
    return new


def _score(level: int, within: float) -> float:
    return 10 * level + min(within, 9.0)


def climb(w: int, h: int, where: Plan, level: int, rng: random.Random, patience: int) -> Shikaku | None:
    """From a unique grid's plan, annealing towards `level` (see the module doc) until
    `patience` steps in a row find no better score than the best so far (at most 10 times
    that in all); the grid when it gets there, else None."""
    got, within, blame = measure(_puzzle(w, h, where), level)
    now = best = _score(got or 0, within)
    still = 0
    for _ in range(10 * patience):
        still += 1
        if still > patience:
            return None
        new = _step(where, rng, blame)
        if new is None:
            continue
        q = _puzzle(w, h, new)
        got, within, why = measure(q, level)
        if got is None or got > level:
            continue
        if got == level:
            return q
        score = _score(got, within)
        if score > best:
            best, still = score, 0
        if score >= now or rng.random() < math.exp((score - now) / HEAT):
            where, now, blame = new, score, why
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
        got = measure(p, level)[0]
        if got == level:
            return p
        if got is not None and got < level:
            where = {rect: next((y, x) for y, x, _ in p.clues if (y, x) in set(_cells(rect))) for rect in rects}
            q = climb(w, h, where, level, rng, CLIMB[level])
            if q is not None:
                assert grade(q).level == level
                return q
    return None
