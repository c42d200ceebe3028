"""A Shikaku grid: `height` rows, `width` columns and its clues (row, col, area); a
solution is a list of rectangles (row, col, height, width), one per clue, holding exactly its
clue and that many cells. This module checks and letters a solution without any search.

Plain Python: a puzzle people type is small, and numpy alone would take longer to import
than reducing and counting it.
"""

from __future__ import annotations

from typing import NamedTuple


class Shikaku(NamedTuple):
    """A grid and its clues. (The classes here are plain: `dataclasses` would cost a run
    more to import than a typed puzzle takes to count.)"""

    width: int
    height: int
    clues: tuple[tuple[int, int, int], ...]  # (row, col, area), row-major

    @classmethod
    def from_rows(cls, rows: list[list[int]]) -> Shikaku:
        """The grid of rows of numbers (0: blank), as the page and JSON give it."""
        clues = tuple((r, c, v) for r, row in enumerate(rows) for c, v in enumerate(row) if v)
        return cls(len(rows[0]) if rows else 0, len(rows), clues)

    def rows(self) -> list[list[int]]:
        """The grid as rows of numbers, 0 for blank (the inverse of `from_rows`)."""
        grid = [[0] * self.width for _ in range(self.height)]
        for r, c, v in self.clues:
            grid[r][c] = v
        return grid

    def text(self) -> str:
        """The common text form: `W H`, then the rows, 0 for blank."""
        lines = [f"{self.width} {self.height}"] + [" ".join(map(str, row)) for row in self.rows()]
        return "\n".join(lines) + "\n"


Rect = tuple[int, int, int, int]  # (row, col, height, width)


def obvious_reason(puzzle: Shikaku) -> str | None:
    """Why there can be no solution, when it shows before any search."""
    total = sum(v for _, _, v in puzzle.clues)
    if total != puzzle.width * puzzle.height:
        return f"the clues add up to {total}, the grid has {puzzle.width * puzzle.height} cells"
    return None


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
