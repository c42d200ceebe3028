"""ASCII drawings (the classic tiling assignment): the largest 4-connected object is the
board, every other object is a tile, and each character is a colour."""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from ..errors import PuzzleError
from .common import check_box

if TYPE_CHECKING:
    from ..core.puzzle import Puzzle

MAX_CELLS = 20_000
# distinct characters a drawing may use: each is a colour, and drawings use one or two (a
# checkerboard); prose, code or a table read as a drawing uses dozens and is no puzzle
MAX_COLOURS = 10


def _cells(text: str, name: str) -> dict[tuple[int, int], str]:
    cells: dict[tuple[int, int], str] = {}
    for r, line in enumerate(text.splitlines()):
        tab = line.find("\t")
        if tab >= 0:
            raise PuzzleError("tab character; draw with spaces", name, r + 1, tab + 1)
        for c, ch in enumerate(line):
            if ch != " ":
                cells[(r, c)] = ch
                if len(cells) > MAX_CELLS:
                    raise PuzzleError(f"drawing too large (more than {MAX_CELLS} cells)", name, r + 1, c + 1)
    return cells


def _check_colours(cells: dict[tuple[int, int], str], name: str) -> None:
    """Refuse text that is no drawing: more characters than a drawing has colours."""
    palette = set(cells.values())
    if len(palette) > MAX_COLOURS:
        raise PuzzleError(
            f"not a puzzle drawing: it uses {len(palette)} different characters, and a drawing colours its "
            f"cells with a few (at most {MAX_COLOURS}; the board and its tiles drawn with the same ones)",
            name,
        )


def _components(cells: dict[tuple[int, int], str]) -> list[list[tuple[int, int]]]:
    """4-connected groups of cells, in reading order of their first cell."""
    seen: set[tuple[int, int]] = set()
    groups = []
    for start in sorted(cells):
        if start in seen:
            continue
        seen.add(start)
        group, todo = [], deque([start])
        while todo:
            r, c = todo.popleft()
            group.append((r, c))
            for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if nb in cells and nb not in seen:
                    seen.add(nb)
                    todo.append(nb)
        groups.append(sorted(group))
    return groups


def parse(text: str, name: str = "<ascii>") -> Puzzle:
    """Read an ASCII drawing into a Puzzle: the largest 4-connected object is the board, every
    other object a tile."""
    cells = _cells(text, name)
    if not cells:
        raise PuzzleError("puzzle file has only blanks", name)
    _check_colours(cells, name)
    groups = _components(cells)
    if len(groups) < 2:
        raise PuzzleError("no tiles: the drawing has a board but no other object", name)
    board_i = max(range(len(groups)), key=lambda i: len(groups[i]))
    check_box(list(groups[board_i]), name)
    return _puzzle(cells, groups, board_i, name)


def _puzzle(cells: dict[tuple[int, int], str], groups: list[list[tuple[int, int]]], board_i: int, name: str) -> Puzzle:
    """The checked drawing as a Puzzle (numpy from here on: a bad file is refused without it)."""
    import numpy as np

    from ..core.puzzle import Board, Piece, Puzzle, make_partial

    palette = sorted(set(cells.values()))
    code = {ch: i for i, ch in enumerate(palette)}

    def arrays(group: list[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray]:
        pts = np.array(group, dtype=np.int64)
        cols = np.array([code[cells[p]] for p in group], dtype=np.int64)
        return pts, cols

    bcells, bcols = arrays(groups[board_i])
    board = Board(bcells - bcells.min(axis=0), bcols)
    pieces: list[Piece] = []
    for i, g in enumerate(groups):
        if i == board_i:
            continue
        pts, cols = arrays(g)
        pieces.append(Piece(f"t{len(pieces) + 1}", pts - pts.min(axis=0), cols, 1))
    puzzle = Puzzle(board, pieces, True, palette, name)
    if puzzle.tiles_area > board.area:
        puzzle = make_partial(puzzle)
        puzzle.notes.append("warning: not all tiles are used")
    return puzzle
