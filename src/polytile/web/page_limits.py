"""How big a tiling puzzle the page takes: a limit on what the page must draw (the board's
cells, the pieces' cells) and the model's estimated memory within a page job's budget
(budget.PAGE_BYTES), not a count of pieces: copies of a piece share their placements, so
BurrTools' cube examples of 150 or 945 pieces open as long as their models fit.

The estimate is the one a job checks before it builds anything (core.cover.check_budget:
every orientation at every anchor where its box fits, ~28 bytes a covered cell) and the
search's tables over that bound (tiling.solver.TABLE_BYTES a cell and an option), so a puzzle
the page takes is not refused later for its size."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..budget import PAGE_BYTES, show
from ..errors import PuzzleError

if TYPE_CHECKING:
    from ..core.puzzle import Puzzle

MAX_DRAWN_CELLS = 20_000  # board cells of a file's puzzle, and its pieces' cells (one copy each)


def check(puzzle: Puzzle, budget: int = PAGE_BYTES) -> None:
    """A PuzzleError (one line) when the page could not draw the puzzle or its model would
    not fit in `budget` bytes."""
    source = puzzle.source or "puzzle"
    if puzzle.board.area > MAX_DRAWN_CELLS:
        raise PuzzleError(
            f"board too large: {puzzle.board.area} cells (the page draws at most {MAX_DRAWN_CELLS})", source
        )
    piece_cells = sum(p.size for p in puzzle.pieces)
    if piece_cells > MAX_DRAWN_CELLS:
        raise PuzzleError(
            f"pieces too large: {piece_cells} cells in all, one copy each (the page draws at most {MAX_DRAWN_CELLS})",
            source,
        )
    need = model_bytes(puzzle, budget)
    if need > budget:
        raise PuzzleError(
            f"the puzzle's model needs about {show(need)}, over the page's memory budget of {show(budget)} "
            "(the command line's --max-memory can go higher)",
            source,
        )


def model_bytes(puzzle: Puzzle, budget: int = PAGE_BYTES) -> int:
    """An upper bound on the bytes of the model and the search's tables; the crude bound when
    that fits in `budget` already, else the bound from the orientations that fit the board."""
    from ..core.cover import BUILD_BYTES_PER_CELL, crude_bound, placement_bound
    from ..tiling.solver import TABLE_BYTES

    per_cell = max(BUILD_BYTES_PER_CELL, TABLE_BYTES)
    crude = crude_bound(puzzle)
    if crude * per_cell * 2 <= budget:  # (the options are never more than the cells they cover)
        return crude * per_cell * 2
    placements, covered = placement_bound(puzzle)
    return max(covered * BUILD_BYTES_PER_CELL, TABLE_BYTES * (covered + placements))
