"""Puzzle -> exact cover. Items are board cells (primary: each covered exactly once);
pieces are counters (an option uses one copy; a piece may stay unused down to its
minimum). One option per distinct placement of a piece on the board.

The cells are numbered so that the board is filled along its short side: the longest
axis is the most significant in the order, so "the first empty cell" walks down the
short side first, which keeps the frontier small.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .puzzle import Puzzle, merge_congruent


@dataclass
class Cover:
    """An exact-cover problem, free of geometry. Options are sorted by their first item."""
    n_items: int
    opt_ptr: np.ndarray        # (n_opt+1,) int64: items of option o are opt_items[ptr[o]:ptr[o+1]]
    opt_items: np.ndarray      # int32, each option's items ascending
    opt_piece: np.ndarray      # (n_opt,) int32
    piece_count: np.ndarray    # (n_piece,) int32 copies available
    piece_min: np.ndarray      # (n_piece,) int32 copies that must be used
    neighbours: np.ndarray     # (n_items, max_deg) int32 item adjacency, -1 padded (for dead regions)

    @property
    def n_options(self) -> int:
        return len(self.opt_piece)

    @property
    def piece_size(self) -> np.ndarray:
        sizes = np.zeros(len(self.piece_count), dtype=np.int64)
        lengths = np.diff(self.opt_ptr)
        sizes[self.opt_piece] = lengths
        return sizes

    def option_items(self, o: int) -> np.ndarray:
        return self.opt_items[self.opt_ptr[o]:self.opt_ptr[o + 1]]


@dataclass
class Model:
    """A puzzle reduced to exact cover, with what is needed to turn options back into pieces."""
    puzzle: Puzzle             # pieces merged by congruence
    cells: np.ndarray          # (n_items, d) board coordinates in item order
    colours: np.ndarray        # (n_items,) colour codes in item order
    cover: Cover

    def placement(self, o: int) -> tuple[int, np.ndarray]:
        """Piece index and board cells (coordinates) of option o."""
        return int(self.cover.opt_piece[o]), self.cells[self.cover.option_items(o)]


def cell_order(cells: np.ndarray) -> np.ndarray:
    """Indices ordering cells with the longest axis most significant (fill along the short side)."""
    extent = cells.max(axis=0) - cells.min(axis=0)
    axes = sorted(range(cells.shape[1]), key=lambda a: (-extent[a], a))
    return np.lexsort([cells[:, a] for a in reversed(axes)])


def _placements(grid: np.ndarray, colour_grid: np.ndarray, shapes: np.ndarray,
                colours: np.ndarray, box: np.ndarray) -> np.ndarray:
    """Every translation of every orientation (shapes: (O, k, d)) that lands on board
    cells of matching colours: (n, k) item indices and the orientation each came from. The grids are padded with -1 so that
    any shift of the board's box stays inside them."""
    shifts = np.stack(np.meshgrid(*[np.arange(n) for n in box], indexing="ij"), -1).reshape(-1, box.size)
    pos = shifts[None, :, None, :] + shapes[:, None, :, :]        # (O, T, k, d)
    at = tuple(np.moveaxis(pos, -1, 0))
    idx = grid[at]
    ok = (idx >= 0).all(axis=2) & (colour_grid[at] == colours[:, None, :]).all(axis=2)
    return idx[ok], np.nonzero(ok)[0]


def build(puzzle: Puzzle) -> Model:
    puzzle = merge_congruent(puzzle)
    if puzzle.tiles_area == puzzle.board.area:     # then every copy must be used
        for piece in puzzle.pieces:
            piece.minimum = piece.count
    board = puzzle.board
    order = cell_order(board.cells)
    cells, colours = board.cells[order], board.colours[order]
    box = cells.max(axis=0) + 1
    reach = max(int(p.cells.max()) for p in puzzle.pieces) + 1
    grid = np.full(tuple(box + reach), -1, dtype=np.int64)          # padded: see _placements
    grid[tuple(cells.T)] = np.arange(len(cells))
    colour_grid = np.full(grid.shape, -1, dtype=np.int64)
    colour_grid[tuple(cells.T)] = colours

    rows, pieces = [], []
    by_size: dict[int, list[tuple[int, np.ndarray, np.ndarray]]] = {}
    for p_i, piece in enumerate(puzzle.pieces):
        for c, col in puzzle.orientations(piece):
            by_size.setdefault(len(c), []).append((p_i, c, col))
    for found in by_size.values():                 # all orientations of one size at once
        shapes = np.stack([c for _, c, _ in found])
        cols = np.stack([col for _, _, col in found])
        owner = np.array([p_i for p_i, _, _ in found], dtype=np.int32)
        idx, which = _placements(grid, colour_grid, shapes, cols, box)
        if len(idx):
            rows.append(np.sort(idx, axis=1))
            pieces.append(owner[which])
    cover = _assemble(len(cells), rows, pieces, puzzle, _neighbours(grid[tuple(slice(0, n) for n in box)], cells))
    return Model(puzzle, cells, colours, cover)


def _assemble(n_items, rows, pieces, puzzle, neighbours) -> Cover:
    if rows:
        sizes = np.concatenate([np.full(len(r), r.shape[1]) for r in rows])
        first = np.concatenate([r[:, 0] for r in rows])
        piece = np.concatenate(pieces)
        flat = [r for r in rows]
    else:
        sizes = first = np.zeros(0, dtype=np.int64)
        piece = np.zeros(0, dtype=np.int32)
        flat = []
    order = np.lexsort((piece, first))           # by first item, then piece
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


def _neighbours(grid: np.ndarray, cells: np.ndarray) -> np.ndarray:
    d = cells.shape[1]
    out = np.full((len(cells), 2 * d), -1, dtype=np.int32)
    for a in range(d):
        for s, col in ((1, 2 * a), (-1, 2 * a + 1)):
            nb = cells.copy()
            nb[:, a] += s
            inside = (nb[:, a] >= 0) & (nb[:, a] < grid.shape[a])
            idx = np.full(len(cells), -1, dtype=np.int64)
            idx[inside] = grid[tuple(nb[inside].T)]
            out[:, col] = idx
    return out
