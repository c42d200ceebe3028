"""The puzzle model: a board (cells with colours) and pieces (shape, copies, motions)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import cast

import numpy as np

from . import shape
from .grids import SQUARE, Grid, coerce


# A piece of this name stands for board cells that may stay empty (BurrTools' variable
# voxels): one cell, count = such cells, minimum 0. Its cell-sets are told apart from
# other pieces' in symmetry labels (a one-cell piece may cover the same cell), and it is
# left out of printed solutions.
VIRTUAL = "(empty)"


@dataclass
class Board:
    """The cells to cover, with a colour each, on one grid: what a puzzle file's board becomes."""

    cells: np.ndarray  # (n, d) int64, distinct
    colours: np.ndarray  # (n,) int64 colour code per cell (0 = plain)
    grid: Grid = SQUARE  # see `core.grids` (a JSON spelling is taken too); the square grid is the cube grid in 3D

    def __post_init__(self) -> None:
        self.grid = coerce(self.grid, int(self.cells.shape[1]) if np.ndim(self.cells) == 2 else None)

    @property
    def dim(self) -> int:
        """The coordinates per cell: 2 (squares, hexes) or 3 (cubes, and the triangle grid's (a, b, c))."""
        return int(self.cells.shape[1])

    @property
    def area(self) -> int:
        """The number of cells to cover."""
        return int(self.cells.shape[0])


@dataclass
class Piece:
    """A shape with its colours and how many copies may be used (least..count); `reflect`
    overrides the puzzle's policy for this piece."""

    name: str
    cells: np.ndarray  # (k, d) int64
    colours: np.ndarray  # (k,) int64
    count: int = 1  # copies available
    minimum: int | None = None  # copies that must be used (None: all of them)
    reflect: bool | None = None  # None: the puzzle's policy

    @property
    def size(self) -> int:
        """The number of cells of one copy."""
        return int(self.cells.shape[0])

    @property
    def least(self) -> int:
        """Copies a solution must use (all of them unless a minimum says otherwise)."""
        return self.count if self.minimum is None else self.minimum


@dataclass
class Puzzle:
    """A board and its pieces: the model every reader builds and every solver takes."""

    board: Board
    pieces: list[Piece]
    allow_reflection: bool = True
    colour_names: list[str] = field(default_factory=lambda: [""])  # code -> name
    source: str = "<puzzle>"
    notes: list[str] = field(default_factory=list)  # warnings for stderr
    # allowed[board colour, piece colour]: may a piece cell of that colour lie on a board
    # cell of this one? None: only equal colours (BurrTools' colour constraints need more)
    allowed: np.ndarray | None = None

    @property
    def dim(self) -> int:
        """The board's coordinates per cell."""
        return self.board.dim

    def reflects(self, piece: Piece) -> bool:
        """Whether this piece may be mirrored: its own rule, else the puzzle's."""
        return self.allow_reflection if piece.reflect is None else piece.reflect

    @property
    def tiles_area(self) -> int:
        """The cells all copies of all pieces would cover: more than the board makes the puzzle
        partial."""
        return sum(p.size * p.count for p in self.pieces)

    @property
    def partial(self) -> bool:
        """Whether some piece may stay (partly) unused: then covers use any allowed subset of the
        tiles."""
        return any(p.least < p.count for p in self.pieces)

    def without_reflection(self) -> "Puzzle":
        """Rotate-only play: no piece may be flipped (`--no-reflect`)."""
        pieces = [replace(p, reflect=False) for p in self.pieces]
        return replace(self, pieces=pieces, allow_reflection=False, notes=list(self.notes))

    def orientations(self, piece: Piece) -> list[tuple[np.ndarray, np.ndarray]]:
        """The piece's distinct orientations under the motions it may make on this board's grid."""
        found = shape.orientations(piece.cells, piece.colours, self.reflects(piece), self.board.grid)
        return cast(list[tuple[np.ndarray, np.ndarray]], found)  # a piece's colours are never None


def merge_congruent(puzzle: Puzzle) -> Puzzle:
    """Pieces congruent under their allowed motions (colours included) become copies of one."""
    merged: dict[tuple[bytes, bool], Piece] = {}
    reflects = [puzzle.reflects(p) for p in puzzle.pieces]
    keys = shape.canonical_keys([(p.cells, p.colours, r) for p, r in zip(puzzle.pieces, reflects)], puzzle.board.grid)
    for p, reflect, canonical in zip(puzzle.pieces, reflects, keys):
        k = (canonical, reflect)
        if k in merged:
            q = merged[k]
            q.count += p.count
            q.minimum = q.least + p.least
        else:
            merged[k] = Piece(p.name, p.cells, p.colours, p.count, p.least, reflect)
    return Puzzle(
        puzzle.board,
        list(merged.values()),
        puzzle.allow_reflection,
        puzzle.colour_names,
        puzzle.source,
        list(puzzle.notes),
        puzzle.allowed,
    )


def make_partial(puzzle: Puzzle) -> Puzzle:
    """Tiles exceed the board: any subset may be used (each piece 0..count copies)."""
    pieces = [Piece(p.name, p.cells, p.colours, p.count, 0, p.reflect) for p in puzzle.pieces]
    return Puzzle(
        puzzle.board,
        pieces,
        puzzle.allow_reflection,
        puzzle.colour_names,
        puzzle.source,
        list(puzzle.notes),
        puzzle.allowed,
    )
