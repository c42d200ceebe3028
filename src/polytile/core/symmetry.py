"""Board symmetry and canonical forms.

A solution is a set of cell-sets. The board's group G is every isometry of the grid
(8 in 2D, 48 in 3D, 12 on the triangle and hex grids) that maps the board's cells and colours onto themselves; it acts on
cells as permutations. Every cell-set that can occur (an option or an image of one) gets
an integer label, so the search kernel compares solutions as sorted label lists: a
solution is canonical when no image of it under G is lexicographically smaller.

Two solutions are the same when one is an image of the other under some g in G (the
image of a solution need not be a solution: a mirror image of a one-sided piece is no
piece). `unique` counts these classes.

Symmetry breaking may only use motions that map the solution set onto itself: H, the g
that map every piece's placements onto the placements of a piece with the same copies and
minimum (a one-sided piece onto its mirror piece, say). Fix one piece P that every
solution uses exactly once and that every h in H maps onto itself; keep one placement of P
per H-orbit (R). Each H-orbit of solutions then meets the search in exactly Stab_H(r)·s
for r = P's place in s, so counting the members s that are minimal under Stab_H(r) counts
each H-orbit once, adding |H| / |Stab_H(s)| for each counts every solution once, and an
H-orbit is counted as a class when it holds the class's least member (the smallest of the
images of s under G that are solutions).

Where S = Stab_H(r) is more than the identity (X on a rectangle's middle row), a second
piece Q (used exactly once, its placements permuted by H) keeps, under r, only the least
placement q of each S-orbit of its placements (`second_breaking`; the others are banned).
The S-orbit of a solution s with P at r holds one member for each of the S-images of q'
= Q's place in s; those with Q at the least of them are the Stab_S(q)-orbit of one of
them, so counting the members minimal under Stab_S(q) = Stab_H(r) ∩ Stab_H(q) still counts
each H-orbit once. Where that intersection is the identity alone, every solution below
(r, q) counts (|H| of them each, as Stab_H(s) lies in it), which lets the bitboard kernel
reuse the counts of sub-problems there.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any, Callable

import numpy as np

from .cover import CellIndex, Cover, Model, OverBudget, TimeUp, check_deadline
from .grids import SQUARE, Grid
from .grids.moves import board_permutations
from .puzzle import VIRTUAL
from .shape import isometries


# a compiled board_group (engine/turning_driver.permuter, passed by the tiling layer): the
# cells at the origin, their colours, the motions' matrices, the lookup grid, its strides
# and the box's far corner -> the distinct permutations in order, or None for numpy
Grouper = Callable[..., "np.ndarray | None"]


def board_group(
    cells: np.ndarray,
    colours: np.ndarray,
    grid: Grid = SQUARE,
    compiled: Grouper | None = None,
    budget: int | None = None,
) -> np.ndarray:
    """(|G|, n) distinct permutations of the items under the board's symmetries, in
    lexicographic order.

    Distinct: on a flat board (one row, one layer) several motions act alike. Cells are
    looked up by number (CellIndex), so memory follows the cells, not their spread. Grids other
    than the square and cube ones: `grids.moves.board_permutations`. `compiled`: in one call, where
    the box has a lookup grid (the numpy below is the reference; OverBudget before it
    allocates more than `budget` bytes, see group_bytes)."""
    if not grid.boxes:
        return board_permutations(grid, cells, colours)
    lo = cells.min(axis=0)
    index = CellIndex(cells - lo)
    mats = _matrices(cells.shape[1])
    if compiled is not None and index.grid is not None:
        found = compiled(cells - lo, colours, mats, index.grid, index.strides, index.hi)
        if found is not None:
            return found
    if budget is not None and group_bytes(*cells.shape) > budget:
        raise OverBudget("the board's symmetries", group_bytes(*cells.shape))
    imgs = (cells - lo) @ mats.transpose(0, 2, 1)  # (|motions|, n, d)
    imgs -= imgs.min(axis=1, keepdims=True)
    images = index.find(imgs.reshape(-1, imgs.shape[-1])).reshape(imgs.shape[:2])  # cell -> item
    on_board = images[(images >= 0).all(axis=1)]
    return _unique_rows(on_board[(colours[on_board] == colours[None, :]).all(axis=1)])


@lru_cache(maxsize=None)
def _matrices(dim: int) -> np.ndarray:
    """The isometries' matrices stacked (M, d, d)."""
    return np.stack(isometries(dim))


def _unique_rows(rows: np.ndarray) -> np.ndarray:
    """np.unique(rows, axis=0) for a few rows of non-negative integers, without its cost
    (a structured dtype): big-endian bytes sort as the rows do."""
    big = rows.astype(">i8")
    kept = sorted({row.tobytes() for row in big})
    return np.frombuffer(b"".join(kept), dtype=">i8").astype(np.int64).reshape(len(kept), rows.shape[1])


@dataclass
class Symmetry:
    """The motions of the board as permutations of the items, and what the search needs
    of them: the options' labels and their images, stabilisers, and the subgroup H that
    maps the solution set onto itself (the one symmetry breaking may use)."""

    perms: np.ndarray  # (|G|, n_items)
    opt_label: np.ndarray  # (n_opt,) int32 label of each option's cell-set
    label_img: np.ndarray  # (|G|, n_labels) int32 image of each label under each g
    opt_stab: np.ndarray  # (n_opt,) uint64 bitmask of g fixing the option's cell-set
    label_piece: np.ndarray  # (n_labels,) int32 piece whose placement the label is, or -1
    g_exact: int  # bitmask of g that map every piece's placements onto its own
    h_mask: int  # bitmask of H: g that map the solution set onto itself (see above)

    @property
    def order(self) -> int:
        """|G|: the number of motions."""
        return len(self.perms)

    @cached_property
    def h_rows(self) -> np.ndarray:
        """Indices of the motions in H."""
        return np.array([g for g in range(self.order) if (self.h_mask >> g) & 1], dtype=np.int64)

    @cached_property
    def h_images(self) -> np.ndarray:
        """(|H|, n_opt): the label of each option's image under each motion of H (what
        the choice of the pieces to fix reads, once)."""
        images: np.ndarray = self.label_img[self.h_rows[:, None], self.opt_label[None, :]]
        return images


def _padded_sets(cover: Cover) -> np.ndarray:
    lens = np.diff(cover.opt_ptr)
    k = int(lens.max()) if len(lens) else 1
    if len(lens) and int(lens.min()) == k:  # one size: the items are the rows
        return cover.opt_items.astype(np.int64).reshape(cover.n_options, k)
    out = np.full((cover.n_options, k), cover.n_items, dtype=np.int64)  # pad sorts last
    rows = np.repeat(np.arange(cover.n_options), lens)
    cols = np.arange(len(cover.opt_items)) - np.repeat(cover.opt_ptr[:-1], lens)
    out[rows, cols] = cover.opt_items
    return out


def analysis_bytes(n_g: int, cover: Cover) -> int:
    """What `analyse` allocates at its peak: the image of every option under every motion,
    sorted, and its keys (a bitmask each on boards of up to 64 cells: the options' length
    read only beyond, np.diff's ~10-20 us in a fresh process on every small count)."""
    if cover.n_items <= 64:
        per_image = 24
    else:
        k = int(np.diff(cover.opt_ptr).max()) if cover.n_options else 0
        per_image = 8 * (3 * k + 2)
    return n_g * cover.n_options * per_image + 64 * n_g * cover.n_items


# what a compiled analysis (engine/orbits_driver.analyser, which the tiling layer passes:
# core may not import engine) takes, the board's permutations and the cover, and returns:
# (opt_label, label_img, opt_stab, label_piece, g_exact, h_mask), or None to leave it to numpy
Compiled = Callable[[np.ndarray, Cover], "tuple[Any, ...] | None"]


def group_bytes(n_cells: int, dim: int) -> int:
    """What board_group's numpy allocates at its peak: every cell's image under each of the
    (up to) 48 motions, its coordinates twice, its number and its item (256K cells in 3D:
    about 800 MB estimated, 600 MB measured)."""
    return (8 if dim == 2 else 48) * n_cells * 8 * (2 * dim + 2)


def analyse(
    model: Model,
    budget: int | None = None,
    compiled: Compiled | None = None,
    grouper: Grouper | None = None,
    deadline: float | None = None,
) -> Symmetry:
    """The board's group and how it acts on the options; OverBudget (before allocating)
    when that would take more than `budget` bytes, TimeUp when the perf_counter `deadline`
    passes (looked at between its steps: on a large board each takes seconds). `compiled`:
    the geometry-free part in one compiled call where it can, `grouper` the board's group
    (the numpy below and board_group's are the reference the tests compare them with)."""
    cover = model.cover
    perms = model.perms  # (core.reduction's, or:)
    if perms is None:
        perms = board_group(model.cells, model.colours, model.puzzle.board.grid, grouper, budget)
    n_g, n_opt = len(perms), cover.n_options
    if budget is not None and analysis_bytes(n_g, cover) > budget:
        raise OverBudget("the symmetry analysis", analysis_bytes(n_g, cover))
    if deadline is not None and time.perf_counter() > deadline:
        raise TimeUp
    if model.analysis is not None:  # made with the model (core.reduction)
        return Symmetry(perms, *model.analysis)
    virtual = np.array([p.name == VIRTUAL for p in model.puzzle.pieces], dtype=bool)
    found = None if compiled is None or virtual.any() else compiled(perms, cover)
    if found is not None:
        return Symmetry(perms, *found)
    ext = np.concatenate([perms, np.full((n_g, 1), cover.n_items)], axis=1)
    keys = _image_keys(ext, _padded_sets(cover), cover.n_items, deadline)  # one key per image g(o)
    if virtual.any():  # an empty cell is not a one-cell piece on that cell
        _, keys = np.unique(keys, return_inverse=True)
        keys = (keys.reshape(n_g, n_opt) * 2 + virtual[cover.opt_piece][None, :]).ravel()
    if deadline is not None and time.perf_counter() > deadline:
        raise TimeUp
    first, inverse = _labels(keys)
    check_deadline(deadline)
    inverse = inverse.reshape(n_g, n_opt).astype(np.int32, copy=False)  # label of g(o)
    identity = int(np.nonzero((perms == np.arange(perms.shape[1])).all(axis=1))[0][0])
    opt_label = inverse[identity]
    # Every label is g0(o0) for some g and option, and h maps it to (h∘g0)(o0): the labels
    # are closed under G and their images follow from the composition table.
    g0, o0 = np.divmod(first, n_opt)
    label_img = np.ascontiguousarray(inverse[_composition(perms)[:, g0], o0[None, :]], dtype=np.int32)
    fixed = (inverse == opt_label[None, :]).astype(np.uint64)
    opt_stab = (fixed << np.arange(n_g, dtype=np.uint64)[:, None]).sum(axis=0, dtype=np.uint64)
    label_piece = np.full(label_img.shape[1], -1, dtype=np.int32)
    label_piece[opt_label] = cover.opt_piece
    img_piece = label_piece[label_img[:, opt_label]]  # (|G|, n_opt)
    same = (img_piece == cover.opt_piece[None, :]).all(axis=1)
    g_exact = sum(1 << g for g in np.nonzero(same)[0].tolist())
    h_mask = 1 << identity
    if (label_piece[opt_label] == cover.opt_piece).all():  # each label names one piece
        h_mask |= sum(1 << g for g in np.nonzero(_maps_pieces_onto_pieces(img_piece, cover))[0].tolist())
    # else some cell-set is a placement of two pieces (one shape, one of them one-sided):
    # its label names neither for sure, so no motion is used for breaking
    return Symmetry(perms, opt_label, label_img, opt_stab, label_piece, g_exact, h_mask)


CHUNK_IMAGES = 1 << 20  # images of options keyed at once (a look at the deadline between)


def _image_keys(ext: np.ndarray, sets: np.ndarray, n_items: int, deadline: float | None) -> np.ndarray:
    """_set_keys a few motions at a time (TimeUp between them once the deadline passes):
    keys of sets of one size are the sets themselves; those of several sizes are numbered,
    so they are made all at once."""
    whole = n_items > 64 and bool((sets == n_items).any())
    step = len(ext) if whole else max(1, CHUNK_IMAGES // max(1, len(sets)))
    parts = []
    for start in range(0, len(ext), step):
        check_deadline(deadline)
        parts.append(_set_keys(ext[start : start + step], sets, n_items))
    check_deadline(deadline)
    return np.concatenate(parts)


def _labels(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(where, label): the distinct keys numbered in sorted order, label[i] the number of
    keys[i], where[j] the index of some key numbered j. np.unique's, without its stable
    sort (any key of a label does) for integer keys."""
    if keys.dtype.kind not in "iu":
        _, where, label = np.unique(keys, return_index=True, return_inverse=True)
        return where, label.ravel()
    order = np.argsort(keys)
    ordered = keys[order]
    new = np.ones(len(keys), dtype=bool)
    new[1:] = ordered[1:] != ordered[:-1]
    label = np.empty(len(keys), dtype=np.int32)  # int32: what the kernels read (and half
    label[order] = np.cumsum(new, dtype=np.int32) - 1  # the fresh pages to touch)
    return order[new], label


def _maps_pieces_onto_pieces(img_piece: np.ndarray, cover: Cover) -> np.ndarray:
    """Per motion, whether it maps the placements of each piece onto all the placements of
    one piece with the same copies and minimum (img_piece: (|G|, n_opt), the piece of each
    option's image, -1 when the image is no placement). Such a motion maps solutions to
    solutions."""
    n_g = img_piece.shape[0]
    if cover.n_options == 0:
        return np.ones(n_g, dtype=bool)
    by_piece = img_piece[:, np.argsort(cover.opt_piece, kind="stable")]
    n_opts = np.bincount(cover.opt_piece, minlength=len(cover.piece_count))
    src = np.nonzero(n_opts)[0]  # the placed pieces
    n_src = n_opts[src]
    starts = np.cumsum(n_opts)[src] - n_src
    lo = np.minimum.reduceat(by_piece, starts, axis=1)  # (|G|, placed pieces)
    hi = np.maximum.reduceat(by_piece, starts, axis=1)
    ok = (lo >= 0).all(axis=1) & (lo == hi).all(axis=1)
    dst = np.where(ok[:, None], hi, src[None, :])
    # g is one-to-one on cell-sets, so equal numbers of placements make "into" "onto"
    onto: np.ndarray = (
        ok
        & (n_opts[dst] == n_src[None, :]).all(axis=1)
        & (cover.piece_count[dst] == cover.piece_count[src][None, :]).all(axis=1)
        & (cover.piece_min[dst] == cover.piece_min[src][None, :]).all(axis=1)
    )
    return onto


def _set_keys(ext: np.ndarray, sets: np.ndarray, n_items: int) -> np.ndarray:
    """A key per image g(o) of each cell-set (ext: (|G|, n_items + 1) permutations fixing
    the padding n_items; sets: (n_opt, k) padded items), by g then o, equal exactly for
    equal sets: a bitmask when the items fit in 64 bits (one OR per column), else the
    sorted items."""
    if n_items <= 64:
        bits = np.zeros(n_items + 1, dtype=np.uint64)
        bits[:n_items] = np.left_shift(np.uint64(1), np.arange(n_items, dtype=np.uint64))
        moved = bits[ext]  # (|G|, n_items + 1)
        keys = moved[:, sets[:, 0]]
        for col in range(1, sets.shape[1]):
            keys |= moved[:, sets[:, col]]
        flat: np.ndarray = keys.ravel()
        return flat
    lens = (sets < n_items).sum(axis=1)
    if lens.min() == lens.max():
        images = ext[:, sets]
        rows = np.sort(images, axis=-1).reshape(-1, images.shape[-1])
        return _row_keys(rows, n_items + 1)
    # sets of several sizes: one size at a time, never padded to the largest (a 200-cell
    # piece beside 3,000 one-cell placements would sort 200 columns for each); sets of
    # different sizes differ, so each size's keys are numbered after the previous size's
    keys = np.empty((len(ext), len(sets)), dtype=np.int64)
    offset = 0
    for size in sorted(set(lens.tolist())):  # (not np.unique: its first call imports numpy.ma)
        cols = np.nonzero(lens == size)[0]
        images = np.sort(ext[:, sets[cols, :size]], axis=-1).reshape(-1, size)
        _, inverse = np.unique(_row_keys(images, n_items + 1), return_inverse=True)
        keys[:, cols] = inverse.reshape(len(ext), len(cols)) + offset
        offset += int(inverse.max()) + 1
    return keys.ravel()


def _composition(perms: np.ndarray) -> np.ndarray:
    """comp[h, g] = the index of the permutation h∘g (apply g, then h). The permutations are
    a group, so h∘g is one of them, told apart by their values on a few items (`_base`):
    only those of h∘g are made (HexSticks' 24 x 24 x 2,256 compositions took 36 ms)."""
    n = perms.shape[1]
    if len(perms) <= 1:  # the identity alone (no item tells it from anything)
        return np.zeros((len(perms), len(perms)), dtype=np.int64)
    sub = perms[:, _base(perms)]  # [g, j] = g(base j)
    keys = _row_keys(sub, n)
    order = np.argsort(keys)
    composed = perms[:, sub]  # [h, g, j] = h(g(base j))
    ckeys = _row_keys(composed.reshape(-1, sub.shape[1]), n)
    return order[np.searchsorted(keys[order], ckeys)].reshape(len(perms), len(perms))


def _base(perms: np.ndarray) -> list[int]:
    """Items whose images tell the permutations apart (a base of the group), chosen in order:
    each kept when it splits rows that agree on those before it."""
    base: list[int] = []  # (sets of Python ints: np.unique's first call imports numpy.ma, 20-50 ms)
    label = [0] * len(perms)
    for item in range(perms.shape[1]):
        classes = len(set(label))
        if classes == len(perms):
            break
        split = list(zip(label, perms[:, item].tolist()))
        if len(set(split)) > classes:
            base.append(item)
            number = {key: k for k, key in enumerate(dict.fromkeys(split))}
            label = [number[key] for key in split]
    return base


def _row_keys(rows: np.ndarray, base: int) -> np.ndarray:
    """One key per row, ordered as the rows are lexicographically (entries < base):
    an integer in base `base` when it fits, else bytes of big-endian integers."""
    if rows.shape[1] * np.log2(base) < 62:
        key = np.zeros(len(rows), dtype=np.int64)
        for col in range(rows.shape[1]):
            key = key * base + rows[:, col]
        return key
    big = np.ascontiguousarray(rows.astype(">i8"))
    return big.view(np.dtype((np.void, big.dtype.itemsize * rows.shape[1]))).ravel()


def breaking_piece(cover: Cover, sym: Symmetry) -> tuple[int, np.ndarray] | None:
    """A piece to fix and the options to keep for it (one per orbit), or None.

    The piece must be used exactly once in every solution (count = min = 1) and its
    placements must be permuted by H (see the module's note). Of the candidates, take the one with the fewest placements left: it is placed first,
    and the most constrained piece first makes the smallest tree (X in the pentominoes).
    """
    rows = sym.h_rows
    if len(rows) == 1:
        return None
    n_pieces = len(cover.piece_count)
    imgs = sym.h_images  # (|H|, n_opt)
    is_rep = sym.opt_label == imgs.min(axis=0)  # orbit representative
    n_opts = np.bincount(cover.opt_piece, minlength=n_pieces)
    n_keep = np.bincount(cover.opt_piece[is_rep], minlength=n_pieces)
    best = None
    for p in np.nonzero(_fixable(cover, sym))[0].tolist():
        score = (int(n_keep[p]), int(n_keep[p]) / int(n_opts[p]))
        if best is None or score < best[0]:
            best = (score, p)
    if best is None:
        return None
    return best[1], np.nonzero((cover.opt_piece == best[1]) & is_rep)[0]


def _fixable(cover: Cover, sym: Symmetry) -> np.ndarray:
    """Per piece: used exactly once (count = min = 1), with placements, and H permutes its
    placements."""
    moved = sym.label_piece[sym.h_images]  # (|H|, n_opt)
    stays = np.ones(cover.n_options, dtype=bool)
    for row in moved:  # row by row: .all(axis=0) over a few rows costs more
        stays &= row == cover.opt_piece
    n_opts = np.bincount(cover.opt_piece, minlength=len(cover.piece_count))
    permuted = np.bincount(cover.opt_piece[stays], minlength=len(cover.piece_count)) == n_opts
    fixable: np.ndarray = (cover.piece_count == 1) & (cover.piece_min == 1) & (n_opts > 0) & permuted
    return fixable


def second_breaking(
    cover: Cover, sym: Symmetry, piece: int, first: np.ndarray
) -> tuple[int, np.ndarray, np.ndarray] | None:
    """Break what the first piece leaves. Where its placement o has symmetries S (motions of
    H fixing o, e.g. X on a rectangle's middle row), a second piece keeps, of each S-orbit of
    its placements, only the least: each S-orbit of solutions then has one member left (two
    or more only where the second piece's placement has symmetries in S too: the canonical
    check at the leaves sorts those). (second piece, and as CSR arrays over the options
    (ptr, banned), the placements of the second piece banned under each o of `first`), or
    None when no o has symmetries or no piece can serve: like the first, it must be used
    exactly once and its placements permuted by H. Of those, the one with most placements
    banned (measured on the corpus's rectangles: the fewest nodes, give or take)."""
    rows = sym.h_rows
    bit = np.left_shift(np.uint64(1), rows.astype(np.uint64))
    stab = [rows[(sym.opt_stab[o] & bit) != 0] for o in first.tolist()]
    if all(len(S) == 1 for S in stab):
        return None
    fit = _fixable(cover, sym)
    fit[piece] = False
    if not fit.any():
        return None
    cand = np.nonzero(fit[cover.opt_piece])[0]
    labels = sym.opt_label[cand]
    groups: dict[tuple[int, ...], int] = {}  # each S with symmetries, and how many o have it
    for S in stab:
        if len(S) > 1:
            groups[tuple(S)] = groups.get(tuple(S), 0) + 1
    not_least = {
        S: cand[sym.label_img[np.array(S)[:, None], labels[None, :]].min(axis=0) < labels] for S in groups
    }  # the candidates not least in their S-orbit
    n_banned = sum(n * np.bincount(cover.opt_piece[not_least[S]], minlength=len(fit)) for S, n in groups.items())
    second = int(np.argmax(np.where(fit, n_banned, -1)))
    mine = {S: ban[cover.opt_piece[ban] == second] for S, ban in not_least.items()}
    lists = [(o, mine.get(tuple(S), cand[:0])) for o, S in zip(first.tolist(), stab)]
    banned = np.zeros(cover.n_options + 1, dtype=np.int64)
    for o, ban in lists:
        banned[o + 1] = len(ban)
    ptr = np.cumsum(banned)
    flat = np.zeros(int(ptr[-1]), dtype=np.int32)
    for o, ban in lists:
        flat[ptr[o] : ptr[o + 1]] = ban
    return second, ptr, flat
