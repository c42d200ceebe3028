"""Shikaku grades a person would recognise: the rules that solve a grid with one solution.

Every number starts with its candidate rectangles (`shikaku.candidates`), each one Python int
with a bit per cell (row-major), as `shikaku.prune` keeps them. The rules, by level:

1. forced: a number with one candidate left is placed; a free cell only one candidate covers
   is that candidate's (placing a rectangle removes the candidates that overlap it);
2. also overlap and region rules: a cell only one number reaches is that number's (it keeps
   the candidates holding the cell); cells every candidate of a number holds (its core) are
   that number's, so other numbers' candidates holding them go (the two are `shikaku.prune`'s
   rules, applied one kind at a time here); a candidate that would leave another number
   without a candidate or a cell no rectangle can reach goes ("no room"); a candidate that
   would cut off a region of free cells whose numbers do not add up to its area goes;
3. also one level of trial: a candidate of a number with at most TRY of them is assumed, and
   rules 1-2 applied; a contradiction rules it out;
4. deeper trial: guesses inside guesses (a search, rules 1-2 at every step), as deep as it takes.

A grid's level is the lowest whose rules place every number; every rule is sound (it removes
only candidates no solution uses). Rules are counted by kind and depth: a deduction's depth is
the number of assumptions in force (0 on the main line; 1 for a trial's contradiction; at
level 4, d after d guesses on the path to the solution). Pure Python: no numpy.
"""

from __future__ import annotations

import time

from .candidates import candidates
from .grid import Rect, Shikaku
from .prune import masks, rect_of

LEVELS = {1: "forced rectangles", 2: "overlap and region rules", 3: "one level of trial", 4: "deeper trial"}
RULES = {  # kind: (level, in a person's words)
    "one-candidate": (1, "a number with one rectangle left"),
    "one-cover": (1, "a cell only one rectangle covers"),
    "one-number": (2, "a cell only one number reaches"),
    "core": (2, "cells every rectangle of a number holds"),
    "no-room": (2, "a rectangle that leaves a number or a cell no room"),
    "region": (2, "a rectangle that cuts off a region its numbers cannot fill"),
    "trial": (3, "trial: a rectangle that leads to a contradiction"),
    "guess": (4, "guess: one rectangle of a number assumed"),
}
SOLVED, STUCK, CONTRADICTION, PROGRESS = "solved", "stuck", "contradiction", "progress"
TRY = 3  # level 3 tries the candidates of a number with at most this many, as a person would


class TooHard(Exception):
    """The grading passed its deadline: the grid is left ungraded."""


class Board:
    """The grid as the rules read it: bit masks of the cells, each number's candidates (in the
    grid's frame) and the numbers whose candidates can meet (`near`)."""

    def __init__(self, puzzle: Shikaku, deadline: float | None = None):
        w, h = puzzle.width, puzzle.height
        self.puzzle, self.width, self.deadline = puzzle, w, deadline
        self.full = (1 << (w * h)) - 1
        left = sum(1 << (r * w) for r in range(h))
        self.not_left, self.not_right = self.full ^ left, self.full ^ (left << (w - 1))
        self.area = [v for _, _, v in puzzle.clues]
        self.clue_bit = [1 << (r * w + c) for r, c, _ in puzzle.clues]
        ms, offsets = masks(w, candidates(h, w, puzzle.clues))
        self.cands = [[m << off for m in row] for row, off in zip(ms, offsets)]
        reach = [_union(row) for row in self.cands]
        self.near = [[j for j, other in enumerate(reach) if j != k and other & mine] for k, mine in enumerate(reach)]

    def grow(self, seed: int, within: int, stop: int = 0) -> int:
        """The cells of `within` 4-connected to `seed`; early, once every cell of `stop` is in."""
        seen, w = seed, self.width
        while True:
            more = seen | ((seen << 1) & self.not_left) | ((seen >> 1) & self.not_right) | (seen << w) | (seen >> w)
            more &= within
            if more == seen or (stop and more & stop == stop):
                return more
            seen = more

    def ring(self, m: int) -> int:
        """The cells next to the cells of m (outside m)."""
        w = self.width
        return (((m << 1) & self.not_left) | ((m >> 1) & self.not_right) | (m << w) | (m >> w)) & self.full & ~m

    def rect(self, k: int, m: int) -> Rect:
        """The rectangle of number k's candidate m."""
        return rect_of(m, self.width, self.area[k])


class State:
    """A position: each number's live candidates, which are placed, the cells they take, and
    the rules counted so far {(kind, depth): count}; `depth`: the assumptions in force."""

    def __init__(self, live: list[list[int]], done: list[bool], taken: int, depth: int = 0):
        self.live, self.done, self.taken, self.depth = live, done, taken, depth
        self.counts: dict[tuple[str, int], int] = {}

    def copy(self, keep_counts: bool = False) -> State:
        """The position one assumption deeper (a trial's counts are its own; a guess's go on)."""
        st = State([list(ms) for ms in self.live], list(self.done), self.taken, self.depth + 1)
        if keep_counts:
            st.counts = dict(self.counts)
        return st

    def note(self, kind: str, n: int = 1) -> None:
        """Count n deductions of `kind` at this depth."""
        key = (kind, self.depth)
        self.counts[key] = self.counts.get(key, 0) + n

    def open(self) -> list[int]:
        """The numbers not placed yet."""
        return [k for k, d in enumerate(self.done) if not d]


def _union(ms: list[int]) -> int:
    out = 0
    for m in ms:
        out |= m
    return out


def start(b: Board) -> State:
    """The position before any deduction."""
    return State([list(ms) for ms in b.cands], [False] * len(b.cands), 0)


def place(b: Board, st: State, k: int, m: int) -> bool:
    """Put number k's candidate m down; False when a number near it is left without a candidate."""
    st.done[k], st.live[k] = True, [m]
    st.taken |= m
    for j in b.near[k]:
        if not st.done[j]:
            keep = [x for x in st.live[j] if not x & m]
            if not keep:
                return False
            st.live[j] = keep
    return True


def forced(b: Board, st: State) -> str | None:
    """Level 1: place every number with one candidate and every candidate that is the only
    one to cover some cell; a contradiction when a free cell has no candidate; None: none."""
    ones = twos = 0
    for k in st.open():
        for m in st.live[k]:
            twos |= ones & m
            ones |= m
    if (b.full & ~st.taken) & ~ones:
        return CONTRADICTION
    once = ones & ~twos
    picks = []
    for k in st.open():
        ms = st.live[k]
        if len(ms) == 1:
            picks.append((k, ms[0], "one-candidate"))
        else:
            picks += [(k, m, "one-cover") for m in ms if m & once][:1]
    for k, m, kind in picks:
        if st.done[k] or m not in st.live[k]:
            continue  # a pick before this one took its cells: the next round sees the cell empty
        if not place(b, st, k, m):
            return CONTRADICTION
        st.note(kind)
    return PROGRESS if picks else None


def _narrow(st: State, k: int, keep: list[int], kind: str) -> str | None:
    """Number k keeps `keep` (counted as the candidates removed)."""
    if len(keep) == len(st.live[k]):
        return None
    st.note(kind, len(st.live[k]) - len(keep))
    st.live[k] = keep
    return CONTRADICTION if not keep else PROGRESS


def _worst(results: list[str | None]) -> str | None:
    return CONTRADICTION if CONTRADICTION in results else PROGRESS if PROGRESS in results else None


def one_number(b: Board, st: State) -> str | None:
    """A cell only one number's candidates reach: that number keeps the candidates holding it."""
    ones = twos = 0
    unions = {k: _union(st.live[k]) for k in st.open()}
    for u in unions.values():
        twos |= ones & u
        ones |= u
    alone = ones & ~twos
    out = []
    for k, u in unions.items():
        need = u & alone
        if need:
            out.append(_narrow(st, k, [m for m in st.live[k] if m & need == need], "one-number"))
    return _worst(out)


def core(b: Board, st: State) -> str | None:
    """The cells every candidate of a number holds are its: other numbers' candidates holding
    them go (two cores that meet are a contradiction)."""
    cores, every = {}, 0
    for k in st.open():
        c = -1
        for m in st.live[k]:
            c &= m
        if c & every:
            return CONTRADICTION
        cores[k], every = c, every | c
    out = []
    for k, c in cores.items():
        blocked = every & ~c
        out.append(_narrow(st, k, [m for m in st.live[k] if not m & blocked], "core"))
    return _worst(out)


def _no_room(b: Board, st: State, k: int, r: int, unions: dict[int, int]) -> bool:
    """Whether number k's candidate r would leave a number near it without a candidate, or a
    free cell that no rectangle can cover."""
    covered, near, seen = r, [j for j in b.near[k] if j in unions and unions[j] & r], unions[k]
    for j in near:
        left = _union([m for m in st.live[j] if not m & r])
        if not left:
            return True
        covered, seen = covered | left, seen | unions[j]
    lost = seen & ~covered
    if not lost:
        return False
    for j, u in unions.items():
        if j != k and j not in near:
            lost &= ~u
    return bool(lost)


def no_room(b: Board, st: State) -> str | None:
    """Candidates that would leave another number no candidate, or a cell no rectangle, go."""
    unions = {k: _union(st.live[k]) for k in st.open()}
    return _worst(
        [_narrow(st, k, [r for r in st.live[k] if not _no_room(b, st, k, r, unions)], "no-room") for k in unions]
    )


def _clue_sum(b: Board, st: State, cells: int) -> int:
    return sum(b.area[k] for k in st.open() if b.clue_bit[k] & cells)


def _cuts(b: Board, st: State, k: int, r: int, free: int) -> bool:
    """Whether number k's candidate r would split off a region of free cells whose numbers
    do not add up to its area (when the rest stays one region, its sum holds if it held)."""
    rest = free & ~r
    ring = b.ring(r) & rest
    if not ring or b.grow(ring & -ring, rest, ring) & ring == ring:
        return False
    while ring:
        region = b.grow(ring & -ring, rest)
        if region.bit_count() != _clue_sum(b, st, region) - (b.area[k] if b.clue_bit[k] & region else 0):
            return True
        ring &= ~region
    return False


def region(b: Board, st: State) -> str | None:
    """A region of free cells whose numbers do not add up to its area is a contradiction;
    a candidate that would cut off such a region goes."""
    free = b.full & ~st.taken
    rest = free
    while rest:
        part = b.grow(rest & -rest, free)
        if part.bit_count() != _clue_sum(b, st, part):
            return CONTRADICTION
        rest &= ~part
    return _worst(
        [_narrow(st, k, [r for r in st.live[k] if not _cuts(b, st, k, r, free)], "region") for k in st.open()]
    )


def trial(b: Board, st: State) -> str | None:
    """One level of trial: of the numbers with at most TRY candidates (fewest first), the
    first candidate whose level-2 consequences reach a contradiction goes."""
    for k in sorted((k for k in st.open() if len(st.live[k]) <= TRY), key=lambda k: len(st.live[k])):
        for r in st.live[k]:
            trying = st.copy()
            if not place(b, trying, k, r) or propagate(b, trying, 2) == CONTRADICTION:
                st.live[k] = [m for m in st.live[k] if m != r]
                key = ("trial", st.depth + 1)  # the contradiction was found under one assumption
                st.counts[key] = st.counts.get(key, 0) + 1
                return PROGRESS
    return None


STEPS = [(1, forced), (2, one_number), (2, core), (2, no_room), (2, region), (3, trial)]


def propagate(b: Board, st: State, level: int) -> str:
    """Apply the rules of `level` (1-3), cheapest first, until every number is placed
    (SOLVED), a contradiction, or nothing more follows (STUCK). The state changes in place."""
    while True:
        if b.deadline is not None and time.perf_counter() > b.deadline:
            raise TooHard
        if all(st.done):
            return SOLVED if st.taken == b.full else CONTRADICTION
        for need, rule in STEPS:
            done = rule(b, st) if need <= level else None
            if done is not None:
                break
        else:
            return STUCK
        if done == CONTRADICTION:
            return CONTRADICTION


def search(b: Board, st: State, limit: int = 2) -> list[State]:
    """Deeper trial: every solution (up to `limit`), level-2 rules at each step, guessing the
    candidates of the number with fewest; a solution's state counts the rules on its path."""
    if propagate(b, st, 2) == CONTRADICTION:
        return []
    if all(st.done):
        return [st]
    k = min(st.open(), key=lambda k: len(st.live[k]))
    found: list[State] = []
    for r in st.live[k]:
        trying = st.copy(keep_counts=True)
        trying.note("guess")
        if place(b, trying, k, r):
            found += search(b, trying, limit - len(found))
        if len(found) >= limit:
            break
    return found


class Grade:
    """What `grade` answers: the level (None: ungraded, `reason` says why), its name, the rules
    used {(kind, depth): count}, the solution's rectangles and the seconds taken."""

    def __init__(self, level: int | None, counts: dict[tuple[str, int], int], rects: list[Rect], reason: str = ""):
        self.level, self.counts, self.rectangles, self.reason = level, counts, rects, reason
        self.name = LEVELS.get(level or 0, "")
        self.seconds = 0.0

    def rules(self) -> list[tuple[str, int, int]]:
        """(kind, depth, count), by level of the rule, then depth."""
        order = {kind: i for i, kind in enumerate(RULES)}
        return [(k, d, self.counts[k, d]) for k, d in sorted(self.counts, key=lambda kd: (order[kd[0]], kd[1]))]

    def to_json(self) -> dict[str, object]:
        """The grade as `shikaku --grade --format json` prints it."""
        out: dict[str, object] = {"level": self.level, "name": self.name}
        out["rules"] = [{"rule": k, "level": RULES[k][0], "depth": d, "count": n} for k, d, n in self.rules()]
        out["seconds"] = round(self.seconds, 6)
        if self.reason:
            out["reason"] = self.reason
        return out


def _rects(b: Board, st: State) -> list[Rect]:
    return sorted(b.rect(k, ms[0]) for k, ms in enumerate(st.live))


def grade(puzzle: Shikaku, top: int = 4, time_limit: float | None = None) -> Grade:
    """The lowest level (1..top) whose rules solve the grid, with the rules it used; level None
    when none does (no solution, several, or the time limit passed: `reason`)."""
    t0 = time.perf_counter()
    b = Board(puzzle, None if time_limit is None else t0 + time_limit)
    st = start(b)
    try:
        ans = _grade(b, st, top)
    except TooHard:
        ans = Grade(None, st.counts, [], "time limit")
    ans.seconds = time.perf_counter() - t0
    return ans


def _grade(b: Board, st: State, top: int) -> Grade:
    if any(not ms for ms in st.live):
        return Grade(None, {}, [], "no solution")
    for level in range(1, min(top, 3) + 1):
        got = propagate(b, st, level)
        if got == SOLVED:
            return Grade(level, st.counts, _rects(b, st))
        if got == CONTRADICTION:
            return Grade(None, st.counts, [], "no solution")
    if top < 4:
        return Grade(None, st.counts, [], f"the rules of levels 1-{top} do not solve it")
    found = search(b, st, 2)
    if len(found) != 1:
        return Grade(None, st.counts, [], "more than one solution" if found else "no solution")
    return Grade(4, found[0].counts, _rects(b, found[0]))


def solves(puzzle: Shikaku, level: int) -> list[Rect] | None:
    """The solution the rules of `level` alone reach from the start (level 4: the search
    finds exactly one), else None: for tests, "solved at its level, not below"."""
    b = Board(puzzle)
    st = start(b)
    if any(not ms for ms in st.live):
        return None
    if level >= 4:
        found = search(b, st, 2)
        return _rects(b, found[0]) if len(found) == 1 else None
    return _rects(b, st) if propagate(b, st, level) == SOLVED else None
