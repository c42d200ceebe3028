"""Symmetry breaking's choices for every kernel's plan (engine/search.plan), in compiled
code: which piece is placed first, one placement per orbit of H, and which second piece
keeps only the least placement of each orbit under the first's symmetries. The same
choices as core.symmetry.breaking_piece and second_breaking (whose module docstring says
why they are sound; tests/engine/test_setup_tables.py compares the two), knowing no
geometry: `h_images[g, o]` the label of option o's image under the g-th motion of H, and
`opt_label`, `label_img`, `label_piece`, `opt_stab` as core.symmetry.Symmetry has them."""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from ..bits import ONE, njit, popcount


@njit(cache=True)
def first_and_fixable(
    h_images: np.ndarray,
    opt_label: np.ndarray,
    label_piece: np.ndarray,
    opt_piece: np.ndarray,
    piece_count: np.ndarray,
    piece_min: np.ndarray,
) -> tuple[int, np.ndarray, np.ndarray]:
    """(piece, its options kept: the least of each H-orbit, fit), or (-1, none, fit): of
    the fixable pieces, the one with the fewest placements kept, then the smallest share
    kept. fit per piece: used exactly once (count = min = 1), with placements, and every
    motion of H maps each of its placements onto a placement of it (what second_piece_of
    needs), all from one pass over the options' images."""
    n_opt, n_pieces = len(opt_piece), len(piece_count)
    is_rep = np.zeros(n_opt, dtype=np.bool_)
    n_opts = np.zeros(n_pieces, dtype=np.int64)
    n_keep = np.zeros(n_pieces, dtype=np.int64)
    stays = np.zeros(n_pieces, dtype=np.int64)
    for o in range(n_opt):
        p = opt_piece[o]
        least = h_images[0, o]
        ok = label_piece[least] == p
        for g in range(1, h_images.shape[0]):
            image = h_images[g, o]
            least = min(least, image)
            ok = ok and label_piece[image] == p
        is_rep[o] = opt_label[o] == least
        n_opts[p] += 1
        if is_rep[o]:
            n_keep[p] += 1
        if ok:
            stays[p] += 1
    fit = np.zeros(n_pieces, dtype=np.bool_)
    best = -1
    for p in range(n_pieces):
        fit[p] = piece_count[p] == 1 and piece_min[p] == 1 and n_opts[p] > 0 and stays[p] == n_opts[p]
        if fit[p] and (
            best < 0
            or n_keep[p] < n_keep[best]
            or (n_keep[p] == n_keep[best] and n_keep[p] / n_opts[p] < n_keep[best] / n_opts[best])
        ):
            best = p
    kept = np.zeros(n_opt, dtype=np.int64)
    k = 0
    for o in range(n_opt):
        if best >= 0 and opt_piece[o] == best and is_rep[o]:
            kept[k] = o
            k += 1
    return best, kept[:k].copy(), fit


@njit(cache=True)
def _stabiliser_groups(
    first: np.ndarray, opt_stab: np.ndarray, h_mask: np.uint64
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct stabilisers in H (bitmasks) of more than one motion among the
    placements `first`, how many placements have each, and each placement's group (-1:
    the identity alone)."""
    masks = np.zeros(len(first), dtype=np.uint64)
    counts = np.zeros(len(first), dtype=np.int64)
    group = np.full(len(first), -1, dtype=np.int64)
    n = 0
    for i in range(len(first)):
        s = opt_stab[first[i]] & h_mask
        if popcount(s) <= 1:
            continue
        j = 0
        while j < n and masks[j] != s:
            j += 1
        if j == n:
            masks[n] = s
            n += 1
        counts[j] += 1
        group[i] = j
    return masks[:n], counts[:n], group


@njit(cache=True)
def second_piece_of(
    first: np.ndarray,
    piece: int,
    fit: np.ndarray,
    h_mask: np.uint64,
    opt_label: np.ndarray,
    label_img: np.ndarray,
    opt_stab: np.ndarray,
    opt_piece: np.ndarray,
) -> tuple[int, np.ndarray, np.ndarray]:
    """(second piece, ban_ptr, ban_opts), or (-1, empty, empty): where the placement o of
    the first piece (of `first`) has symmetries S in H, the second piece's placements that
    are not the least of their S-orbit are banned under o (CSR over the options). The
    second piece: of the fixable ones (`fit` from first_and_fixable, changed here), the
    one with most placements banned."""
    masks, counts, group = _stabiliser_groups(first, opt_stab, h_mask)
    n_opt, n_pieces = len(opt_piece), len(fit)
    none = (-1, np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int32))
    fit[piece] = False
    if len(masks) == 0 or not fit.any():
        return none
    banned = np.zeros((len(masks), n_opt), dtype=np.bool_)  # not least in its S-orbit
    n_banned = np.zeros(n_pieces, dtype=np.int64)
    for o in range(n_opt):
        if not fit[opt_piece[o]]:
            continue
        for j in range(len(masks)):
            rest = masks[j]
            while rest:
                g = trailing_zeros(rest)
                if label_img[g, opt_label[o]] < opt_label[o]:
                    banned[j, o] = True
                    n_banned[opt_piece[o]] += counts[j]
                    break
                rest &= rest - ONE
    second, most = -1, -1
    for p in range(n_pieces):
        if fit[p] and n_banned[p] > most:
            second, most = p, n_banned[p]
    ptr, flat = _ban_lists(first, group, banned, opt_piece, second)
    return second, ptr, flat


@njit(cache=True)
def _ban_lists(
    first: np.ndarray, group: np.ndarray, banned: np.ndarray, opt_piece: np.ndarray, second: int
) -> tuple[np.ndarray, np.ndarray]:
    """(ptr, flat): under each placement first[i], the placements of `second` banned in
    its stabiliser's group (CSR over the options; the lists of each group found once)."""
    n_groups, n_opt = banned.shape
    in_group = np.zeros(n_groups + 1, dtype=np.int64)  # each group's list, as CSR
    for j in range(n_groups):
        in_group[j + 1] = in_group[j]
        for o in range(n_opt):
            if banned[j, o] and opt_piece[o] == second:
                in_group[j + 1] += 1
    lists = np.empty(in_group[n_groups], dtype=np.int32)
    for j in range(n_groups):
        k = in_group[j]
        for o in range(n_opt):
            if banned[j, o] and opt_piece[o] == second:
                lists[k] = o
                k += 1
    ptr = np.zeros(n_opt + 1, dtype=np.int64)
    for i in range(len(first)):
        if group[i] >= 0:
            ptr[first[i] + 1] = in_group[group[i] + 1] - in_group[group[i]]
    for o in range(n_opt):
        ptr[o + 1] += ptr[o]
    flat = np.zeros(ptr[n_opt], dtype=np.int32)
    for i in range(len(first)):
        if group[i] >= 0:
            flat[ptr[first[i]] : ptr[first[i] + 1]] = lists[in_group[group[i]] : in_group[group[i] + 1]]
    return ptr, flat
