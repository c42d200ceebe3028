"""Shikaku: divide a grid into rectangles, each holding exactly one number, its area.

Model: a grid of `height` rows and `width` columns and its clues (row, col, area).
Reduction: the cells are the items of an exact cover; each clue's candidate rectangles
(every h x w with h * w = area inside the grid that holds the clue and no other clue) are
its options, counted by one piece with one copy. The clue's own cell is covered only by
its candidates, so "each clue once" needs no item of its own.
Search: `engine.memo` counts (propagation, independent parts, memoised sub-problems).

Plain Python: a puzzle people type is small, and numpy alone would take longer to import
than reducing and counting it. numpy is imported only for the shared engine (`listing`,
`generate`) and by the counter on very large grids.
"""

from __future__ import annotations

import time
from functools import cached_property
from itertools import chain
from typing import TYPE_CHECKING, Callable, NamedTuple

from ..engine import memo

if TYPE_CHECKING:
    from ..core.cover import Cover


class Shikaku(NamedTuple):
    """A grid and its clues. (The classes here are plain: `dataclasses` would cost a run
    more to import than a typed puzzle takes to count.)"""

    width: int
    height: int
    clues: tuple[tuple[int, int, int], ...]  # (row, col, area), row-major

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


Rect = tuple[int, int, int, int]  # (row, col, height, width)


class Reduction:
    """The exact cover of a puzzle as plain lists: option o is the rectangle `rects[o]` of the
    clue `clue_of[o]`, covering the items `opt_items[o]` (ascending); options are sorted by
    their first item. Items are cells numbered by `item_number`; with `cells`, only those
    cells (ascending item numbers, e.g. what propagation leaves open), item b being `cells[b]`."""

    def __init__(
        self,
        puzzle: Shikaku,
        rects: list[Rect],
        clue_of: list[int],
        opt_items: list[list[int]],
        cells: list[int] | None = None,
    ):
        self.puzzle, self.rects, self.clue_of, self.opt_items = puzzle, rects, clue_of, opt_items
        self.cells = cells

    @property
    def n_items(self) -> int:
        """Items of the cover: every cell, or those of `cells`."""
        return self.puzzle.width * self.puzzle.height if self.cells is None else len(self.cells)

    def options(self) -> memo.Options:
        """The cover for the memoised counter: every item primary."""
        return memo.Options(self.n_items, [True] * self.n_items, self.opt_items)

    def item_cell(self, item: int) -> tuple[int, int]:
        """(row, col) of an item."""
        if self.cells is not None:
            item = self.cells[item]
        w, h = self.puzzle.width, self.puzzle.height
        return divmod(item, w) if w <= h else divmod(item, h)[::-1]

    @cached_property
    def cover(self) -> Cover:
        """The same cover as numpy arrays, for the shared engine (`listing`, `generate`;
        a reduction of every cell)."""
        import numpy as np
        from ..core.cover import Cover

        lengths = [len(items) for items in self.opt_items]
        n_clues = len(self.puzzle.clues)
        return Cover(
            n_items=self.puzzle.width * self.puzzle.height,
            opt_ptr=np.cumsum([0] + lengths, dtype=np.int64),
            opt_items=np.fromiter(chain.from_iterable(self.opt_items), np.int32, sum(lengths)),
            opt_piece=np.array(self.clue_of, dtype=np.int32),
            piece_count=np.ones(n_clues, dtype=np.int32),
            piece_min=np.ones(n_clues, dtype=np.int32),
            neighbours=np.array(neighbours(self.puzzle), dtype=np.int32).reshape(-1, 4),
        )


class Answer:
    def __init__(
        self,
        solutions: int | None,
        reason: str | None = None,
        seconds: float = 0.0,
        nodes: int = 0,
        capped: bool = False,
        method: str = "none",
    ):
        self.solutions = solutions  # None: the count was stopped (see `stopped`)
        self.rectangles: list[Rect] = []  # one solution, sorted row-major
        self.reason = reason  # why there is none, when there is none
        self.seconds = seconds
        self.nodes = nodes
        self.capped = capped
        self.stopped: str | None = None  # "time limit", "memory budget" or "interrupted"
        self.need = 0  # bytes the memo held when the budget stopped it
        self.method = method  # how it was counted: "pfaffian", "memo" (or "none":
        # no count was needed, see `reason`)

    @property
    def complete(self) -> bool:
        return self.stopped is None

    def to_json(self) -> dict:
        out = {
            "solutions": self.solutions,
            "rectangles": [list(r) for r in self.rectangles],
            "seconds": round(self.seconds, 6),
            "complete": self.complete,
            "method": self.method,
        }
        if self.stopped:
            out["reason"] = self.stopped
        return out


def item_number(puzzle: Shikaku) -> Callable[[int, int], int]:
    """The item of the cell (row, col): cells are numbered along the short side, so the
    longer axis is the more significant one (a small frontier for the counter)."""
    w, h = puzzle.width, puzzle.height
    return (lambda r, c: r * w + c) if w <= h else (lambda r, c: c * h + r)


def rect_items(puzzle: Shikaku, rect: Rect) -> list[int]:
    """The items of a rectangle, ascending: runs along the short side of the grid."""
    top, left, h, w = rect
    items: list[int] = []
    if puzzle.width <= puzzle.height:
        for y in range(top * puzzle.width + left, (top + h) * puzzle.width, puzzle.width):
            items += range(y, y + w)
    else:
        for x in range(left * puzzle.height + top, (left + w) * puzzle.height, puzzle.height):
            items += range(x, x + h)
    return items


def neighbours(puzzle: Shikaku) -> list[int]:
    """Flat (items, 4): the items below, above, right and left of each item, -1 off the grid."""
    H, W = puzzle.height, puzzle.width
    number = item_number(puzzle)
    out = [-1] * (4 * H * W)
    for r in range(H):
        for c in range(W):
            base = 4 * number(r, c)
            for k, (y, x) in enumerate(((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1))):
                if 0 <= y < H and 0 <= x < W:
                    out[base + k] = number(y, x)
    return out


def candidates(puzzle: Shikaku) -> list[tuple[Rect, int]]:
    """Every candidate rectangle of every clue, with the clue's index: each h x w of the
    clue's area inside the grid that holds the clue and no other one (`shikaku.candidates`)."""
    from .candidates import candidates as by_clue

    return [(rect, k) for k, rects in enumerate(by_clue(puzzle.height, puzzle.width, puzzle.clues)) for rect in rects]


def reduce(puzzle: Shikaku, by_clue: list[tuple[int, list[Rect]]] | None = None, compact: bool = False) -> Reduction:
    """The exact cover of a Shikaku puzzle (or of the clues `by_clue`, each with its
    rectangles); options sorted by their first item, then clue and height. `compact`: items
    only for the cells the rectangles cover (in order)."""
    number = item_number(puzzle)
    if by_clue is None:
        by_clue = [(k, [rect]) for rect, k in candidates(puzzle)]
    keyed = sorted((number(t, lft), k, h, w, t, lft) for k, rects in by_clue for t, lft, h, w in rects)
    rects = [(t, lft, h, w) for _, _, h, w, t, lft in keyed]
    opt_items = [rect_items(puzzle, rect) for rect in rects]
    cells = None
    if compact:
        cells = sorted(set(chain.from_iterable(opt_items)))
        local = {i: b for b, i in enumerate(cells)}
        opt_items = [[local[i] for i in items] for items in opt_items]
    return Reduction(puzzle, rects, [k for _, k, *_ in keyed], opt_items, cells)


def obvious_reason(puzzle: Shikaku) -> str | None:
    """Why there can be no solution, when it shows before any search."""
    total = sum(v for _, _, v in puzzle.clues)
    if total != puzzle.width * puzzle.height:
        return f"the clues add up to {total}, the grid has {puzzle.width * puzzle.height} cells"
    return None


MASK_BYTES = 256 << 20  # masks past which `solve` keeps to the plain propagation (and half the
# memory budget; Tatham's 100 x 100: 1.7 MB, 150 x 150: 7.7 MB)


def solve(
    puzzle: Shikaku,
    *,
    cap: int | None = None,
    solution: bool = True,
    prefer_not: set[Rect] | None = None,
    time_limit: float | None = None,
    max_memory: int | None = None,
    method: str | None = None,
    prune: bool = True,
) -> Answer:
    """Count the solutions (exactly, or up to `cap`) and give one of them; within
    `time_limit` seconds and `max_memory` bytes of memo, else an Answer with no count
    (`stopped` says why: a memoised count has no partial figure). `method` forces one
    ("pfaffian" needs every clue a 2; "memo" never hands over to the frontier; "frontier"
    hands every part over), else `method_of` chooses. `prune`: Shikaku's own propagation
    (`shikaku.prune`) first, then the method on what it leaves open (not for the Pfaffian,
    a preference among solutions, or masks beyond MASK_BYTES); False: the plain path, which
    the tests hold it against."""
    t0 = time.perf_counter()
    limits = memo.Limits(None if time_limit is None else t0 + time_limit, max_memory)
    why = obvious_reason(puzzle)
    if why:
        return Answer(0, reason=why, seconds=time.perf_counter() - t0)
    from .candidates import candidates as clue_candidates

    by_clue = clue_candidates(puzzle.height, puzzle.width, puzzle.clues)
    bare = next((k for k, rects in enumerate(by_clue) if not rects), None)
    if bare is not None:
        r, c, v = puzzle.clues[bare]
        return Answer(
            0,
            reason=f"no rectangle of area {v} fits around the clue at row {r + 1}, column {c + 1}",
            seconds=time.perf_counter() - t0,
        )
    switch = {"memo": None, "frontier": 0}.get(method or "", memo.FRONTIER_FROM)
    method = method or method_of(puzzle, prefer_not)
    try:
        if prune and method != "pfaffian" and not prefer_not and _masks_fit(puzzle, by_clue, max_memory):
            ans = _solve_pruned(puzzle, by_clue, switch, cap, solution, limits)
        else:
            ans = _solve_plain(
                reduce(puzzle, list(enumerate(by_clue))), method, switch, cap, solution, prefer_not, limits
            )
    except memo.Stopped as stop:
        ans = Answer(None, nodes=stop.entries, method="pfaffian" if method == "pfaffian" else stop.method)
        ans.stopped, ans.need = stop.reason, stop.need
    ans.seconds = time.perf_counter() - t0
    return ans


def _masks_fit(puzzle: Shikaku, by_clue: list[list[Rect]], budget: int | None) -> bool:
    from .prune import mask_bytes

    most = MASK_BYTES if budget is None else min(MASK_BYTES, budget // 2)
    whole_grid = (puzzle.width * puzzle.height // 8 + 32) * (sum(map(len, by_clue)) + 2 * len(by_clue))
    return whole_grid <= most or mask_bytes(puzzle.width, puzzle.height, by_clue) <= most  # a bound first


def _solve_plain(
    red: Reduction,
    method: str,
    switch: int | None,
    cap: int | None,
    solution: bool,
    prefer_not: set[Rect] | None,
    limits: memo.Limits,
) -> Answer:
    """The chosen method on the whole reduction."""
    avoid = None
    if prefer_not:
        avoid = {o for o, r in enumerate(red.rects) if r in prefer_not}
    res = _count(red, method, switch, cap, solution, avoid, limits)
    ans = Answer(
        res.solutions, nodes=res.nodes, capped=res.capped, method="pfaffian" if method == "pfaffian" else res.method
    )
    if res.found is not None:
        ans.rectangles = sorted(red.rects[o] for o in res.found)
    if res.solutions == 0:
        ans.reason = _dead_reason(red, res.dead_item)
    return ans


def _solve_pruned(
    puzzle: Shikaku, by_clue: list[list[Rect]], switch: int | None, cap: int | None, solution: bool, limits: memo.Limits
) -> Answer:
    """Shikaku's propagation, then the memo (and frontier) on the clues it leaves open."""
    from .prune import prune

    try:
        pruned = prune(puzzle.width, puzzle.height, puzzle.clues, by_clue, limits.deadline)
    except TimeoutError:
        raise memo.Stopped("time limit", 0) from None
    if pruned.dead is not None:
        return Answer(0, reason=_cell_reason(puzzle, *pruned.dead), method="memo")
    if not pruned.open:
        ans = Answer(1, method="memo", capped=cap is not None and cap <= 1)
        ans.rectangles = sorted(pruned.settled) if solution else []
        return ans
    ans = _solve_plain(reduce(puzzle, pruned.open, compact=True), "memo", switch, cap, solution, None, limits)
    if ans.solutions:
        ans.rectangles = sorted(ans.rectangles + pruned.settled) if solution else []
    return ans


PFAFFIAN_FROM = 8  # short side: below it the memo counts a grid of 2s sooner (6 x 6: 0.4 ms
# against 0.8 ms; 8 x 8: 1.4 ms against 0.9 ms; 10 x 10: 11 ms against 1.3 ms)


def method_of(puzzle: Shikaku, prefer_not: set[Rect] | None = None) -> str:
    """How a puzzle is counted (see docs/parts/shikaku-dense.md): "pfaffian" when every clue
    is a 2 (perfect matchings of a planar graph, |det| of a Kasteleyn matrix) and the grid's
    short side is at least `PFAFFIAN_FROM`, else "memo"
    (propagation, independent parts, memoised sub-problems), which hands a part whose memo
    outgrows `memo.FRONTIER_FROM` states to the frontier programme (the answer's method is
    then "frontier"). A preference among solutions needs the memo's search."""
    if (
        puzzle.clues
        and not prefer_not
        and min(puzzle.width, puzzle.height) >= PFAFFIAN_FROM
        and all(v == 2 for _, _, v in puzzle.clues)
    ):
        return "pfaffian"
    return "memo"


def _count(
    red: Reduction,
    method: str,
    switch: int | None,
    cap: int | None,
    solution: bool,
    avoid: set[int] | None,
    limits: memo.Limits,
) -> memo.MemoResult:
    """The count by the chosen method, as the memo counter answers it (`switch`: memo states
    past which a part goes to the frontier programme)."""
    if method != "pfaffian":
        return memo.count_options(
            red.options(),
            cap=cap,
            solution=solution,
            prefer_not=avoid,
            limits=limits,
            frontier_from=None if avoid else switch,
        )
    from . import pfaffian

    p = red.puzzle
    clue_cells = {(r, c) for r, c, _ in p.clues}
    got = pfaffian.count(
        red.options(), min(p.width, p.height), red.item_cell, lambda i: red.item_cell(i) in clue_cells, limits, solution
    )
    res = memo.MemoResult(got.solutions, dead_item=got.dead_item)
    res.found, res.components = got.found, got.parts
    if cap is not None and got.solutions >= cap:
        res.solutions, res.capped = cap, True
    return res


def _dead_reason(red: Reduction, item: int) -> str:
    if item < 0 or item >= red.n_items:
        return "no arrangement of the candidate rectangles covers the grid"
    return _cell_reason(red.puzzle, *red.item_cell(item))


def _cell_reason(puzzle: Shikaku, r: int, c: int) -> str:
    """Why there is no solution, shown at the cell (r, c) where propagation ran dry."""
    for cr, cc, v in puzzle.clues:
        if (cr, cc) == (r, c):
            return f"the clue {v} at row {r + 1}, column {c + 1} has no rectangle left"
    return f"no rectangle can cover the cell at row {r + 1}, column {c + 1}"


def listing(puzzle: Shikaku, limit: int, seconds: float = 10.0) -> list[list[Rect]]:
    """Up to `limit` solutions found within `seconds`, in the order of the search (to browse)."""
    if obvious_reason(puzzle):
        return []
    from ..engine.search import search

    red = reduce(puzzle)
    res = search(red.cover, limit=limit, store=True, time_limit=seconds)
    return [sorted(red.rects[o] for o in found) for found in res.found]


def count(puzzle: Shikaku) -> int:
    """The number of solutions (no limits: the count always completes)."""
    n = solve(puzzle, solution=False).solutions
    assert n is not None
    return n


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


# the pieces' letters but digits, which would read as clues (a literal: `string` costs an import)
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def letters(puzzle: Shikaku, rects: list[Rect]) -> list[str]:
    """One letter per rectangle (A-Z, a-z, then again), in row-major order of their corners."""
    grid = [["."] * puzzle.width for _ in range(puzzle.height)]
    for k, (r, c, h, w) in enumerate(sorted(rects)):
        ch = LETTERS[k % len(LETTERS)]
        for y in range(r, r + h):
            grid[y][c : c + w] = [ch] * w
    return [" ".join(row) for row in grid]
