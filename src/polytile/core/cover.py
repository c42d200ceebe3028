"""Puzzle -> exact cover. Items are board cells (primary: each covered exactly once);
pieces are counters (an option uses one copy; a piece may stay unused down to its
minimum). One option per distinct placement of a piece on the board.

The cells are numbered so that the board is filled along its short side: the longest
axis is the most significant in the order, so "the first empty cell" walks down the
short side first, which keeps the frontier small.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from .grids import Grid
from .puzzle import Puzzle, merge_congruent
from .shape import orientations_of


@dataclass
class Cover:
    """An exact-cover problem, free of geometry. Options are sorted by their first item."""

    n_items: int
    opt_ptr: np.ndarray  # (n_opt+1,) int64: items of option o are opt_items[ptr[o]:ptr[o+1]]
    opt_items: np.ndarray  # int32, each option's items ascending
    opt_piece: np.ndarray  # (n_opt,) int32
    piece_count: np.ndarray  # (n_piece,) int32 copies available
    piece_min: np.ndarray  # (n_piece,) int32 copies that must be used
    neighbours: np.ndarray  # (n_items, max_deg) int32 item adjacency, -1 padded (for dead regions)

    @property
    def n_options(self) -> int:
        """How many options (placements) the cover has."""
        return len(self.opt_piece)

    @property
    def piece_size(self) -> np.ndarray:
        """(n_piece,) cells of each piece, read off its options' lengths (0 for a piece
        with no placement)."""
        sizes = np.zeros(len(self.piece_count), dtype=np.int64)
        sizes[self.opt_piece] = self.opt_ptr[1:] - self.opt_ptr[:-1]  # (np.diff's Python: ~5 us)
        return sizes

    def option_items(self, o: int) -> np.ndarray:
        """The items of option o: a view into the CSR arrays, no copy."""
        return self.opt_items[self.opt_ptr[o] : self.opt_ptr[o + 1]]


@dataclass
class Model:
    """A puzzle reduced to exact cover, with what is needed to turn options back into pieces."""

    puzzle: Puzzle  # pieces merged by congruence
    cells: np.ndarray  # (n_items, d) board coordinates in item order
    colours: np.ndarray  # (n_items,) colour codes in item order
    cover: Cover
    perms: np.ndarray | None = None  # the board's group, when the compiled reduction found it
    # ... and the symmetry analysis (Symmetry's fields after perms), when it made it
    analysis: tuple[Any, ...] | None = None
    # (placed: bit p set when merged piece p has an option, -1 when not made; uncovered:
    # the first item no option covers, -1: none), when the compiled reduction made them
    checks: tuple[int, int] | None = None

    def placement(self, o: int) -> tuple[int, np.ndarray]:
        """Piece index and board cells (coordinates) of option o."""
        return int(self.cover.opt_piece[o]), self.cells[self.cover.option_items(o)]


def cell_order(cells: np.ndarray) -> np.ndarray:
    """Indices ordering cells with the longest axis most significant (fill along the short side)."""
    extent = cells.max(axis=0) - cells.min(axis=0)
    axes = sorted(range(cells.shape[1]), key=lambda a: (-extent[a], a))
    return np.lexsort([cells[:, a] for a in reversed(axes)])


GRID_CELLS = 1 << 22  # a lookup grid over the board's bounding box up to this many cells
CHUNK = 1 << 20  # piece cells tried at once while placing (bounds the memory)


class TimeUp(Exception):
    """The deadline passed while building the model."""


def check_deadline(deadline: float | None) -> None:
    """TimeUp once the perf_counter `deadline` has passed (None: never)."""
    if deadline is not None and time.perf_counter() > deadline:
        raise TimeUp


class OverBudget(Exception):
    """What a phase would build exceeds the memory budget: `need` bytes (an estimate), `what`."""

    def __init__(self, what: str, need: int):
        super().__init__(what)
        self.what, self.need = what, need


# bytes per placed cell while the model is built: the lookup's int64 indices, the sorted
# int64 rows, their concatenation and the final int32 items (measured: about 20)
BUILD_BYTES_PER_CELL = 28


def placement_bound(puzzle: Puzzle) -> tuple[int, int]:
    """An upper bound, before anything is built, on the placements and on the cells they
    cover: every orientation at every anchor where its bounding box fits the board's (what
    `_placements` looks up). Cheap: the orientations of one size compared at once."""
    cells = puzzle.board.cells
    lo, hi = cells.min(axis=0), cells.max(axis=0)
    anchors = cells[np.lexsort(cells.T[::-1])]
    placements = covered = 0
    for shapes in _orientations_by_size(merge_congruent(puzzle), len(cells)).values():
        stack = np.stack([c for _, c, _ in shapes])  # (O, k, d)
        fits = int(np.count_nonzero(_box_fits(anchors, stack, lo, hi, stack.min(axis=1))))
        placements += fits
        covered += fits * stack.shape[1]
    return placements, covered


def _box_fits(anchors: np.ndarray, shapes: np.ndarray, lo: np.ndarray, hi: np.ndarray, low: np.ndarray) -> np.ndarray:
    """(O, N) bool: orientation o (shapes (O, k, d), lowest coordinates `low`) with its
    first cell on anchor a stays inside the box lo..hi. Axis by axis: numpy's .all over
    a short last axis costs more than the whole comparison."""
    first = shapes[:, 0, :]
    lower = lo - low + first  # (O, d): the anchors' range per orientation
    upper = hi - shapes.max(axis=1) + first
    ok = np.ones((len(shapes), len(anchors)), dtype=bool)
    for ax in range(anchors.shape[1]):
        col = anchors[:, ax]
        ok &= (col >= lower[:, ax, None]) & (col <= upper[:, ax, None])
    return ok


def _orientations_by_size(puzzle: Puzzle, n_cells: int) -> dict[int, list[tuple[int, np.ndarray, np.ndarray]]]:
    """(piece, cells, colours) of every orientation of every piece that fits in `n_cells`
    cells, by size (the shapes of one size are looked up together)."""
    by_size: dict[int, list[tuple[int, np.ndarray, np.ndarray]]] = {}
    fitting = [p_i for p_i, piece in enumerate(puzzle.pieces) if piece.size <= n_cells]
    shapes: list[tuple[np.ndarray, np.ndarray | None, bool]] = [
        (puzzle.pieces[p_i].cells, puzzle.pieces[p_i].colours, puzzle.reflects(puzzle.pieces[p_i])) for p_i in fitting
    ]
    for p_i, found in zip(fitting, orientations_of(shapes, puzzle.board.grid)):  # one look-up
        for c, col in found:
            by_size.setdefault(len(c), []).append((p_i, c, np.zeros(len(c), np.int64) if col is None else col))
    return by_size


def crude_bound(puzzle: Puzzle) -> int:
    """A bound on the cells the placements cover, without their orientations: each piece
    in at most 2^d d! orientations (12 on the triangle and hex grids) at every board
    cell. Enough to pass small puzzles without `placement_bound`'s work."""
    return crude_cells(puzzle.board.dim, puzzle.board.area, sum(p.size for p in puzzle.pieces))


def crude_cells(dim: int, area: int, cells: int) -> int:
    """crude_bound from the board's dimension and area and the pieces' cells (one copy each)."""
    motions: int = max(12, 2**dim * math.factorial(dim))
    return motions * area * cells


def check_budget(puzzle: Puzzle, budget: int | None) -> None:
    """OverBudget when the model's placements could take more than `budget` bytes."""
    if budget is None or crude_bound(puzzle) * BUILD_BYTES_PER_CELL <= budget:
        return
    _, covered = placement_bound(puzzle)
    need = covered * BUILD_BYTES_PER_CELL
    if need > budget:
        raise OverBudget("building the placements", need)


class CellIndex:
    """Board cells by their number in the bounding box (row-major): a lookup grid when the
    box is small, else the sorted numbers of the cells, so memory follows the number of
    cells and never the coordinates' range."""

    def __init__(self, cells: np.ndarray):
        self.lo, self.hi = cells.min(axis=0), cells.max(axis=0)
        side = [int(x) + 1 for x in self.hi - self.lo]
        if math.prod(side) >= 1 << 62:
            raise ValueError("board coordinates span too far")
        self.strides = np.array([math.prod(side[a + 1 :]) for a in range(len(side))], dtype=np.int64)
        number = self.number(cells)
        self.grid = None
        if math.prod(side) <= max(GRID_CELLS, 8 * len(cells)):
            self.grid = np.full(math.prod(side), -1, dtype=np.int64)
            self.grid[number] = np.arange(len(cells))
        else:
            self.order = np.argsort(number, kind="stable")
            self.numbers = number[self.order]

    def number(self, pos: np.ndarray) -> np.ndarray:
        """Numbers in the box of positions (..., d) known to lie inside it."""
        numbers: np.ndarray = (pos - self.lo) @ self.strides
        return numbers

    def at(self, number: np.ndarray) -> np.ndarray:
        """Item at each box number, -1 where the box has no board cell."""
        if self.grid is not None:
            items: np.ndarray = self.grid[number]
            return items
        at = np.minimum(np.searchsorted(self.numbers, number), len(self.numbers) - 1)
        return np.where(self.numbers[at] == number, self.order[at], -1)

    def find(self, pos: np.ndarray) -> np.ndarray:
        """Item at each position (n, d), -1 off the board."""
        out = np.full(len(pos), -1, dtype=np.int64)
        inside = np.ones(len(pos), dtype=bool)
        for ax in range(pos.shape[1]):  # axis by axis: .all(axis=1) over d costs more
            inside &= (pos[:, ax] >= self.lo[ax]) & (pos[:, ax] <= self.hi[ax])
        out[inside] = self.at(self.number(pos[inside]))
        return out


def _placements(
    index: CellIndex,
    anchors: np.ndarray,
    colours: np.ndarray,
    shapes: np.ndarray,
    shape_colours: np.ndarray,
    deadline: float | None,
    lat: Grid | None = None,
    allowed: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Every translation of every orientation (shapes: (O, k, d), normalised) whose cells
    are board cells of matching colours (equal, or as `allowed` says): (n, k) item indices and the orientation each came
    from, by orientation then translation. Each translation puts the orientation's first
    cell on an anchor (the board cells in coordinate order); those leaving the bounding box
    are dropped first (so is a shape larger than the box), and at most CHUNK cells are
    looked up at once. On the triangle grid only the shifts that are translations of the
    lattice count (an up triangle may not land on a down one)."""
    n_orient, k, _ = shapes.shape
    low = shapes.min(axis=1)  # 0 but on the triangle grid's third axis
    offsets = shapes @ index.strides  # (O, k): box numbers
    offsets = offsets - offsets[:, :1]  # from the first cell
    anchor_numbers = index.number(anchors)
    plain = allowed is None and not colours.any() and not shape_colours.any()  # nothing to match
    found, which = [], []
    per = max(1, CHUNK // len(anchors))
    step = max(1, CHUNK // k)
    for first in range(0, n_orient, per):
        o_range = np.arange(first, min(first + per, n_orient))
        o_of, a_of = np.nonzero(_box_fits(anchors, shapes[o_range], index.lo, index.hi, low[o_range]))
        if lat is not None:
            fits = lat.is_translation(anchors[a_of] - shapes[o_range[o_of], 0])
            o_of, a_of = o_of[fits], a_of[fits]
        o_of = o_range[o_of]
        for s in range(0, len(o_of), step):
            if deadline is not None and time.perf_counter() > deadline:
                raise TimeUp
            o = o_of[s : s + step]
            idx = index.at(anchor_numbers[a_of[s : s + step], None] + offsets[o])
            ok = (idx >= 0).all(axis=1)
            idx, o = idx[ok], o[ok]
            if not plain:
                ok = (
                    colours[idx] == shape_colours[o] if allowed is None else allowed[colours[idx], shape_colours[o]]
                ).all(axis=1)
                idx, o = idx[ok], o[ok]
            found.append(idx)
            which.append(o)
    if not found:
        return np.zeros((0, k), dtype=np.int64), np.zeros(0, dtype=np.int64)
    return np.concatenate(found), np.concatenate(which)


# a compiled `_placements` (engine/placing_driver.placer, which the tiling layer passes: core
# may not import engine) takes the board's lookup grid, its strides, the box's corners lo
# and hi, the anchors, the orientations (O, k, d) and their pieces; it returns (rows of
# items ascending, pieces), or None for numpy
Placer = Callable[..., "tuple[np.ndarray, np.ndarray] | None"]


def build(puzzle: Puzzle, deadline: float | None = None, placer: Placer | None = None) -> Model:
    """The exact-cover model; TimeUp when the perf_counter `deadline` passes first.
    `placer`: the placements in one compiled call where it can (numpy's `_placements`
    is the reference the tests compare it with)."""
    puzzle = merge_congruent(puzzle)
    if puzzle.tiles_area == puzzle.board.area:  # then every copy must be used
        for piece in puzzle.pieces:
            piece.minimum = piece.count
    board = puzzle.board
    order = cell_order(board.cells)
    cells, colours = board.cells[order], board.colours[order]
    index = CellIndex(cells)
    anchors = cells[np.lexsort(cells.T[::-1])]  # coordinate order: options' order
    lat = board.grid

    rows, pieces = [], []
    plain = puzzle.allowed is None and not colours.any() and not any(p.colours.any() for p in puzzle.pieces)
    for found in _orientations_by_size(puzzle, len(cells)).values():  # all orientations of one size at once
        check_deadline(deadline)
        shapes = np.stack([c for _, c, _ in found])
        owner = np.array([p_i for p_i, _, _ in found], dtype=np.int32)
        got = None
        if placer is not None and plain and index.grid is not None and lat.every_shift:
            got = placer(index.grid, index.strides, index.lo, index.hi, anchors, shapes, owner)
        if got is None:
            cols = (
                np.zeros(shapes.shape[:2], dtype=np.int64)
                if plain  # nothing to match
                else np.stack([col for _, _, col in found])
            )
            idx, which = _placements(index, anchors, colours, shapes, cols, deadline, lat, puzzle.allowed)
            got = np.sort(idx, axis=1), owner[which]
        if len(got[0]):
            rows.append(got[0])
            pieces.append(got[1])
        _check(deadline)
    neighbours = _neighbours(index, cells, lat.steps, deadline)
    cover = _assemble(len(cells), rows, pieces, puzzle, neighbours)
    return Model(puzzle, cells, colours, cover)


def _check(deadline: float | None) -> None:
    """TimeUp when the perf_counter `deadline` has passed (between the build's phases)."""
    if deadline is not None and time.perf_counter() > deadline:
        raise TimeUp


def _assemble(
    n_items: int, rows: list[np.ndarray], pieces: list[np.ndarray], puzzle: Puzzle, neighbours: np.ndarray
) -> Cover:
    """The options sorted by first item, then piece: one Cover."""
    if len({r.shape[1] for r in rows}) == 1:  # one size (the pentominoes): as rows
        return _assemble_one_size(n_items, np.concatenate(rows), np.concatenate(pieces), puzzle, neighbours)
    if rows:
        sizes = np.concatenate([np.full(len(r), r.shape[1]) for r in rows])
        first = np.concatenate([r[:, 0] for r in rows])
        piece = np.concatenate(pieces)
        flat = [r for r in rows]
    else:
        sizes = first = np.zeros(0, dtype=np.int64)
        piece = np.zeros(0, dtype=np.int32)
        flat = []
    order = np.lexsort((piece, first))  # by first item, then piece
    ptr_unsorted = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    items_unsorted = np.concatenate([r.ravel() for r in flat]) if flat else np.zeros(0, np.int64)
    lens = sizes[order]
    ptr = np.concatenate([[0], np.cumsum(lens)]).astype(np.int64)
    take = np.repeat(ptr_unsorted[:-1][order] - ptr[:-1], lens) + np.arange(ptr[-1])
    return Cover(
        n_items=n_items,
        opt_ptr=ptr,
        opt_items=items_unsorted[take].astype(np.int32),
        opt_piece=piece[order].astype(np.int32),
        piece_count=np.array([p.count for p in puzzle.pieces], dtype=np.int32),
        piece_min=np.array([p.least for p in puzzle.pieces], dtype=np.int32),
        neighbours=neighbours,
    )


def _assemble_one_size(
    n_items: int, rows: np.ndarray, piece: np.ndarray, puzzle: Puzzle, neighbours: np.ndarray
) -> Cover:
    """_assemble's Cover when every option has k items: the sorted rows reordered whole
    (a third of the general case's numpy calls, which are most of its time)."""
    order = np.lexsort((piece, rows[:, 0]))
    return Cover(
        n_items=n_items,
        opt_ptr=np.arange(len(rows) + 1, dtype=np.int64) * rows.shape[1],
        opt_items=rows[order].astype(np.int32).ravel(),
        opt_piece=piece[order].astype(np.int32),
        piece_count=np.array([p.count for p in puzzle.pieces], dtype=np.int32),
        piece_min=np.array([p.least for p in puzzle.pieces], dtype=np.int32),
        neighbours=neighbours,
    )


def _neighbours(
    index: CellIndex, cells: np.ndarray, steps: tuple[tuple[int, ...], ...], deadline: float | None = None
) -> np.ndarray:
    """Item adjacency: the item one lattice step (+axis, -axis on the square grid) from
    each cell, -1 if none. A step at a time (a million cells: 24 MB of positions each, not
    all the steps' at once), the deadline checked between them."""
    found = np.empty((len(cells), len(steps)), dtype=np.int32)
    for k, step in enumerate(steps):
        found[:, k] = index.find(cells + np.array(step, dtype=np.int64))
        _check(deadline)
    return found
