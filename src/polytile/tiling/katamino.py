"""Katamino: the 12 pentominoes on 5 x n boards (or h x w), challenge ("slam") lists,
rotate-only play. Boards and pieces become an ordinary Puzzle; the engine does the rest."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import PuzzleError
from ..core.library import pentomino, pentomino_cells
from ..core.puzzle import Board, Piece, Puzzle
from .solver import Tiling


def parse_pieces(designators: list[str], where: str = "pieces") -> list[str]:
    """Letters of the pentominoes named by letter, colour or number; each at most once."""
    letters: list[str] = []
    for d in designators:
        for part in filter(None, d.replace(",", " ").split()):
            letter = pentomino(part)
            if letter is None:
                raise PuzzleError(
                    f"unknown piece {part!r} (a letter FILNPTUVWXYZ, a Katamino colour such as red, or a number 1..12)",
                    where,
                )
            if letter in letters:
                raise PuzzleError(f"piece {part!r} ({letter}) is listed twice; the set has one of each", where)
            letters.append(letter)
    if not letters:
        raise PuzzleError("no pieces given", where)
    return letters


def board_size(n_pieces: int, height: int, width: int | None) -> tuple[int, int]:
    """The board's (height, width) for n pentominoes, refusing in one line sizes whose area
    differs."""
    if height < 1:
        raise PuzzleError(f"height {height} must be at least 1", "--height")
    area = 5 * n_pieces
    if width is None:
        if area % height:
            raise PuzzleError(
                f"{n_pieces} pentominoes cover {area} cells, which no board of height {height} matches", "--height"
            )
        width = area // height
    if width < 1 or height * width != area:
        raise PuzzleError(
            f"a {height} x {width} board has {height * width} cells, the {n_pieces} pieces cover {area}", "--width"
        )
    return height, width


def puzzle(letters: list[str], height: int = 5, width: int | None = None, flip: bool = True) -> Puzzle:
    """Katamino as an ordinary Puzzle: the chosen pentominoes on a filled rectangle."""
    h, w = board_size(len(letters), height, width)
    cells = np.array([(r, c) for r in range(h) for c in range(w)], dtype=np.int64)
    board = Board(cells, np.zeros(len(cells), dtype=np.int64))
    pieces = [Piece(letter, pentomino_cells(letter), np.zeros(5, dtype=np.int64)) for letter in letters]
    return Puzzle(board, pieces, flip, [""], f"katamino {' '.join(letters)} on {h}x{w}")


def tiling(letters: list[str], height: int = 5, width: int | None = None, flip: bool = True) -> Tiling:
    """The Katamino puzzle ready to count or solve."""
    return Tiling(puzzle(letters, height, width, flip))


@dataclass
class SlamRow:
    """One row of a slam list: a board size, whether it can be filled and how many ways."""

    n: int
    height: int
    width: int
    solvable: bool
    solutions: int
    unique: int | None
    first_seconds: float
    nodes_to_first: int

    def to_json(self) -> dict[str, object]:
        """The row as JSON (`katamino --json`)."""
        return {
            "n": self.n,
            "height": self.height,
            "width": self.width,
            "solvable": self.solvable,
            "solutions": self.solutions,
            "unique": self.unique,
            "first_seconds": round(self.first_seconds, 6),
        }


def slam(letters: list[str], height: int = 5, flip: bool = True, start: int = 3) -> list[SlamRow]:
    """Each prefix of the list (n = start..len) on a board of `height` rows and 5n/height
    columns (prefixes whose area does not fit the height are skipped)."""
    rows = []
    for n in range(start, len(letters) + 1):
        if (5 * n) % height:
            continue
        t = tiling(letters[:n], height, None, flip)
        first = t.solve(limit=1)
        counted = tiling(letters[:n], height, None, flip).count(unique=True)
        rows.append(
            SlamRow(
                n,
                height,
                5 * n // height,
                bool(first.found),
                counted.solutions,
                counted.unique,
                first.seconds,
                first.nodes,
            )
        )
    return rows
