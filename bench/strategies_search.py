"""The four search strategies of bench/strategies.py (defined in its docstring), in plain
Python over the placements of polytile's exact-cover model. Each counts all solutions of
an exact tiling and calls `clock.tick()` once per node (a placement made)."""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass

import polytile


class OutOfTime(Exception):
    pass


@dataclass
class Placements:
    """An exact tiling as bitmasks: bit i = board cell i (polytile's fill order)."""

    n_cells: int
    n_pieces: int
    mask: list[int]  # per placement (option id)
    piece: list[int]  # per placement
    cells: list[tuple[int, ...]]  # per placement, ascending
    by_piece: list[list[int]]  # placement ids of each piece
    by_first: list[list[int]]  # placement ids whose lowest cell is cell c

    @property
    def full(self) -> int:
        return (1 << self.n_cells) - 1


def placements(tiling: polytile.Tiling) -> Placements:
    model = tiling.model()
    cover = model.cover
    if (cover.piece_count != 1).any() or (cover.piece_min != cover.piece_count).any():
        raise ValueError("the strategies assume each piece is used exactly once")
    if model.puzzle.tiles_area != model.puzzle.board.area:
        raise ValueError("the strategies assume the pieces' area equals the board's")
    n_opt = cover.n_options
    cells = [tuple(int(i) for i in cover.option_items(o)) for o in range(n_opt)]
    piece = [int(p) for p in cover.opt_piece]
    by_piece = [[] for _ in cover.piece_count]
    by_first = [[] for _ in range(cover.n_items)]
    for o in range(n_opt):
        by_piece[piece[o]].append(o)
        by_first[cells[o][0]].append(o)
    mask = [sum(1 << i for i in c) for c in cells]
    return Placements(cover.n_items, len(cover.piece_count), mask, piece, cells, by_piece, by_first)


class Clock:
    """Nodes and a deadline; `tick` is called once per node."""

    def __init__(self, budget: float):
        self.nodes = 0
        self.deadline = time.perf_counter() + budget

    def tick(self) -> None:
        self.nodes += 1
        if not self.nodes & 1023 and time.perf_counter() > self.deadline:
            raise OutOfTime


# ---- the four strategies: each returns the number of solutions, counting nodes on `clock`


def in_order(pl: Placements, order: list[int], clock: Clock) -> int:
    """Place the pieces in `order`, each at every placement that fits; complete boards."""
    masks = [[pl.mask[o] for o in pl.by_piece[p]] for p in order]
    last = len(order)

    def go(k: int, covered: int) -> int:
        if k == last:
            return 1  # all pieces placed: the areas match, the board is full
        found = 0
        for m in masks[k]:
            if not m & covered:
                clock.tick()
                found += go(k + 1, covered | m)
        return found

    return go(0, 0)


def brute_force(pl: Placements, clock: Clock) -> int:
    boards = sum(in_order(pl, list(order), clock) for order in itertools.permutations(range(pl.n_pieces)))
    assert boards % math.factorial(pl.n_pieces) == 0
    return boards // math.factorial(pl.n_pieces)


def greedy_order(pl: Placements, clock: Clock) -> int:
    order = sorted(range(pl.n_pieces), key=lambda p: (len(pl.by_piece[p]), p))
    return in_order(pl, order, clock)


def first_empty_cell(pl: Placements, clock: Clock) -> int:
    full = pl.full
    lists = [[(pl.mask[o], 1 << pl.piece[o]) for o in opts] for opts in pl.by_first]

    def go(covered: int, used: int) -> int:
        if covered == full:
            return 1
        empty = full & ~covered
        cell = (empty & -empty).bit_length() - 1
        found = 0
        for m, p in lists[cell]:
            if not (m & covered or p & used):
                clock.tick()
                found += go(covered | m, used | p)
        return found

    return go(0, 0)


def fewest_options(pl: Placements, clock: Clock) -> int:
    """Sets of placements are Python ints, bit o = placement o: `live` holds those that
    still fit, `on_cell[c]` / `of_piece[p]` those covering cell c / of piece p, and
    `clash[o]` those overlapping o or of o's piece (what placing o rules out)."""
    n_opt = len(pl.mask)
    on_cell = [0] * pl.n_cells
    of_piece = [0] * pl.n_pieces
    for o in range(n_opt):
        of_piece[pl.piece[o]] |= 1 << o
        for c in pl.cells[o]:
            on_cell[c] |= 1 << o
    clash = [of_piece[pl.piece[o]] for o in range(n_opt)]
    for o in range(n_opt):
        for c in pl.cells[o]:
            clash[o] |= on_cell[c]
    full = pl.full

    def go(live: int, covered: int, used: int) -> int:
        if covered == full:
            return 1
        best, choices = n_opt + 1, 0
        empty = full & ~covered
        while empty and best:  # 0 placements: a dead end, stop looking
            c = (empty & -empty).bit_length() - 1
            empty &= empty - 1
            here = live & on_cell[c]
            k = here.bit_count()
            if k < best:
                best, choices = k, here
        for p in range(pl.n_pieces):
            if not best:
                break
            if not used >> p & 1:
                here = live & of_piece[p]
                k = here.bit_count()
                if k < best:
                    best, choices = k, here
        found = 0
        while choices:
            low = choices & -choices
            choices ^= low
            o = low.bit_length() - 1
            clock.tick()
            found += go(live & ~clash[o], covered | pl.mask[o], used | 1 << pl.piece[o])
        return found

    return go((1 << n_opt) - 1, 0, 0)


STRATEGIES = {
    "brute force": brute_force,
    "first empty cell": first_empty_cell,
    "fewest options": fewest_options,
    "greedy order": greedy_order,
}
