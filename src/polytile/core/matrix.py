"""An exact cover problem as Knuth writes it: named items (primary ones must be covered
exactly once, secondary ones at most once, or by options that agree on their colour) and
options (sets of items). No geometry: formats/dlx.py reads and writes it, engine/exact/
driver.py searches it.

When the matrix has the shape of a tiling (a set of "piece" items of which every option
holds exactly one, every other item primary, no colours), it is also a core.cover.Cover
whose pieces are counters: `tiling_cover` finds that form, so the kernels written for
tilings (bitboard, wide) can count it."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field


import numpy as np

from .tiling_form import MAX_SPLITS, TilingForm, copy_groups
from .cover import Cover


@dataclass
class Matrix:
    """Items 0..n_primary-1 are primary, the rest secondary. The items of option o are
    opt_items[opt_ptr[o]:opt_ptr[o+1]] in the order written; opt_colour gives each entry's
    colour (0: none, c > 0: colour_names[c-1]); colours only on secondary items."""

    names: list[str]
    n_primary: int
    opt_ptr: np.ndarray  # (n_options+1,) int64
    opt_items: np.ndarray  # int32
    opt_colour: np.ndarray  # int32, same length as opt_items
    colour_names: list[str] = field(default_factory=list)
    # its tiling forms found so far (tiling_cover), by optional_copies: the count by a
    # method and the search that may follow ask for the same one
    forms: dict[bool, TilingForm | None] = field(default_factory=dict, repr=False, compare=False)

    @property
    def n_items(self) -> int:
        """The number of items, primary and secondary."""
        return len(self.names)

    @property
    def n_options(self) -> int:
        """The number of options (rows of the matrix)."""
        return len(self.opt_ptr) - 1

    def option_text(self, o: int) -> str:
        """Option o as a DLX line: its item names (with `:colour`) in the order written."""
        a, b = int(self.opt_ptr[o]), int(self.opt_ptr[o + 1])
        words = []
        for item, c in zip(self.opt_items[a:b].tolist(), self.opt_colour[a:b].tolist()):
            words.append(self.names[item] + (f":{self.colour_names[c - 1]}" if c else ""))
        return " ".join(words)


def _piece_items(matrix: Matrix, ends: np.ndarray) -> np.ndarray | None:
    """Items holding exactly one of every option, when the options' first (or last)
    entries are such a set (`ends`: the index of that entry in each option); else None."""
    pieces = np.zeros(matrix.n_items, dtype=bool)
    pieces[matrix.opt_items[ends]] = True
    per_option = np.add.reduceat(pieces[matrix.opt_items].astype(np.int64), matrix.opt_ptr[:-1])
    return pieces if (per_option == 1).all() else None


def tiling_cover(matrix: Matrix, deadline: float | None = None, optional_copies: bool = True) -> TilingForm | None:
    """The matrix in a tiling's form, or None when it has none: pieces are looked for
    among the first items of the options, then the last; every option must also hold a
    cell, every cell be primary, and every option of one piece be of one size (the
    kernels assume it). Piece items that cover the same cells, all required or all not,
    are one piece of so many copies (core.tiling_form; optional ones only while their
    splits are few). `short` says why there is no solution when the required pieces cover
    more cells than there are, or all the pieces fewer (the kernels assume the area adds
    up when every piece is required). `deadline` (perf_counter): the neighbours are not
    looked for past it. optional_copies=False: only required items are merged (the
    factor is then one number). Kept in matrix.forms: found once per matrix."""
    if True not in matrix.forms:
        matrix.forms[True] = _tiling_form(matrix, deadline, True)
    full = matrix.forms[True]
    if optional_copies or full is None or full.factor is not None:
        return full  # (no optional copies merged: the same form)
    if False not in matrix.forms:
        matrix.forms[False] = _tiling_form(matrix, deadline, False)
    return matrix.forms[False]


def _tiling_form(matrix: Matrix, deadline: float | None, optional_copies: bool) -> TilingForm | None:
    """tiling_cover's search for the form."""
    if matrix.n_options == 0 or matrix.opt_colour.any():
        return None
    lengths = np.diff(matrix.opt_ptr)
    if (lengths < 2).any():
        return None
    for ends in (matrix.opt_ptr[:-1], matrix.opt_ptr[1:] - 1):
        pieces = _piece_items(matrix, ends)
        if pieces is None or pieces.all():
            continue
        cells = np.nonzero(~pieces)[0]
        if cells.max() >= matrix.n_primary:  # a secondary cell: not a tiling
            continue
        found = _as_cover(matrix, pieces, cells, lengths, deadline, optional_copies)
        if found is not None:
            return found
    return None


def _as_cover(
    matrix: Matrix,
    pieces: np.ndarray,
    cells: np.ndarray,
    lengths: np.ndarray,
    deadline: float | None = None,
    optional_copies: bool = True,
) -> TilingForm | None:
    """The tiling form of the matrix, given which items are pieces (see tiling_cover)."""
    piece_ids = np.nonzero(pieces)[0]
    cell_no = np.full(matrix.n_items, -1, dtype=np.int64)
    cell_no[cells] = np.arange(len(cells))
    piece_no = np.full(matrix.n_items, -1, dtype=np.int64)
    piece_no[piece_ids] = np.arange(len(piece_ids))
    entry_piece = piece_no[matrix.opt_items]
    opt_piece = np.maximum.reduceat(entry_piece, matrix.opt_ptr[:-1])
    size = lengths - 1
    first_size = np.full(len(piece_ids), -1, dtype=np.int64)
    first_size[opt_piece[::-1]] = size[::-1]
    if (first_size[opt_piece] != size).any():
        return None
    primary = piece_ids < matrix.n_primary
    row = np.repeat(np.arange(matrix.n_options), lengths)
    keep = entry_piece < 0
    row, items = row[keep], cell_no[matrix.opt_items[keep]]
    items = items[np.lexsort((items, row))]  # cells ascending in each option
    old_ptr = np.concatenate([[0], np.cumsum(size)]).astype(np.int64)
    kind = primary.astype(np.int64) if optional_copies else np.where(primary, 1, -1)
    rep, label, twin = copy_groups(opt_piece, old_ptr, items, first_size, kind)
    copies = np.bincount(rep, minlength=len(piece_ids))
    if math.prod(int(c) + 1 for c in copies[~primary & (copies > 1)].tolist()) > MAX_SPLITS:
        rep, label, twin = copy_groups(opt_piece, old_ptr, items, first_size, np.where(primary, 1, -1))
        copies = np.bincount(rep, minlength=len(piece_ids))
    back = np.full((matrix.n_options, int(copies.max())), -1, dtype=np.int64)
    back[twin, label[opt_piece]] = np.arange(matrix.n_options)
    kept = np.nonzero(rep[opt_piece] == opt_piece)[0]  # the options of each piece's first copy
    new_piece = np.cumsum(rep == np.arange(len(piece_ids))) - 1
    first_copies = rep == np.arange(len(piece_ids))
    short = _short_by_area(first_size[first_copies] * copies[first_copies], primary[first_copies], len(cells))
    firsts = items[old_ptr[:-1][kept]]
    opts = kept[np.lexsort((opt_piece[kept], firsts))]  # by first cell, then piece
    new_ptr = np.concatenate([[0], np.cumsum(size[opts])]).astype(np.int64)
    take = np.repeat(old_ptr[:-1][opts] - new_ptr[:-1], size[opts]) + np.arange(new_ptr[-1])
    opt_items = items[take].astype(np.int32)
    n_pieces = int(first_copies.sum())
    cover = Cover(
        n_items=len(cells),
        opt_ptr=new_ptr,
        opt_items=opt_items,
        opt_piece=new_piece[opt_piece[opts]].astype(np.int32),
        piece_count=copies[first_copies].astype(np.int32),
        piece_min=np.where(primary[first_copies], copies[first_copies], 0).astype(np.int32),
        neighbours=neighbours(len(cells), new_ptr, opt_items, deadline)
        if len(cells) <= NEIGHBOUR_CELLS and n_pieces <= 64
        else np.full((len(cells), 0), -1, dtype=np.int32),
    )
    return TilingForm(cover, back[opts], short)


def _short_by_area(areas: np.ndarray, required: np.ndarray, n_cells: int) -> str | None:
    """Why pieces of these areas (each piece's copies together) cannot cover n_cells
    exactly once, or None."""
    need, most = int(areas[required].sum()), int(areas.sum())
    if need > n_cells:
        return f"the pieces that must be used cover {need} cells (items other than pieces), there are {n_cells}"
    if most < n_cells:
        return f"all the pieces together cover {most} cells (items other than pieces), there are {n_cells}"
    return None


MAX_DEGREE = 12  # more neighbours a cell: no dead-end tests (they would cost more)
NEIGHBOUR_CELLS = 256  # the tiling kernels' most cells; beyond, no neighbours are looked for
MAX_PAIRS = 1 << 21  # pairs of cells in one option, over all options, the recovery looks at


def neighbours(n_cells: int, opt_ptr: np.ndarray, opt_items: np.ndarray, deadline: float | None = None) -> np.ndarray:
    """A neighbour relation on the cells under which every option is connected, as sparse
    as this finds: the union, over the options, of a spanning tree of each option's cells
    that prefers the pairs of cells found together in most options (on a board, the
    cells side by side). The tiling kernels' dead-end tests (a cell cut off, a region no
    set of pieces fills) need only that every option be connected, so they stay sound;
    the geometry they were written for is recovered from the matrix alone. (n_cells, k)
    int32, -1 padded; no columns when some cell would have over MAX_DEGREE neighbours, when
    the options hold over MAX_PAIRS pairs (long options: a board's pieces are small), or
    when the perf_counter `deadline` passes first (no dead-end tests is always sound)."""
    none = np.full((n_cells, 0), -1, dtype=np.int32)
    sizes = np.diff(opt_ptr)
    if int((sizes * (sizes - 1) // 2).sum()) > MAX_PAIRS:
        return none
    together = _together(n_cells, opt_ptr, opt_items, sizes)
    edges: set[tuple[int, int]] = set()
    for size in np.unique(sizes).tolist():
        if deadline is not None and time.perf_counter() > deadline:
            return none
        if size >= 2:
            starts = opt_ptr[:-1][sizes == size]
            cells = opt_items[starts[:, None] + np.arange(size)].astype(np.int64)
            edges.update(spanning_forests(cells, together))
    degree = np.zeros(n_cells, dtype=np.int64)
    for a, b in edges:
        degree[a] += 1
        degree[b] += 1
    width = int(degree.max(initial=0))
    out = np.full((n_cells, width if width <= MAX_DEGREE else 0), -1, dtype=np.int32)
    if out.shape[1]:
        fill = np.zeros(n_cells, dtype=np.int64)
        for a, b in sorted(edges):
            out[a, fill[a]], out[b, fill[b]] = b, a
            fill[a] += 1
            fill[b] += 1
    return out


def _together(n_cells: int, opt_ptr: np.ndarray, opt_items: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """(n_cells, n_cells): how many options hold cell a and, after it, cell b."""
    counts = np.zeros(n_cells * n_cells, dtype=np.int64)
    for size in np.unique(sizes).tolist():
        if size < 2:
            continue
        starts = opt_ptr[:-1][sizes == size]
        cells = opt_items[starts[:, None] + np.arange(size)].astype(np.int64)  # (options, size)
        first, second = np.triu_indices(size, 1)
        counts += np.bincount((cells[:, first] * n_cells + cells[:, second]).ravel(), minlength=n_cells * n_cells)
    return counts.reshape(n_cells, n_cells)


def spanning_forests(cells: np.ndarray, together: np.ndarray) -> set[tuple[int, int]]:
    """The edges of Kruskal's spanning tree of each row's cells (cells: (options, size)),
    the pairs found together most first (together[a, b]), ties in the order of the pairs
    (a before b in the row, by a's place, then b's): all rows at once, a step per pair."""
    n, size = cells.shape
    pair_i, pair_j = np.triu_indices(size, 1)
    a, b = cells[:, pair_i], cells[:, pair_j]  # (options, pairs)
    order = np.argsort(-together[a, b], axis=1, kind="stable")
    first, second = pair_i[order], pair_j[order]  # (options, pairs): each row's pairs, in Kruskal's order
    comp = np.broadcast_to(np.arange(size), (n, size)).copy()  # each cell's component, by place in its row
    rows = np.arange(n)
    found: list[np.ndarray] = []
    for step in range(first.shape[1]):
        i, j = first[:, step], second[:, step]
        ci, cj = comp[rows, i], comp[rows, j]
        join = ci != cj
        if join.any():
            found.append(np.stack([cells[rows[join], i[join]], cells[rows[join], j[join]]], axis=1))
            merged = (comp == cj[:, None]) & join[:, None]
            comp[merged] = np.broadcast_to(ci[:, None], comp.shape)[merged]
    if not found:
        return set()
    pairs = np.concatenate(found)
    n_cells = together.shape[0]
    codes = np.unique(pairs[:, 0] * n_cells + pairs[:, 1]).tolist()
    return {(c // n_cells, c % n_cells) for c in codes}


def counting_cover(matrix: Matrix, deadline: float | None = None) -> tuple[Cover, int] | None:
    """The matrix as a Cover the counting methods take (engine.counting) and the number
    of the matrix's solutions each of its solutions is, or None when it has colours: its
    tiling form when it has one whose area adds up (copies merged: TilingForm.factor); else every item
    a cell (in the file's order) and the options copies of one piece in any number, each
    secondary item with an option of its own that fills it alone (so that it may stay
    uncovered: the fillers are told apart as a second piece)."""
    if matrix.opt_colour.any():
        return None
    found = tiling_cover(matrix, deadline, optional_copies=False)
    if found is not None and found.short is None and found.factor is not None:
        return found.cover, found.factor
    n, n_opt = matrix.n_items, matrix.n_options
    lengths = np.diff(matrix.opt_ptr)
    option = np.repeat(np.arange(n_opt), lengths)
    items = matrix.opt_items[np.lexsort((matrix.opt_items, option))]  # each option's items ascending
    secondary = np.arange(matrix.n_primary, n)
    sizes = np.concatenate([lengths, np.ones(len(secondary), dtype=lengths.dtype)])
    old_ptr = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    items = np.concatenate([items, secondary]).astype(np.int64)
    pieces = np.concatenate([np.zeros(n_opt, dtype=np.int32), np.ones(len(secondary), dtype=np.int32)])
    firsts = np.full(len(sizes), -1, dtype=np.int64)
    firsts[sizes > 0] = items[old_ptr[:-1][sizes > 0]]
    order = np.lexsort((pieces, firsts))
    lens = sizes[order]
    ptr = np.concatenate([[0], np.cumsum(lens)]).astype(np.int64)
    take = np.repeat(old_ptr[:-1][order] - ptr[:-1], lens) + np.arange(ptr[-1])
    generic = Cover(
        n_items=n,
        opt_ptr=ptr,
        opt_items=items[take].astype(np.int32),
        opt_piece=pieces[order],
        piece_count=np.array([n, n], dtype=np.int32),
        piece_min=np.zeros(2, dtype=np.int32),
        neighbours=np.full((n, 0), -1, dtype=np.int32),
    )
    return generic, 1
