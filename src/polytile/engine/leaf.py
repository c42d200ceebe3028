"""What the kernels do at a solution: check piece minimums, classify under symmetry.

Shared by every kernel. A solution is the list of chosen options; its identity is the
sorted list of their cell-set labels (see polytile.symmetry).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .bits import njit
from .records import ACCEPTED, SOLUTIONS, STORED, UNIQUE, Rules, Sink, SymmetryTables
from .status import CONTINUE, STOP_BUFFER, STOP_LIMIT


@njit(cache=True, inline="always")
def _sort_small(a: np.ndarray, n: int) -> None:
    """Insertion sort of a[:n] in place (a solution's few labels)."""
    for i in range(1, n):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


@njit(cache=True)
def _image_is_solution(
    img: np.ndarray,
    depth: int,
    label_piece: np.ndarray,
    piece_count: np.ndarray,
    piece_min: np.ndarray,
    tally: np.ndarray,
) -> bool:
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


@njit(cache=True, inline="always")
def _compare(a: np.ndarray, b: np.ndarray, n: int) -> int:
    """-1, 0 or 1 as a[:n] is lexicographically below, equal to or above b[:n]."""
    for i in range(n):
        if a[i] != b[i]:
            return -1 if a[i] < b[i] else 1
    return 0


@njit(cache=True)
def classify(
    chosen: np.ndarray,
    depth: int,
    opt_label: np.ndarray,
    label_img: np.ndarray,
    label_piece: np.ndarray,
    h_mask: np.uint64,
    piece_count: np.ndarray,
    piece_min: np.ndarray,
    check_mask: np.uint64,
    base: np.ndarray,
    img: np.ndarray,
    tally: np.ndarray,
) -> tuple[bool, int, int, bool]:
    """Return (canonical, |Stab_H|, |H|, least) for the solution s = chosen[:depth].

    canonical: no g in check_mask maps s to a solution with a smaller label list.
    |Stab_H|: the motions of H (h_mask) that fix s; s's H-orbit has |H| / |Stab_H| members.
    least: the H-orbit holds the least member of s's class (the smallest image of s under
    G that is a solution). The last three are exact only for canonical solutions.
    img: scratch of 3 * depth: an image, the least image under H, the least outside H.
    """
    n_g = label_img.shape[0]
    for i in range(depth):
        base[i] = opt_label[chosen[i]]
    _sort_small(base, depth)
    cur, hmin, gmin = 0, depth, 2 * depth
    for i in range(depth):
        img[hmin + i] = base[i]
    stab = 0
    n_h = 0
    other = False  # some image outside H is a solution (gmin is set)
    for g in range(n_g):
        in_h = (h_mask >> np.uint64(g)) & np.uint64(1)
        for i in range(depth):
            img[cur + i] = label_img[g, base[i]]
        if not in_h and not _image_is_solution(img, depth, label_piece, piece_count, piece_min, tally):
            continue
        _sort_small(img, depth)
        cmp = _compare(img, base, depth)
        if cmp < 0 and (check_mask >> np.uint64(g)) & np.uint64(1):
            return False, 0, 0, False
        if in_h:
            n_h += 1
            if cmp == 0:
                stab += 1
            elif _compare(img, img[hmin:], depth) < 0:
                img[hmin : hmin + depth] = img[:depth]
        elif not other or _compare(img, img[gmin:], depth) < 0:
            img[gmin : gmin + depth] = img[:depth]
            other = True
    least = not other or _compare(img[gmin:], img[hmin:], depth) >= 0
    return True, stab, n_h, least


@njit(cache=True)
def minimums_met(left: np.ndarray, piece_count: np.ndarray, piece_min: np.ndarray) -> bool:
    """Every piece has at least its minimum number of copies placed (`left` copies remain)."""
    for p in range(len(left)):
        if piece_count[p] - left[p] < piece_min[p]:
            return False
    return True


@njit(cache=True, inline="always")
def breaking_stabiliser(
    chosen: np.ndarray,
    depth: int,
    opt_piece: np.ndarray,
    sym_piece: int,
    sym_piece2: int,
    opt_stab: npt.NDArray[np.uint64],
    h_mask: np.uint64,
) -> np.uint64:
    """The motions of H fixing the placements of the fixed pieces among chosen[:depth]."""
    mask = h_mask
    for i in range(depth):
        if opt_piece[chosen[i]] == sym_piece or opt_piece[chosen[i]] == sym_piece2:
            mask &= opt_stab[chosen[i]]
    return mask


@njit(cache=True, inline="always")
def banned_pair(
    chosen: np.ndarray,
    depth: int,
    opt_piece: np.ndarray,
    sym_piece: int,
    sym_piece2: int,
    ban_ptr: np.ndarray,
    ban_opts: np.ndarray,
) -> bool:
    """The second piece's placement among chosen[:depth] is banned under the first's."""
    first, second = -1, -1
    for i in range(depth):
        if opt_piece[chosen[i]] == sym_piece:
            first = chosen[i]
        elif opt_piece[chosen[i]] == sym_piece2:
            second = chosen[i]
    if first < 0 or second < 0:
        return False
    for j in range(ban_ptr[first], ban_ptr[first + 1]):
        if ban_opts[j] == second:
            return True
    return False


@njit(cache=True)
def on_leaf(chosen: np.ndarray, depth: int, left: np.ndarray, rules: Rules, sym: SymmetryTables, sink: Sink) -> int:
    """Count (and maybe store) the solution chosen[:depth].

    rules, sym, sink: the records.Rules, records.SymmetryTables and records.Sink of the run.
    sym.mode 0: no classification; 1: canonical check over all of G (every leaf is one
    solution); 2: symmetry breaking on piece `sym.piece` (and `sym.piece2`, whose
    placements banned under the first's are not counted, see core.symmetry.second_breaking)
    under the group H (h_mask, see polytile.symmetry): only leaves canonical under the
    stabiliser in H of those pieces' placements count, each for |H| / |Stab_H| solutions
    and for one class when its H-orbit holds the class's least member.
    """
    opt_piece, piece_count, piece_min = rules.opt_piece, rules.piece_count, rules.piece_min
    need_min, stop_after = rules.need_min, rules.stop_after
    sym_mode, opt_label, label_img = sym.mode, sym.opt_label, sym.label_img
    label_piece, h_mask = sym.label_piece, sym.h_mask
    stats, out, base, img, tally = sink.stats, sink.out, sink.base, sink.img, sink.tally
    if need_min and not minimums_met(left, piece_count, piece_min):
        return CONTINUE
    accepted = True
    if sym_mode == 0:
        stats[SOLUTIONS] += 1
    elif sym_mode == 1:
        canon, stab, n_h, least = classify(
            chosen,
            depth,
            opt_label,
            label_img,
            label_piece,
            h_mask,
            piece_count,
            piece_min,
            ~np.uint64(0),
            base,
            img,
            tally,
        )
        stats[SOLUTIONS] += 1
        if canon:
            stats[UNIQUE] += 1
        accepted = canon or not sym.canonical_only
    else:
        if banned_pair(chosen, depth, opt_piece, sym.piece, sym.piece2, sym.ban_ptr, sym.ban_opts):
            return CONTINUE
        mask = breaking_stabiliser(chosen, depth, opt_piece, sym.piece, sym.piece2, sym.opt_stab, h_mask)
        canon, stab, n_h, least = classify(
            chosen, depth, opt_label, label_img, label_piece, h_mask, piece_count, piece_min, mask, base, img, tally
        )
        accepted = canon and least
        if canon:
            stats[SOLUTIONS] += n_h // stab
        if accepted:
            stats[UNIQUE] += 1
    if not accepted:
        return CONTINUE
    stats[ACCEPTED] += 1
    k = stats[STORED]
    if k < out.shape[0]:
        for i in range(depth):
            out[k, i] = chosen[i]
        for i in range(depth, out.shape[1]):
            out[k, i] = -1
        stats[STORED] = k + 1
    if stop_after > 0 and stats[ACCEPTED] >= stop_after:
        return STOP_LIMIT
    if out.shape[0] > 0 and stats[STORED] >= out.shape[0]:
        return STOP_BUFFER
    return CONTINUE
