"""Random small tiling puzzles that nobody wrote down, for differential tests.

A board (a 2D rectangle, a 3D box, or a rhombus of triangles or hexes, with random holes)
is cut into random connected
pieces, so at least one solution exists; then, as drawn: colours on the cells (the pieces
carry the colours they were cut from), rotate-only play for the puzzle or for single
pieces, extra copies with a lower minimum, and extra pieces that need not be used.
Each puzzle comes as polytile JSON and as the plain data of tests/checker.py.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from hypothesis import strategies as st

from checker import _shape_key, shift_of

STEPS_2D = ((1, 0), (-1, 0), (0, 1), (0, -1))
STEPS_3D = tuple(tuple(s if i == a else 0 for i in range(3)) for a in range(3) for s in (1, -1))
STEPS_HEX = STEPS_2D + ((1, -1), (-1, 1))


@dataclass
class RandomPuzzle:
    json: dict  # polytile JSON
    board: dict  # checker form: cell -> colour
    pieces: list  # checker form: {"cells": {cell: colour}, "count", "min", "reflect"}
    dim: int
    kind: tuple  # (dim, allow_reflection, some piece one-sided, copies, partial, colours)
    grid: str = "square"


def _lattice_cells(rng: random.Random, grid: str) -> list[tuple]:
    """A rhombus of triangles (a + b + c = 1 or 2) or of hexes (axial q, r)."""
    w, h = rng.randint(2, 5), rng.randint(2, 4)
    if grid == "hex":
        return [(q, r) for q in range(w + 1) for r in range(h + 1)]
    return [(a, b, s - a - b) for a in range(h) for b in range(w) for s in (1, 2)]


def _board(rng: random.Random, dim: int, grid: str = "square") -> list[tuple]:
    while True:
        if grid != "square":
            cells = _lattice_cells(rng, grid)
        elif dim == 2:
            w, h = rng.randint(2, 6), rng.randint(2, 5)
            cells = [(x, y) for x in range(w) for y in range(h)]
        else:
            sides = [rng.randint(1, 3) for _ in range(3)]
            cells = [(x, y, z) for x in range(sides[0]) for y in range(sides[1]) for z in range(sides[2])]
        holes = rng.randint(0, min(3, max(0, len(cells) - 8)))
        for c in rng.sample(cells, holes):
            cells.remove(c)
        if 8 <= len(cells) <= 30:
            lo = shift_of(cells, dim, grid)
            return sorted(tuple(c[i] - lo[i] for i in range(dim)) for c in cells)


def _cut(rng: random.Random, cells: list[tuple], max_size: int, grid: str = "square") -> list[list[tuple]]:
    """The cells cut into connected pieces of 1..max_size cells."""
    steps = STEPS_HEX if grid == "hex" else STEPS_2D if len(cells[0]) == 2 else STEPS_3D
    free = set(cells)
    out = []
    while free:
        start = rng.choice(sorted(free))
        piece, target = [start], rng.randint(2, max_size)
        free.discard(start)
        while len(piece) < target:
            frontier = sorted({tuple(a + b for a, b in zip(c, s)) for c in piece for s in steps} & free)
            if not frontier:
                break
            nxt = rng.choice(frontier)
            piece.append(nxt)
            free.discard(nxt)
        out.append(piece)
    return out


def _free_key(cells: list[tuple], dim: int, grid: str = "square"):
    """The shape up to every motion (mirror images included), without colours."""
    return _shape_key({c: "" for c in cells}, dim, True, grid)


def build(seed: int, dim: int, reflect_mode: str, colours: str, extras: str, grid: str = "square") -> RandomPuzzle:
    """reflect_mode: 'free' | 'rotate' (the puzzle's policy) | 'mixed' (per piece);
    colours: 'none' | 'checker' | 'random'; extras: 'none' | 'copies' | 'pieces';
    grid: 'square' (dim 2 or 3), 'triangle' (dim 3: three coordinates) or 'hex' (dim 2)."""
    rng = random.Random(seed)
    cells = _board(rng, dim, grid)
    if colours == "checker":
        paint = {c: "BW"[sum(c) % 2] for c in cells}
    elif colours == "random":
        paint = {c: rng.choice("RG") for c in cells}
    else:
        paint = {c: "" for c in cells}
    parts = _cut(rng, cells, rng.choice((3, 4, 5)), grid)
    if extras == "pieces":  # pieces that need not all be used
        for _ in range(rng.randint(1, 2)):
            parts.append(rng.choice(_cut(rng, cells, 4, grid)))
    allow = reflect_mode == "free" if reflect_mode != "mixed" else rng.random() < 0.5
    policy: dict = {}  # one reflection policy per free shape (see checker)
    pieces, specs = [], []
    for part in parts:
        key = _free_key(part, dim, grid)
        if key not in policy:
            policy[key] = rng.random() < 0.5 if reflect_mode == "mixed" else allow
        reflect = policy[key]
        count, least = 1, 1
        if extras == "copies" and rng.random() < 0.3:
            count = rng.randint(2, 3)
            least = rng.choice((0, 1, count))
        elif extras == "pieces":
            least = rng.randint(0, 1)
        pieces.append({"cells": {c: paint[c] for c in part}, "count": count, "min": least, "reflect": reflect})
        spec = {"name": f"p{len(specs)}", "cells": [list(c) for c in part], "count": count, "min": least}
        if colours != "none":
            spec["colours"] = [paint[c] for c in part]
        if reflect != allow or rng.random() < 0.3:
            spec["reflect"] = reflect
        specs.append(spec)
    data: dict = {"board": [list(c) for c in cells], "pieces": specs, "allow_reflection": allow}
    if colours != "none":
        data["colours"] = [paint[c] for c in cells]
    if grid != "square":
        data["grid"] = grid
    one_sided = any(not p["reflect"] for p in pieces)
    copies = any(p["count"] > 1 for p in pieces)
    partial = any(p["min"] < p["count"] for p in pieces)
    kind = (grid if grid != "square" else dim, allow, one_sided, copies, partial, colours != "none")
    return RandomPuzzle(data, {c: paint[c] for c in cells}, pieces, dim, kind, grid)


@st.composite
def random_puzzles(draw) -> RandomPuzzle:
    return build(
        draw(st.integers(0, 2**32 - 1)),
        draw(st.sampled_from((2, 2, 3))),
        draw(st.sampled_from(("free", "rotate", "mixed"))),
        draw(st.sampled_from(("none", "none", "checker", "random"))),
        draw(st.sampled_from(("none", "copies", "pieces"))),
    )


@st.composite
def random_lattice_puzzles(draw) -> RandomPuzzle:
    """Random puzzles on the triangle and hex grids."""
    grid = draw(st.sampled_from(("triangle", "hex")))
    return build(
        draw(st.integers(0, 2**32 - 1)),
        3 if grid == "triangle" else 2,
        draw(st.sampled_from(("free", "rotate", "mixed"))),
        draw(st.sampled_from(("none", "none", "checker", "random"))),
        draw(st.sampled_from(("none", "copies", "pieces"))),
        grid,
    )
