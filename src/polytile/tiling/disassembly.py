"""Does an assembly come apart? BurrTools' disassembler (disassembler_a.cpp, disassembler_0.cpp)
on an assembly's pieces: the shortest sequence of translations (unit steps along the grid's
axes, groups of pieces moving together) until the pieces fall into two parts, then the same
for each part, recursively. The breadth-first search of one part is the kernel's
(engine/disassembly/kernel.py, BurrTools' order of candidates, so its choice on ties is the
same); this module keeps the recursion, BurrTools' piece groups and the plan.

A part is done when it is one piece, or when its pieces all belong to one piece group;
when a part does not come apart, it is still done when its pieces can be given to one group
(each group holds a number of copies of each part; the parts met so far keep theirs). That
is BurrTools' rule as meant: its grouping_c keeps the groups' counts from one assembly to
the next and looks parts up by the part's index where it stored them by shape id; here each
assembly starts afresh and parts are parts.

The level string is BurrTools' `movesText`: the moves of the first separation, then the
level of the part that stays and of the part that comes out, each only when it holds a
separation of more than one move somewhere."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product
from typing import TYPE_CHECKING

import numpy as np

from ..errors import PuzzleError

if TYPE_CHECKING:
    from ..core.grids.base import GapRules, Step3

AXES = "xyz"
MAX_NODES = 2_000_000  # states one search may visit


@dataclass
class Move:
    """Pieces translated together by `vector`; `out`: they leave for good (the part they
    form is taken away in that direction)."""

    pieces: list[str]
    vector: tuple[int, ...]
    out: bool = False

    def text(self) -> str:
        """The move in words: pieces, direction and steps (or out)."""
        if self.out:
            return f"{', '.join(self.pieces)} out along {_direction(self.vector)}"
        steps = max(abs(v) for v in self.vector)
        return f"{', '.join(self.pieces)} {_direction(self.vector)} {steps}"

    def to_json(self) -> dict[str, object]:
        """The move as JSON: pieces, vector, out."""
        return {"pieces": self.pieces, "vector": list(self.vector), "out": self.out}


def _direction(v: tuple[int, ...]) -> str:
    axes = AXES if len(v) == 3 else "abcz"  # a prism's (a, b, c, z)
    return "".join(("+" if c > 0 else "-") + axes[a] for a, c in enumerate(v) if c)


@dataclass
class Separation:
    """One part taken apart: its pieces (indices into the assembly), the states from its
    start to the state before it falls apart (one row per piece: its translation), the
    pieces that come out and their direction, and the plans of the two parts."""

    pieces: list[int]
    states: np.ndarray  # (L, k, 3)
    removed: np.ndarray  # (k,) bool
    out: tuple[int, int, int]
    left: Separation | None = None  # the part that stays
    taken: Separation | None = None  # the part that comes out

    @property
    def moves(self) -> int:
        """Moves of this separation (the last takes the part out)."""
        return len(self.states)

    def multi(self) -> bool:
        """Whether some separation in this tree takes more than one move (containsMultiMoves)."""
        return self.moves > 1 or any(s is not None and s.multi() for s in (self.left, self.taken))

    def level(self) -> str:
        """BurrTools' level string (separation_c::movesText)."""
        out = str(self.moves)
        for sub in (self.left, self.taken):
            if sub is not None and sub.multi():
                out += "." + sub.level()
        return out

    def total(self) -> int:
        """All the moves of the tree."""
        return self.moves + sum(s.total() for s in (self.left, self.taken) if s is not None)

    def plan(self, names: list[str]) -> list[Move]:
        """The moves in order: this part's, then the staying part's, then the other's."""
        out: list[Move] = []
        for a, b in zip(self.states[:-1], self.states[1:]):
            out.extend(_moves_between(a, b, [names[p] for p in self.pieces]))
        out.append(Move([names[self.pieces[t]] for t in np.flatnonzero(self.removed)], self.out, True))
        for sub in (self.left, self.taken):
            if sub is not None:
                out.extend(sub.plan(names))
        return out


def _moves_between(a: np.ndarray, b: np.ndarray, names: list[str]) -> list[Move]:
    """One state to the next: the pieces that moved, by how much (one Move per distinct
    translation; BurrTools moves one group in one direction per step)."""
    delta = b - a
    out: list[Move] = []
    for v in sorted({tuple(int(x) for x in d) for d in delta.tolist()} - {(0, 0, 0)}):
        moved = [names[p] for p in range(len(names)) if tuple(delta[p].tolist()) == v]
        out.append(Move(moved, v))
    return out


@dataclass
class Groups:
    """BurrTools' piece groups: per part, (group id, copies in it); group ids from 1."""

    of_part: list[list[tuple[int, int]]] = field(default_factory=list)

    def single(self, parts: list[int]) -> bool:
        """Every piece's part lies in exactly one group, the same for all (subProbGroup)."""
        ids = set()
        for p in parts:
            gs = self.of_part[p] if p < len(self.of_part) else []
            if len(gs) != 1:
                return False
            ids.add(gs[0][0])
        return len(ids) == 1

    def assign(self, sets: list[list[int]]) -> bool:
        """Whether each set of parts can take one group (a copy of each member from it),
        all sets at once within the groups' counts (subProbGrouping)."""
        ids = sorted({g for gs in self.of_part for g, _ in gs})
        if not ids:
            return False
        left = {(p, g): n for p, gs in enumerate(self.of_part) for g, n in gs}
        for choice in product(ids, repeat=len(sets)):
            used: dict[tuple[int, int], int] = {}
            for members, g in zip(sets, choice):
                for p in members:
                    used[(p, g)] = used.get((p, g), 0) + 1
            if all(n <= left.get(key, 0) for key, n in used.items()):
                return True
        return False


class Stopped(Exception):
    """A search stopped from outside (the time limit)."""


def line_table(n: int) -> np.ndarray:
    """The gap rules of a grid whose steps are the axes: lines scanned (type count 0)."""
    return np.zeros((1 + n, 4), np.int64)


def gap_table(steps: tuple[Step3, ...], checks: GapRules | None) -> np.ndarray:
    """A grid's gap rules (Grid.disassembly_checks) as the kernel's table: row 0 the voxel
    types (count, coefficients); per step a row (0, step), then one row per voxel type
    (how many voxels, their offsets)."""
    if checks is None:
        return line_table(len(steps))
    (ntypes, *coef), per_step = checks
    width = 1 + 3 * max(len(c) for by_type in per_step for c in by_type)
    out = np.zeros((1 + len(steps) * (1 + ntypes), max(4, width)), np.int64)
    out[0, :4] = [ntypes, *coef]
    for n, (step, by_type) in enumerate(zip(steps, per_step)):
        row = 1 + n * (1 + ntypes)
        out[row, 1:4] = step
        for t, cells in enumerate(by_type):
            out[row + 1 + t, 0] = len(cells)
            for c, off in enumerate(cells):
                out[row + 1 + t, 1 + 3 * c : 4 + 3 * c] = off
    return out


def _type_zero(base: np.ndarray, types: np.ndarray) -> np.ndarray:
    """The frame's corner moved down x until it is a voxel of type 0, so that the frame keeps
    each voxel's type (a triangle up stays up)."""
    base = base.copy()
    if types[0] > 0 and types[1] != 0:
        while int(base[0] * types[1] + base[1] * types[2] + base[2] * types[3]) % int(types[0]):
            base[0] -= 1
    return base


class Disassembler:
    """The disassembler of one assembly: its pieces' voxels (absolute cells in one frame),
    each piece's part and weight, the problem's groups, the grid's unit steps (rows)."""

    def __init__(
        self,
        cells: list[np.ndarray],
        parts: list[int],
        weights: list[int],
        groups: Groups,
        steps: np.ndarray,
        max_nodes: int = MAX_NODES,
        table: np.ndarray | None = None,
    ):
        self.table = line_table(len(steps)) if table is None else table
        allc = np.concatenate(cells)
        base = _type_zero(allc.min(axis=0), self.table[0])
        size = allc.max(axis=0) - base + 1
        self.occ = np.zeros((len(cells), *size.tolist()), np.uint8)
        self.lo = np.zeros((len(cells), 3), np.int64)
        self.hi = np.zeros((len(cells), 3), np.int64)
        for p, c in enumerate(cells):
            c = c - base
            self.occ[p, c[:, 0], c[:, 1], c[:, 2]] = 1
            self.lo[p], self.hi[p] = c.min(axis=0), c.max(axis=0)
        self.parts, self.weights, self.groups = parts, np.asarray(weights, np.int64), groups
        self.steps = np.ascontiguousarray(steps, dtype=np.int64)
        self.max_nodes = max_nodes
        self.sets: list[list[int]] = []
        self.nodes = 0
        self.control = np.zeros(2, np.int64)  # [stop, states entered]: the time limit's and progress's

    def run(self) -> Separation | None:
        """The disassembly of the whole assembly, or None when it does not come apart."""
        self.sets = []
        k = len(self.parts)
        if k < 2:
            return None
        return self._part(list(range(k)), np.zeros((k, 3), np.int64))

    def _part(self, idx: list[int], start: np.ndarray) -> Separation | None:
        from ..engine.disassembly.kernel import FOUND, STOPPED, TOO_BIG, search

        sel = np.asarray(idx)
        status, path, removed, nd, nodes = search(
            self.occ[sel],
            self.lo[sel],
            self.hi[sel],
            self.weights[sel],
            self.steps,
            self.table,
            start,
            self.max_nodes,
            self.control,
        )
        self.nodes += int(nodes)
        if status == STOPPED:
            raise Stopped
        if status == TOO_BIG:
            raise PuzzleError(
                f"taking a part apart visits more than {self.max_nodes} states (--max-memory raises the limit)",
                "--disassemble",
            )
        if status != FOUND:
            return None
        last = path[-1]
        stay = [t for t in range(len(idx)) if not removed[t]]
        gone = [t for t in range(len(idx)) if removed[t]]
        left, ok = self._sub(idx, stay, last)
        if not ok:
            return None
        taken, ok = self._sub(idx, gone, last)
        if not ok:
            return None
        sign = -1 if nd & 1 else 1
        out = tuple(int(sign * v) for v in self.steps[nd >> 1])
        return Separation(idx, path, removed.copy(), out, left, taken)  # type: ignore[arg-type]

    def _sub(self, idx: list[int], members: list[int], state: np.ndarray) -> tuple[Separation | None, bool]:
        """BurrTools' checkSubproblem: (the part's plan, whether the part is done)."""
        if len(members) == 1:
            return None, True
        parts = [self.parts[idx[m]] for m in members]
        if self.groups.single(parts):
            return None, True
        res = self._part([idx[m] for m in members], np.ascontiguousarray(state[members]))
        if res is not None:
            return res, True
        self.sets.append(parts)
        return None, self.groups.assign(self.sets)
