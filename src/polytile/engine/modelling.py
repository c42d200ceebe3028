"""The whole model of a plain square-grid puzzle in one compiled call: core.cover.build
(with core.puzzle.merge_congruent and core.shape's orientations) and core.symmetry's
board group, whose numpy versions stay the reference the tests compare with, byte for
byte. A small puzzle's set-up was the cost of ~50 Python and numpy calls of 1-10 us
each; here it is one pass.

Geometry enters as plain integers: the board's cells (n, d), the pieces' cells (CSR
rows), the motions' matrices (rotations first) and the lattice steps. What comes back:
the cells' order (the longest axis most significant, core.cover.cell_order), which
merged piece each piece became (pieces congruent under their allowed motions), the
merged pieces' copies and minimum, the options (sorted by first item, then piece; each
option's items ascending), the neighbours and the board's group as permutations of the
items, and the symmetry analysis of engine/orbits.py on them. The caller
(engine/modelling_driver.py) takes only the common case: no colours,
no virtual pieces, at most 64 cells, a lookup grid over the board's box."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .bits import ZERO, njit
from .orbits import Words, analyse
from .congruence import merge_congruent, orientations, shape_base
from .turning import permutations

Ints = npt.NDArray[np.int64]
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
def _reach(
    cells: Ints, lo: Ints, hi: Ints, strides: Ints, mult: Ints, lower: Ints, upper: Ints, offsets: Ints, ikeys: Ints
) -> None:
    """An orientation's anchors (its first cell's places: every cell inside the box lo..hi)
    on each axis, and its cells' box numbers from the first cell in the order of their
    items (`mult`: the cells' order as a linear key, the same for every translation;
    ikeys: scratch)."""
    k, d = cells.shape
    for a in range(d):
        most = cells[0, a]
        for i in range(1, k):
            most = max(most, cells[i, a])
        lower[a] = lo[a] + cells[0, a]  # (the least coordinate is 0)
        upper[a] = hi[a] - most + cells[0, a]
    for i in range(k):
        key = off = 0
        for a in range(d):
            key += cells[i, a] * mult[a]
            off += (cells[i, a] - cells[0, a]) * strides[a]
        j = i - 1  # insertion sort by the items' order
        while j >= 0 and ikeys[j] > key:
            ikeys[j + 1], offsets[j + 1] = ikeys[j], offsets[j]
            j -= 1
        ikeys[j + 1], offsets[j + 1] = key, off


@njit(cache=True)
def _found(
    cells: Ints,
    lo: Ints,
    hi: Ints,
    grid: Ints,
    strides: Ints,
    mult: Ints,
    sizes: Ints,
    first: Ints,
    orients: tuple[Ints, Ints, Ints, Ints],
) -> tuple[I32, Ints, I32]:
    """(items, start, piece): every placement of every merged piece that fits, piece by
    piece, orientation by orientation, anchor by anchor (core.cover._placements' order
    within a piece), its items ascending: placement j's are items[start[j]:start[j] + size]."""
    keys, ocells, at, first_of = orients
    n, d = cells.shape
    bound = 0
    for m in range(len(first)):
        bound += (first_of[first[m] + 1] - first_of[first[m]]) * n
    items = np.empty(bound * max(1, sizes.max()), dtype=np.int32)
    start = np.empty(bound, dtype=np.int64)
    piece = np.empty(bound, dtype=np.int32)
    lower, upper = np.empty(d, dtype=np.int64), np.empty(d, dtype=np.int64)
    k_max = max(1, sizes.max())
    offsets, ikeys = np.empty(k_max, dtype=np.int64), np.empty(k_max, dtype=np.int64)
    n_found = pos = 0
    for m in range(len(first)):
        k = sizes[first[m]]
        if k > n:
            continue
        for o in range(first_of[first[m]], first_of[first[m] + 1]):
            _reach(ocells[at[o] : at[o + 1]], lo, hi, strides, mult, lower, upper, offsets[:k], ikeys[:k])
            n_found, pos = _place(lo, strides, lower, upper, offsets[:k], grid, items, start, piece, m, n_found, pos)
    return items, start[:n_found], piece[:n_found]


@njit(cache=True)
def _place(
    lo: Ints,
    strides: Ints,
    lower: Ints,
    upper: Ints,
    offsets: Ints,
    grid: Ints,
    items: I32,
    start: Ints,
    piece: I32,
    m: int,
    n_found: int,
    pos: int,
) -> tuple[int, int]:
    """One orientation of merged piece m with its first cell at every point of its range
    lower..upper (row-major: the anchors' order) whose cells are all board cells
    (appended to items, start, piece); the new (n_found, pos)."""
    k, d = len(offsets), len(lo)
    for a in range(d):
        if lower[a] > upper[a]:
            return n_found, pos
    at = lower.copy()
    number = 0
    for a in range(d):
        number += (at[a] - lo[a]) * strides[a]
    while True:
        for j in range(k):
            item = grid[number + offsets[j]]
            if item < 0:
                break
            items[pos + j] = item
        else:
            start[n_found], piece[n_found] = pos, m
            n_found += 1
            pos += k
        a = d - 1  # the next point (an odometer, the last axis fastest)
        while a >= 0 and at[a] == upper[a]:
            number -= (at[a] - lower[a]) * strides[a]
            at[a] = lower[a]
            a -= 1
        if a < 0:
            return n_found, pos
        at[a] += 1
        number += strides[a]


@njit(cache=True)
def _assembled(
    n: int, n_m: int, items: I32, start: Ints, piece: I32, sizes: Ints, first: Ints
) -> tuple[Ints, I32, I32]:
    """(opt_ptr, opt_items, opt_piece): the placements sorted by first item, then piece,
    stably (core.cover._assemble), as CSR: a counting sort that puts each placement
    straight in its place (keys' option and item offsets from the counts)."""
    n_keys = n * n_m
    bucket = np.zeros(n_keys + 1, dtype=np.int64)
    for j in range(len(start)):
        bucket[items[start[j]] * n_m + piece[j] + 1] += 1
    at = np.empty(n_keys, dtype=np.int64)  # each key's next item offset
    total = 0
    for b in range(n_keys):
        at[b] = total
        total += bucket[b + 1] * sizes[first[b % n_m]]
        bucket[b + 1] += bucket[b]
    opt_ptr = np.empty(len(start) + 1, dtype=np.int64)
    opt_piece = np.empty(len(start), dtype=np.int32)
    opt_items = np.empty(total, dtype=np.int32)
    opt_ptr[0] = 0
    for j in range(len(start)):
        key, k = items[start[j]] * n_m + piece[j], sizes[first[piece[j]]]
        o, q = bucket[key], at[key]
        bucket[key], at[key] = o + 1, q + k
        opt_piece[o], opt_ptr[o + 1] = piece[j], q + k
        for i in range(k):
            opt_items[q + i] = items[start[j] + i]
    return opt_ptr, opt_items, opt_piece


@njit(cache=True)
def _checks(n: int, n_m: int, opt_items: I32, opt_piece: I32) -> tuple[int, int]:
    """(placed, uncovered): bit m set when merged piece m has a placement (-1 past 63
    pieces: not made), the first item no option covers (-1: none). tiling.solver's
    `infeasible` took two numpy bincounts for these after the call (~10 us each cold)."""
    placed = 0
    if n_m <= 63:
        for o in range(len(opt_piece)):
            placed |= 1 << opt_piece[o]
    else:
        placed = -1
    covered = np.zeros(n, dtype=np.bool_)
    for q in range(len(opt_items)):
        covered[opt_items[q]] = True
    for i in range(n):
        if not covered[i]:
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
    found = (none, e, e, e, e32, e32, e, e32, e32, np.zeros((0, 0), dtype=np.int32), none, 0, 0)
    return found + _no_analysis()


@njit(cache=True)
def model(
    board: Ints,
    board_colours: Ints,
    piece_cells: Ints,
    piece_colours: Ints,
    per_piece: Ints,
    mats: Ints,
    n_rot: int,
    steps: Ints,
    max_box: int,
    budget: int,
) -> tuple[Any, ...]:
    """(cells, colours, merged, first, copies, minimum, opt_ptr, opt_items, opt_piece,
    neighbours, perms, placed, uncovered (_checks), then orbits.analyse's six: the
    symmetry analysis): see the module's
    note; cells and colours in item order, copies and minimum int32. `per_piece`: rows
    of the pieces' sizes, copies, least copies and whether each may reflect (0/1: one
    array for the four, one numpy call less each in the caller's cold set-up). `mats`: the
    isometries, rotations first (`n_rot` of them); a piece that may not reflect turns by
    the rotations only. A colour anywhere, a box of more than `max_box` cells, or a piece
    too spread out for its keys: `cells` comes back empty (core's numpy then). The
    analysis is left out (an empty `label_img`) when it would take more than `budget`
    bytes (core.symmetry.analysis_bytes; -1: any), so that core refuses it."""
    n, d = board.shape
    order, lo, hi, mult = _cell_order(board)
    sizes, count, least, reflect = per_piece[0], per_piece[1], per_piece[2], per_piece[3] != 0
    piece_ptr = np.zeros(len(count) + 1, dtype=np.int64)
    bases = np.empty(len(count), dtype=np.int64)
    for p in range(len(count)):
        piece_ptr[p + 1] = piece_ptr[p] + sizes[p]
    for p in range(len(count)):
        bases[p] = shape_base(piece_cells[piece_ptr[p] : piece_ptr[p + 1]])
    box = 1
    for a in range(d):
        box *= hi[a] - lo[a] + 1
    if box > max_box or bases.max() > 1 << (62 // d) or board_colours.any() or piece_colours.any():
        return _declined()
    cells = np.empty_like(board)
    for i in range(n):
        cells[i] = board[order[i]]
    orients = orientations(piece_cells, piece_ptr, reflect, mats, n_rot)
    keys, ocells, at, first_of = orients
    merged, first, copies, minimum = merge_congruent(piece_cells, piece_ptr, count, least, reflect, keys, at, first_of)
    if np.sum(sizes[first] * copies) == n:  # then every copy must be used (core.cover.build)
        minimum[:] = copies
    grid, strides = _grid(cells, lo, hi)
    items, start, piece = _found(cells, lo, hi, grid, strides, mult, sizes, first, orients)
    opt_ptr, opt_items, opt_piece = _assembled(n, len(first), items, start, piece, sizes, first)
    neighbours = _neighbours(cells, lo, hi, grid, strides, steps)
    perms = permutations(cells - lo, np.zeros(n, dtype=np.int64), mats, grid, strides, hi - lo)
    counts = (copies.astype(np.int32), minimum.astype(np.int32))
    found = (
        (cells, np.zeros(n, dtype=np.int64), merged, first)
        + counts
        + (opt_ptr, opt_items, opt_piece, neighbours, perms)
        + _checks(n, len(first), opt_items, opt_piece)
    )
    if budget >= 0 and len(perms) * (len(opt_piece) * 24 + 64 * n) > budget:
        return found + _no_analysis()
    return found + analyse(perms, opt_ptr, opt_items, opt_piece, copies, minimum)
