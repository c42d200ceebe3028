"""The common case of the symmetry analysis (engine/geometry/orbits.py), read off the options' bit
masks: when every image of an option is an option and no two options share a mask (pieces
that may reflect), an option's label is its rank among the masks and each label's image
under a motion is found by moving the mask's bits and looking the result up in an
open-addressing table of the options' masks: no table of every image's key, no sort of
them, no composition of motions (half the instructions of orbits' general numbering)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from ..bits import ONE, ZERO, njit

Words = npt.NDArray[np.uint64]


@njit(cache=True)
def option_masks(opt_ptr: np.ndarray, opt_items: np.ndarray) -> Words:
    """Each option's items as a bitmask (at most 64 items; engine/geometry/modelling.py makes them
    while it places the options)."""
    n_opt = len(opt_ptr) - 1
    masks = np.empty(n_opt, dtype=np.uint64)
    for o in range(n_opt):
        k = ZERO
        for q in range(np.uint64(opt_ptr[o]), np.uint64(opt_ptr[o + 1])):
            k |= ONE << np.uint64(opt_items[q])
        masks[o] = k
    return masks


@njit(cache=True)
def _ranked(masks: Words) -> tuple[Words, npt.NDArray[np.int32]]:
    """(ordered, rank): the options' bitmasks ascending and each option's place among
    them; ordered[0] is 0 when two options have one mask (then the labels are not the
    options' ranks). A counting sort by the highest bit puts every mask in its bucket (a
    few dozen options end at each item), an insertion sort finishes within the buckets:
    no comparison sort of the whole, no table of keys."""
    n_opt = np.uint64(len(masks))  # (unsigned indices: no negative-index tests)
    ends = np.zeros(65, dtype=np.uint64)
    for o in range(n_opt):
        ends[np.uint64(64 - leading_zeros(masks[o]))] += ONE  # (masks are never 0)
    for t in range(1, 65):
        ends[t] += ends[t - 1]
    order = np.empty(n_opt, dtype=np.int32)
    ordered = np.empty(n_opt, dtype=np.uint64)
    for o in range(n_opt):  # ends[t]: bucket t's next place
        b = np.uint64(63 - leading_zeros(masks[o]))
        e = ends[b]
        ordered[e], order[e] = masks[o], o
        ends[b] = e + ONE
    for i in range(ONE, n_opt):  # (earlier buckets hold smaller masks: moves stay inside one)
        k, o, j = ordered[i], order[i], np.uint64(i)
        while j > 0 and ordered[j - ONE] > k:
            ordered[j], order[j] = ordered[j - ONE], order[j - ONE]
            j -= ONE
        ordered[j], order[j] = k, o
    rank = np.empty(n_opt, dtype=np.int32)
    repeated = False
    for q in range(n_opt):
        rank[np.uint64(order[q])] = q
    for q in range(ONE, n_opt):
        repeated |= ordered[q] == ordered[q - ONE]
    if repeated:
        ordered[0] = ZERO
    return ordered, rank


@njit(cache=True, inline="always")
def _find(table: npt.NDArray[np.int32], ordered: Words, key: np.uint64, top: np.uint64, mask: np.uint64) -> int:
    """The place of `key` among `ordered` (table: each mask's place + 1 in its
    `_slot`), -1 when no option has it."""
    s = (key * np.uint64(0x9E3779B97F4A7C15)) >> top
    while True:
        r = int(table[s])
        if r == 0:
            return -1
        if ordered[r - 1] == key:
            return r - 1
        s = (s + ONE) & mask


@njit(cache=True)
def _places(ordered: Words) -> tuple[npt.NDArray[np.int32], np.uint64, np.uint64]:
    """(table, top, mask): the masks' open-addressing table of `_find`, at most half full."""
    size = 16
    while size < 2 * len(ordered):
        size *= 2
    table = np.zeros(size, dtype=np.int32)
    top, mask = np.uint64(64) - trailing_zeros(np.uint64(size)), np.uint64(size - 1)
    for j in range(len(ordered)):
        s = (ordered[j] * np.uint64(0x9E3779B97F4A7C15)) >> top
        while table[s] != 0:
            s = (s + ONE) & mask
        table[s] = j + 1
    return table, top, mask


@njit(cache=True)
def _onto(
    row: npt.NDArray[np.int32], label_piece: npt.NDArray[np.int32], some: np.ndarray, onto: npt.NDArray[np.int32]
) -> bool:
    """Whether a motion (row: each label's image) maps all of each piece's placements
    into one piece's, onto[p] (read off one label of p, then every label checked)."""
    for p in range(len(some)):
        onto[p] = label_piece[row[some[p]]] if some[p] >= 0 else p
    bad = False
    for j in range(len(row)):
        bad |= label_piece[row[j]] != onto[label_piece[j]]
    return not bad


@njit(cache=True)
def _exact(onto: npt.NDArray[np.int32], some: np.ndarray) -> bool:
    """Whether each piece with a placement is mapped onto itself."""
    for p in range(len(some)):
        if some[p] >= 0 and onto[p] != p:
            return False
    return True


@njit(cache=True)
def _like(
    onto: npt.NDArray[np.int32], some: np.ndarray, n_opts: np.ndarray, piece_count: np.ndarray, piece_min: np.ndarray
) -> bool:
    """Whether each piece's placements go onto a piece with as many, the same copies and
    minimum (the test of `_onto_like_pieces`, given `_onto`)."""
    for p in range(len(some)):
        d = onto[p]
        if some[p] >= 0 and (
            n_opts[d] != n_opts[p] or piece_count[d] != piece_count[p] or piece_min[d] != piece_min[p]
        ):
            return False
    return True


@njit(cache=True)
def identity_of(perms: np.ndarray) -> int:
    """The index of the identity among perms."""
    for g in range(perms.shape[0]):
        same = True
        for i in range(perms.shape[1]):
            same = same and perms[g, i] == i
        if same:
            return g
    return 0


@njit(cache=True)
def _hashed(
    perms: np.ndarray,
    g: int,
    ordered: Words,
    places: tuple[npt.NDArray[np.int32], np.uint64, np.uint64],
    bits: Words,
    row: npt.NDArray[np.int32],
) -> bool:
    """row[j]: the label of motion g's image of label j, its mask's bits moved and the
    result looked up among the options' (`_places`); False at the first image that is no
    option."""
    table, top, mask = places
    for i in range(perms.shape[1]):
        bits[i] = ONE << np.uint64(perms[g, i])
    for j in range(len(ordered)):
        m, k = ordered[j], ZERO
        while m:
            k |= bits[trailing_zeros(m)]
            m &= m - ONE
        r = _find(table, ordered, k, top, mask)
        if r < 0:
            return False
        row[j] = r
    return True


@njit(cache=True)
def _product(perms: np.ndarray, s: int, a: int, scratch: np.ndarray) -> int:
    """The index of the motion s∘a (a, then s) among perms, -1 when it is none."""
    n_g, n = perms.shape
    for i in range(n):
        scratch[i] = perms[s, perms[a, i]]
    for c in range(n_g):
        i = 0
        while i < n and perms[c, i] == scratch[i]:
            i += 1
        if i == n:
            return c
    return -1


@njit(cache=True)
def _images(perms: np.ndarray, ordered: Words, label_img: npt.NDArray[np.int32]) -> bool:
    """label_img's rows, each label's image under each motion: the identity's as it is, a
    few generators' by their masks (`_hashed`), and every motion that is a product s∘a of
    a generator s and a motion a already known by composing rows (label_img[s][label_img[a]]:
    one read a label instead of moving bits and hashing; on a rectangle 1 of its 3 other
    motions, on a square 5 of 7, on a cube most of 47). False when an image is no option."""
    n_g, n = perms.shape
    places = _places(ordered)
    bits, scratch = np.empty(n, dtype=np.uint64), np.empty(n, dtype=np.int64)
    known = np.zeros(n_g, dtype=np.bool_)
    gens, queue = np.empty(n_g, dtype=np.int64), np.empty(n_g, dtype=np.int64)
    identity, n_gens = identity_of(perms), 0
    for j in range(len(ordered)):
        label_img[identity, j] = j
    known[identity] = True
    for g in range(n_g):
        if known[g]:
            continue
        if not _hashed(perms, g, ordered, places, bits, label_img[g]):
            return False
        known[g], gens[n_gens], n_gens, tail = True, g, n_gens + 1, 0
        for c in range(n_g):  # every known motion times every generator, and what comes of it
            if known[c]:
                queue[tail], tail = c, tail + 1
        head = 0
        while head < tail:
            a, head = queue[head], head + 1
            for t in range(n_gens):
                c = _product(perms, gens[t], a, scratch)
                if c >= 0 and not known[c]:
                    row_s, row_a, row_c = label_img[gens[t]], label_img[a], label_img[c]
                    for j in range(len(ordered)):
                        row_c[j] = row_s[row_a[j]]
                    known[c], queue[tail], tail = True, c, tail + 1
    return True


@njit(cache=True)
def by_masks(
    perms: np.ndarray,
    masks: Words,
    opt_piece: np.ndarray,
    piece_count: np.ndarray,
    piece_min: np.ndarray,
) -> tuple[bool, npt.NDArray[np.int32], npt.NDArray[np.int32], Words, npt.NDArray[np.int32], np.uint64, np.uint64]:
    """(True, analyse's six) from the options' bitmasks (`option_masks`) when every
    image of an option is an option and no two options share a mask (the common case:
    pieces that may reflect): the labels are then the options' ranks by mask, each
    label's image found by its mask (its bits moved) in a table of the options', or by
    composing two motions' rows (`_images`; no table of every image's key, no sort of
    them). False first (and the rest unfilled) otherwise."""
    n_g = perms.shape[0]
    n_opt, n_pieces = len(opt_piece), len(piece_count)
    ordered, rank = _ranked(masks)
    label_piece = np.empty(n_opt, dtype=np.int32)
    n_opts = np.zeros(n_pieces, dtype=np.int64)
    for o in range(n_opt):
        label_piece[rank[o]] = opt_piece[o]
        n_opts[opt_piece[o]] += 1
    label_img = np.empty((n_g, n_opt), dtype=np.int32)
    stab = np.zeros(n_opt, dtype=np.uint64)  # by label, then by option
    g_exact = h_mask = ZERO
    if (n_opt > 0 and ordered[0] == ZERO) or not _images(perms, ordered, label_img):
        return False, rank, label_img, stab, label_piece, g_exact, h_mask
    some = np.empty(n_pieces, dtype=np.int64)  # a label of each piece (-1: none)
    some[:] = -1
    for j in range(n_opt):
        some[label_piece[j]] = j
    onto = np.empty(n_pieces, dtype=np.int32)
    identity = identity_of(perms)
    for g in range(n_g):
        bit, row = ONE << np.uint64(g), label_img[g]
        for j in range(n_opt):
            if row[j] == j:
                stab[j] |= bit
        if g == identity:  # (maps every piece onto itself)
            g_exact |= bit
            h_mask |= bit
        elif _onto(row, label_piece, some, onto):
            if _exact(onto, some):
                g_exact |= bit
            if _like(onto, some, n_opts, piece_count, piece_min):
                h_mask |= bit
    return True, rank, label_img, stab[rank], label_piece, g_exact, h_mask
