"""Forced options and independent parts of an exact cover, before any counting: the cover as
plain lists (`Options`) or numpy arrays (`Arrays`), propagation of the options a clue or an
item leaves no choice about (plain Python on small covers, numba on large ones), and the
split of what is left into parts whose counts multiply. The memo counter (engine/memo.py) and
the Shikaku Pfaffian (shikaku/pfaffian.py) start from here."""

from __future__ import annotations

import sys
from itertools import accumulate, chain
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    import numpy as np

    from ...core.cover import Cover


class Options(NamedTuple):
    """An exact cover as plain lists: the items of each option (ascending, < n_items); a
    primary item must be covered exactly once, a secondary one at most once."""

    n_items: int
    primary: list[bool]
    opt_items: list[list[int]]


class Arrays(NamedTuple):
    """The cover with its pieces turned into items, as CSR arrays."""

    n_items: int
    primary: np.ndarray  # uint8 per item
    opt_ptr: np.ndarray  # int64
    opt_items: np.ndarray  # int64


def _by_item(n_items: int, opt_ptr: np.ndarray, opt_items: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    import numpy as np

    owner = np.repeat(np.arange(len(opt_ptr) - 1, dtype=np.int64), np.diff(opt_ptr))
    order = np.argsort(opt_items, kind="stable")
    ptr = np.concatenate([[0], np.cumsum(np.bincount(opt_items, minlength=n_items))]).astype(np.int64)
    return ptr, owner[order]


def arrays(cover: Cover) -> Arrays:
    """Pieces as items: a piece with one copy becomes an item (secondary when it may stay
    unused) unless some item already belongs to exactly its options (a Shikaku clue's
    cell); a piece with at least as many copies as options is no constraint at all."""
    import numpy as np

    n, ptr = cover.n_items, cover.opt_ptr.astype(np.int64)
    items, piece = cover.opt_items.astype(np.int64), cover.opt_piece.astype(np.int64)
    copies, least = cover.piece_count.astype(np.int64), cover.piece_min.astype(np.int64)
    per_piece = np.bincount(piece, minlength=len(copies))
    free = (copies >= per_piece) & (least == 0)
    if (least > 1).any() or ((copies != 1) & ~free).any():
        raise ValueError("memo counting needs pieces used at most once")
    item_ptr, item_opts = _by_item(n, ptr, items)
    sizes = np.diff(item_ptr)
    used = np.nonzero(sizes)[0]
    owns = np.zeros(len(copies), dtype=bool)
    if len(used):
        p_of = piece[item_opts]
        lo = np.minimum.reduceat(p_of, item_ptr[used])
        hi = np.maximum.reduceat(p_of, item_ptr[used])
        whole = (lo == hi) & (sizes[used] == per_piece[lo])
        owns[lo[whole]] = True
    needs = ~free & ~(owns & (least == 1))
    primary = np.ones(n, dtype=np.uint8)
    if needs.any():
        new_item = np.full(len(copies), -1, dtype=np.int64)
        new_item[needs] = n + np.arange(int(needs.sum()))
        extra = np.nonzero(needs[piece])[0]
        items = np.insert(items, ptr[1:][extra], new_item[piece[extra]])
        ptr = ptr + np.concatenate([[0], np.cumsum(needs[piece])])
        primary = np.concatenate([primary, (least[needs] == 1).astype(np.uint8)])
        n += int(needs.sum())
    return Arrays(n, primary, ptr, items)


def options_of(cover: Cover) -> Options:
    """A `Cover` as plain lists, its pieces turned into items (see `arrays`)."""
    arr = arrays(cover)
    flat, ptr = arr.opt_items.tolist(), arr.opt_ptr.tolist()
    return Options(
        arr.n_items, [bool(x) for x in arr.primary.tolist()], [flat[ptr[o] : ptr[o + 1]] for o in range(len(ptr) - 1)]
    )


# what propagate_arrays indexes: a list or bytearray in Python, a numpy array under numba
Indexable = Any


def propagate_arrays(
    primary: Indexable,
    opt_ptr: Indexable,
    opt_items: Indexable,
    item_ptr: Indexable,
    item_opts: Indexable,
    alive: Indexable,
    covered: Indexable,
    placed: Indexable,
    live: Indexable,
    queue: Indexable,
) -> tuple[int, int]:
    """Place forced options until none is left; returns (number placed, dead item or -1).
    Plain indexing only: it runs as Python on lists, or compiled by numba on arrays.
    `live` (zeros, per item) and `queue` (3 per item) are scratch space."""
    n_items = len(primary)
    top = 0
    for i in range(n_items):
        for e in range(item_ptr[i], item_ptr[i + 1]):
            if alive[item_opts[e]]:
                live[i] += 1
        if primary[i] and not covered[i] and live[i] <= 1:
            queue[top] = i
            top += 1
    n_placed = 0
    while top > 0:
        top -= 1
        i = queue[top]
        if covered[i]:
            continue
        if live[i] == 0:
            return n_placed, i
        o = -1
        for e in range(item_ptr[i], item_ptr[i + 1]):
            if alive[item_opts[e]]:
                o = item_opts[e]
                break
        placed[n_placed] = o
        n_placed += 1
        for e in range(opt_ptr[o], opt_ptr[o + 1]):
            covered[opt_items[e]] = 1
        for e in range(opt_ptr[o], opt_ptr[o + 1]):
            j = opt_items[e]
            for f in range(item_ptr[j], item_ptr[j + 1]):
                o2 = item_opts[f]
                if alive[o2]:
                    alive[o2] = 0
                    for g in range(opt_ptr[o2], opt_ptr[o2 + 1]):
                        k = opt_items[g]
                        live[k] -= 1
                        if live[k] <= 1 and not covered[k] and primary[k]:
                            queue[top] = k
                            top += 1
    return n_placed, -1


COMPILED_FROM = 500_000  # entries: below this, Python is quicker than importing numba (a
# whole process on 100 x 100 Shikaku: 0.3 s in Python, 1.2 s with numba)
COMPILED_LOADED_FROM = 50_000  # the same once numba is imported (a warm process, the web page)
_kernel = None


def csr(opts: Options) -> tuple[list[int], list[int], list[int], list[int]]:
    """(opt_ptr, opt_items, item_ptr, item_opts): the cover both ways, as flat lists."""
    by_item: list[list[int]] = [[] for _ in range(opts.n_items)]
    for o, items in enumerate(opts.opt_items):
        for i in items:
            by_item[i].append(o)
    return (
        [0, *accumulate(map(len, opts.opt_items))],
        list(chain.from_iterable(opts.opt_items)),
        [0, *accumulate(map(len, by_item))],
        list(chain.from_iterable(by_item)),
    )


def propagate(opts: Options) -> tuple[bytearray, bytearray, list[int], int]:
    """(alive per option, covered per item, forced options, dead item or -1)."""
    n_opt, n = len(opts.opt_items), opts.n_items
    entries = sum(map(len, opts.opt_items))
    if entries >= COMPILED_FROM or (entries >= COMPILED_LOADED_FROM and "numba" in sys.modules):
        return _propagate_compiled(opts)
    alive, covered, placed = bytearray(b"\x01") * n_opt, bytearray(n), [0] * (n + 1)
    k, dead = propagate_arrays(opts.primary, *csr(opts), alive, covered, placed, [0] * n, [0] * (3 * n + 1))
    return alive, covered, placed[:k], dead


def _propagate_compiled(opts: Options) -> tuple[bytearray, bytearray, list[int], int]:
    """`propagate_arrays` compiled by numba, on the cover as numpy arrays."""
    global _kernel
    import numpy as np

    if _kernel is None:
        import numba

        _kernel = numba.njit(cache=True)(propagate_arrays)
    n_opt, n = len(opts.opt_items), opts.n_items
    opt_ptr = np.cumsum([0, *map(len, opts.opt_items)], dtype=np.int64)
    opt_items = np.fromiter(chain.from_iterable(opts.opt_items), np.int64, int(opt_ptr[-1]))
    alive, covered = np.ones(n_opt, np.uint8), np.zeros(n, np.uint8)
    placed = np.zeros(n + 1, np.int64)
    k, dead = _kernel(
        np.array(opts.primary, np.uint8),
        opt_ptr,
        opt_items,
        *_by_item(n, opt_ptr, opt_items),
        alive,
        covered,
        placed,
        np.zeros(n, np.int64),
        np.zeros(3 * n + 1, np.int64),
    )
    return bytearray(alive.tobytes()), bytearray(covered.tobytes()), placed[:k].tolist(), int(dead)


def components(opts: Options, covered: bytearray) -> list[tuple[list[int], list[int]]]:
    """(items, options) of each connected part of the uncovered items; items in cover order."""
    parent = list(range(opts.n_items))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for items in opts.opt_items:
        r = find(items[0])
        for i in items[1:]:
            s = find(i)
            if s != r:
                parent[s] = r
    parts: dict[int, tuple[list[int], list[int]]] = {}
    for i in range(opts.n_items):
        if not covered[i] and opts.primary[i]:
            parts.setdefault(find(i), ([], []))[0].append(i)
    for o, items in enumerate(opts.opt_items):
        part = parts.get(find(items[0]))
        if part is None:  # only secondary items: it may stay unused, nothing forces it
            continue
        part[1].append(o)
    return list(parts.values())
