"""Count the solutions of an exact cover exactly, with memoised sub-problems.

Knows no geometry; works on any `Cover` whose pieces are used at most once (a piece with
one copy becomes an item: primary when it must be used, secondary otherwise).

1. Propagate: an uncovered primary item with one live option forces it; with none, there
   is no solution. (For Shikaku: a clue with one rectangle left, a cell one rectangle covers.)
2. Split the uncovered items into components of the item-option graph; counts multiply.
3. Count each component by filling its first uncovered item (in the cover's item order)
   with every live option whose first item it is, memoising count(covered set). The
   distinct covered sets are bounded by the frontier of the fill, as in a transfer matrix,
   which is what makes boards with astronomically many solutions countable.

Counts are Python integers (exact beyond 2**63). `cap` saturates them (min(count, cap)),
which lets a uniqueness check stop at 2.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from ..cover import Cover


@dataclass
class MemoResult:
    solutions: int                     # exact, or min(solutions, cap)
    found: np.ndarray | None = None    # option ids of one solution (None when there is none)
    dead_item: int = -1                # an item no option can cover, when propagation shows it
    forced: int = 0                    # options placed by propagation
    components: int = 0                # independent parts after propagation
    nodes: int = 0                     # memoised states (sub-problems counted)
    seconds: float = 0.0
    capped: bool = False               # the count reached `cap` (it may be larger)


@dataclass
class Lists:
    """The cover as Python lists: what the loops below need, built once."""
    n_items: int
    primary: list[bool]
    opt_items: list[list[int]]
    item_opts: list[list[int]] = field(default_factory=list)


def as_lists(cover: Cover) -> Lists:
    """Cells and pieces as items: a piece with one copy is an item (secondary when it may
    stay unused) unless some item already belongs to exactly its options (a Shikaku clue's
    cell); a piece with at least as many copies as options is no constraint at all."""
    flat = cover.opt_items.tolist()
    ptr = cover.opt_ptr.tolist()
    opt_items = [flat[ptr[o]:ptr[o + 1]] for o in range(cover.n_options)]
    item_opts = _options_by_item(cover)
    primary = [True] * cover.n_items
    by_piece: dict[int, list[int]] = {}
    for o, p in enumerate(cover.opt_piece.tolist()):
        by_piece.setdefault(p, []).append(o)
    for p in range(len(cover.piece_count)):
        opts = by_piece.get(p, [])
        copies, least = int(cover.piece_count[p]), int(cover.piece_min[p])
        if least > 1:
            raise ValueError(f"memo counting needs pieces used at most once (piece {p}: {least})")
        if copies >= len(opts) and least == 0:
            continue
        if copies != 1:
            raise ValueError(f"memo counting needs pieces used at most once (piece {p}: {copies})")
        if opts and least == 1 and any(item_opts[i] == opts for i in opt_items[opts[0]]):
            continue
        for o in opts:
            opt_items[o].append(len(item_opts))
        item_opts.append(list(opts))
        primary.append(least == 1)
    return Lists(len(item_opts), primary, opt_items, item_opts)


def _options_by_item(cover: Cover) -> list[list[int]]:
    """For each item, the options that cover it, ascending."""
    owner = np.repeat(np.arange(cover.n_options), np.diff(cover.opt_ptr))
    order = np.argsort(cover.opt_items, kind="stable")
    flat = owner[order].tolist()
    ptr = np.concatenate([[0], np.cumsum(np.bincount(cover.opt_items, minlength=cover.n_items))]).tolist()
    return [flat[ptr[i]:ptr[i + 1]] for i in range(cover.n_items)]


def propagate(lists: Lists, alive: bytearray, covered: bytearray) -> tuple[list[int], int]:
    """Place forced options until none is left. Returns (placed options, dead item or -1)."""
    opt_items, item_opts, primary = lists.opt_items, lists.item_opts, lists.primary
    if all(alive):
        live = [len(opts) for opts in item_opts]
    else:
        live = [sum(alive[o] for o in opts) for opts in item_opts]
    queue = [i for i in range(lists.n_items) if primary[i] and not covered[i] and live[i] <= 1]
    placed: list[int] = []
    while queue:
        i = queue.pop()
        if covered[i]:
            continue
        if live[i] == 0:
            return placed, i
        o = next(o for o in item_opts[i] if alive[o])
        placed.append(o)
        for j in opt_items[o]:
            covered[j] = 1
        for j in opt_items[o]:
            for o2 in item_opts[j]:
                if alive[o2]:
                    alive[o2] = 0
                    for k in opt_items[o2]:
                        live[k] -= 1
                        if live[k] <= 1 and not covered[k] and primary[k]:
                            queue.append(k)
    return placed, -1


def components(lists: Lists, alive: bytearray, covered: bytearray) -> list[tuple[list[int], list[int]]]:
    """(items, options) of each connected part of what is left; items in cover order."""
    parent = list(range(lists.n_items))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    live_opts = [o for o in range(len(alive)) if alive[o]]
    for o in live_opts:
        items = lists.opt_items[o]
        r = find(items[0])
        for i in items[1:]:
            s = find(i)
            if s != r:
                parent[s] = r
    parts: dict[int, tuple[list[int], list[int]]] = {}
    for i in range(lists.n_items):
        if not covered[i] and lists.primary[i]:
            parts.setdefault(find(i), ([], []))[0].append(i)
    for o in live_opts:
        part = parts.get(find(lists.opt_items[o][0]))
        if part is None:               # only secondary items: it may stay unused, nothing forces it
            continue
        part[1].append(o)
    return list(parts.values())


class Part:
    """One component as bitmasks over local bits: its primary items first (in cover order),
    then the secondary items its options touch. `first[b]`: (mask, option) pairs of the
    options whose lowest primary bit is b."""

    def __init__(self, lists: Lists, items: list[int], options: list[int], cap: int | None):
        local = {i: b for b, i in enumerate(items)}
        extra = sorted({i for o in options for i in lists.opt_items[o] if i not in local})
        for i in extra:
            local[i] = len(local)
        self.full = (1 << len(items)) - 1
        self.first: list[list[tuple[int, int]]] = [[] for _ in items]
        for o in options:
            bits = [local[i] for i in lists.opt_items[o]]
            mask = 0
            for b in bits:
                mask |= 1 << b
            self.first[min(b for b in bits if b < len(items))].append((mask, o))
        self.memo: dict[int, int] = {}
        self.cap = cap

    def count(self, start: int = 0) -> int:
        """Solutions of the part with the bits of `start` already covered (explicit stack)."""
        full, first, memo, cap = self.full, self.first, self.memo, self.cap
        if start & full == full:
            return 1
        if start in memo:
            return memo[start]
        free = full & ~start
        stack = [[start, first[(free & -free).bit_length() - 1], 0, 0]]
        while stack:
            frame = stack[-1]
            covered, opts, k, total = frame
            n = len(opts)
            descended = False
            while k < n:
                mask = opts[k][0]
                k += 1
                if mask & covered:
                    continue
                child = covered | mask
                if child & full == full:
                    total += 1
                elif child in memo:
                    total += memo[child]
                else:
                    frame[2], frame[3] = k, total
                    free = full & ~child
                    stack.append([child, first[(free & -free).bit_length() - 1], 0, 0])
                    descended = True
                    break
                if cap is not None and total >= cap:
                    total = cap
                    k = n
            if descended:
                continue
            memo[covered] = total
            stack.pop()
            if stack:
                parent = stack[-1]
                parent[3] += total
                if cap is not None and parent[3] >= cap:
                    parent[3] = cap
                    parent[2] = len(parent[1])
        return memo[start]

    def solution(self, prefer_not: set[int] | None = None) -> list[int]:
        """Options of one solution (the count must be positive); options outside
        `prefer_not` are taken when they still lead to a solution."""
        full, out, covered = self.full, [], 0
        while covered & full != full:
            free = full & ~covered
            choices = [(m, o) for m, o in self.first[(free & -free).bit_length() - 1]
                       if not m & covered and self.count(covered | m) > 0]
            if prefer_not:
                choices.sort(key=lambda mo: mo[1] in prefer_not)
            mask, o = choices[0]
            out.append(o)
            covered |= mask
        return out


def count(cover: Cover | Lists, *, cap: int | None = None, solution: bool = True,
          prefer_not: set[int] | None = None) -> MemoResult:
    """Count the solutions of `cover` (see the module doc); with `solution`, also one of them."""
    t0 = time.perf_counter()
    lists = cover if isinstance(cover, Lists) else as_lists(cover)
    alive = bytearray(b"\x01") * len(lists.opt_items)
    covered = bytearray(lists.n_items)
    placed, dead = propagate(lists, alive, covered)
    res = MemoResult(0, forced=len(placed), dead_item=dead)
    if dead >= 0:
        res.seconds = time.perf_counter() - t0
        return res
    parts = [Part(lists, items, opts, cap) for items, opts in components(lists, alive, covered)]
    parts.sort(key=lambda p: p.full.bit_length())
    res.components = len(parts)
    total = 1
    for part in parts:
        total *= part.count()
        res.nodes += len(part.memo)
        if total == 0:
            break
        if cap is not None and total >= cap:
            total, res.capped = cap, True
    res.solutions = total
    if solution and total > 0:
        chosen = list(placed)
        for part in parts:
            chosen += part.solution(prefer_not)
        res.found = np.array(sorted(chosen), dtype=np.int64)
    res.seconds = time.perf_counter() - t0
    return res
