"""Hand play: a position (pieces a player placed, as cells of the board) checked against the
puzzle, its completions counted under a node cap, or one completion found. The position is
the puzzle with the covered cells removed and the placed pieces used (copies counted off by
shape, as the hint does), so the search is the ordinary one on a smaller puzzle."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..core.puzzle import Puzzle, merge_congruent
from ..core.results import Placement
from ..errors import PuzzleError
from ..tiling.solver import Tiling
from .hint import identify_one, remaining, unfillable_region, where

COUNT_NODES = 300_000          # a completion count gives up after about this many nodes ...
COUNT_SECONDS = 0.5            # ... or this long (the model build included)
FINISH_SECONDS = 20.0          # "finish it from here" gives up after this long


@dataclass
class Verdict:
    verdict: str                   # "solved", "open", "dead end" or "unknown" (capped before any)
    completions: int = 0           # ways to finish (at least this many when capped)
    capped: bool = False
    reason: str = ""
    nodes: int = 0
    seconds: float = 0.0
    found: list[Placement] = field(default_factory=list)    # finish: the pieces found

    def to_json(self) -> dict:
        return {"verdict": self.verdict, "completions": self.completions, "capped": self.capped,
                "reason": self.reason, "nodes": self.nodes, "seconds": round(self.seconds, 4)}


def position(puzzle: Puzzle, placed: list[np.ndarray], path: str = "placed") -> Puzzle:
    """What is left to fill: the board without the placed pieces' cells, the pieces without
    them. Each placed piece must lie on free board cells and be a piece with a copy left."""
    puzzle = merge_congruent(puzzle)
    index = {tuple(c): i for i, c in enumerate(puzzle.board.cells.tolist())}
    left = [p.count for p in puzzle.pieces]
    covered: dict[tuple, int] = {}
    used = []
    for i, cells in enumerate(placed):
        for cell in map(tuple, cells.tolist()):
            if cell not in index:
                raise PuzzleError(f"placed[{i}]: the cell at {where(cell)} is not a cell of the board", path)
            if cell in covered:
                raise PuzzleError(f"placed[{i}]: the cell at {where(cell)} is covered twice "
                                  f"(by placed[{covered[cell]}] too)", path)
            covered[cell] = i
        found = identify_one(puzzle, index, cells, left)
        if found is None:
            raise PuzzleError(f"placed[{i}] (at {where(cells[0])}) is not a piece of the puzzle with a "
                              "copy left, in the motions allowed", path)
        left[found] -= 1
        used.append(found)
    return remaining(puzzle, used, set(covered))


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
    why = unfillable_region(rest)
    return rest, (Verdict("dead end", reason=why) if why else None)


def completions(puzzle: Puzzle, placed: list[np.ndarray], node_budget: int = COUNT_NODES,
                time_limit: float = COUNT_SECONDS) -> Verdict:
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
