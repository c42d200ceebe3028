"""Independent pure-Python frontier (broken-profile) counter for polytile JSON tilings.

    python bench/frontier_reference.py FILE             # prints the count and the seconds
    python bench/frontier_reference.py FILE --prefixes  # "k count" of every prefix board, one sweep

Standard library only; it does not import polytile, so it can check polytile's counts. Square
grid, 2D: the board as rows of a drawing (any character but blank and '.') or a list of [x, y];
each piece by "cells" (a drawing or a list), "count" (default 1) and "min" (default: count).
Pieces are turned, and flipped unless "allow_reflection" (or the piece's "reflect") is false;
congruent pieces are merged into one piece with their copies added up. The cells are swept
along the narrow side (column by column of the shorter dimension); at each cell every state
either has it covered already or places a piece whose first cell it is. A state is (which of
the cells ahead are covered, as bits from the current cell on; copies used of each piece whose
copies can run out, copies < cells // size, or that has a minimum). Counts are Python ints: exact at any size.

With --prefixes, one sweep also gives the count of every prefix board: the board's cells on the
first k lines across the sweep (for a 5 x 40 board, the 5 x k boards, k = 1..40), with the same
pieces (copies and minimums). The placements are those of the whole board; at the boundary after
line k, a state whose cells ahead are all free and whose tracked pieces have met their minimums
is exactly a tiling of the first k lines (no placed piece reaches past them), and every such
tiling reaches that state by one path.
"""

from __future__ import annotations

import json
import sys
import time
from collections import defaultdict


def _cells(v):
    if all(isinstance(r, str) for r in v):
        return [(r, c) for r, row in enumerate(v) for c, ch in enumerate(row) if ch not in " ."]
    return [tuple(p) for p in v]


def _shape(cells):
    """Cells moved so that their least one is at the origin, sorted (a canonical position)."""
    cells = sorted(cells)
    a0, b0 = cells[0]
    return tuple((a - a0, b - b0) for a, b in cells)


def _orientations(cells, reflect):
    out, cur = set(), list(cells)
    for _ in range(4):
        cur = [(b, -a) for a, b in cur]
        out.add(_shape(cur))
        if reflect:
            out.add(_shape([(a, -b) for a, b in cur]))
    return out


def _read(source) -> dict:
    if isinstance(source, dict):
        return source
    with open(source) as f:
        return json.load(f)


def _sweep(data: dict):
    """Yields (line, done, states) after the last cell of each line across the sweep: line is
    the long coordinate, done(states) the count of the states that are finished tilings."""
    board = _cells(data["board"])
    if len({len(p) for p in board}) != 1 or len(board[0]) != 2:
        raise ValueError("the reference counts 2D square-grid boards only")
    allow = data.get("allow_reflection", True)
    if (data.get("grid", "square")) != "square":
        raise ValueError("the reference counts square-grid boards only")
    # sweep along the narrow side: key (long, short) so that the short coordinate runs fastest
    spans = [max(p[i] for p in board) - min(p[i] for p in board) for i in (0, 1)]
    swap = spans[1] > spans[0]
    key = (lambda p: (p[1], p[0])) if swap else (lambda p: (p[0], p[1]))
    order = sorted(key(p) for p in board)
    index = {p: i for i, p in enumerate(order)}
    n = len(order)
    pieces: dict[frozenset, list[int]] = {}  # orientations -> [copies, least copies]
    area = sum(len(_cells(p["cells"])) * p.get("count", 1) for p in data["pieces"] if isinstance(p, dict))
    partial = area > n and all("min" not in p for p in data["pieces"])  # polytile: any subset
    for p in data["pieces"]:
        if not isinstance(p, dict) or "cells" not in p:
            raise ValueError("the reference needs every piece's cells")
        cells = [key(c) for c in _cells(p["cells"])]
        orients = frozenset(_orientations(cells, p.get("reflect", allow)))
        copies = p.get("count", 1)
        entry = pieces.setdefault(orients, [0, 0])
        entry[0] += copies
        entry[1] += p.get("min", 0 if partial else copies)
    kinds = list(pieces.items())
    size = [len(next(iter(o))) for o, _ in kinds]
    tracked = [k for k, (o, (c, m)) in enumerate(kinds) if c < n // size[k] or m > 0]  # can run out
    slot = {k: j for j, k in enumerate(tracked)}
    # anchored[i]: (bits from cell i on, piece kind) of each placement whose first cell is i
    anchored: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for k, (orients, _) in enumerate(kinds):
        for shape in orients:
            for i, (a, b) in enumerate(order):
                idx = [index.get((a + da, b + db)) for da, db in shape]
                if None not in idx:
                    anchored[i].append((sum(1 << (j - i) for j in idx), k))

    def done(states: dict) -> int:
        least = [(slot[k], kinds[k][1][1]) for k in tracked]
        return sum(w for (bits, used), w in states.items() if bits == 0 and all(used[j] >= m for j, m in least))

    states: dict = {(0, (0,) * len(tracked)): 1}
    for i in range(n):
        nxt: dict = defaultdict(int)
        for (bits, used), ways in states.items():
            if bits & 1:
                nxt[(bits >> 1, used)] += ways
                continue
            for mask, k in anchored[i]:
                if bits & mask:
                    continue
                u = used
                if k in slot:
                    j = slot[k]
                    if used[j] >= kinds[k][1][0]:
                        continue
                    u = used[:j] + (used[j] + 1,) + used[j + 1 :]
                nxt[((bits | mask) >> 1, u)] += ways
        states = nxt
        if i + 1 == n or order[i + 1][0] != order[i][0]:
            yield order[i][0], done, states


def count(source) -> int:
    """The number of tilings of the puzzle (a polytile JSON file's path, or its parsed dict)."""
    total = 0
    for _line, done, states in _sweep(_read(source)):
        total = done(states)
    return total


def prefix_counts(source) -> list[int]:
    """counts[k - 1] = the number of tilings of the first k lines across the sweep (same pieces)."""
    return [done(states) for _line, done, states in _sweep(_read(source))]


if __name__ == "__main__":
    t = time.perf_counter()
    if "--prefixes" in sys.argv[1:]:
        path = next(a for a in sys.argv[1:] if a != "--prefixes")
        for k, c in enumerate(prefix_counts(path), 1):
            print(k, c)
        print(f"{time.perf_counter() - t:.3f} s", file=sys.stderr)
    else:
        result = count(sys.argv[1])
        print(result, f"{time.perf_counter() - t:.3f} s")
