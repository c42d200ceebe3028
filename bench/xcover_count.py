"""Count the solutions of a polytile puzzle file with xcover, independently of polytile.

    python bench/xcover_count.py examples/pentomino-6x10.txt [--first]

Reads the file itself (ASCII drawing: the largest 4-connected object is the board, the others
are tiles, reflections allowed; polytile JSON: "board", "pieces", "allow_reflection"), builds
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
    cells = {(r, c): ch for r, line in enumerate(text.splitlines())
             for c, ch in enumerate(line) if ch != " "}
    if len(set(cells.values())) > 1:
        raise SystemExit("xcover_count: coloured drawings are not supported")
    seen, groups = set(), []
    for start in sorted(cells):              # 4-connected components in reading order
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
    pieces = [(f"t{i}", g, True) for i, g in enumerate(groups) if i != b]
    return groups[b], pieces


def _json_cells(v) -> list[Cell]:
    if all(isinstance(row, str) for row in v):          # rows of a drawing
        return [(r, c) for r, row in enumerate(v) for c, ch in enumerate(row) if ch not in " ."]
    return [tuple(x) for x in v]


def read_puzzle(path: str) -> tuple[list[Cell], list[tuple[str, list[Cell], bool]]]:
    """(board cells, [(name, cells, reflections allowed)]) from an ASCII or JSON puzzle file."""
    text = open(path, encoding="utf-8-sig").read()
    if not (path.endswith(".json") or text.lstrip().startswith("{")):
        return _ascii(text)
    d = json.loads(text)
    board = _json_cells(d["board"])
    reflect = d.get("allow_reflection", len(board[0]) == 2)
    pieces = []
    for p in d["pieces"]:
        if p.get("count", 1) != 1 or "min" in p:
            raise SystemExit("xcover_count: only pieces with count 1 are supported")
        pieces.append((p["name"], _json_cells(p["cells"]), p.get("reflect", reflect)))
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


def orientations(cells: list[Cell], reflect: bool) -> set[tuple[Cell, ...]]:
    """Distinct normalised images under the rotations (and reflections) of the lattice:
    8 (4) in the plane, 48 (24) in space."""
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
    for p, (_, cells, reflect) in enumerate(pieces):
        for shape in orientations(cells, reflect):
            a = shape[0]
            for b in board:                  # translate shape[0] onto every board cell
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
    return {"solutions": n, "seconds": time.perf_counter() - t0, "build_seconds": t1 - t0,
            "options": len(options)}


def main(argv: list[str]) -> None:
    args = [a for a in argv if not a.startswith("--")]
    if len(args) != 1:
        raise SystemExit("usage: xcover_count.py PUZZLE_FILE [--first]")
    board, pieces = read_puzzle(args[0])
    warm()
    print(json.dumps(count(board, pieces, first="--first" in argv)))


if __name__ == "__main__":
    main(sys.argv[1:])
