"""Set-up steps chained into one compiled call each: the bitboard driver's tables
(engine/bitboard/driver.py) and symmetry breaking's choices (engine/search.plan).

The tables: what
tables.py's functions build one call at a time (the option and neighbour bitboards, the
neighbour shifts, whether every piece is connected, the options that cut off a region no
pieces fill, the lists by lowest item, the blocks), chained here so that a small puzzle's
tables cost one call's argument passing instead of seven, and no numpy between them. The
same functions run, so the tables are the same (tests/engine/test_chained.py; numba caches
a function compiled with what it calls, so an edit of tables.py needs this file's cache
invalidated: an edit here, or its *.nbi/*.nbc deleted). The
choices: breaking.first_and_fixable and breaking.second_piece_of (fixable found once for both),
with H's images of the options
(core.symmetry.Symmetry.h_images) computed on the way instead of by numpy."""

from __future__ import annotations

import numpy as np

from .kernel import reachable_sizes
from .tables import board_masks, connected, lists_by_first_item, merged_blocks, neighbour_shifts, useful
from ..geometry.breaking import first_and_fixable, second_piece_of
from ..bits import ONE, ZERO, njit, popcount


@njit(cache=True)
def _one_per_piece(opt_mask: np.ndarray, opt_piece: np.ndarray, n_pieces: int) -> np.ndarray:
    """The mask of one option of each piece that has any (driver.one_per_piece's test:
    a piece's placements are congruent, so any one tells whether it is connected)."""
    pick = np.full(n_pieces, -1, dtype=np.int64)
    for o in range(len(opt_piece)):
        pick[opt_piece[o]] = o
    masks = np.zeros(n_pieces, dtype=np.uint64)
    k = 0
    for p in range(n_pieces):
        if pick[p] >= 0:
            masks[k] = opt_mask[pick[p]]
            k += 1
    return masks[:k]


@njit(cache=True)
def build(
    n: int,
    opt_ptr: np.ndarray,
    opt_items: np.ndarray,
    neighbours: np.ndarray,
    opt_piece: np.ndarray,
    piece_count: np.ndarray,
    piece_size: np.ndarray,
    keep: np.ndarray,
    opt_bit: np.ndarray,
    n_bits: int,
    keys_narrow: int,
    keys_wide: int,
    span: float,
    most_shifts: int,
    prune: bool,
    cap: int,
) -> tuple[
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    bool,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    bool,
    int,
    float,
    np.ndarray,
    int,
]:
    """(opt_mask, nb_mask, opt_border, shift_d, shift_m, prune, topt, tbit, tstart, key,
    tmask, narrow, keys, mean span, radix, codes) as BitboardDriver.__init__ builds them
    step by step (radix, codes: driver.mixed_radix of the pieces' counts in bit order):
    `narrow` when the options span fewer than `span` items on average (the mean span,
    driver.option_span; driver.narrow_frontier),
    `keys_narrow` key items per item then, else `keys_wide`; `prune` stays only when
    every piece is connected; then the options of `keep` that cut off a region no pieces
    fill are dropped before the blocks (by piece bit `opt_bit` of each piece)."""
    spans = 0
    for o in range(len(opt_ptr) - 1):
        spans += opt_items[opt_ptr[o + 1] - 1] - opt_items[opt_ptr[o]]
    narrow = len(opt_ptr) <= 1 or spans < span * (len(opt_ptr) - 1)
    keys = keys_narrow if narrow else keys_wide
    opt_mask, nb_mask, opt_border = board_masks(n, opt_ptr, opt_items, neighbours)
    shift_d, shift_m = neighbour_shifts(neighbours, most_shifts)
    prune = prune and connected(_one_per_piece(opt_mask, opt_piece, len(piece_count)), nb_mask, shift_d, shift_m)
    if prune:
        full = (ONE << np.uint64(n)) - ONE if n < 64 else ~ZERO
        sizes = reachable_sizes(piece_count.astype(np.int64), piece_size)
        keep = useful(keep, opt_mask, opt_border, full, nb_mask, shift_d, shift_m, sizes, cap)
    cell_opts, cell_start = lists_by_first_item(n, opt_ptr, opt_items, keep)
    bits = np.empty(len(opt_piece), dtype=np.int64)
    for o in range(len(opt_piece)):
        bits[o] = opt_bit[opt_piece[o]]
    topt, tbit, tstart, key = merged_blocks(n, cell_start, cell_opts, opt_mask, bits, n_bits, keys)
    tmask = np.empty(len(topt), dtype=np.uint64)
    for j in range(len(topt)):
        tmask[j] = opt_mask[topt[j]]
    mean = spans / (len(opt_ptr) - 1) if len(opt_ptr) > 1 else 0.0
    radix, codes = _mixed_radix(piece_count, opt_bit, n_bits)
    return (
        *(opt_mask, nb_mask, opt_border, shift_d, shift_m, prune, topt, tbit, tstart, key, tmask),
        *(narrow, keys, mean, radix, codes),
    )


RADIX_CAP = 1 << 62  # driver.RADIX_CAP


@njit(cache=True)
def _mixed_radix(piece_count: np.ndarray, opt_bit: np.ndarray, n_bits: int) -> tuple[np.ndarray, int]:
    """driver.mixed_radix with piece bit opt_bit[p] for piece p."""
    bit_piece = np.zeros(n_bits, dtype=np.int64)
    for p in range(len(opt_bit)):
        bit_piece[opt_bit[p]] = p
    radix = np.empty(n_bits, dtype=np.int64)
    place = 1
    for b in range(n_bits):
        radix[b] = place
        base = piece_count[bit_piece[b]] + 1  # (min(place * base, RADIX_CAP) without overflow)
        place = RADIX_CAP if place > RADIX_CAP // base else place * base
    return radix, place


@njit(cache=True)
def never_placed(opt_piece: np.ndarray, piece_min: np.ndarray) -> bool:
    """Some piece that every solution uses (minimum >= 1) has no option (search's
    piece_never_placed: numpy's bincount and three more calls took ~15 us of a fresh
    process's count, this one call ~3)."""
    placed = np.zeros(len(piece_min), dtype=np.bool_)
    for o in range(len(opt_piece)):
        placed[opt_piece[o]] = True
    for p in range(len(piece_min)):
        if piece_min[p] > 0 and not placed[p]:
            return True
    return False


@njit(cache=True)
def breaking(
    h_mask: np.uint64,
    opt_label: np.ndarray,
    label_img: np.ndarray,
    label_piece: np.ndarray,
    opt_stab: np.ndarray,
    opt_piece: np.ndarray,
    piece_count: np.ndarray,
    piece_min: np.ndarray,
    second: bool,
) -> tuple[int, np.ndarray, np.ndarray, int, np.ndarray, np.ndarray, bool]:
    """(piece, its options kept (n, 1) int32: the prefixes, keep, second piece, ban_ptr,
    ban_opts, never) as search.plan chooses them (breaking.first_and_fixable, then breaking.second_piece_of
    when `second`; keep: the options but the fixed piece's); piece -1 when no piece can be
    fixed, second -1 when none is needed or none can serve; never: `never_placed` (search
    asks it here rather than in a call of its own)."""
    never = never_placed(opt_piece, piece_min)
    rows = np.empty(popcount(h_mask), dtype=np.int64)
    k = 0
    for g in range(label_img.shape[0]):
        if (h_mask >> np.uint64(g)) & ONE:
            rows[k] = g
            k += 1
    h_images = np.empty((len(rows), len(opt_label)), dtype=np.int32)
    for i in range(len(rows)):
        for o in range(len(opt_label)):
            h_images[i, o] = label_img[rows[i], opt_label[o]]
    none_ptr, none_opts = np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int32)
    keep = np.ones(len(opt_piece), dtype=np.bool_)
    if len(rows) == 1:  # H is the identity alone: nothing to break
        return -1, np.zeros((0, 1), dtype=np.int32), keep, -1, none_ptr, none_opts, never
    piece, first, fit = first_and_fixable(h_images, opt_label, label_piece, opt_piece, piece_count, piece_min)
    prefixes = first.astype(np.int32).reshape(len(first), 1)
    for o in range(len(opt_piece)):
        keep[o] = opt_piece[o] != piece  # (placed only by the prefixes)
    if piece < 0 or not second:
        return piece, prefixes, keep, -1, none_ptr, none_opts, never
    piece2, ptr, flat = second_piece_of(first, piece, fit, h_mask, opt_label, label_img, opt_stab, opt_piece)
    return piece, prefixes, keep, piece2, ptr, flat, never
