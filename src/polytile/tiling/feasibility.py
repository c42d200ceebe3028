"""Reasons a puzzle has no solution, found without search: from the areas alone before any
model is built (`area_reasons`), then from the model (`infeasible`: a piece that fits
nowhere, a cell no piece covers, no choice of the tiles covering the board's area)."""

from __future__ import annotations

import time

import numpy as np

from ..core.cover import Model, TimeUp
from ..core.puzzle import Puzzle


def area_reasons(puzzle: Puzzle, tiles_area: int | None = None) -> list[str]:
    """Reasons, from the areas alone (before any model is built), why there is no solution
    (`tiles_area`: puzzle.tiles_area, when the caller has it)."""
    area = puzzle.board.area
    tiles_area = puzzle.tiles_area if tiles_area is None else tiles_area
    least = sum(p.size * p.least for p in puzzle.pieces)
    reasons = []
    if least > area:
        reasons.append(f"the pieces that must be used cover {least} cells, the board has {area}")
    if tiles_area < area:
        reasons.append(f"the tiles cover {tiles_area} cells, the board has {area}")
    return reasons


def infeasible(
    model: Model, areas_checked: bool = False, tiles_area: int = -1, deadline: float | None = None
) -> list[str]:
    """Reasons, found without search, why the puzzle has no solution (`areas_checked`:
    area_reasons found none before the model was built; merging pieces keeps the sums;
    `tiles_area`: the tiles' cells, when the caller has it). TimeUp when the perf_counter
    `deadline` passes first."""
    checks = model.checks
    if areas_checked and checks is not None and checks[0] == (1 << len(model.cover.piece_count)) - 1:
        if checks[1] < 0 and tiles_area == len(model.cells):  # (every tile placed, no cell bare:
            return []  # nothing below can object; the merged puzzle is not even made)
    puzzle = model.puzzle
    area = puzzle.board.area
    reasons = [] if areas_checked else area_reasons(puzzle)
    pieces = puzzle.pieces
    placed, every = _placed(model), (1 << len(pieces)) - 1
    if placed != every:
        for p, piece in enumerate(pieces):
            if not placed >> p & 1 and piece.least > 0:
                reasons.append(f"piece {piece.name} ({piece.size} cells) fits nowhere on the board")
    if not reasons and (placed != every or puzzle.tiles_area != area):  # (else all the tiles cover it)
        counts = [min(piece.count, area // piece.size) if placed >> p & 1 else 0 for p, piece in enumerate(pieces)]
        if not _sums(area, [piece.size for piece in pieces], counts, deadline) >> area & 1:
            reasons.append(f"no choice of the tiles that fit on the board covers exactly {area} cells")
    uncovered = _uncovered(model)
    if uncovered >= 0:
        cell = model.cells[uncovered]
        reasons.append(f"no piece can cover cell {tuple(int(x) for x in cell)}")
    return reasons


def _sums(area: int, sizes: list[int], counts: list[int], deadline: float | None) -> int:
    """Bit s set when some choice of the tiles (counts[p] copies of sizes[p] cells at most)
    covers s <= area cells. Copies are taken in groups of 1, 2, 4, ... (and the rest): the
    same sums, in log(count) shifts of an area-bit number rather than count shifts (a
    million one-cell fillers took a minute)."""
    sums, within = 1, (2 << area) - 1
    for size, count in zip(sizes, counts):
        group = 1
        while count > 0:
            take = min(group, count)
            sums |= (sums << (take * size)) & within
            count, group = count - take, 2 * group
            if deadline is not None and time.perf_counter() > deadline:
                raise TimeUp
    return sums


def _placed(model: Model) -> int:
    """Bit p set when (merged) piece p has a placement: the compiled reduction's bits when
    it made them (Model.checks), else a count over the options."""
    if model.checks is not None and model.checks[0] >= 0:
        return model.checks[0]
    counts = np.bincount(model.cover.opt_piece, minlength=len(model.puzzle.pieces))
    return sum(1 << p for p, n in enumerate(counts.tolist()) if n > 0)  # (Python ints: numpy's scalars cost more)


def _uncovered(model: Model) -> int:
    """The first item no option covers, -1 when every item is covered (Model.checks when
    the compiled reduction made it)."""
    if model.checks is not None:
        return model.checks[1]
    covered = np.bincount(model.cover.opt_items, minlength=model.cover.n_items)
    return -1 if covered.all() else int(np.argmin(covered))
