"""The whole model of a plain square-grid puzzle in one compiled call: core.cover.build
(with core.puzzle.merge_congruent and core.shape's orientations) and core.symmetry's
board group, whose numpy versions stay the reference the tests compare with, byte for
byte. A small puzzle's set-up was the cost of ~50 Python and numpy calls of 1-10 us
each; here it is one pass.

Geometry enters as plain integers: the board's cells (n, d) followed by the pieces'
(one array), the pieces' sizes, copies, least copies and reflection, the motions'
matrices (rotations first) and the lattice steps. What comes back: the cells in item
order (the longest axis most significant, core.cover.cell_order), the merged pieces
(pieces congruent under their allowed motions) with their first piece, copies and
minimum, the options (sorted by first item, then piece; each option's items
ascending: written in that order as they are found, cell by cell), the neighbours and
the board's group as permutations of the items, and the symmetry analysis of
engine/geometry/orbits.py on them (from the options' bitmasks, made while placing). The caller
(engine/geometry/modelling_driver.py) takes only the common case: no colours, no virtual pieces,
at most 64 cells, a lookup grid over the board's box."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ..bits import ONE, ZERO, njit
from .orbits import Words, analyse_masks
from .congruence import merge_congruent, orientations, shape_base
from .turning import permutations

Ints = npt.NDArray[np.int64]
RETAINED = 1 << 16  # items' bound up to which the placements stay views of the bound's arrays
I32 = npt.NDArray[np.int32]
Bools = npt.NDArray[np.bool_]


@njit(cache=True)
def _cell_order(board: Ints) -> tuple[Ints, Ints, Ints, Ints]:
    """(order, lo, hi, mult): the cells by their coordinates with the longest axis most
    significant (ties: the lower axis), as core.cover.cell_order; the box's corners; the
    order's key as a linear form (sum of (x[a] - lo[a]) * mult[a])."""
    n, d = board.shape
    lo, hi = board[0].copy(), board[0].copy()
    for i in range(n):
        for a in range(d):
            lo[a], hi[a] = min(lo[a], board[i, a]), max(hi[a], board[i, a])
    axes = np.arange(d)
    for i in range(1, d):  # insertion sort by (-extent, axis)
        j = i
        while j > 0 and hi[axes[j]] - lo[axes[j]] > hi[axes[j - 1]] - lo[axes[j - 1]]:
            axes[j], axes[j - 1] = axes[j - 1], axes[j]
            j -= 1
    mult = np.ones(d, dtype=np.int64)
    for j in range(d - 2, -1, -1):
        mult[axes[j]] = mult[axes[j + 1]] * (hi[axes[j + 1]] - lo[axes[j + 1]] + 1)
    keys = np.zeros(n, dtype=np.int64)
    for i in range(n):
        for a in range(d):
            keys[i] += (board[i, a] - lo[a]) * mult[a]
    return np.argsort(keys, kind="mergesort"), lo, hi, mult


@njit(cache=True)
def _grid(cells: Ints, lo: Ints, hi: Ints) -> tuple[Ints, Ints]:
    """(grid, strides): the item at each number of the box lo..hi (row-major), -1 where
    the box has no cell (core.cover.CellIndex's lookup grid)."""
    d = cells.shape[1]
    strides = np.ones(d, dtype=np.int64)
    for a in range(d - 2, -1, -1):
        strides[a] = strides[a + 1] * (hi[a + 1] - lo[a + 1] + 1)
    grid = np.full(strides[0] * (hi[0] - lo[0] + 1), -1, dtype=np.int64)
    for i in range(len(cells)):
        number = 0
        for a in range(d):
            number += (cells[i, a] - lo[a]) * strides[a]
        grid[number] = i
    return grid, strides


@njit(cache=True)
def _shapes(
    ocells: Ints, at: Ints, n_o: int, cells: Ints, lo: Ints, hi: Ints, strides: Ints, mult: Ints
) -> tuple[Ints, Words]:
    """(offsets, anchors): each of the `n_o` orientations' cells (ocells[at[o]:at[o + 1]],
    least coordinate 0) as box numbers from its first cell in item order (its least
    linear key `mult`: the same at every translation), in the order of their items
    (offsets[at[o]:at[o + 1]]); and a bit per board cell (item) where that first cell
    may lie with every cell inside the box lo..hi (anchors[o]; at most 64 cells)."""
    n, d = cells.shape
    offsets = np.empty(len(ocells), dtype=np.int64)
    ikeys = np.empty(len(ocells), dtype=np.int64)
    idx = np.empty(len(ocells), dtype=np.int64)
    anchors = np.zeros(n_o, dtype=np.uint64)
    low, span = np.empty(d, dtype=np.int64), np.empty(d, dtype=np.int64)
    ge, at_axis = _axis_masks(cells, lo, hi)
    for o in range(np.uint64(n_o)):  # (unsigned indices, helpers inlined: 6.9 -> 2.9 us JIT warm)
        start, end = np.uint64(at[o]), np.uint64(at[o + ONE])
        first = np.uint64(_by_items(ocells, start, end, mult, ikeys, idx))
        inside, bits = True, ~ZERO
        for a in range(np.uint64(d)):
            most = ocells[start, a]
            for i in range(start + ONE, end):
                most = max(most, ocells[i, a])
            low[a] = lo[a] + ocells[first, a]  # (the least coordinate is 0)
            span[a] = hi[a] - lo[a] - most
            if span[a] < 0:
                inside = False
            elif len(ge):  # (two words of the per-axis masks)
                v = np.uint64(at_axis[a] + ocells[first, a])
                bits &= ge[v] & ~ge[v + np.uint64(span[a]) + ONE]
        for i in range(start, end):
            off, row = 0, np.uint64(idx[i])
            for a in range(np.uint64(d)):
                off += (ocells[row, a] - ocells[first, a]) * strides[a]
            offsets[i] = off
        if inside:
            anchors[o] = bits if len(ge) else _within(cells, low, span)
    return offsets, anchors


@njit(cache=True)
def _axis_masks(cells: Ints, lo: Ints, hi: Ints) -> tuple[Words, Ints]:
    """(ge, at_axis): ge[at_axis[a] + v] the bits of the cells (items) whose coordinate on
    axis a is at least lo[a] + v, for v = 0..extent + 1 (the last 0); empty when the box's
    sides add up to more than 4,096 (a sparse board: `_within` then tests every cell)."""
    n, d = cells.shape
    at_axis = np.zeros(d + 1, dtype=np.int64)
    for a in range(d):
        at_axis[a + 1] = at_axis[a] + hi[a] - lo[a] + 2
    if at_axis[d] > 4096:
        return np.zeros(0, dtype=np.uint64), at_axis
    ge = np.zeros(at_axis[d], dtype=np.uint64)
    for i in range(n):
        for a in range(d):
            ge[at_axis[a] + cells[i, a] - lo[a]] |= ONE << np.uint64(i)
    for a in range(d):
        for v in range(at_axis[a + 1] - 3, at_axis[a] - 1, -1):
            ge[v] |= ge[v + 1]
    return ge, at_axis


@njit(cache=True, inline="always")
def _by_items(ocells: Ints, start: np.uint64, end: np.uint64, mult: Ints, ikeys: Ints, idx: Ints) -> int:
    """idx[start:end]: the rows start..end - 1 of ocells in the order of their items (an
    insertion sort by the linear key `mult`); the first of them."""
    d = np.uint64(ocells.shape[1])
    for i in range(start, end):
        key = 0
        for a in range(d):
            key += ocells[i, a] * mult[a]
        j = np.uint64(i)
        while j > start and ikeys[j - ONE] > key:
            ikeys[j], idx[j] = ikeys[j - ONE], idx[j - ONE]
            j -= ONE
        ikeys[j], idx[j] = key, i
    return int(idx[start])


@njit(cache=True)
def _within(cells: Ints, low: Ints, span: Ints) -> np.uint64:
    """A bit per cell (item) inside the box low..low + span (span >= 0 on every axis),
    every cell tested (where `_axis_masks` declines)."""
    n, d = cells.shape
    bits = ZERO
    for i in range(n):
        ok = True
        for a in range(d):
            if np.uint64(cells[i, a] - low[a]) > np.uint64(span[a]):
                ok = False
        if ok:
            bits |= ONE << np.uint64(i)
    return bits


@njit(cache=True)
def _bounds(n: int, sizes: Ints, first: Ints, first_of: Ints) -> tuple[int, int]:
    """(placements, items): at most one placement of each orientation of each merged piece
    per first cell, and the items they could cover."""
    bound = cover = 0
    for m in range(len(first)):
        k = sizes[first[m]]
        if k <= n:
            bound += (first_of[first[m] + 1] - first_of[first[m]]) * n
            cover += (first_of[first[m] + 1] - first_of[first[m]]) * n * k
    return bound, cover


@njit(cache=True)
def _placements(
    cells: Ints,
    lo: Ints,
    grid: Ints,
    strides: Ints,
    sizes: Ints,
    first: Ints,
    at: Ints,
    first_of: Ints,
    shapes: tuple[Ints, Words],
) -> tuple[Ints, I32, I32, Words]:
    """(opt_ptr, opt_items, opt_piece, masks): every placement of every merged piece, already in
    core.cover._assemble's order (by first item, then piece, then core.cover._placements'
    order within a piece: orientation, then anchor): for each cell in item order, each
    merged piece, each of its orientations with its first item there (one anchor each:
    `_shapes`' anchors), its items ascending, and its items as a bitmask (what the
    symmetry analysis reads). No scratch table of placements, no sort:
    written once, where they stay (views of bounds-sized arrays, touched only as far as
    used; copied out when the bound passes RETAINED items)."""
    offsets, anchors = shapes
    n, d = cells.shape
    bound, cover = _bounds(n, sizes, first, first_of)
    opt_ptr = np.empty(bound + 1, dtype=np.int64)
    opt_items = np.empty(cover, dtype=np.int32)
    opt_piece = np.empty(bound, dtype=np.int32)
    masks = np.empty(bound, dtype=np.uint64)
    opt_ptr[0] = 0
    o_lo, o_hi, ks = _ranges(n, sizes, first, first_of)
    n_opt = pos = ZERO  # (unsigned indices throughout: no negative-index tests, half the time)
    for i in range(n):
        bit, number = ONE << np.uint64(i), 0
        for a in range(d):
            number += (cells[i, a] - lo[a]) * strides[a]
        for m in range(len(first)):
            k = ks[m]
            for o in range(o_lo[m], o_hi[m]):
                if not anchors[o] & bit:
                    continue
                base, mask, fits = np.uint64(at[o]), ZERO, True
                for j in range(k):
                    item = grid[np.uint64(number + offsets[base + j])]
                    if item < 0:
                        fits = False
                        break
                    opt_items[pos + j] = item
                    mask |= ONE << np.uint64(item)
                if fits:
                    pos += k
                    opt_piece[n_opt], masks[n_opt] = m, mask
                    n_opt += ONE
                    opt_ptr[n_opt] = pos
    if cover > RETAINED:  # (a large bound: copies, so the Model keeps no unused memory)
        return opt_ptr[: n_opt + ONE].copy(), opt_items[:pos].copy(), opt_piece[:n_opt].copy(), masks[:n_opt].copy()
    return opt_ptr[: n_opt + ONE], opt_items[:pos], opt_piece[:n_opt], masks[:n_opt]


@njit(cache=True)
def _ranges(n: int, sizes: Ints, first: Ints, first_of: Ints) -> tuple[Words, Words, Words]:
    """(o_lo, o_hi, k): each merged piece's orientations o_lo..o_hi - 1 (none for a piece
    larger than the board) and its size, unsigned."""
    n_m = len(first)
    o_lo, o_hi, ks = np.empty(n_m, dtype=np.uint64), np.empty(n_m, dtype=np.uint64), np.empty(n_m, dtype=np.uint64)
    for m in range(n_m):
        o_lo[m], ks[m] = first_of[first[m]], sizes[first[m]]
        o_hi[m] = first_of[first[m] + 1] if sizes[first[m]] <= n else first_of[first[m]]
    return o_lo, o_hi, ks


@njit(cache=True)
def _checks(n: int, n_m: int, masks: Words, opt_piece: I32) -> tuple[int, int]:
    """(placed, uncovered): bit m set when merged piece m has a placement (-1 past 63
    pieces: not made), the first item no option covers (-1: none). tiling.solver's
    `infeasible` took two numpy bincounts for these after the call (~10 us each cold)."""
    placed = 0
    if n_m <= 63:
        for o in range(len(opt_piece)):
            placed |= 1 << opt_piece[o]
    else:
        placed = -1
    covered = ZERO
    for o in range(len(masks)):
        covered |= masks[o]
    for i in range(n):
        if not (covered >> np.uint64(i)) & ONE:
            return placed, i
    return placed, -1


@njit(cache=True)
def _neighbours(cells: Ints, lo: Ints, hi: Ints, grid: Ints, strides: Ints, steps: Ints) -> I32:
    """(n, steps) the item one lattice step from each cell, -1 off the board
    (core.cover._neighbours)."""
    n, d = cells.shape
    out = np.full((n, len(steps)), -1, dtype=np.int32)
    for i in range(n):
        for s in range(len(steps)):
            number = 0
            inside = True
            for a in range(d):
                x = cells[i, a] + steps[s, a]
                inside = inside and lo[a] <= x <= hi[a]
                number += (x - lo[a]) * strides[a]
            if inside:
                out[i, s] = grid[number]
    return out


@njit(cache=True)
def _no_analysis() -> tuple[I32, I32, Words, I32, np.uint64, np.uint64]:
    """orbits.analyse's six, empty: the analysis not made."""
    e32 = np.zeros(0, dtype=np.int32)
    return e32, np.zeros((0, 0), dtype=np.int32), np.zeros(0, dtype=np.uint64), e32, ZERO, ZERO


@njit(cache=True)
def _declined() -> tuple[Any, ...]:
    """model's answer when it does not take the puzzle (no cells)."""
    e, e32, none = np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int32), np.zeros((0, 0), dtype=np.int64)
    found = (none, np.zeros((0, 0), dtype=np.int32), e, e32, e32, np.zeros((0, 0), dtype=np.int32), none, 0, 0)
    return found + _no_analysis()


@njit(cache=True)
def model(
    all_cells: Ints,
    all_colours: Ints,
    per_piece: Ints,
    mats: Ints,
    n_rot: int,
    steps: Ints,
    max_box: int,
    budget: int,
) -> tuple[Any, ...]:
    """(cells, pieces, opt_ptr, opt_items, opt_piece, neighbours, perms, placed,
    uncovered (_checks), then orbits.analyse's six: the symmetry analysis): see the
    module's note; cells in item order; `pieces` (3, merged pieces) int32: the first piece
    of each merged one, its copies and minimum (one array for three: each array returned
    costs its boxing). `all_cells`: the board's cells, then every piece's (one array: one
    numpy call less in the caller's cold set-up), `all_colours` likewise; `per_piece`:
    the pieces' sizes, copies, least copies and whether each may reflect (0/1), one after
    the other. `mats`: the isometries, rotations first (`n_rot` of them); a piece that may
    not reflect turns by the rotations only. More than 64 cells, a colour anywhere, a box
    of more than `max_box` cells, or a piece too spread out for its keys: `cells` comes
    back empty (core's numpy then). The analysis is left out (an empty `label_img`) when
    it would take more than `budget` bytes (core.symmetry.analysis_bytes; -1: any), so
    that core refuses it."""
    n_p, d = len(per_piece) // 4, all_cells.shape[1]
    sizes, count, least = per_piece[:n_p], per_piece[n_p : 2 * n_p], per_piece[2 * n_p : 3 * n_p]
    reflect = per_piece[3 * n_p :] != 0
    n = len(all_cells) - sizes.sum()
    board, piece_cells = all_cells[:n], all_cells[n:]
    order, lo, hi, mult = _cell_order(board)
    piece_ptr = np.zeros(n_p + 1, dtype=np.int64)
    bases = np.empty(n_p, dtype=np.int64)
    for p in range(n_p):
        piece_ptr[p + 1] = piece_ptr[p] + sizes[p]
    for p in range(n_p):
        bases[p] = shape_base(piece_cells, piece_ptr[p], piece_ptr[p + 1])
    box = 1
    for a in range(d):
        box *= hi[a] - lo[a] + 1
    if n > 64 or box > max_box or bases.max() > 1 << (62 // d) or all_colours.any():
        return _declined()
    cells = np.empty_like(board)
    for i in range(n):
        cells[i] = board[order[i]]
    keys, ocells, at, first_of = orientations(piece_cells, piece_ptr, bases, reflect, mats, n_rot)
    _, first, copies, minimum = merge_congruent(bases, count, least, reflect, keys, at, first_of)
    if np.sum(sizes[first] * copies) == n:  # then every copy must be used (core.cover.build)
        minimum[:] = copies
    grid, strides = _grid(cells, lo, hi)
    shapes = _shapes(ocells, at, first_of[-1], cells, lo, hi, strides, mult)
    opt_ptr, opt_items, opt_piece, masks = _placements(cells, lo, grid, strides, sizes, first, at, first_of, shapes)
    neighbours = _neighbours(cells, lo, hi, grid, strides, steps)
    perms = permutations(cells - lo, np.zeros(n, dtype=np.int64), mats, grid, strides, hi - lo)
    pieces = np.empty((3, len(first)), dtype=np.int32)
    pieces[0], pieces[1], pieces[2] = first, copies, minimum
    found = (cells, pieces, opt_ptr, opt_items, opt_piece, neighbours, perms) + _checks(n, len(first), masks, opt_piece)
    if budget >= 0 and len(perms) * (len(opt_piece) * 24 + 64 * n) > budget:
        return found + _no_analysis()
    return found + analyse_masks(perms, masks, opt_ptr, opt_items, opt_piece, copies, minimum)
