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

When a caller allows it (`frontier_from`), a part whose memo grows past that many states,
or past the memory budget, is counted again by `engine.frontier`, which keeps one layer of
states instead of all of them.

Counts are Python integers (exact beyond 2**63). `cap` saturates them (min(count, cap)),
which lets a uniqueness check stop at 2.

`count_options` counts a cover given as plain lists (`Options`) and imports numpy only for
a cover too large for Python propagation; `count` takes a `Cover` (numpy arrays, pieces
as counters) and turns its pieces into items first.
"""

from __future__ import annotations

import sys
import time
from itertools import accumulate, chain
from typing import TYPE_CHECKING, Any, NamedTuple

from .limits import CHECK_EVERY, NO_LIMITS, Outgrown
from .limits import Limits as Limits, Stopped as Stopped  # re-exported: callers name memo.Limits

if TYPE_CHECKING:
    import numpy as np

    from ..core.cover import Cover


class MemoResult:
    """What the counter answers (a plain class: `dataclasses` would cost a Shikaku run more
    to import than the count takes)."""

    def __init__(self, solutions: int, forced: int = 0, dead_item: int = -1):
        self.solutions = solutions  # exact, or min(solutions, cap)
        self.found: list[int] | None = None  # option ids of one solution, ascending (None: none)
        self.dead_item = dead_item  # an item no option can cover, when propagation shows it
        self.forced = forced  # options placed by propagation
        self.components = 0  # independent parts after propagation
        self.nodes = 0  # memoised states (sub-problems counted)
        self.seconds = 0.0
        self.capped = False  # the count reached `cap` (it may be larger)
        self.method = "memo"  # "frontier" when a part was counted by engine.frontier


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


class Part:
    """One component as bitmasks over local bits: its primary items first (in cover order),
    then the secondary items its options touch. `first[b]`: (mask, option) pairs of the
    options whose lowest primary bit is b."""

    def __init__(
        self,
        opts: Options,
        items: list[int],
        options: list[int],
        cap: int | None,
        limits: Limits = NO_LIMITS,
        held: int = 0,
    ):
        local = {i: b for b, i in enumerate(items)}
        extra = sorted({i for o in options for i in opts.opt_items[o] if i not in local})
        for i in extra:
            local[i] = len(local)
        self.full = (1 << len(items)) - 1
        self.first: list[list[tuple[int, int]]] = [[] for _ in items]
        for o in options:
            bits = [local[i] for i in opts.opt_items[o]]
            mask = 0
            for b in bits:
                mask |= 1 << b
            self.first[min(b for b in bits if b < len(items))].append((mask, o))
        self.memo: dict[int, int] = {}
        self.cap = cap
        self.limits = limits
        self.bits = len(local)
        self.entry = limits.entry_bytes(self.bits)  # bytes of one memoised state
        self.held = held  # bytes the parts counted before this one keep
        self.switch: int | None = None  # states past which the frontier counts it instead
        self.found: list[int] | None = None  # one solution, when the frontier counted it

    @property
    def most(self) -> int | None:
        """States the memo may hold: the budget left by the parts counted before."""
        if self.limits.memory is None:
            return None
        return max(CHECK_EVERY, (self.limits.memory - self.held) // self.entry)

    def _check(self) -> None:
        """Stop when the deadline has passed or the memo has reached its share of the budget."""
        n, most = len(self.memo), self.most
        if self.switch is not None and (n >= self.switch or (most is not None and n >= most)):
            raise Outgrown()  # past the switch, or out of memory: the frontier's turn
        if most is not None and n >= most:
            raise Stopped("memory budget", n, self.held + n * self.entry)
        if self.limits.deadline is not None and time.perf_counter() > self.limits.deadline:
            raise Stopped("time limit", n)

    def count(self, start: int = 0) -> int:
        """Solutions of the part with the bits of `start` already covered (explicit stack)."""
        full, first, memo, cap = self.full, self.first, self.memo, self.cap
        if start & full == full:
            return 1
        if start in memo:
            return memo[start]
        free = full & ~start
        stack: list[list[Any]] = [[start, first[(free & -free).bit_length() - 1], 0, 0]]
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
            if not len(memo) % CHECK_EVERY:
                self._check()
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
            choices = [
                (m, o)
                for m, o in self.first[(free & -free).bit_length() - 1]
                if not m & covered and self.count(covered | m) > 0
            ]
            if prefer_not:
                choices.sort(key=lambda mo: mo[1] in prefer_not)
            mask, o = choices[0]
            out.append(o)
            covered |= mask
        return out


def count(
    cover: Cover, *, cap: int | None = None, solution: bool = True, prefer_not: set[int] | None = None
) -> MemoResult:
    """Count the solutions of a `Cover` (see `count_options`)."""
    return count_options(options_of(cover), cap=cap, solution=solution, prefer_not=prefer_not)


FRONTIER_FROM = 1 << 16  # memo states past which a part goes to the frontier programme:
# ~0.1 s of memo, about what importing numpy costs (the sparse
# puzzles people type never get there: 37 states on 150 x 150)


def count_options(
    opts: Options,
    *,
    cap: int | None = None,
    solution: bool = True,
    prefer_not: set[int] | None = None,
    limits: Limits = NO_LIMITS,
    frontier_from: int | None = None,
) -> MemoResult:
    """Count the solutions of `opts` (see the module doc); with `solution`, also one of them.
    Stopped when `limits` (a deadline, a memory budget for the memo) are reached first.
    `frontier_from`: memo states past which a part is counted by `engine.frontier`."""
    t0 = time.perf_counter()
    alive, covered, placed, dead = propagate(opts)
    res = MemoResult(0, forced=len(placed), dead_item=dead)
    if dead >= 0:
        res.seconds = time.perf_counter() - t0
        return res
    ids = [o for o, live in enumerate(alive) if live]
    rest = Options(opts.n_items, opts.primary, [opts.opt_items[o] for o in ids])
    avoid = None if prefer_not is None else {k for k, o in enumerate(ids) if o in prefer_not}
    parts = [Part(rest, items, part, cap, limits) for items, part in components(rest, covered)]
    parts.sort(key=lambda p: p.full.bit_length())
    res.components = len(parts)
    total, held = 1, 0
    for part in parts:
        part.held = held
        total *= count_part(part, solution, frontier_from, res)
        held += len(part.memo) * part.entry
        if total == 0:
            break
        if cap is not None and total >= cap:
            total, res.capped = cap, True
    res.solutions = total
    if solution and total > 0:
        chosen = list(placed)
        for part in parts:
            found = part.found if part.found is not None else part.solution(avoid)
            chosen += [ids[k] for k in found]
        res.found = sorted(chosen)
    res.seconds = time.perf_counter() - t0
    return res


def count_part(part: Part, solution: bool, frontier_from: int | None, res: MemoResult) -> int:
    """A `Part`'s count by the memo, handed to `count` when the memo outgrows
    `frontier_from` states (a dense part: its layers need far less memory, and numpy sweeps
    them faster) -- uncapped counts only, of parts whose options fit the window."""
    from .frontier import Stopped as FrontierStopped
    from .frontier import count, fits

    use = frontier_from is not None and part.cap is None and fits(part.first, part.full.bit_length())
    part.switch = frontier_from if use else None
    try:
        if use and frontier_from == 0:
            raise Outgrown()
        n = part.count()
        res.nodes += len(part.memo)
        return n
    except Outgrown:
        part.memo, part.switch = {}, None

    memory = None if part.limits.memory is None else part.limits.memory - part.held
    try:
        got = count(part.first, solution=solution, deadline=part.limits.deadline, memory=memory)
    except FrontierStopped as stop:
        stopped = Stopped(stop.reason, stop.states, part.held + stop.need)
        stopped.method = "frontier"
        raise stopped from None
    res.method, res.nodes = "frontier", res.nodes + got.states
    part.found = got.found
    return got.solutions
