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
or past the memory budget, is counted again by `parts_frontier`, which keeps one layer of
states instead of all of them.

Counts are Python integers (exact beyond 2**63). `cap` saturates them (min(count, cap)),
which lets a uniqueness check stop at 2.

`count_options` counts a cover given as plain lists (`Options`) and imports numpy only for
a cover too large for Python propagation; `count` takes a `Cover` (numpy arrays, pieces
as counters) and turns its pieces into items first.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from ..limits import CHECK_EVERY, NO_LIMITS, Outgrown
from ..limits import Limits as Limits, Stopped as Stopped  # re-exported: callers name memo.Limits
from .propagation import Options, components, options_of, propagate

if TYPE_CHECKING:
    from ...core.cover import Cover


class MemoReport:
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
        self.method = "memo"  # "frontier" when a part was counted by parts_frontier


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
) -> MemoReport:
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
) -> MemoReport:
    """Count the solutions of `opts` (see the module doc); with `solution`, also one of them.
    Stopped when `limits` (a deadline, a memory budget for the memo) are reached first.
    `frontier_from`: memo states past which a part is counted by `parts_frontier`."""
    t0 = time.perf_counter()
    alive, covered, placed, dead = propagate(opts)
    res = MemoReport(0, forced=len(placed), dead_item=dead)
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


def count_part(part: Part, solution: bool, frontier_from: int | None, res: MemoReport) -> int:
    """A `Part`'s count by the memo, handed to `count` when the memo outgrows
    `frontier_from` states (a dense part: its layers need far less memory, and numpy sweeps
    them faster) -- uncapped counts only, of parts whose options fit the window."""
    from .parts_frontier import Stopped as FrontierStopped
    from .parts_frontier import count, fits

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
