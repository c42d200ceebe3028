"""What count and solve answer: placed pieces, solutions, and the report with its statistics."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Generic, TypeVar

import numpy as np

from .grids import SQUARE, Grid, coerce
from .puzzle import Puzzle
from .library import pentomino_name

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

Found = TypeVar("Found")
Other = TypeVar("Other")


@dataclass
class Placement:
    """A piece placed on the board, as people read a solution: its name, letter and cells."""

    piece: str  # piece name
    letter: str  # one character for drawings
    cells: np.ndarray  # (k, d) board coordinates


@dataclass
class Solution:
    """One way to tile the board, as placements (the engine's option ids turned back into
    pieces)."""

    placements: list[Placement]
    board: np.ndarray | None = None  # the board's cells, for pictures
    grid: Grid = SQUARE  # the board's grid (a JSON spelling is taken too)

    def __post_init__(self) -> None:
        cells = self.board
        self.grid = coerce(self.grid, int(np.shape(cells)[1]) if cells is not None and np.ndim(cells) == 2 else None)

    def to_json(self) -> list[dict[str, object]]:
        """The placements as JSON (`solve --format json`): piece names and cells."""
        return [{"piece": p.piece, "cells": p.cells.tolist()} for p in self.placements]


@dataclass
class Report(Generic[Found]):
    """The answer to count/solve, with the search statistics. The engine's solutions found
    are lists of option ids (Report[np.ndarray]); count and solve turn them into pieces
    (Report[Solution])."""

    solutions: int = 0  # all solutions (see the counting conventions)
    unique: int | None = None  # classes under the board's symmetry, when asked
    seconds: float = 0.0
    nodes: int = 0
    complete: bool = True  # False after a time limit, a solution limit or Ctrl-C
    interrupted: bool = False  # Ctrl-C
    timed_out: bool = False
    found: list[Found] = field(default_factory=list)  # the solutions stored
    reasons: list[str] = field(default_factory=list)  # why there is no solution, when known
    engine: str = ""
    method: str = "enumerate"  # how the count was made (engine.counting.METHODS)
    counted: bool = True  # False: a method with no partial figure stopped (solutions unknown)

    @property
    def reason(self) -> str | None:
        """Why the answer is incomplete (its counts are then lower bounds), or None."""
        if self.complete:
            return None
        if self.interrupted:
            return "interrupted"
        return "time limit" if self.timed_out else "solution limit"

    def with_found(self, found: list[Other]) -> Report[Other]:
        """The same answer holding other solutions: the engine's option ids turned into pieces
        (or none kept), without losing a field."""
        out: Report[Any] = replace(self, found=[])
        out.found = found
        return out

    def unique_known(self, order: int | None) -> Report[Found]:
        """This report, an incomplete count's `unique` made what is known of it: the classes
        counted and at least solutions / |G| (`order`; a class holds at most |G| solutions: a
        count cut short had said 0 classes beside 21,563 solutions), or None (unknown) when
        solutions were counted before the board's group was known."""
        if self.complete or self.unique is None:
            return self
        if order:
            self.unique = max(self.unique, -(-self.solutions // order))
        elif self.solutions:
            self.unique = None
        return self

    def to_json(self) -> dict[str, object]:
        """The answer as the command-line contract spells it (DESIGN.md): `complete` false,
        with a `reason`, when the counts are lower bounds."""
        out: dict[str, object] = {
            "solutions": self.solutions if self.counted else None,
            "unique": self.unique if self.counted else None,
            "seconds": round(self.seconds, 6),
            "nodes": self.nodes,
            "complete": self.complete,
            "method": self.method,
        }
        if not self.complete:
            out["reason"] = self.reason
        return out

    def text_lines(self, unique: bool = True) -> list[str]:
        """The answer as `count` prints it: `solutions: N`, ..., and `complete: no (why)`
        when a limit or an interrupt cut it short."""
        if not self.counted:
            lines = [f"solutions: unknown ({self.reason}; the {self.method} method has no partial figure)"]
        else:
            lines = [f"solutions: {self.solutions}"]
        if unique and self.unique is not None and self.counted:
            lines.append(f"unique: {self.unique}")
        elif unique and self.counted and not self.complete:
            lines.append("unique: unknown")
        lines += [f"seconds: {self.seconds:.4f}", f"nodes: {self.nodes}", f"method: {self.method}"]
        if not self.complete:
            lines.append(f"complete: no ({self.reason}; the counts are lower bounds)")
        return lines


def piece_letters(puzzle: Puzzle) -> list[str]:
    """One character per piece: the pentomino letter when the set allows, else A, B, C..."""
    names = [pentomino_name(p.cells) for p in puzzle.pieces]
    named = [name for name in names if name]
    if len(named) == len(names) and len(set(named)) == len(named):
        return named
    return [LETTERS[i % len(LETTERS)] for i in range(len(puzzle.pieces))]
