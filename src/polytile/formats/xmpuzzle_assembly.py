"""Solutions as BurrTools assemblies: each placement becomes the rotation t (BurrTools'
numbering) and the position p with cell = p + M_t (voxel), for the voxels of the piece as
the file writes them; copies of a part take consecutive slots, unused ones are "x".
BurrTools' rotation table and voxel space live here, the one module that numbers them."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..core.puzzle import VIRTUAL, Piece, Puzzle
from ..errors import PuzzleError

if TYPE_CHECKING:
    from ..core.results import Solution

# BurrTools' cube rotations in its order (src/lib/tabs_0/rotmatrix.inc, the first 24 rows;
# the transformation number stored in an assembly indexes this table)
ROTATIONS = np.array(
    [
        (1, 0, 0, 0, 1, 0, 0, 0, 1),
        (1, 0, 0, 0, 0, -1, 0, 1, 0),
        (1, 0, 0, 0, -1, 0, 0, 0, -1),
        (1, 0, 0, 0, 0, 1, 0, -1, 0),
        (0, 0, -1, 0, 1, 0, 1, 0, 0),
        (0, -1, 0, 0, 0, -1, 1, 0, 0),
        (0, 0, 1, 0, -1, 0, 1, 0, 0),
        (0, 1, 0, 0, 0, 1, 1, 0, 0),
        (-1, 0, 0, 0, 1, 0, 0, 0, -1),
        (-1, 0, 0, 0, 0, -1, 0, -1, 0),
        (-1, 0, 0, 0, -1, 0, 0, 0, 1),
        (-1, 0, 0, 0, 0, 1, 0, 1, 0),
        (0, 0, 1, 0, 1, 0, -1, 0, 0),
        (0, 1, 0, 0, 0, -1, -1, 0, 0),
        (0, 0, -1, 0, -1, 0, -1, 0, 0),
        (0, -1, 0, 0, 0, 1, -1, 0, 0),
        (0, -1, 0, 1, 0, 0, 0, 0, 1),
        (0, 0, 1, 1, 0, 0, 0, 1, 0),
        (0, 1, 0, 1, 0, 0, 0, 0, -1),
        (0, 0, -1, 1, 0, 0, 0, -1, 0),
        (0, 1, 0, -1, 0, 0, 0, 0, 1),
        (0, 0, -1, -1, 0, 0, 0, 1, 0),
        (0, -1, 0, -1, 0, 0, 0, 0, -1),
        (0, 0, 1, -1, 0, 0, 0, -1, 0),
    ],
    dtype=np.int64,
).reshape(24, 3, 3)


def as_voxels(cells: np.ndarray) -> np.ndarray:
    """Cells in BurrTools' space: a flat (row, column) cell is (column, row, 0)."""
    cells = np.asarray(cells, dtype=np.int64)
    if cells.shape[1] == 2:
        return np.stack([cells[:, 1], cells[:, 0], np.zeros(len(cells), np.int64)], axis=1)
    return cells


def _fits(
    cells: np.ndarray, cell_colours: np.ndarray, voxels: np.ndarray, piece: Piece, puzzle: Puzzle
) -> tuple[int, np.ndarray] | None:
    """(t, position) putting the piece's voxels on exactly these cells, colours allowed."""
    if len(cells) != len(voxels):
        return None
    want = {tuple(c): i for i, c in enumerate(cells.tolist())}
    for t, m in enumerate(ROTATIONS):
        turned = voxels @ m.T
        pos = cells.min(axis=0) - turned.min(axis=0)
        found = [want.get(tuple(c)) for c in (turned + pos).tolist()]
        at = [i for i in found if i is not None]
        if len(at) < len(found):
            continue
        board = cell_colours[at]
        ok = (board == piece.colours) if puzzle.allowed is None else puzzle.allowed[board, piece.colours]
        if np.all(ok):
            return t, pos
    return None


def assembly(
    puzzle: Puzzle,
    pieces: list[Piece],
    voxels: list[np.ndarray],
    solution: Solution,
    colour_at: dict[tuple[int, ...], int],
    origin: np.ndarray,
    source: str,
) -> str:
    """One solution as the text of an <assembly> element."""
    slots: list[list[str]] = [[] for _ in pieces]
    for placed in solution.placements:
        if placed.piece == VIRTUAL:
            continue
        cells = as_voxels(placed.cells) - origin
        colours = np.array([colour_at[tuple(c)] for c in cells.tolist()], dtype=np.int64)
        for i, p in enumerate(pieces):
            if len(slots[i]) < p.count and (fit := _fits(cells, colours, voxels[i], p, puzzle)):
                t, pos = fit
                slots[i].append(f"{pos[0]} {pos[1]} {pos[2]} {t}")
                break
        else:
            raise PuzzleError(f"a placement of {placed.piece} matches no piece left to place", source)
    words = []
    for p, taken in zip(pieces, slots):
        words += taken + ["x"] * (p.count - len(taken))
    return " ".join(words)


def assemblies(
    puzzle: Puzzle, pieces: list[Piece], voxels: list[np.ndarray], solutions: list[Solution], source: str
) -> list[str]:
    """Every solution's assembly text."""
    board = as_voxels(puzzle.board.cells)
    origin = board.min(axis=0)
    colour_at = {tuple(c): int(k) for c, k in zip((board - origin).tolist(), puzzle.board.colours)}
    return [assembly(puzzle, pieces, voxels, s, colour_at, origin, source) for s in solutions]
