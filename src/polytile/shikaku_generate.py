"""Make Shikaku puzzles with exactly one solution.

Cut the grid into random rectangles, put each one's number on a random cell of it, and
count (up to 2). While there is a second solution, take a rectangle R of it that the
planted solution lacks; R holds one clue, and the clue's planted rectangle has a cell
outside R (same area, different rectangle), so moving the clue there forbids R.
"""
from __future__ import annotations

import random
import re

from .errors import PuzzleError
from .shikaku import Rect, Shikaku, solve, verify

MAX_AREA = 12


def parse_size(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", text)
    if not m or int(m.group(1)) < 1 or int(m.group(2)) < 1:
        raise PuzzleError(f"expected a size WxH such as 10x10, not {text!r}", "--generate")
    w, h = int(m.group(1)), int(m.group(2))
    if w * h > 250_000:
        raise PuzzleError(f"{w}x{h} is too large to generate (limit 250000 cells)", "--generate")
    return w, h


def partition(w: int, h: int, rng: random.Random, max_area: int = MAX_AREA) -> list[Rect]:
    """Random rectangles covering the grid: at each free cell (row-major), a random shape
    that fits the free space to its right and below, areas 2..max_area when possible."""
    used = [[False] * w for _ in range(h)]
    rects: list[Rect] = []
    for r in range(h):
        for c in range(w):
            if used[r][c]:
                continue
            shapes = [(a, b) for a in range(1, h - r + 1) for b in range(1, w - c + 1)
                      if a * b <= max_area and _free(used, r, c, a, b)]
            big = [s for s in shapes if s[0] * s[1] >= 2]
            a, b = rng.choice(big or shapes)
            for y in range(r, r + a):
                used[y][c:c + b] = [True] * b
            rects.append((r, c, a, b))
    return rects


def _free(used: list[list[bool]], r: int, c: int, a: int, b: int) -> bool:
    return not any(used[y][x] for y in range(r, r + a) for x in range(c, c + b))


def _cells(rect: Rect) -> list[tuple[int, int]]:
    r, c, a, b = rect
    return [(y, x) for y in range(r, r + a) for x in range(c, c + b)]


def make_unique(w: int, h: int, rects: list[Rect], rng: random.Random,
                rounds: int) -> Shikaku | None:
    """Place the clues, then move them until the planted solution is the only one."""
    where = {rect: rng.choice(_cells(rect)) for rect in rects}
    planted = set(rects)
    for _ in range(rounds):
        p = Shikaku(w, h, tuple(sorted((y, x, rect[2] * rect[3]) for rect, (y, x) in where.items())))
        ans = solve(p, cap=2, prefer_not=planted)
        if ans.solutions == 1:
            return p
        other = next(rect for rect in ans.rectangles if rect not in planted)
        inside = set(_cells(other))
        owner = next(rect for rect, cell in where.items() if cell in inside)
        where[owner] = rng.choice([cell for cell in _cells(owner) if cell not in inside])
    return None


def generate(w: int, h: int, seed: int | None = None) -> Shikaku:
    """A w x h puzzle with exactly one solution (checked by counting)."""
    rng = random.Random(seed)
    while True:
        rects = partition(w, h, rng)
        p = make_unique(w, h, rects, rng, rounds=4 * len(rects) + 20)
        if p is not None:
            assert verify(p, sorted(rects)) is None
            return p
