"""core.cover.build's common case in one compiled call (a Modeller, passed by the tiling
layer: core may not import engine): a square-grid board of at most 64 cells, nothing
coloured, no colour rules, no virtual pieces. The call returns plain arrays (the cells
in item order, which merged piece each piece became, the options, neighbours, the
board's group, the symmetry analysis); this module wraps them into the Model core's
numpy path builds, identical array for array (tests/engine/test_modelling.py compares
the two on random puzzles and the corpus)."""

from __future__ import annotations

from typing import Any, Callable

from .cover import BUILD_BYTES_PER_CELL, Cover, Model, check_budget, crude_cells
from .puzzle import VIRTUAL, Piece, Puzzle

MAX_ITEMS = 64  # the compiled reduction's boards (a word of bits per option downstream)

# (the board's cells then each piece's, the same for colours, the pieces' sizes, copies,
# least copies and reflection (0/1) one after the other, the analysis's budget) ->
# (cells (in item order), the merged pieces (3, m): the first piece of each, its copies
# and minimum, opt_ptr, opt_items, opt_piece, neighbours, perms, placed (a bit per merged
# piece with a placement, -1: not made), uncovered (the first item no option covers, -1:
# none), then the analysis: opt_label, label_img (empty: not made), opt_stab, label_piece,
# g_exact, h_mask), or None where numpy must do it (engine/modelling_driver.modeller)
Modeller = Callable[..., "tuple[Any, ...] | None"]


def takes(puzzle: Puzzle) -> bool:
    """Whether the compiled reduction may take the puzzle (colours are checked by the
    call itself: one pass instead of a numpy call per piece)."""
    return _takes_board(puzzle) and not any(p.name == VIRTUAL for p in puzzle.pieces)


def _takes_board(puzzle: Puzzle) -> bool:
    """`takes` but for the virtual pieces (build_compiled looks for them in its own pass
    over the pieces: a second pass cost ~4 us of cold objects in a count)."""
    board = puzzle.board
    return board.grid.boxes and len(board.cells) <= MAX_ITEMS and puzzle.allowed is None


def build_compiled(puzzle: Puzzle, modeller: Modeller, budget: int | None = None, check: bool = False) -> Model | None:
    """core.cover.build's Model through `modeller`, or None (then numpy's build); with
    the board's group and, when it takes at most `budget` bytes, the symmetry analysis
    (core.symmetry.analyse then only wraps them). `check`: first the placements against
    `budget` as core.cover.check_budget does (OverBudget), from the sizes read here (that
    check's pass over the pieces was the first to touch them after the warm-up: their cold
    cache lines were paid twice)."""
    if not _takes_board(puzzle) or not puzzle.pieces:
        return None
    pieces, board = puzzle.pieces, puzzle.board
    allow = puzzle.allow_reflection  # (one pass over the pieces, Puzzle.reflects and Piece.least
    rows = [  # inlined: a third less than a list each, in a cold process)
        (
            p.cells,
            p.colours,
            len(p.cells),
            p.count,
            p.count if p.minimum is None else p.minimum,
            allow if p.reflect is None else p.reflect,
            p.name,
        )
        for p in pieces
    ]
    cells_of, colours_of, sizes, counts, least, reflect, names = zip(*rows)
    if VIRTUAL in names:
        return None
    area, dim = board.cells.shape
    if check and budget is not None and crude_cells(dim, area, sum(sizes)) * BUILD_BYTES_PER_CELL > budget:
        check_budget(puzzle, budget)  # (OverBudget when the placements could pass it)
    found = modeller(
        [board.cells, *cells_of], [board.colours, *colours_of], [*sizes, *counts, *least, *reflect], budget
    )
    if found is None:
        return None
    cells, merged, opt_ptr, opt_items, opt_piece, neighbours, perms, placed, uncovered = found[:9]
    label, image, stab, piece, exact, h_mask = found[9:]
    analysis = (label, image, stab, piece, int(exact), int(h_mask)) if len(image) else None  # (no rows: not made)
    _, copies, minimum = merged

    def merged_puzzle() -> Puzzle:
        """The puzzle with its pieces merged by congruence, as numpy's build makes it."""
        kept = [
            Piece(pieces[p].name, cells_of[p], colours_of[p], c, m, reflect[p]) for p, c, m in zip(*merged.tolist())
        ]
        return Puzzle(
            board, kept, puzzle.allow_reflection, puzzle.colour_names, puzzle.source, list(puzzle.notes), puzzle.allowed
        )

    cover = Cover(len(cells), opt_ptr, opt_items, opt_piece, copies, minimum, neighbours)
    # (the colours in item order: all 0, as the board's, else the call declines)
    return LazyModel(merged_puzzle, cells, board.colours, cover, perms, analysis, (placed, uncovered))


class LazyModel(Model):
    """A Model whose merged Puzzle is made the first time it is read: a count reads it
    only to say why a puzzle has no solution or to list solutions, and its Piece and
    Puzzle objects were ~8 us of every count's set-up (3x20)."""

    def __init__(self, make: Callable[[], Puzzle], *rest: Any) -> None:
        super().__init__(None, *rest)  # type: ignore[arg-type]  # (dropped just below)
        del self.puzzle  # (so that reading it comes to __getattr__)
        self._make = make

    def __getattr__(self, name: str) -> Any:
        """The merged Puzzle, made once (only missing attributes come here)."""
        if name != "puzzle":
            raise AttributeError(name)
        self.puzzle = self._make()
        return self.puzzle

    def __getstate__(self) -> dict[str, Any]:
        """A copy or a pickle carries the Puzzle itself, not the function making it."""
        state = {k: v for k, v in vars(self).items() if k != "_make"}
        state["puzzle"] = self.puzzle
        return state
