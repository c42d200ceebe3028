"""The pieces' orientations and which pieces are congruent, in compiled code (for
engine/geometry/modelling.py's one-call model): each orientation kept as the sorted keys of its cells
(digits in the base of the shape's spread, the same under every motion) and the cells
themselves; pieces are congruent when their least orientations are equal under the motions
each may use. core.shape's orientations and core.puzzle.merge_congruent are the reference
(tests/engine/test_modelling.py compares the whole model with numpy's)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..bits import njit

Ints = npt.NDArray[np.int64]
I32 = npt.NDArray[np.int32]
Bools = npt.NDArray[np.bool_]


@njit(cache=True)
def shape_base(cells: Ints, start: int, end: int) -> int:
    """1 + the largest extent along an axis of the shape cells[start:end]: the base of its
    cells' keys (the same under every motion). (Rows by index: a slice in a loop costs
    its view's reference counting.)"""
    base = 1
    for a in range(cells.shape[1]):
        low = high = cells[start, a]
        for i in range(start + 1, end):
            low, high = min(low, cells[i, a]), max(high, cells[i, a])
        base = max(base, high - low + 1)
    return int(base)


@njit(cache=True, inline="always")
def _turn(
    piece_cells: Ints,
    start: int,
    k: int,
    mats: Ints,
    m: int,
    base: int,
    here: int,
    out: tuple[Ints, Ints],
    img: Ints,
    idx: Ints,
) -> None:
    """keys[here:here + k] = the keys of the cells piece_cells[start:start + k] @
    mats[m].T moved to the origin, ascending (a key: the coordinates as digits in `base`,
    the first axis most significant: ascending keys are the cells in lexicographic order),
    ocells[here:here + k] those cells in that order (out = (keys, ocells); rows by index
    and unsigned, no views, inlined: 16 -> 10 us a 3x20 model, JIT warm)."""
    keys, ocells = out
    d, one = np.uint64(piece_cells.shape[1]), np.uint64(1)
    start_, k_, m_, here_ = np.uint64(start), np.uint64(k), np.uint64(m), np.uint64(here)
    for r in range(d):
        low = 0
        for i in range(k_):
            s = 0
            for c in range(d):
                s += piece_cells[start_ + i, c] * mats[m_, r, c]
            img[i, r] = s
            low = s if i == 0 else min(low, s)
        for i in range(k_):
            img[i, r] -= low
    for i in range(k_):
        key = 0
        for a in range(d):
            key = key * base + img[i, a]
        j = np.uint64(i)  # insertion sort
        while j > 0 and keys[here_ + j - one] > key:
            keys[here_ + j], idx[j] = keys[here_ + j - one], idx[j - one]
            j -= one
        keys[here_ + j], idx[j] = key, i
    for q in range(k_):
        for a in range(d):
            ocells[here_ + q, a] = img[idx[q], a]


@njit(cache=True)
def orientations(
    piece_cells: Ints, piece_ptr: Ints, bases: Ints, reflect: Bools, mats: Ints, n_rot: int
) -> tuple[Ints, Ints, Ints, Ints]:
    """(keys, cells, at, first_of): every piece's distinct orientations in the order of the
    motions (core.shape.orientations), as sorted keys (_turn; `bases`: shape_base of each
    piece) and their cells: orientation i's are keys[at[i]:at[i + 1]] and
    cells[at[i]:at[i + 1]], piece p's orientations first_of[p]..first_of[p + 1] - 1."""
    n_p, d = len(piece_ptr) - 1, piece_cells.shape[1]
    keys = np.empty(len(mats) * len(piece_cells), dtype=np.int64)
    ocells = np.empty((len(keys), d), dtype=np.int64)
    at = np.zeros(len(mats) * n_p + 1, dtype=np.int64)
    first_of = np.zeros(n_p + 1, dtype=np.int64)
    k_max = 1
    for p in range(n_p):
        k_max = max(k_max, piece_ptr[p + 1] - piece_ptr[p])
    img, idx = np.empty((k_max, d), dtype=np.int64), np.empty(k_max, dtype=np.int64)
    n_o = 0
    for p in range(n_p):
        start, k = piece_ptr[p], piece_ptr[p + 1] - piece_ptr[p]
        for m in range(len(mats) if reflect[p] else n_rot):
            here = at[n_o]
            _turn(piece_cells, start, k, mats, m, bases[p], here, (keys, ocells), img, idx)
            new = True
            for o in range(first_of[p], n_o):
                if _equal(keys, at[o], here, k):
                    new = False
                    break
            if new:
                n_o += 1
                at[n_o] = here + k
        first_of[p + 1] = n_o
    return keys, ocells, at, first_of


@njit(cache=True)
def _equal(keys: Ints, a: int, b: int, k: int) -> bool:
    """Whether keys[a:a + k] and keys[b:b + k] are equal (np.array_equal allocates)."""
    for j in range(k):
        if keys[a + j] != keys[b + j]:
            return False
    return True


@njit(cache=True)
def _least(keys: Ints, at: Ints, first: int, last: int) -> int:
    """The orientation among first..last - 1 whose keys are lexicographically least."""
    best = first
    for o in range(first + 1, last):
        for j in range(at[o + 1] - at[o]):
            if keys[at[o] + j] != keys[at[best] + j]:
                if keys[at[o] + j] < keys[at[best] + j]:
                    best = o
                break
    return best


@njit(cache=True)
def merge_congruent(
    bases: Ints, count: Ints, least: Ints, reflect: Bools, keys: Ints, at: Ints, first_of: Ints
) -> tuple[Ints, Ints, Ints, Ints]:
    """(merged, first, copies, minimum): the merged piece each piece became (pieces
    congruent under their motions, with the same reflection rule, are copies of the first
    of them: core.puzzle.merge_congruent; congruent: the same least orientation), the
    first piece of each merged one, and the merged pieces' copies and minimum (`bases`:
    each piece's shape_base)."""
    n_p = len(count)
    canon = np.empty(n_p, dtype=np.int64)
    for p in range(n_p):
        canon[p] = _least(keys, at, first_of[p], first_of[p + 1])
    merged = np.full(n_p, -1, dtype=np.int64)
    first = np.zeros(n_p, dtype=np.int64)
    copies = np.zeros(n_p, dtype=np.int64)
    minimum = np.zeros(n_p, dtype=np.int64)
    m = 0
    for p in range(n_p):
        if merged[p] >= 0:
            continue
        merged[p], first[m], copies[m], minimum[m] = m, p, count[p], least[p]
        mine = at[canon[p] + 1] - at[canon[p]]
        for q in range(p + 1, n_p):
            k = at[canon[q] + 1] - at[canon[q]]
            if merged[q] < 0 and reflect[q] == reflect[p] and bases[q] == bases[p] and k == mine:
                if _equal(keys, at[canon[q]], at[canon[p]], k):
                    merged[q] = m
                    copies[m] += count[q]
                    minimum[m] += least[q]
        m += 1
    return merged, first[:m].copy(), copies[:m].copy(), minimum[:m].copy()
