"""Grades a person would recognise: the rules that solve a position with one completion.

Level 1: forced placements (an empty cell only one placement covers, or a piece with only one
place left), repeated. Level 2: also region rules (an empty region no choice of the pieces
left can fill is a contradiction; a placement that would leave such a region, e.g. a pocket of
3 cells among pentominoes, or that leaves its region an area the others cannot make, is
ruled out). Level 3: also one level of trial (of the fits of a cell that has at most TRY of them,
one whose level-2 consequences reach a contradiction is ruled out). Level 4: deeper trial (trial inside trial, as deep as it takes).
A position's level is the lowest whose rules place every piece."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..core.cover import Cover

LEVELS = {1: "forced placements", 2: "region rules", 3: "one level of trial", 4: "deeper trial"}
SOLVED, STUCK, CONTRADICTION = "solved", "stuck", "contradiction"
TRY = 3  # level 3 tries the fits of a cell with at most this many, as a person tries alternatives
WORK = 20_000  # rounds of rules one grading may spend before it gives up (TooHard)


class TooHard(Exception):
    """The grading spent its WORK: the position is left ungraded."""


@dataclass
class State:
    """A position as the rules see it: the empty cells (a bit mask of items), copies left per
    piece, the options still possible, and those placed."""

    free: int
    left: list[int]
    live: list[int]
    placed: list[int] = field(default_factory=list)

    def copy(self) -> "State":
        """A copy to try a placement on."""
        return State(self.free, list(self.left), list(self.live), list(self.placed))


@dataclass
class Step:
    """One deduction: `rule` placed or ruled out `option`."""

    rule: str
    option: int
    placed: bool


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class Logic:
    """A cover as a person's rules read it: each option's cells as a bit mask, its piece, and
    the board's neighbours as masks (for regions)."""

    def __init__(self, cover: Cover):
        self.n = int(cover.n_items)
        self.cells = [tuple(int(i) for i in cover.option_items(o)) for o in range(cover.n_options)]
        self.masks = [sum(1 << i for i in cs) for cs in self.cells]
        self.piece = [int(p) for p in cover.opt_piece]
        self.size = [int(s) for s in cover.piece_size]
        self.copies = [int(c) for c in cover.piece_count]
        self.nb = [sum(1 << int(j) for j in row if j >= 0) for row in cover.neighbours]
        self.work = 0
        self.cap = WORK
        self.deadline: float | None = None  # perf_counter time after which TooHard (None: none)

    def start(self) -> State:
        """The position before any deduction."""
        return State((1 << self.n) - 1, list(self.copies), list(range(len(self.masks))))

    def place(self, st: State, o: int) -> None:
        """Put option o on the board: its cells and one copy of its piece used."""
        st.free &= ~self.masks[o]
        st.left[self.piece[o]] -= 1
        st.placed.append(o)
        free, left, masks, piece = st.free, st.left, self.masks, self.piece
        st.live = [x for x in st.live if masks[x] & free == masks[x] and left[piece[x]] > 0]

    def sums(self, left: list[int]) -> int:
        """Bit a set when some choice of the copies left covers exactly a cells."""
        out, cap = 1, (2 << self.n) - 1
        for p, k in enumerate(left):
            for _ in range(k):
                out |= (out << self.size[p]) & cap
        return out

    def region(self, seed: int, within: int, stop: int = 0) -> int:
        """The cells of `within` connected to `seed`; early, once every cell of `stop` is reached."""
        seen = frontier = seed
        while frontier:
            grow = 0
            for c in _bits(frontier):
                grow |= self.nb[c]
            frontier = grow & within & ~seen
            seen |= frontier
            if stop and stop & seen == stop:
                return seen
        return seen

    def regions(self, free: int) -> list[int]:
        """The connected regions of the empty cells."""
        out = []
        while free:
            comp = self.region(free & -free, free)
            out.append(comp)
            free &= ~comp
        return out


def forced(lg: Logic, st: State, steps: list[Step] | None) -> str | None:
    """One forced placement (a cell or a piece with one fit), a contradiction, or None."""
    count, last = [0] * lg.n, [0] * lg.n
    pcount, plast = [0] * len(lg.size), [0] * len(lg.size)
    for o in st.live:
        for c in lg.cells[o]:
            count[c] += 1
            last[c] = o
        p = lg.piece[o]
        pcount[p] += 1
        plast[p] = o
    best = None
    for c in _bits(st.free):
        if count[c] == 0:
            return CONTRADICTION
        if count[c] == 1 and best is None:
            best = ("one fit for a cell", last[c])
    for p, k in enumerate(st.left):
        if k > pcount[p]:
            return CONTRADICTION
        if best is None and k == 1 and pcount[p] == 1:
            best = ("one place for a piece", plast[p])
    if best is None:
        return None
    lg.place(st, best[1])
    if steps is not None:
        steps.append(Step(best[0], best[1], True))
    return "progress"


def regional(lg: Logic, st: State, steps: list[Step] | None) -> str | None:
    """The region rules: a region no pieces left can fill is a contradiction; placements that
    would leave such a region are ruled out. None when they change nothing."""
    sums = lg.sums(st.left)
    area = [0] * lg.n
    for comp in lg.regions(st.free):
        if not (sums >> comp.bit_count()) & 1:
            return CONTRADICTION
        for c in _bits(comp):
            area[c] = comp.bit_count()
    without = {}
    for p, k in enumerate(st.left):
        if k:
            st.left[p] -= 1
            without[p] = lg.sums(st.left)
            st.left[p] += 1
    keep: list[int] = []
    out: list[int] = []
    for o in st.live:
        dead = _leaves_dead(lg, st.free, o, without[lg.piece[o]], area[lg.cells[o][0]])
        (out if dead else keep).append(o)
    if not out:
        return None
    st.live = keep
    if steps is not None:
        steps.extend(Step("a region the pieces left cannot fill", o, False) for o in out)
    return "progress"


def _leaves_dead(lg: Logic, free: int, o: int, sums: int, area: int) -> bool:
    """Whether placing o (in an empty region of `area` cells) would leave an empty region of
    an area no choice of the other pieces covers."""
    rest = free & ~lg.masks[o]
    ring = 0
    for c in lg.cells[o]:
        ring |= lg.nb[c]
    ring &= rest
    if not ring:
        return False
    first = lg.region(ring & -ring, rest, ring)
    if first & ring == ring:  # the region stays whole
        return not (sums >> (area - len(lg.cells[o]))) & 1
    while ring:
        comp = lg.region(ring & -ring, rest)
        if not (sums >> comp.bit_count()) & 1:
            return True
        ring &= ~comp
    return False


def propagate(lg: Logic, st: State, level: int, steps: list[Step] | None = None) -> str:
    """Apply the rules of `level` (1-3) until the board is full (SOLVED), a contradiction, or
    nothing more follows (STUCK). The state is changed in place."""
    while True:
        lg.work += 1
        if lg.work > lg.cap or (lg.deadline is not None and time.perf_counter() > lg.deadline):
            raise TooHard
        if st.free == 0:
            return SOLVED if not any(st.left) else CONTRADICTION
        done = forced(lg, st, steps)
        if done is None and level >= 2:
            done = regional(lg, st, steps)
        if done is None and level >= 3:
            done = trial(lg, st, steps)
        if done is None:
            return STUCK
        if done == CONTRADICTION:
            return CONTRADICTION


def trial(lg: Logic, st: State, steps: list[Step] | None) -> str | None:
    """One level of trial: of the fits of the cells with at most TRY of them (fewest first),
    the first whose level-2 consequences reach a contradiction is ruled out; None when none does."""
    fits: dict[int, list[int]] = {c: [] for c in _bits(st.free)}
    for o in st.live:
        for c in lg.cells[o]:
            fits[c].append(o)
    order, seen = [], set()
    for c in sorted((c for c in fits if len(fits[c]) <= TRY), key=lambda c: len(fits[c])):
        order += [o for o in fits[c] if o not in seen]
        seen.update(fits[c])
    for o in order:
        trying = st.copy()
        lg.place(trying, o)
        if propagate(lg, trying, 2) == CONTRADICTION:
            st.live = [x for x in st.live if x != o]
            if steps is not None:
                steps.append(Step("trial: it leads to a contradiction", o, False))
            return "progress"
    return None


def search(lg: Logic, st: State, limit: int = 2) -> list[list[int]]:
    """Trial as deep as it takes (level 4): every completion (up to `limit`), level-2 rules
    at each step, branching on the cell with the fewest fits."""
    if propagate(lg, st, 2) == CONTRADICTION:
        return []
    if st.free == 0:
        return [sorted(st.placed)]
    count: dict[int, list[int]] = {c: [] for c in _bits(st.free)}
    for o in st.live:
        for c in lg.cells[o]:
            count[c].append(o)
    cell = min(count, key=lambda c: len(count[c]))
    found: list[list[int]] = []
    for o in count[cell]:
        trying = st.copy()
        lg.place(trying, o)
        found += search(lg, trying, limit - len(found))
        if len(found) >= limit:
            break
    return found


def solves(lg: Logic, level: int) -> list[int] | None:
    """The placements (option ids) the rules of `level` reach from the start, or None when
    they get stuck or contradict themselves."""
    st = lg.start()
    lg.work = -(10**9)  # no cap: a test's question is answered however long it takes
    if level >= 4:
        found = search(lg, st, 2)
        return found[0] if len(found) == 1 else None
    return sorted(st.placed) if propagate(lg, st, level) == SOLVED else None


def grade(lg: Logic, top: int = 4) -> int | None:
    """The lowest level (1..top) whose rules solve the position, None when none does or the
    grading spends its WORK."""
    st = lg.start()
    lg.work = 0
    try:
        for level in range(1, min(top, 3) + 1):
            if propagate(lg, st, level) == SOLVED:
                return level
        if top >= 4 and solves(lg, 4) is not None:
            return 4
    except TooHard:
        pass
    return None


def rule_for(lg: Logic, option: int, cell: int, top: int = 3) -> int | None:
    """The lowest level (1..top) whose rules leave `option` the only fit of `cell` (or place
    it), None when none does within the Logic's cap: it is then one of several fits."""
    st = lg.start()
    lg.work = 0
    try:
        for level in range(1, top + 1):
            if propagate(lg, st, level) == CONTRADICTION:
                return None
            if option in st.placed or [o for o in st.live if cell in lg.cells[o]] == [option]:
                return level
    except TooHard:
        pass
    return None
