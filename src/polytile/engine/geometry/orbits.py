"""How a group of permutations of the items acts on the options, in one compiled call: the
geometry-free part of the symmetry analysis (core.symmetry.analyse, whose numpy version
stays the reference the tests compare with; its module docstring says what the labels,
stabilisers and H are for).

Given the permutations (one row per motion of the board, computed by core) and the options
as sets of items, every cell-set that is an image g(o) of an option gets a label: the
distinct sets numbered in the order of their bitmasks (items <= 64, motions <= 64). From
the labels follow each label's image under each motion, each option's stabiliser, the
piece each label is a placement of, and the masks of the motions that map every piece's
placements onto its own (g_exact) or onto a like piece's (H). A few hundred small numpy
calls in core; here one pass over the images with an open-addressing table of the
distinct sets."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba.cpython.unsafe.numbers import trailing_zeros

from ..bits import ONE, ZERO, njit
from .orbit_masks import by_masks, identity_of, option_masks

Words = npt.NDArray[np.uint64]

EMPTY = np.uint64(0)  # no option is empty, so no key is 0: 0 marks a free slot


@njit(cache=True, inline="always")
def _slot(table: Words, key: np.uint64, top: np.uint64, mask: np.uint64) -> np.uint64:
    """The slot of `key` in the open-addressing table (its own, or the free one it goes to):
    Fibonacci hashing, the product's top bits (its middle bits cluster the bitmasks);
    `top` = 64 - log2(len(table)), `mask` = len(table) - 1 (`_shape`)."""
    s = (key * np.uint64(0x9E3779B97F4A7C15)) >> top
    while table[s] != EMPTY and table[s] != key:
        s = (s + ONE) & mask
    return s


@njit(cache=True, inline="always")
def _shape(table: Words) -> tuple[np.uint64, np.uint64]:
    """(top, mask) of `_slot` for a table whose length is a power of two."""
    return np.uint64(64) - trailing_zeros(np.uint64(len(table))), np.uint64(len(table) - 1)


@njit(cache=True)
def _image_keys(perms: np.ndarray, opt_ptr: np.ndarray, opt_items: np.ndarray) -> Words:
    """keys[g, o]: the bitmask of g(o). (Flat tables, unsigned indices: no negative-index
    tests in the inner loop, half the time of a row view per motion.)"""
    n_g, n, n_opt = perms.shape[0], perms.shape[1], len(opt_ptr) - 1
    bits = np.empty(n_g * n, dtype=np.uint64)  # bits[g * n + i]: g(i)'s bit
    for g in range(n_g):
        for i in range(n):
            bits[g * n + i] = ONE << np.uint64(perms[g, i])
    keys = np.empty(n_g * n_opt, dtype=np.uint64)  # (opt_items read as they are: a
    for g in range(n_g):  # uint64 copy of them was 8 bytes an item more to touch)
        base = np.uint64(g * n)
        for o in range(n_opt):
            k = ZERO
            for q in range(np.uint64(opt_ptr[o]), np.uint64(opt_ptr[o + 1])):
                k |= bits[base + np.uint64(opt_items[q])]
            keys[g * n_opt + o] = k
    return keys.reshape(n_g, n_opt)


@njit(cache=True)
def _insert(table: Words, flat: Words, slots: npt.NDArray[np.uint32], distinct: Words) -> int:
    """Put the keys `flat` into the free `table`: each key's slot, the distinct keys in
    the order met; their number, or -1 as soon as the table is half full."""
    n = 0
    top, mask = _shape(table)
    for i in range(flat.size):
        key = flat[i]
        s = _slot(table, key, top, mask)
        if table[s] == EMPTY:
            table[s] = key
            distinct[n] = key
            n += 1
            if 2 * n > len(table):
                return -1
        slots[i] = s
    return n


@njit(cache=True)
def _number(keys: Words) -> tuple[npt.NDArray[np.int32], Words, npt.NDArray[np.int64]]:
    """(inverse, sorted distinct keys, where): the label of each key, the labels numbered
    in the order of the keys, where[l] the index of a key labelled l. The table starts at
    twice the options (the images of options are mostly options) and doubles while it is
    more than half full: a small table stays in the cache."""
    size = 16
    while size < 2 * keys.shape[1]:
        size *= 2
    flat = keys.ravel()
    slots = np.empty(flat.size, dtype=np.uint32)
    distinct = np.empty(flat.size, dtype=np.uint64)
    table = np.zeros(size, dtype=np.uint64)
    n = _insert(table, flat, slots, distinct)
    while n < 0:
        size *= 2
        table = np.zeros(size, dtype=np.uint64)
        n = _insert(table, flat, slots, distinct)
    ordered = np.sort(distinct[:n])
    rank = np.full(len(table), -1, dtype=np.int32)
    top, mask = _shape(table)
    for j in range(n):
        rank[_slot(table, ordered[j], top, mask)] = j
    inverse = np.empty(keys.shape, dtype=np.int32)
    inv = inverse.ravel()
    where = np.empty(n, dtype=np.int64)
    for i in range(flat.size):
        lab = rank[slots[i]]  # (every slot of a key has its rank: >= 0)
        inv[i] = lab
        where[np.uint32(lab)] = i
    return inverse, ordered, where


@njit(cache=True)
def _composition(perms: np.ndarray) -> np.ndarray:
    """comp[h, g]: the index of the permutation h∘g (apply g, then h) among `perms` (a
    group: every composition is one of them)."""
    n_g, n = perms.shape
    comp = np.empty((n_g, n_g), dtype=np.int64)
    row = np.empty(n, dtype=np.int64)
    for h in range(n_g):
        for g in range(n_g):
            for i in range(n):
                row[i] = perms[h, perms[g, i]]
            for c in range(n_g):
                same = True
                for i in range(n):
                    if perms[c, i] != row[i]:
                        same = False
                        break
                if same:
                    comp[h, g] = c
                    break
    return comp


@njit(cache=True)
def _label_images(perms: np.ndarray, inverse: npt.NDArray[np.int32], where: np.ndarray) -> npt.NDArray[np.int32]:
    """label_img[h, l]: the label of h applied to the set labelled l (the labels are
    closed under the group: l is g0(o0) for (g0, o0) = divmod(where[l], options), and h
    maps it to (h∘g0)(o0), whose label `inverse` has)."""
    n_g, n_opt = inverse.shape
    comp = _composition(perms)
    label_img = np.empty((n_g, len(where)), dtype=np.int32)
    for lab in range(len(where)):
        g0, o0 = where[lab] // n_opt, where[lab] % n_opt
        for h in range(n_g):
            label_img[h, lab] = inverse[comp[h, g0], o0]
    return label_img


@njit(cache=True)
def _onto_like_pieces(
    inverse: npt.NDArray[np.int32],
    label_piece: npt.NDArray[np.int32],
    opt_piece: np.ndarray,
    piece_count: np.ndarray,
    piece_min: np.ndarray,
) -> npt.NDArray[np.bool_]:
    """Per motion, whether it maps each piece's placements onto all the placements of one
    piece with the same copies and minimum (core.symmetry._maps_pieces_onto_pieces; the
    piece of g(o) is label_piece[inverse[g, o]])."""
    n_g, n_opt = inverse.shape
    n_pieces = len(piece_count)
    n_opts = np.zeros(n_pieces, dtype=np.int64)
    for o in range(n_opt):
        n_opts[opt_piece[o]] += 1
    ok = np.ones(n_g, dtype=np.bool_)
    lo = np.empty(n_pieces, dtype=np.int64)
    hi = np.empty(n_pieces, dtype=np.int64)
    for g in range(n_g):
        lo[:] = n_pieces
        hi[:] = -1
        for o in range(n_opt):
            p, q = opt_piece[o], label_piece[inverse[g, o]]
            lo[p] = min(lo[p], q)
            hi[p] = max(hi[p], q)
        for p in range(n_pieces):
            if n_opts[p] == 0:
                continue
            d = hi[p]
            if (
                lo[p] < 0
                or lo[p] != d
                or n_opts[d] != n_opts[p]
                or piece_count[d] != piece_count[p]
                or piece_min[d] != piece_min[p]
            ):
                ok[g] = False
                break
    return ok


@njit(cache=True)
def analyse(
    perms: np.ndarray,
    opt_ptr: np.ndarray,
    opt_items: np.ndarray,
    opt_piece: np.ndarray,
    piece_count: np.ndarray,
    piece_min: np.ndarray,
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32], Words, npt.NDArray[np.int32], np.uint64, np.uint64]:
    """(opt_label, label_img, opt_stab, label_piece, g_exact, h_mask) as
    core.symmetry.Symmetry has them, for perms (|G| <= 64, n_items <= 64) with the
    identity among them."""
    masks = option_masks(opt_ptr, opt_items)
    return analyse_masks(perms, masks, opt_ptr, opt_items, opt_piece, piece_count, piece_min)


@njit(cache=True)
def analyse_masks(
    perms: np.ndarray,
    masks: Words,
    opt_ptr: np.ndarray,
    opt_items: np.ndarray,
    opt_piece: np.ndarray,
    piece_count: np.ndarray,
    piece_min: np.ndarray,
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32], Words, npt.NDArray[np.int32], np.uint64, np.uint64]:
    """`analyse` given the options' bitmasks too (orbit_masks.option_masks: the compiled
    model makes them while it places the options)."""
    fast, label, image, stab, piece, exact, h = by_masks(perms, masks, opt_piece, piece_count, piece_min)
    if fast:
        return label, image, stab, piece, exact, h
    n_g, n = perms.shape
    n_opt = len(opt_piece)
    inverse, ordered, where = _number(_image_keys(perms, opt_ptr, opt_items))
    identity = identity_of(perms)
    opt_label = inverse[identity].copy()
    label_img = _label_images(perms, inverse, where)
    opt_stab = np.zeros(n_opt, dtype=np.uint64)
    label_piece = np.full(len(ordered), -1, dtype=np.int32)
    for o in range(n_opt):
        label_piece[opt_label[o]] = opt_piece[o]
    named = True  # whether each label names one piece
    for o in range(n_opt):
        named = named and label_piece[opt_label[o]] == opt_piece[o]
    g_exact = ZERO
    for g in range(n_g):
        same = True
        for o in range(n_opt):
            if inverse[g, o] == opt_label[o]:
                opt_stab[o] |= ONE << np.uint64(g)
            same = same and label_piece[inverse[g, o]] == opt_piece[o]
        if same:
            g_exact |= ONE << np.uint64(g)
    h_mask = ONE << np.uint64(identity)
    if named:
        ok = _onto_like_pieces(inverse, label_piece, opt_piece, piece_count, piece_min)
        for g in range(n_g):
            if ok[g]:
                h_mask |= ONE << np.uint64(g)
    return opt_label, label_img, opt_stab, label_piece, g_exact, h_mask
