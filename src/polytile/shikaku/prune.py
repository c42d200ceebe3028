"""Shikaku's own propagation, on bitmasks: which candidate rectangles no solution can use.

Why: the generic propagation of `engine.memo` walks every cell of every candidate (196,512
on Tatham's 100 x 100, 1.7 million on the 150 x 150) and knows only "a cell with one option
left". Here each candidate is one Python int, a bit per cell (row-major: bit r * width + c),
so a test against a set of cells is one machine-speed AND, and the rules are the ones a
person applies to the whole grid at once:

1. a cell that only one clue's candidates reach must be in that clue's rectangle: the clue
   keeps only the candidates that hold it;
2. a cell that every candidate of a clue holds (the clue's *core*) belongs to that clue:
   every other clue drops the candidates that hold it (a clue with one candidate left has
   that rectangle as its core: it is placed, in effect);
3. a cell no clue can reach, a clue with no candidate left, or two cores that meet: no
   solution.

Rounds apply the rules to every clue until nothing changes; within a round a clue sees the
cores its predecessors just grew (Gauss-Seidel). Every removal is forced, so the solutions
are exactly those of what is left; what is left is counted by `engine.memo` (on Tatham's
puzzles usually nothing is: each clue keeps one rectangle).

A candidate's mask counts its bits from the first row its clue can reach (the clue's
`offset` in the grid's bits), so it takes a few rows of bits, not the whole grid's: small
ints are quick to make and to test (on a 100 x 100 grid, 1.0 MB instead of 3.4 MB). Each
clue's union and core are kept in the grid's frame, where clues meet. `mask_bytes` lets the
caller keep to the plain propagation when even these would not fit.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from .candidates import Clue, Rect


class Pruned:
    """What propagation leaves: `settled` rectangles (clues with one candidate), the `open`
    clues with their candidates (clue index, rectangles), or `dead`, a cell (row, col) that
    shows there is no solution (a cell nothing can cover, or the cell of a clue left
    without a rectangle)."""

    def __init__(
        self,
        settled: list[Rect],
        open_: list[tuple[int, list[Rect]]],
        dead: tuple[int, int] | None = None,
        rounds: int = 0,
    ):
        self.settled, self.open, self.dead, self.rounds = settled, open_, dead, rounds

    def transposed(self) -> Pruned:
        """The same with rows and columns swapped."""
        dead = None if self.dead is None else (self.dead[1], self.dead[0])
        return Pruned(
            _transpose_rects([self.settled])[0],
            [(k, _transpose_rects([rects])[0]) for k, rects in self.open],
            dead,
            self.rounds,
        )


def _first_row(rects: list[Rect]) -> int:
    return min(t for t, _, _, _ in rects) if rects else 0


def mask_bytes(width: int, height: int, rects_by_clue: list[list[Rect]]) -> int:
    """About the bytes the masks would take: the candidates' (from their clue's offset), and
    each clue's union and core in the grid's frame (up to its last row), rows along the
    short side as `prune` lays them."""
    if width > height:
        width, rects_by_clue = height, _transpose_rects(rects_by_clue)
    total = 0
    for rects in rects_by_clue:
        top = _first_row(rects)
        total += sum((t - top + h) * width // 8 + 32 for t, _, h, _ in rects)
        total += 2 * (max((t + h for t, _, h, _ in rects), default=0) * width // 8 + 32)
    return total


def _transpose_rects(rects_by_clue: list[list[Rect]]) -> list[list[Rect]]:
    return [[(c, r, w, h) for r, c, h, w in rects] for rects in rects_by_clue]


def masks(width: int, rects_by_clue: list[list[Rect]]) -> tuple[list[list[int]], list[int]]:
    """Each clue's candidates as row-major bitmasks counted from the clue's offset (the
    first cell of the first row it can reach): a w-bit run repeated every `width` bits h
    times (one multiplication per shape), shifted to its corner. (masks, offsets)."""
    stride = [0]  # stride[h]: bit 0 of each of h rows
    shape: dict[tuple[int, int], int] = {}
    out, offsets = [], []
    for rects in rects_by_clue:
        top = _first_row(rects)
        ms = []
        for t, left, h, w in rects:
            base = shape.get((h, w))
            if base is None:
                while len(stride) <= h:
                    stride.append(stride[-1] | 1 << (width * (len(stride) - 1)))
                base = shape[(h, w)] = ((1 << w) - 1) * stride[h]
            ms.append(base << ((t - top) * width + left))
        out.append(ms)
        offsets.append(top * width)
    return out, offsets


def rect_of(mask: int, width: int, area: int, offset: int = 0) -> Rect:
    """The rectangle of a candidate's mask (its lowest bit is its corner)."""
    low = (mask & -mask).bit_length() - 1
    top, left = divmod(low + offset, width)
    w = ((mask >> low) & ((1 << width) - 1)).bit_length()
    return top, left, area // w, w


def _lowest_cell(bits: int, width: int) -> tuple[int, int]:
    low = (bits & -bits).bit_length() - 1
    return low // width, low % width


def _union_core(ms: list[int]) -> tuple[int, int]:
    """The cells some candidate holds, and those every candidate holds."""
    union, core = 0, -1
    for m in ms:
        union |= m
        core &= m
    return union, core


class _Dead(Exception):
    """No solution: `cell` shows why (see Pruned.dead)."""

    def __init__(self, cell: tuple[int, int]):
        super().__init__(cell)
        self.cell = cell


class _Grid:
    """The state of the propagation: each clue's live candidates, their union and core,
    and what the clue's last filter saw (the others' cores and the cells only it reaches,
    within its union): a clue is filtered again only when that has changed."""

    def __init__(self, width: int, height: int, clues: Sequence[Clue], live: list[list[int]], offsets: list[int]):
        self.width, self.clues, self.live, self.offsets = width, clues, live, offsets
        self.full = (1 << (width * height)) - 1
        self.union, self.core = [], []
        for ms, offset in zip(live, offsets):
            u, c = _union_core(ms)
            self.union.append(u << offset)
            self.core.append(c << offset if ms else 0)
        self.seen_blocked = [-1] * len(live)
        self.seen_required = [-1] * len(live)

    def reach(self) -> int:
        """The cells only one clue reaches; _Dead when a cell no clue reaches."""
        ones = twos = 0
        for u in self.union:
            twos |= ones & u
            ones |= u
        if ones != self.full:
            raise _Dead(_lowest_cell(self.full ^ ones, self.width))
        return ones ^ twos

    def cores(self) -> int:
        """The union of the cores; _Dead when two cores meet."""
        every = 0
        for c in self.core:
            if every & c:
                raise _Dead(_lowest_cell(every & c, self.width))
            every |= c
        return every

    def sweep(self, cores: int, alone: int) -> tuple[int, bool]:
        """One round: each clue drops the candidates that hold another clue's core or miss
        a cell only it reaches (`alone`), and passes its grown core on to the next clues.
        (The union of the cores after it, whether any clue changed); _Dead when a clue has no
        candidate left or two cores meet."""
        live, union, core, offsets = self.live, self.union, self.core, self.offsets
        seen_blocked, seen_required = self.seen_blocked, self.seen_required
        changed = False
        for k, ms in enumerate(live):
            u, mine = union[k], core[k]
            blocked = (cores & u) ^ mine  # the others' cores within k's reach
            required = u & alone
            if blocked == seen_blocked[k] and required == seen_required[k]:
                continue
            offset = offsets[k]
            bad, need = blocked >> offset, required >> offset  # in the frame of k's masks
            if need:
                keep = [m for m in ms if not m & bad and m & need == need]
            else:
                keep = [m for m in ms if not m & bad]
            if len(keep) != len(ms):
                if not keep:
                    raise _Dead(self.clues[k][:2])
                u, new = _union_core(keep)
                u, new = u << offset, new << offset
                live[k], union[k], core[k] = keep, u, new
                cores ^= mine
                if cores & new:
                    raise _Dead(_lowest_cell(cores & new, self.width))
                cores |= new
                blocked = (cores & u) ^ new
                changed = True
            seen_blocked[k], seen_required[k] = blocked, required
        return cores, changed


def prune(
    width: int, height: int, clues: Sequence[Clue], rects_by_clue: list[list[Rect]], deadline: float | None = None
) -> Pruned:
    """Propagate to a fixed point (see the module doc). `clues`: (row, col, area), the order
    of `rects_by_clue`. TimeoutError when the perf_counter `deadline` passes. A grid wider
    than high is propagated transposed: its masks' rows run along the short side."""
    if width > height:
        turned = prune(height, width, [(c, r, v) for r, c, v in clues], _transpose_rects(rects_by_clue), deadline)
        return turned.transposed()
    g = _Grid(width, height, clues, *masks(width, rects_by_clue))
    rounds, changed = 0, True
    try:
        cores = g.cores()
        while changed:
            rounds += 1
            if deadline is not None and time.perf_counter() > deadline:
                raise TimeoutError
            cores, changed = g.sweep(cores, g.reach())
    except _Dead as dead:
        return Pruned([], [], dead.cell, rounds)
    return _result(g, rounds)


def _result(g: _Grid, rounds: int) -> Pruned:
    settled, open_ = [], []
    for k, ms in enumerate(g.live):
        area, offset = g.clues[k][2], g.offsets[k]
        if len(ms) == 1:
            settled.append(rect_of(ms[0], g.width, area, offset))
        else:
            open_.append((k, [rect_of(m, g.width, area, offset) for m in ms]))
    return Pruned(settled, open_, None, rounds)
