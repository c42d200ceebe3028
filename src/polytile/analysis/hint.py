"""Hints for a human player: from a partly filled board, the most forced next placement
that still leads to a solution, or why the position is a dead end."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import PuzzleError
from ..formats import read_text
from ..core.puzzle import Board, Piece, Puzzle, merge_congruent
from ..core.results import piece_letters
from ..core.shape import canonical_key
from ..tiling.solver import Tiling
from .grading import LEVELS, Logic, rule_for

HINT_WORK = 2_000  # rounds of the grading rules a hint may spend naming its rule
HINT_SECONDS = 0.5  # ... and seconds


@dataclass
class Hint:
    """The answer to a player: place `piece` on `cells` (the most forced move), or why the
    position is a dead end, or that it is solved; `nodes`: the search it took."""

    verdict: str  # "place", "dead end" or "solved"
    reason: str
    piece: str | None = None
    cells: list[list[int]] = field(default_factory=list)
    nodes: int = 0
    rule: str | None = None  # what shows the placement: a level of the grading rules, or "search"

    def to_json(self) -> dict[str, Any]:
        """The hint as `hint --json` prints it and the page reads it."""
        return {
            "verdict": self.verdict,
            "reason": self.reason,
            "piece": self.piece,
            "cells": self.cells,
            "nodes": self.nodes,
            "rule": self.rule,
        }


def where(cell: Sequence[int] | np.ndarray) -> str:
    """A cell as a player reads it: 1-based row and column (and layer in 3D)."""
    names = ("row", "column", "layer")
    return ", ".join(f"{names[i]} {int(v) + 1}" for i, v in enumerate(cell))


def read_given(path: str, puzzle: Puzzle) -> list[tuple[str, np.ndarray]]:
    """Placed pieces from a drawing of the board: '.' is an empty cell, any other character
    a placed piece (its 4-connected cells). On a coloured board (a checkerboard) a cell's
    own colour also reads as empty; on a plain board its character is a letter like any
    other (the board of the pentominoes is drawn in X, and X is a pentomino)."""
    if puzzle.dim != 2:
        raise PuzzleError("--given positions are drawings of flat boards", path)
    text = read_text(path)
    board = {
        tuple(c): puzzle.colour_names[k] for c, k in zip(puzzle.board.cells.tolist(), puzzle.board.colours.tolist())
    }
    drawn = {(r, c): ch for r, line in enumerate(text.splitlines()) for c, ch in enumerate(line) if ch != " "}
    if not drawn:
        raise PuzzleError("the position has no cells", path)
    lo = np.array(sorted(drawn)).min(axis=0)
    drawn = {(r - lo[0], c - lo[1]): ch for (r, c), ch in drawn.items()}
    for r, c in drawn:
        if (r, c) not in board:
            raise PuzzleError("a cell of the position is not on the puzzle's board", path, r + lo[0] + 1, c + lo[1] + 1)
    coloured = len(set(board.values())) > 1
    placed, seen = [], set()
    for start in sorted(drawn):
        ch = drawn[start]
        if ch == "." or (coloured and ch == board[start]) or start in seen:
            continue
        group, todo = [], [start]
        seen.add(start)
        while todo:
            r, c = todo.pop()
            group.append((r, c))
            for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if drawn.get(nb) == ch and nb not in seen:
                    seen.add(nb)
                    todo.append(nb)
        placed.append((ch, np.array(sorted(group), dtype=np.int64)))
    return placed


def identify(puzzle: Puzzle, index: dict[tuple[int, ...], int], cells: np.ndarray, left: list[int]) -> int | None:
    """The first piece with copies `left` that the cells (on the board; `index`: cell -> board
    row) are, congruent on the board's lattice under the piece's motions, colours matching."""
    colours = puzzle.board.colours[[index[tuple(c)] for c in cells.tolist()]]
    grid = puzzle.board.grid
    for i, p in enumerate(puzzle.pieces):
        if p.size == len(cells) and left[i] > 0:
            reflect = puzzle.reflects(p)
            if canonical_key(cells, colours, reflect, grid) == canonical_key(p.cells, p.colours, reflect, grid):
                return i
    return None


def _identify(puzzle: Puzzle, placed: Sequence[tuple[str, np.ndarray]], path: str) -> list[int]:
    """The piece each placed group is (congruent under its motions, colours matching)."""
    index = {tuple(c): i for i, c in enumerate(puzzle.board.cells.tolist())}
    left = [p.count for p in puzzle.pieces]
    out = []
    for ch, cells in placed:
        found = identify(puzzle, index, cells, left)
        if found is None:
            r, c = cells[0]
            raise PuzzleError(
                f"the piece drawn with {ch!r} is no (remaining) piece of the puzzle (empty cells are '.')",
                path,
                int(r) + 1,
                int(c) + 1,
            )
        left[found] -= 1
        out.append(found)
    return out


def remaining(puzzle: Puzzle, used: list[int], covered: set[tuple[int, ...]]) -> Puzzle:
    """The puzzle left to solve: the board without the covered cells, the pieces without the
    copies used (their minimums lowered alike), so the hint is a plain search on it."""
    keep = [i for i, c in enumerate(puzzle.board.cells.tolist()) if tuple(c) not in covered]
    board = Board(puzzle.board.cells[keep], puzzle.board.colours[keep])
    pieces = []
    for i, p in enumerate(puzzle.pieces):
        n = used.count(i)
        if p.count - n > 0:
            pieces.append(Piece(p.name, p.cells, p.colours, p.count - n, max(0, p.least - n), p.reflect))
    return Puzzle(
        board, pieces, puzzle.allow_reflection, puzzle.colour_names, puzzle.source, allowed=puzzle.allowed
    )  # BurrTools' colour pairs, when read from one


def _regions(cells: np.ndarray) -> list[np.ndarray]:
    todo = {tuple(c) for c in cells.tolist()}
    out = []
    while todo:
        start = min(todo)
        todo.remove(start)
        group, stack = [start], [start]
        while stack:
            c = stack.pop()
            for a in range(len(c)):
                for s in (1, -1):
                    nb = c[:a] + (c[a] + s,) + c[a + 1 :]
                    if nb in todo:
                        todo.remove(nb)
                        group.append(nb)
                        stack.append(nb)
        out.append(np.array(sorted(group)))
    return out


def _sizes(pieces: list[Piece], limit: int) -> int:
    sums = 1
    for p in pieces:
        for _ in range(min(p.count, limit // p.size)):
            sums |= (sums << p.size) & ((2 << limit) - 1)
    return sums


def unfillable_region(rest: Puzzle) -> str | None:
    """Why an empty region of the board cannot be filled (no choice of the pieces left has its
    number of cells), or None when every region's size can be made."""
    sums = _sizes(rest.pieces, rest.board.area)
    for region in _regions(rest.board.cells):
        if not (sums >> len(region)) & 1:
            s = "s" if len(region) > 1 else ""
            return (
                f"the empty region of {len(region)} cell{s} at {where(region[0])} cannot be filled: "
                f"no choice of the remaining pieces covers exactly {len(region)} cell{s}"
            )
    return None


def hint(puzzle: Puzzle, placed: Sequence[tuple[str, np.ndarray]] = (), path: str = "--given") -> Hint:
    """The most forced next placement that still leads to a solution after the `placed`
    pieces (letter, cells), or why the position is a dead end; `path` names the position in
    errors. Forced: the empty cell the fewest placements fit; the one given there is a solution's."""
    puzzle = merge_congruent(puzzle)
    letter = dict(zip((p.name for p in puzzle.pieces), piece_letters(puzzle)))
    used = _identify(puzzle, placed, path)
    covered = {tuple(c) for _, cells in placed for c in cells.tolist()}
    rest = remaining(puzzle, used, covered)
    if rest.board.area == 0:
        short = [p.name for p in rest.pieces if p.least > 0]
        return (
            Hint("dead end", f"the board is full but pieces {', '.join(letter[n] for n in short)} are unused")
            if short
            else Hint("solved", "every cell is covered")
        )
    why = unfillable_region(rest)
    if why:
        return Hint("dead end", why)
    tiling = Tiling(rest)
    model = tiling.model()
    cover = model.cover
    per_cell = np.bincount(cover.opt_items, minlength=cover.n_items)
    if (per_cell == 0).any():
        cell = model.cells[int(np.argmin(per_cell))]
        return Hint("dead end", f"no remaining piece fits the empty cell at {where(cell)}")
    placeable = np.bincount(cover.opt_piece, minlength=len(model.puzzle.pieces))
    for i, p in enumerate(model.puzzle.pieces):
        if p.least > 0 and placeable[i] == 0:
            return Hint("dead end", f"piece {letter[p.name]} fits nowhere in the empty cells")
    found = tiling.solve(limit=1)
    if not found.found:
        return Hint("dead end", "no way to finish from here (every continuation was searched)", nodes=found.nodes)
    item = int(np.argmin(per_cell))  # the most forced empty cell
    cell = tuple(int(v) for v in model.cells[item])
    options = [o for o in range(cover.n_options) if item in cover.option_items(o)]
    pieces = sorted({letter[model.puzzle.pieces[int(cover.opt_piece[o])].name] for o in options})
    place = next(p for p in found.found[0].placements if cell in map(tuple, p.cells.tolist()))
    ways = len(options)
    fit = (
        f"{ways} placement{'s' if ways > 1 else ''} of {len(pieces)} piece{'s' if len(pieces) > 1 else ''}"
        f" ({', '.join(pieces)})"
    )
    reason = (
        f"the empty cell at {where(cell)} is the hardest to cover: "
        f"{'only ' if ways <= 3 else ''}{fit} fit{'s' if ways == 1 else ''} there; this one leads to a solution"
    )
    option = _option_of(model, place.cells)
    rule = named_rule(cover, option, item)
    return Hint("place", f"{reason}; {rule}", letter[place.piece], place.cells.tolist(), found.nodes, rule)


def _option_of(model: Any, cells: np.ndarray) -> int:
    """The option of the model covering exactly these cells."""
    index = {tuple(c): i for i, c in enumerate(model.cells.tolist())}
    items = sorted(index[tuple(c)] for c in cells.tolist())
    cover = model.cover
    return next(o for o in range(cover.n_options) if sorted(cover.option_items(o).tolist()) == items)


def named_rule(cover: Any, option: int, item: int) -> str:
    """Which rule shows the placement: the lowest grading level whose rules leave it the only
    fit of the cell (a person's reasoning, named), else that the search found it."""
    lg = Logic(cover)
    lg.cap = HINT_WORK
    lg.deadline = time.perf_counter() + HINT_SECONDS
    level = rule_for(lg, option, item)
    if level is None:
        return "rule: search (one of several fits)"
    return f"rule: {LEVELS[level]} (level {level})"
