"""Count the solutions of a polytile puzzle file with xcover, independently of polytile.

    python bench/xcover_count.py examples/pentomino-6x10.txt [--first]

Reads the file itself (ASCII drawing: the largest 4-connected object is the board, the others
are tiles, reflections allowed; polytile JSON: "board", "pieces", "allow_reflection", "grid":
square, or triangle cells (a, b, c) / hex cells (q, r) in the coordinates documented in
polytile's lattice.py, with the motions of those grids written out here again), builds
the exact-cover options (items: board cells, then one item per piece; one option per distinct
placement) and enumerates with `xcover.covers`.  Prints one JSON line:
{"solutions", "seconds", "build_seconds", "options"}.  `seconds` is build + search, after
imports and after the numba kernel has been loaded/compiled on a tiny problem (like polytile's).
Only single-colour drawings and pieces with count 1 are supported (enough for the bench cases).
"""

from __future__ import annotations

import json
import sys
import time
from collections import deque
from itertools import permutations, product

Cell = tuple[int, ...]


def _ascii(text: str) -> tuple[list[Cell], list[tuple[str, list[Cell], bool]]]:
    cells = {(r, c): ch for r, line in enumerate(text.splitlines()) for c, ch in enumerate(line) if ch != " "}
    if len(set(cells.values())) > 1:
        raise SystemExit("xcover_count: coloured drawings are not supported")
    seen, groups = set(), []
    for start in sorted(cells):  # 4-connected components in reading order
        if start in seen:
            continue
        seen.add(start)
        group, todo = [], deque([start])
        while todo:
            r, c = todo.popleft()
            group.append((r, c))
            for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if nb in cells and nb not in seen:
                    seen.add(nb)
                    todo.append(nb)
        groups.append(group)
    b = max(range(len(groups)), key=lambda i: len(groups[i]))
    pieces = [(f"t{i}", g, True, "square") for i, g in enumerate(groups) if i != b]
    return groups[b], pieces


def _json_cells(v, grid: str = "square") -> list[Cell]:
    if all(isinstance(row, str) for row in v):  # rows of a drawing
        points = [(r, c) for r, row in enumerate(v) for c, ch in enumerate(row) if ch not in " ."]
        return [_drawn(grid, r, c) for r, c in points]
    return [tuple(x) for x in v]


def _drawn(grid: str, row: int, col: int) -> Cell:
    """polytile's drawing conventions (docs/formats.md, "Triangle and hex grids"): triangle, one
    character per triangle, pointing up when row + column is even; hex, hexes two columns
    apart, rows shifted by one."""
    if grid == "triangle":
        s = 2 if (row + col) % 2 == 0 else 1
        return (-row, (s + row + col) // 2, (s + row - col) // 2)
    if grid == "hex":
        return ((col - row - (row + col) % 2) // 2, row)
    return (row, col)


def read_puzzle(path: str) -> tuple[list[Cell], list[tuple[str, list[Cell], bool]]]:
    """(board cells, [(name, cells, reflections allowed)]) from an ASCII or JSON puzzle file."""
    text = open(path, encoding="utf-8-sig").read()
    if not (path.endswith(".json") or text.lstrip().startswith("{")):
        return _ascii(text)
    d = json.loads(text)
    grid = d.get("grid", "square")
    board = _json_cells(d["board"], grid)
    reflect = d.get("allow_reflection", len(board[0]) == 2 or grid != "square")
    pieces = []
    for p in d["pieces"]:
        if p.get("count", 1) != 1 or "min" in p:
            raise SystemExit("xcover_count: only pieces with count 1 are supported")
        pieces.append((p["name"], _json_cells(p["cells"], grid), p.get("reflect", reflect), grid))
    return board, pieces


def _normalise(cells) -> tuple[Cell, ...]:
    lo = [min(c[k] for c in cells) for k in range(len(cells[0]))]
    return tuple(sorted(tuple(x - m for x, m in zip(c, lo)) for c in cells))


def _det(perm: tuple[int, ...], signs: tuple[int, ...]) -> int:
    inversions = sum(perm[i] > perm[j] for i in range(len(perm)) for j in range(i + 1, len(perm)))
    s = -1 if inversions % 2 else 1
    for x in signs:
        s *= x
    return s


def _triangle_images(cells: list[Cell], reflect: bool) -> set[tuple[Cell, ...]]:
    """Triangles (a, b, c), a + b + c = 2 (up) or 1 (down): the 12 motions x -> P x and
    x -> (1, 1, 1) - P x (P a permutation; rotations: P even); translations keep a + b + c."""
    out = set()
    for perm in permutations(range(3)):
        even = _det(perm, (1, 1, 1)) == 1
        for turn in (False, True):
            if not (reflect or even):
                continue
            moved = [tuple((1 - c[p]) if turn else c[p] for p in perm) for c in cells]
            lo_a, lo_b = min(c[0] for c in moved), min(c[1] for c in moved)
            shift = (lo_a, lo_b, -(lo_a + lo_b))
            out.add(tuple(sorted(tuple(x - s for x, s in zip(c, shift)) for c in moved)))
    return out


def _hex_images(cells: list[Cell], reflect: bool) -> set[tuple[Cell, ...]]:
    """Hexes (q, r), axial: the 6 turns (q, r) -> (-r, q + r), each also after (q, r) -> (r, q)."""
    out = set()
    for flip in (False, True) if reflect else (False,):
        shape = [(r, q) for q, r in cells] if flip else list(cells)
        for _ in range(6):
            out.add(_normalise(shape))
            shape = [(-r, q + r) for q, r in shape]
    return out


def orientations(cells: list[Cell], reflect: bool, grid: str = "square") -> set[tuple[Cell, ...]]:
    """Distinct normalised images under the rotations (and reflections) of the lattice:
    8 (4) in the plane, 48 (24) in space, 12 (6) on the triangle and hex grids."""
    if grid == "triangle":
        return _triangle_images(cells, reflect)
    if grid == "hex":
        return _hex_images(cells, reflect)
    d = len(cells[0])
    out = set()
    for perm in permutations(range(d)):
        for signs in product((1, -1), repeat=d):
            if reflect or _det(perm, signs) == 1:
                out.add(_normalise([tuple(s * c[p] for p, s in zip(perm, signs)) for c in cells]))
    return out


def build_options(board: list[Cell], pieces) -> list[list[int]]:
    """Items 0..n-1 are the board cells, n+p is piece p; one option per distinct placement."""
    index = {c: i for i, c in enumerate(board)}
    n = len(board)
    options = []
    for p, (_, cells, reflect, grid) in enumerate(pieces):
        for shape in orientations(cells, reflect, grid):
            a = shape[0]
            for b in board:  # translate shape[0] onto every board cell
                if grid == "triangle" and sum(b) != sum(a):
                    continue  # up onto down is no translation of the grid
                placed = [index.get(tuple(x + bb - aa for x, bb, aa in zip(c, b, a))) for c in shape]
                if None not in placed:
                    options.append([n + p] + placed)
    return options


def warm() -> None:
    """Load (or compile) xcover's numba kernel before any timing."""
    from xcover import covers

    assert sum(1 for _ in covers([[0, 1], [0], [1]])) == 2


def count(board, pieces, first: bool = False) -> dict:
    """Build the options and count the covers (or stop at the first); times exclude imports."""
    from xcover import covers

    t0 = time.perf_counter()
    options = build_options(board, pieces)
    t1 = time.perf_counter()
    n = 0
    for _ in covers(options):
        n += 1
        if first:
            break
    return {"solutions": n, "seconds": time.perf_counter() - t0, "build_seconds": t1 - t0, "options": len(options)}


def main(argv: list[str]) -> None:
    args = [a for a in argv if not a.startswith("--")]
    if len(args) != 1:
        raise SystemExit("usage: xcover_count.py PUZZLE_FILE [--first]")
    board, pieces = read_puzzle(args[0])
    warm()
    print(json.dumps(count(board, pieces, first="--first" in argv)))


if __name__ == "__main__":
    main(sys.argv[1:])
