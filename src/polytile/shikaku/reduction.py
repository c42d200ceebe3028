"""Shikaku's reduction to exact cover: the cells are the items; each clue's candidate
rectangles (every h x w with h * w = area inside the grid that holds the clue and no other
clue) are its options, counted by one piece with one copy. The clue's own cell is covered
only by its candidates, so "each clue once" needs no item of its own. Cells are numbered
along the grid's short side, so that the counters' frontier stays small.

Plain lists (numpy only for the shared engine's `Reduction.cover`): a puzzle people type is
small, and numpy alone would take longer to import than reducing and counting it.
"""

from __future__ import annotations

from functools import cached_property
from itertools import chain
from typing import TYPE_CHECKING, Callable

from ..engine.counting import propagation
from .grid import Rect, Shikaku

if TYPE_CHECKING:
    from ..core.cover import Cover


class Reduction:
    """The exact cover of a puzzle as plain lists: option o is the rectangle `rects[o]` of the
    clue `clue_of[o]`, covering the items `opt_items[o]` (ascending); options are sorted by
    their first item. Items are cells numbered by `item_number`; with `cells`, only those
    cells (ascending item numbers, e.g. what propagation leaves open), item b being `cells[b]`."""

    def __init__(
        self,
        puzzle: Shikaku,
        rects: list[Rect],
        clue_of: list[int],
        opt_items: list[list[int]],
        cells: list[int] | None = None,
    ):
        self.puzzle, self.rects, self.clue_of, self.opt_items = puzzle, rects, clue_of, opt_items
        self.cells = cells

    @property
    def n_items(self) -> int:
        """Items of the cover: every cell, or those of `cells`."""
        return self.puzzle.width * self.puzzle.height if self.cells is None else len(self.cells)

    def options(self) -> propagation.Options:
        """The cover for the memoised counter: every item primary."""
        return propagation.Options(self.n_items, [True] * self.n_items, self.opt_items)

    def item_cell(self, item: int) -> tuple[int, int]:
        """(row, col) of an item."""
        if self.cells is not None:
            item = self.cells[item]
        w, h = self.puzzle.width, self.puzzle.height
        return divmod(item, w) if w <= h else divmod(item, h)[::-1]

    @cached_property
    def cover(self) -> Cover:
        """The same cover as numpy arrays, for the shared engine (`listing`, `generate`;
        a reduction of every cell)."""
        import numpy as np
        from ..core.cover import Cover

        lengths = [len(items) for items in self.opt_items]
        n_clues = len(self.puzzle.clues)
        return Cover(
            n_items=self.puzzle.width * self.puzzle.height,
            opt_ptr=np.cumsum([0] + lengths, dtype=np.int64),
            opt_items=np.fromiter(chain.from_iterable(self.opt_items), np.int32, sum(lengths)),
            opt_piece=np.array(self.clue_of, dtype=np.int32),
            piece_count=np.ones(n_clues, dtype=np.int32),
            piece_min=np.ones(n_clues, dtype=np.int32),
            neighbours=np.array(neighbours(self.puzzle), dtype=np.int32).reshape(-1, 4),
        )


def item_number(puzzle: Shikaku) -> Callable[[int, int], int]:
    """The item of the cell (row, col): cells are numbered along the short side, so the
    longer axis is the more significant one (a small frontier for the counter)."""
    w, h = puzzle.width, puzzle.height
    return (lambda r, c: r * w + c) if w <= h else (lambda r, c: c * h + r)


def rect_items(puzzle: Shikaku, rect: Rect) -> list[int]:
    """The items of a rectangle, ascending: runs along the short side of the grid."""
    top, left, h, w = rect
    items: list[int] = []
    if puzzle.width <= puzzle.height:
        for y in range(top * puzzle.width + left, (top + h) * puzzle.width, puzzle.width):
            items += range(y, y + w)
    else:
        for x in range(left * puzzle.height + top, (left + w) * puzzle.height, puzzle.height):
            items += range(x, x + h)
    return items


def neighbours(puzzle: Shikaku) -> list[int]:
    """Flat (items, 4): the items below, above, right and left of each item, -1 off the grid."""
    H, W = puzzle.height, puzzle.width
    number = item_number(puzzle)
    out = [-1] * (4 * H * W)
    for r in range(H):
        for c in range(W):
            base = 4 * number(r, c)
            for k, (y, x) in enumerate(((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1))):
                if 0 <= y < H and 0 <= x < W:
                    out[base + k] = number(y, x)
    return out


def candidates(puzzle: Shikaku) -> list[tuple[Rect, int]]:
    """Every candidate rectangle of every clue, with the clue's index: each h x w of the
    clue's area inside the grid that holds the clue and no other one (`shikaku.candidates`)."""
    from .candidates import candidates as by_clue

    return [(rect, k) for k, rects in enumerate(by_clue(puzzle.height, puzzle.width, puzzle.clues)) for rect in rects]


def reduce(puzzle: Shikaku, by_clue: list[tuple[int, list[Rect]]] | None = None, compact: bool = False) -> Reduction:
    """The exact cover of a Shikaku puzzle (or of the clues `by_clue`, each with its
    rectangles); options sorted by their first item, then clue and height. `compact`: items
    only for the cells the rectangles cover (in order)."""
    number = item_number(puzzle)
    if by_clue is None:
        by_clue = [(k, [rect]) for rect, k in candidates(puzzle)]
    keyed = sorted((number(t, lft), k, h, w, t, lft) for k, rects in by_clue for t, lft, h, w in rects)
    rects = [(t, lft, h, w) for _, _, h, w, t, lft in keyed]
    opt_items = [rect_items(puzzle, rect) for rect in rects]
    cells = None
    if compact:
        cells = sorted(set(chain.from_iterable(opt_items)))
        local = {i: b for b, i in enumerate(cells)}
        opt_items = [[local[i] for i in items] for items in opt_items]
    return Reduction(puzzle, rects, [k for _, k, *_ in keyed], opt_items, cells)
