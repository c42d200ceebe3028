"""Hand play: a position (pieces a player placed, as cells of the board) checked against the
puzzle, its completions counted under a node cap, or one completion found. The position is
the puzzle with the covered cells removed and the placed pieces used (copies counted off by
shape, as the hint does), so the search is the ordinary one on a smaller puzzle. Every grid:
square (flat or cubes), triangle and hex; a placed piece is told by its canonical form on the
board's lattice, and empty regions are split along the lattice's own neighbours."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ..core.puzzle import Board, Puzzle, merge_congruent
from ..core.results import Placement
from ..errors import PuzzleError
from ..tiling.solver import Tiling
from .hint import identify, remaining, where

COUNT_NODES = 300_000  # a completion count gives up after about this many nodes ...
COUNT_SECONDS = 0.5  # ... or this long (the model build included)
FINISH_SECONDS = 20.0  # "finish it from here" gives up after this long


@dataclass
class Verdict:
    """What hand play answers about a position: solved, open (with its completions, at least
    that many when capped), a dead end and why, or unknown when the cap came first."""

    verdict: str  # "solved", "open", "dead end" or "unknown" (capped before any)
    completions: int = 0  # ways to finish (at least this many when capped)
    capped: bool = False
    reason: str = ""
    nodes: int = 0
    seconds: float = 0.0
    found: list[Placement] = field(default_factory=list)  # finish: the pieces found

    def to_json(self) -> dict[str, Any]:
        """The verdict as the page reads it (the found pieces travel separately, as the page draws them)."""
        return {
            "verdict": self.verdict,
            "completions": self.completions,
            "capped": self.capped,
            "reason": self.reason,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
        }


def where_on(board: Board, cell: Sequence[int] | np.ndarray) -> str:
    """A cell as the page names it: row and column (and layer) on the square grid; on the
    triangle and hex grids the row and column of the board's drawing (hex: the n-th hex of
    its row's drawing columns, as the board editor counts them)."""
    grid = board.grid
    if grid.boxes:
        return where(cell)
    cells = np.concatenate([board.cells, np.array([cell], dtype=np.int64)])
    r, c = grid.drawing_points(cells)[-1].tolist()
    return f"row {r + 1}, column {grid.drawing_column(c) + 1}"


def position(puzzle: Puzzle, placed: list[np.ndarray], path: str = "placed") -> Puzzle:
    """What is left to fill: the board without the placed pieces' cells, the pieces without
    them. Each placed piece must lie on free board cells and be a piece with a copy left."""
    puzzle = merge_congruent(puzzle)
    index = {tuple(c): i for i, c in enumerate(puzzle.board.cells.tolist())}
    left = [p.count for p in puzzle.pieces]
    covered: dict[tuple[int, ...], int] = {}
    used = []
    for i, cells in enumerate(placed):
        if cells.shape[1] != puzzle.board.dim:
            raise PuzzleError(f"placed[{i}]: cells of this board have {puzzle.board.dim} coordinates", path)
        for cell in map(tuple, cells.tolist()):
            if cell not in index:
                raise PuzzleError(
                    f"placed[{i}]: the cell at {where_on(puzzle.board, cell)} is not a cell of the board", path
                )
            if cell in covered:
                raise PuzzleError(
                    f"placed[{i}]: the cell at {where_on(puzzle.board, cell)} is covered twice "
                    f"(by placed[{covered[cell]}] too)",
                    path,
                )
            covered[cell] = i
        found = identify(puzzle, index, cells, left)
        if found is None:
            raise PuzzleError(
                f"placed[{i}] (at {where_on(puzzle.board, cells[0])}) is not a piece of the puzzle "
                "with a copy left, in the motions allowed",
                path,
            )
        left[found] -= 1
        used.append(found)
    rest = remaining(puzzle, used, set(covered))
    return replace(rest, board=replace(rest.board, grid=puzzle.board.grid))


def _regions(puzzle: Puzzle) -> list[list[tuple[int, ...]]]:
    """The empty board's connected regions, neighbours as the lattice has them."""
    steps = puzzle.board.grid.steps
    todo = {tuple(c) for c in puzzle.board.cells.tolist()}
    out = []
    while todo:
        start = min(todo)
        todo.remove(start)
        group, stack = [start], [start]
        while stack:
            c = stack.pop()
            for s in steps:
                nb = tuple(x + d for x, d in zip(c, s))
                if nb in todo:
                    todo.remove(nb)
                    group.append(nb)
                    stack.append(nb)
        out.append(sorted(group))
    return out


def unfillable_region(rest: Puzzle, board: Board) -> str | None:
    """Why an empty region of the board cannot be filled (no choice of the pieces left has its
    number of cells), or None when every region's size can be made. Cells are named as on
    `board` (the whole board: the page's rows and columns)."""
    limit = rest.board.area
    sums = 1  # bit k: k cells can be made
    for p in rest.pieces:
        for _ in range(min(p.count, limit // p.size)):
            sums |= (sums << p.size) & ((2 << limit) - 1)
    for region in _regions(rest):
        if not (sums >> len(region)) & 1:
            s = "s" if len(region) > 1 else ""
            return (
                f"the empty region of {len(region)} cell{s} at {where_on(board, region[0])} cannot be "
                f"filled: no choice of the remaining pieces covers exactly {len(region)} cell{s}"
            )
    return None


def _full(rest: Puzzle) -> Verdict:
    short = [p.name for p in rest.pieces if p.least > 0]
    if short:
        return Verdict("dead end", reason=f"the board is full but pieces {', '.join(short)} are unused")
    return Verdict("solved", 1, reason="every cell is covered")


def _left_to_fill(puzzle: Puzzle, placed: list[np.ndarray]) -> tuple[Puzzle, Verdict | None]:
    """The puzzle left to fill, and the verdict when no search is needed (a full board, a
    region no piece can fill)."""
    rest = position(puzzle, placed)
    if rest.board.area == 0:
        return rest, _full(rest)
    why = unfillable_region(rest, puzzle.board)
    return rest, (Verdict("dead end", reason=why) if why else None)


def completions(
    puzzle: Puzzle, placed: list[np.ndarray], node_budget: int = COUNT_NODES, time_limit: float = COUNT_SECONDS
) -> Verdict:
    """Whether the position can still be completed, and in how many ways (at least, when capped)."""
    rest, settled = _left_to_fill(puzzle, placed)
    if settled is not None:
        return settled
    r = Tiling(rest).count(time_limit=time_limit, node_budget=node_budget)
    n = int(r.solutions)
    if n:
        verdict, reason = "open", ""
    elif r.complete:
        verdict = "dead end"
        reason = "; ".join(r.reasons) or "no way to finish from here (every continuation was searched)"
    else:
        verdict, reason = "unknown", "no completion found before the search's cap"
    return Verdict(verdict, n, not r.complete, reason, r.nodes, r.seconds)


def finish(puzzle: Puzzle, placed: list[np.ndarray], time_limit: float = FINISH_SECONDS) -> Verdict:
    """One way to finish the position: the pieces it adds (Verdict.found)."""
    rest, settled = _left_to_fill(puzzle, placed)
    if settled is not None:
        return settled
    r = Tiling(rest).solve(limit=1, time_limit=time_limit)
    if r.found:
        return Verdict("open", 1, True, "", r.nodes, r.seconds, list(r.found[0].placements))
    if r.complete:
        reason = "; ".join(r.reasons) or "no way to finish from here (every continuation was searched)"
        return Verdict("dead end", 0, False, reason, r.nodes, r.seconds)
    return Verdict("unknown", 0, True, f"no completion found in {time_limit:.0f} s", r.nodes, r.seconds)
