"""Shikaku: divide a grid into rectangles, each holding exactly one number, its area.

The grid and its solutions' checks are `shikaku.grid`; its reduction to exact cover is
`shikaku.reduction`. This module counts: `solve` picks the counter per grid (Shikaku's own
propagation, then `engine.memo`'s memoised sub-problems handing large parts to the frontier
programme, or Kasteleyn's Pfaffian for grids of 2s), within a time limit and a memory
budget; `listing` finds solutions to browse with the shared engine.

Plain Python: a puzzle people type is small, and numpy alone would take longer to import
than reducing and counting it. numpy is imported only for the shared engine (`listing`,
`generate`) and by the counter on very large grids. The grid's and the reduction's names
are importable from here too (`Shikaku`, `Rect`, `reduce`, `verify`, `letters`, ...): the
module every caller knew before the split.
"""

from __future__ import annotations

import time
from typing import Any

from ..engine.counting import memo
from .grid import Rect as Rect
from .grid import Shikaku as Shikaku
from .grid import letters as letters
from .grid import obvious_reason as obvious_reason
from .grid import verify as verify
from .reduction import Reduction as Reduction
from .reduction import reduce as reduce


class ShikakuReport:
    """What `solve` answers: the count (or why there is none, or why it stopped), one
    solution's rectangles, the seconds and nodes, and the method that counted."""

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
        """The count finished (it was not stopped by the time limit, memory or Ctrl-C)."""
        return self.stopped is None

    def to_json(self) -> dict[str, Any]:
        """The answer as `shikaku --json` prints it."""
        out: dict[str, Any] = {
            "solutions": self.solutions,
            "rectangles": [list(r) for r in self.rectangles],
            "seconds": round(self.seconds, 6),
            "complete": self.complete,
            "method": self.method,
        }
        if self.stopped:
            out["reason"] = self.stopped
        return out


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
) -> ShikakuReport:
    """Count the solutions (exactly, or up to `cap`) and give one of them; within
    `time_limit` seconds and `max_memory` bytes of memo, else a ShikakuReport with no count
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
        return ShikakuReport(0, reason=why, seconds=time.perf_counter() - t0)
    from .candidates import candidates as clue_candidates

    by_clue = clue_candidates(puzzle.height, puzzle.width, puzzle.clues)
    bare = next((k for k, rects in enumerate(by_clue) if not rects), None)
    if bare is not None:
        r, c, v = puzzle.clues[bare]
        return ShikakuReport(
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
        ans = ShikakuReport(None, nodes=stop.entries, method="pfaffian" if method == "pfaffian" else stop.method)
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
) -> ShikakuReport:
    """The chosen method on the whole reduction."""
    avoid = None
    if prefer_not:
        avoid = {o for o, r in enumerate(red.rects) if r in prefer_not}
    res = _count(red, method, switch, cap, solution, avoid, limits)
    ans = ShikakuReport(
        res.solutions, nodes=res.nodes, capped=res.capped, method="pfaffian" if method == "pfaffian" else res.method
    )
    if res.found is not None:
        ans.rectangles = sorted(red.rects[o] for o in res.found)
    if res.solutions == 0:
        ans.reason = _dead_reason(red, res.dead_item)
    return ans


def _solve_pruned(
    puzzle: Shikaku, by_clue: list[list[Rect]], switch: int | None, cap: int | None, solution: bool, limits: memo.Limits
) -> ShikakuReport:
    """Shikaku's propagation, then the memo (and frontier) on the clues it leaves open."""
    from .prune import prune

    try:
        pruned = prune(puzzle.width, puzzle.height, puzzle.clues, by_clue, limits.deadline)
    except TimeoutError:
        raise memo.Stopped("time limit", 0) from None
    if pruned.dead is not None:
        return ShikakuReport(0, reason=_cell_reason(puzzle, *pruned.dead), method="memo")
    if not pruned.open:
        ans = ShikakuReport(1, method="memo", capped=cap is not None and cap <= 1)
        ans.rectangles = sorted(pruned.settled) if solution else []
        return ans
    ans = _solve_plain(reduce(puzzle, pruned.open, compact=True), "memo", switch, cap, solution, None, limits)
    if ans.solutions:
        ans.rectangles = sorted(ans.rectangles + pruned.settled) if solution else []
    return ans


PFAFFIAN_FROM = 8  # short side: below it the memo counts a grid of 2s sooner (6 x 6: 0.4 ms
# against 0.8 ms; 8 x 8: 1.4 ms against 0.9 ms; 10 x 10: 11 ms against 1.3 ms)


def method_of(puzzle: Shikaku, prefer_not: set[Rect] | None = None) -> str:
    """How a puzzle is counted (see docs/shikaku-dense.md): "pfaffian" when every clue
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
) -> memo.MemoReport:
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
    res = memo.MemoReport(got.solutions, dead_item=got.dead_item)
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
