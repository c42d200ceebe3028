"""When the bitboard kernel may reuse the count of a sub-problem, and where it keeps it.

A count below a node is a function of the node's state (items covered, copies left) only
when every leaf below counts alike (`memo_weights`): without symmetry, or under symmetry
breaking when the fixed pieces' placements leave no symmetry. The second fixed piece's
placements are marked per placement of the first (`set_bans`): BANNED (not counted, see
leaf.banned_pair) or FREE (no symmetry left below it: counts reusable again).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..bits import ONE, ZERO, njit, popcount
from ..leaf import breaking_stabiliser
from ..records import Rules, SymmetryTables

BANNED, FREE = 1, 2  # marks of the second fixed piece's placements (set_bans)
WAYS = 4  # rows a bucket: 4 x 16 bytes, one cache line (the driver aligns the table)
CODE_BITS = 24  # a row's second word: the code of the copies left (low bits), the count above
CODE_MASK = np.uint64((1 << CODE_BITS) - 1)
MAX_CODE = 1 << CODE_BITS  # the driver uses the memo only for codes below this (MEMO_MAX_CODE)
MAX_COUNT = 1 << (64 - CODE_BITS)  # larger counts are not kept


@njit(cache=True, inline="always")
def slot(covered: np.uint64, code: int, size: int) -> np.uint64:
    """The memo table's bucket for (covered items, code of the copies left): its first
    row (a multiple of WAYS); unsigned, so that indexing with it tests for no negative
    index. In a table of twice the rows a bucket's rows go to the same bucket or to the
    one `size` rows on, never with another bucket's: what `rehash` relies on."""
    h = covered * np.uint64(0x9E3779B97F4A7C15) ^ np.uint64(code) * np.uint64(0xC2B2AE3D27D4EB4F)
    return (h >> np.uint64(29)) & np.uint64(size - WAYS)


@njit(cache=True, inline="always")
def recall(rows: np.ndarray, covered: np.uint64, code: int) -> int | np.int64:
    """The count kept for the sub-problem (covered, code), or -1. A bucket is WAYS rows
    of 16 bytes (covered, code | count << CODE_BITS) side by side: one cache line read,
    whichever row holds it. An empty row's covered is 0, which no sub-problem has (the
    table is used below a placement only)."""
    h = slot(covered, code, rows.shape[0])
    c = np.uint64(code)
    for i in range(WAYS):
        g = h + np.uint64(i)
        if rows[g, 0] == covered and rows[g, 1] & CODE_MASK == c:
            return np.int64(rows[g, 1] >> np.uint64(CODE_BITS))
    return -1


@njit(cache=True, inline="always")
def keep(rows: np.ndarray, covered: np.uint64, code: int, count: int) -> None:
    """Keep the count of the sub-problem (covered, code) in the first row of its bucket,
    the rows there moving one on (the oldest is dropped). Counts of MAX_COUNT or more
    are not kept (reusing a count is optional)."""
    if count < MAX_COUNT:
        put(
            rows,
            slot(covered, code, rows.shape[0]),
            covered,
            np.uint64(code) | (np.uint64(count) << np.uint64(CODE_BITS)),
        )


@njit(cache=True, inline="always")
def put(rows: np.ndarray, h: np.uint64, covered: np.uint64, word: np.uint64) -> None:
    """The row (covered, word) first in the bucket at h, the others one on, the last dropped."""
    for i in range(WAYS - 1, 0, -1):
        g = h + np.uint64(i)
        rows[g, 0], rows[g, 1] = rows[g - ONE, 0], rows[g - ONE, 1]
    rows[h, 0], rows[h, 1] = covered, word


@njit(cache=True)
def rehash(old: np.ndarray, new: np.ndarray) -> None:
    """Move every row of `old` into the empty table `new` (of 2^k times its rows), the
    oldest of each bucket first: each new bucket receives rows of one old bucket only, at
    most WAYS, in their order, so nothing kept is lost (see `slot`)."""
    for b in range(0, old.shape[0], WAYS):
        for i in range(WAYS - 1, -1, -1):
            covered = old[b + i, 0]
            if covered != ZERO:
                word = old[b + i, 1]
                put(new, slot(covered, word & CODE_MASK, new.shape[0]), covered, word)


@njit(cache=True)
def new_rows(rows: int) -> np.ndarray:
    """An empty table of `rows` rows (uint64 pairs), written now and from a 64-byte
    boundary (driver.table_rows' table in one compiled call: its np.empty, fill, address
    through ndarray.ctypes and slicing took ~12 us of a fresh process's count)."""
    buf = np.zeros(2 * rows + 8, dtype=np.uint64)
    skip = ((64 - buf.ctypes.data % 64) % 64) // 8
    return buf[skip : skip + 2 * rows].reshape(rows, 2)


@njit(cache=True)
def memo_weights(chosen: np.ndarray, depth: int, rules: Rules, sym: SymmetryTables, weight: np.ndarray) -> bool:
    """Whether the leaves below the prefix chosen[:depth] all count alike, so that counts
    of sub-problems can be reused; weight: (solutions, classes) each leaf counts for.
    Without symmetry (mode 0), 1 and 0. Under breaking (mode 2), when the fixed pieces'
    placements have no common symmetry in H but the identity and H is the whole group G,
    every leaf is canonical, the least of its class, and stands for |H| solutions: |H| and
    1 (see leaf.on_leaf); the weights are set whenever H is G (they hold below a placement
    of the second fixed piece that makes the fixed pieces' symmetries the identity alone)."""
    opt_piece = rules.opt_piece
    sym_piece, h_mask, opt_stab, sym_piece2 = sym.piece, sym.h_mask, sym.opt_stab, sym.piece2
    if sym.mode == 0:
        weight[0] = 1
        weight[1] = 0
        return True
    if sym.mode != 2 or popcount(h_mask) != sym.label_img.shape[0]:
        return False
    weight[0] = np.int64(popcount(h_mask))
    weight[1] = 1
    fixed = False
    for i in range(depth):
        fixed |= opt_piece[chosen[i]] == sym_piece
    if (
        not fixed
        or popcount(breaking_stabiliser(chosen, depth, opt_piece, sym_piece, sym_piece2, opt_stab, h_mask)) != 1
    ):
        return False  # not the identity alone: leaves need their canonical check
    return True


@njit(cache=True)
def set_bans(
    chosen: np.ndarray, depth: int, opt_piece: np.ndarray, sym: SymmetryTables, second: np.ndarray, place: Any
) -> bool:
    """Mark the second fixed piece's placements under the first's placement among
    chosen[:depth] (place.marked: 1 + the option they are marked for, 0 none): BANNED
    (leaf.banned_pair) or FREE (no symmetry of the first's placement fixes it: every leaf
    below counts alike). False when chosen[:depth] holds a banned placement already."""
    sym_piece, h_mask, opt_stab, sym_piece2 = sym.piece, sym.h_mask, sym.opt_stab, sym.piece2
    ban_ptr, ban_opts = sym.ban_ptr, sym.ban_opts
    if sym_piece2 < 0:
        return True
    first = -1
    for i in range(depth):
        if opt_piece[chosen[i]] == sym_piece:
            first = chosen[i]
    if place.marked - 1 != first:
        for o in range(len(second)):
            second[o] = 0
            if first >= 0 and opt_piece[o] == sym_piece2:
                if popcount(h_mask & opt_stab[first] & opt_stab[o]) == 1:
                    second[o] = FREE
        if first >= 0:
            for j in range(ban_ptr[first], ban_ptr[first + 1]):
                second[ban_opts[j]] = BANNED
        place.marked = first + 1
    for i in range(depth):
        if second[chosen[i]] == BANNED:
            return False
    return True
