"""Shikaku: divide a grid into rectangles, each holding exactly one number, its area.

Model: a grid of `height` rows and `width` columns and its clues (row, col, area).
Reduction: the cells are the items of an exact cover; each clue's candidate rectangles
(every h x w with h * w = area inside the grid that holds the clue and no other clue) are
its options, counted by one piece with one copy. The clue's own cell is covered only by
its candidates, so "each clue once" needs no item of its own.
Search: `engine.memo` counts (propagation, independent parts, memoised sub-problems).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from ..core.cover import Cover
from ..core.results import LETTERS as PIECE_LETTERS
from ..engine import memo
from ..engine.search import search


@dataclass(frozen=True)
class Shikaku:
    width: int
    height: int
    clues: tuple[tuple[int, int, int], ...]          # (row, col, area), row-major

    @classmethod
    def from_rows(cls, rows: list[list[int]]) -> "Shikaku":
        clues = tuple((r, c, v) for r, row in enumerate(rows) for c, v in enumerate(row) if v)
        return cls(len(rows[0]) if rows else 0, len(rows), clues)

    def rows(self) -> list[list[int]]:
        grid = [[0] * self.width for _ in range(self.height)]
        for r, c, v in self.clues:
            grid[r][c] = v
        return grid

    def text(self) -> str:
        """The common text form: `W H`, then the rows, 0 for blank."""
        lines = [f"{self.width} {self.height}"] + [" ".join(map(str, row)) for row in self.rows()]
        return "\n".join(lines) + "\n"


Rect = tuple[int, int, int, int]                     # (row, col, height, width)


@dataclass
class Reduction:
    puzzle: Shikaku
    cover: Cover
    rects: np.ndarray          # (n_options, 4) row, col, height, width of each option
    clue_of: np.ndarray        # (n_options,) index into puzzle.clues
    item_cell: np.ndarray      # (n_items, 2) row, col of each item


@dataclass
class Answer:
    solutions: int
    rectangles: list[Rect] = field(default_factory=list)   # one solution, sorted row-major
    reason: str | None = None                               # why there is none, when there is none
    seconds: float = 0.0
    nodes: int = 0
    capped: bool = False

    def to_json(self) -> dict:
        return {"solutions": self.solutions, "rectangles": [list(r) for r in self.rectangles],
                "seconds": round(self.seconds, 6)}


def item_index(puzzle: Shikaku) -> np.ndarray:
    """(height, width) item number of each cell: filled along the short side, so the
    longer axis is the more significant one (a small frontier for the counter)."""
    h, w = puzzle.height, puzzle.width
    idx = np.arange(h * w, dtype=np.int64)
    return idx.reshape(h, w) if w <= h else idx.reshape(w, h).T.copy()


def divisor_shapes(area: int, height: int, width: int) -> list[tuple[int, int]]:
    return [(h, area // h) for h in range(1, min(area, height) + 1)
            if area % h == 0 and area // h <= width]


def candidates(puzzle: Shikaku) -> tuple[np.ndarray, np.ndarray]:
    """Every candidate rectangle of every clue: (n, 4) rects and (n,) clue indices,
    computed one shape at a time for all clues of that area at once."""
    H, W = puzzle.height, puzzle.width
    clue = np.zeros((H + 1, W + 1), dtype=np.int32)
    if not puzzle.clues:
        return np.zeros((0, 4), np.int64), np.zeros(0, np.int64)
    cl = np.array(puzzle.clues, dtype=np.int64)
    clue[cl[:, 0] + 1, cl[:, 1] + 1] = 1
    pref = clue.cumsum(0).cumsum(1)                  # pref[r, c]: clues in rows < r, cols < c
    rects, owners = [], []
    for area in sorted(set(cl[:, 2].tolist())):     # (np.unique would import numpy.ma)
        which = np.nonzero(cl[:, 2] == area)[0]
        r, c = cl[which, 0], cl[which, 1]
        for h, w in divisor_shapes(area, H, W):
            dr, dc = np.meshgrid(np.arange(h), np.arange(w), indexing="ij")
            top = r[:, None] - dr.ravel()[None, :]
            left = c[:, None] - dc.ravel()[None, :]
            ok = (top >= 0) & (left >= 0) & (top + h <= H) & (left + w <= W)
            k, j = np.nonzero(ok)
            t, lft = top[k, j], left[k, j]
            inside = pref[t + h, lft + w] - pref[t, lft + w] - pref[t + h, lft] + pref[t, lft]
            keep = inside == 1
            n = int(keep.sum())
            if n:
                rects.append(np.stack([t[keep], lft[keep], np.full(n, h), np.full(n, w)], 1))
                owners.append(which[k[keep]])
    if not rects:
        return np.zeros((0, 4), np.int64), np.zeros(0, np.int64)
    return np.concatenate(rects), np.concatenate(owners)


def reduce(puzzle: Shikaku) -> Reduction:
    """The exact cover of a Shikaku puzzle; options sorted by their first item."""
    rects, owner = candidates(puzzle)
    index = item_index(puzzle)
    items = []
    for h, w in sorted({(int(h), int(w)) for h, w in rects[:, 2:].tolist()}):
        sel = np.nonzero((rects[:, 2] == h) & (rects[:, 3] == w))[0]
        dr, dc = np.meshgrid(np.arange(h), np.arange(w), indexing="ij")
        cells = index[rects[sel, 0][:, None] + dr.ravel(), rects[sel, 1][:, None] + dc.ravel()]
        items.append((sel, np.sort(cells, axis=1)))
    n_opt = len(rects)
    first = np.zeros(n_opt, dtype=np.int64)
    size = (rects[:, 2] * rects[:, 3]) if n_opt else np.zeros(0, np.int64)
    for sel, cells in items:
        first[sel] = cells[:, 0]
    order = np.lexsort((owner, first))
    ptr = np.concatenate([[0], np.cumsum(size[order])]).astype(np.int64)
    flat = np.zeros(int(ptr[-1]), dtype=np.int32)
    where = np.empty(n_opt, dtype=np.int64)
    where[order] = np.arange(n_opt)
    for sel, cells in items:
        starts = ptr[where[sel]]
        flat[(starts[:, None] + np.arange(cells.shape[1])).ravel()] = cells.ravel()
    n_clues = len(puzzle.clues)
    cover = Cover(
        n_items=puzzle.width * puzzle.height,
        opt_ptr=ptr,
        opt_items=flat,
        opt_piece=owner[order].astype(np.int32),
        piece_count=np.ones(n_clues, dtype=np.int32),
        piece_min=np.ones(n_clues, dtype=np.int32),
        neighbours=_neighbours(index),
    )
    cell = np.zeros((puzzle.width * puzzle.height, 2), dtype=np.int64)
    rr, cc = np.indices(index.shape)
    cell[index.ravel()] = np.stack([rr.ravel(), cc.ravel()], 1)
    return Reduction(puzzle, cover, rects[order], owner[order], cell)


def _neighbours(index: np.ndarray) -> np.ndarray:
    H, W = index.shape
    pad = np.full((H + 2, W + 2), -1, dtype=np.int64)
    pad[1:-1, 1:-1] = index
    out = np.full((H * W, 4), -1, dtype=np.int32)
    for k, (dr, dc) in enumerate(((1, 0), (-1, 0), (0, 1), (0, -1))):
        out[index.ravel(), k] = pad[1 + dr:H + 1 + dr, 1 + dc:W + 1 + dc].ravel()
    return out


def obvious_reason(puzzle: Shikaku) -> str | None:
    """Why there can be no solution, when it shows before any search."""
    total = sum(v for _, _, v in puzzle.clues)
    if total != puzzle.width * puzzle.height:
        return f"the clues add up to {total}, the grid has {puzzle.width * puzzle.height} cells"
    return None


def solve(puzzle: Shikaku, *, cap: int | None = None, solution: bool = True,
          prefer_not: set[Rect] | None = None) -> Answer:
    """Count the solutions (exactly, or up to `cap`) and give one of them."""
    t0 = time.perf_counter()
    why = obvious_reason(puzzle)
    if why:
        return Answer(0, reason=why, seconds=time.perf_counter() - t0)
    red = reduce(puzzle)
    held = np.zeros(len(puzzle.clues), dtype=bool)
    held[red.clue_of] = True
    bare = np.flatnonzero(~held)
    if len(bare):
        r, c, v = puzzle.clues[int(bare[0])]
        return Answer(0, reason=f"no rectangle of area {v} fits around the clue at row {r + 1}, "
                                f"column {c + 1}", seconds=time.perf_counter() - t0)
    avoid = None
    if prefer_not:
        avoid = {o for o, r in enumerate(map(tuple, red.rects.tolist())) if r in prefer_not}
    res = memo.count(red.cover, cap=cap, solution=solution, prefer_not=avoid)
    ans = Answer(res.solutions, nodes=res.nodes, capped=res.capped)
    if res.found is not None:
        ans.rectangles = sorted(tuple(int(x) for x in red.rects[o]) for o in res.found)
    if res.solutions == 0:
        ans.reason = _dead_reason(red, res.dead_item)
    ans.seconds = time.perf_counter() - t0
    return ans


def _dead_reason(red: Reduction, item: int) -> str:
    if item < 0 or item >= len(red.item_cell):
        return "no arrangement of the candidate rectangles covers the grid"
    r, c = (int(x) for x in red.item_cell[item])
    for cr, cc, v in red.puzzle.clues:
        if (cr, cc) == (r, c):
            return f"the clue {v} at row {r + 1}, column {c + 1} has no rectangle left"
    return f"no rectangle can cover the cell at row {r + 1}, column {c + 1}"


def listing(puzzle: Shikaku, limit: int, seconds: float = 10.0) -> list[list[Rect]]:
    """Up to `limit` solutions found within `seconds`, in the order of the search (to browse)."""
    if obvious_reason(puzzle):
        return []
    red = reduce(puzzle)
    res = search(red.cover, limit=limit, store=True, time_limit=seconds)
    return [sorted(tuple(int(x) for x in red.rects[o]) for o in found) for found in res.found]


def count(puzzle: Shikaku) -> int:
    return solve(puzzle, solution=False).solutions


def verify(puzzle: Shikaku, rects: list[Rect]) -> str | None:
    """None when `rects` solve the puzzle, else what is wrong."""
    owner = [[-1] * puzzle.width for _ in range(puzzle.height)]
    for k, (r, c, h, w) in enumerate(rects):
        if r < 0 or c < 0 or r + h > puzzle.height or c + w > puzzle.width or h < 1 or w < 1:
            return f"rectangle {k} leaves the grid"
        for y in range(r, r + h):
            for x in range(c, c + w):
                if owner[y][x] != -1:
                    return f"cell ({y}, {x}) is covered twice"
                owner[y][x] = k
    if any(o == -1 for row in owner for o in row):
        return "a cell is not covered"
    held: dict[int, list[int]] = {}
    for r, c, v in puzzle.clues:
        held.setdefault(owner[r][c], []).append(v)
    for k, (_, _, h, w) in enumerate(rects):
        if held.get(k) != [h * w]:
            return f"rectangle {k} holds {held.get(k, [])}, its area is {h * w}"
    return None


LETTERS = PIECE_LETTERS.rstrip("0123456789")     # no digits: they would read as clues


def letters(puzzle: Shikaku, rects: list[Rect]) -> list[str]:
    """One letter per rectangle (A-Z, a-z, then again), in row-major order of their corners."""
    grid = [["."] * puzzle.width for _ in range(puzzle.height)]
    for k, (r, c, h, w) in enumerate(sorted(rects)):
        ch = LETTERS[k % len(LETTERS)]
        for y in range(r, r + h):
            grid[y][c:c + w] = [ch] * w
    return [" ".join(row) for row in grid]
