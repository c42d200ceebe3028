"""What the kernels do at a solution: check piece minimums, classify under symmetry.

Shared by every kernel. A solution is the list of chosen options; its identity is the
sorted list of their cell-set labels (see polytile.symmetry).
"""
from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, inline="always")
def _sort_small(a, n):
    for i in range(1, n):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


@njit(cache=True)
def _image_is_solution(img, depth, label_piece, piece_count, piece_min, tally):
    """An image of a solution is a solution when its cell-sets are placements of pieces
    in the allowed numbers (a mirror image of a one-sided piece may not be)."""
    tally[:] = 0
    for i in range(depth):
        p = label_piece[img[i]]
        if p < 0:
            return False
        tally[p] += 1
    for p in range(len(tally)):
        if tally[p] > piece_count[p] or tally[p] < piece_min[p]:
            return False
    return True


@njit(cache=True)
def classify(chosen, depth, opt_label, label_img, label_piece, g_exact, piece_count, piece_min,
             check_mask, base, img, tally):
    """Return (canonical, |stabiliser|, number of g whose image is a solution) for the
    solution chosen[:depth].

    canonical: no g in check_mask maps it to a solution with a lexicographically smaller
    label list. The last two numbers are exact only for canonical solutions; the orbit
    of the solution has (valid images) / (stabiliser) members.
    """
    n_g = label_img.shape[0]
    for i in range(depth):
        base[i] = opt_label[chosen[i]]
    _sort_small(base, depth)
    stab = 0
    valid = 0
    for g in range(n_g):
        for i in range(depth):
            img[i] = label_img[g, base[i]]
        if not (g_exact >> np.uint64(g)) & np.uint64(1):
            if not _image_is_solution(img, depth, label_piece, piece_count, piece_min, tally):
                continue
        valid += 1
        _sort_small(img, depth)
        cmp = 0
        for i in range(depth):
            if img[i] != base[i]:
                cmp = -1 if img[i] < base[i] else 1
                break
        if cmp == 0:
            stab += 1
        elif cmp < 0 and (check_mask >> np.uint64(g)) & np.uint64(1):
            return False, 0, 0
    return True, stab, valid


@njit(cache=True)
def minimums_met(left, piece_count, piece_min):
    for p in range(len(left)):
        if piece_count[p] - left[p] < piece_min[p]:
            return False
    return True


# what on_leaf() tells the kernel to do next
CONTINUE, STOP_LIMIT, STOP_BUFFER = 0, 1, 2


@njit(cache=True)
def on_leaf(chosen, depth, left, piece_count, piece_min, need_min, opt_piece,
            sym_mode, sym_piece, opt_label, label_img, label_piece, g_exact, opt_stab,
            canonical_only, stats, out, stop_after, base, img, tally):
    """Count (and maybe store) the solution chosen[:depth].

    stats: [nodes, solutions, unique, stored, accepted].
    sym_mode 0: no classification; 1: canonical check over all of G (every leaf is one
    solution); 2: symmetry breaking on piece `sym_piece` (only canonical leaves count,
    each for (images that are solutions) / |Stab| solutions).
    """
    if need_min and not minimums_met(left, piece_count, piece_min):
        return CONTINUE
    accepted = True
    if sym_mode == 0:
        stats[1] += 1
    elif sym_mode == 1:
        canon, stab, valid = classify(chosen, depth, opt_label, label_img, label_piece, g_exact,
                                      piece_count, piece_min, ~np.uint64(0), base, img, tally)
        stats[1] += 1
        if canon:
            stats[2] += 1
        accepted = canon or not canonical_only
    else:
        mask = np.uint64(0)
        for i in range(depth):
            if opt_piece[chosen[i]] == sym_piece:
                mask = opt_stab[chosen[i]]
        canon, stab, valid = classify(chosen, depth, opt_label, label_img, label_piece, g_exact,
                                      piece_count, piece_min, mask, base, img, tally)
        accepted = canon
        if canon:
            stats[1] += valid // stab
            stats[2] += 1
    if not accepted:
        return CONTINUE
    stats[4] += 1
    k = stats[3]
    if k < out.shape[0]:
        for i in range(depth):
            out[k, i] = chosen[i]
        for i in range(depth, out.shape[1]):
            out[k, i] = -1
        stats[3] = k + 1
    if stop_after > 0 and stats[4] >= stop_after:
        return STOP_LIMIT
    if out.shape[0] > 0 and stats[3] >= out.shape[0]:
        return STOP_BUFFER
    return CONTINUE
