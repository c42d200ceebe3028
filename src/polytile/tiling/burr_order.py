"""Which member of a class of assemblies BurrTools keeps: the disassembler's choice on ties
depends on the orientation of the assembly it is given, so the disassembly takes apart the
very assembly `burrTxt` finds.

BurrTools (assembler_0.cpp, assembly.cpp) keeps an assembly when no image of it under the
result's symmetries is smaller (`smallerRotationExists`): placements are compared piece by
piece, the symmetry breaker's first (`pivot`: `_pivot`), each placement as
(transformation, x, y, z): the smallest of BurrTools' 48 transformation numbers
(tabs_0/rotmatrix.inc, mirrors from 24 on) that turns the part's shape into the placed
one, and where the shape's voxel (0, 0, 0) lands. The copies of a part are sorted by
placement (`assembly_c::sort`). Mirror images count when the result and the pieces let
BurrTools check them (tiling/burr.py's rules)."""

from __future__ import annotations

import numpy as np

from ..core.puzzle import VIRTUAL, Puzzle

_ROTATIONS = (
    "1,0,0,0,1,0,0,0,1 1,0,0,0,0,-1,0,1,0 1,0,0,0,-1,0,0,0,-1 1,0,0,0,0,1,0,-1,0 "
    "0,0,-1,0,1,0,1,0,0 0,-1,0,0,0,-1,1,0,0 0,0,1,0,-1,0,1,0,0 0,1,0,0,0,1,1,0,0 "
    "-1,0,0,0,1,0,0,0,-1 -1,0,0,0,0,-1,0,-1,0 -1,0,0,0,-1,0,0,0,1 -1,0,0,0,0,1,0,1,0 "
    "0,0,1,0,1,0,-1,0,0 0,1,0,0,0,-1,-1,0,0 0,0,-1,0,-1,0,-1,0,0 0,-1,0,0,0,1,-1,0,0 "
    "0,-1,0,1,0,0,0,0,1 0,0,1,1,0,0,0,1,0 0,1,0,1,0,0,0,0,-1 0,0,-1,1,0,0,0,-1,0 "
    "0,1,0,-1,0,0,0,0,1 0,0,-1,-1,0,0,0,1,0 0,-1,0,-1,0,0,0,0,-1 0,0,1,-1,0,0,0,-1,0"
)
ROT = np.array([[int(v) for v in m.split(",")] for m in _ROTATIONS.split()], np.int64).reshape(24, 3, 3)
MATRICES = np.concatenate([ROT, ROT * np.array([-1, 1, 1])])  # 24..47: x mirrored first

Placement = tuple[int, int, int, int]
Items = list[tuple[int, tuple[int, ...]]]  # (part, cell indices) of each placed piece


def _key(cells: np.ndarray) -> bytes:
    c = cells - cells.min(axis=0)
    return np.ascontiguousarray(c[np.lexsort(c.T[::-1])]).tobytes()


class Orientations:
    """A part's shape under BurrTools' 48 transformations: the number of each orientation
    (its smallest) and the shape's own symmetries."""

    def __init__(self, cells: np.ndarray):
        self.cells = np.asarray(cells, np.int64)
        self.first: dict[bytes, int] = {}
        self.keys = []
        for t, m in enumerate(MATRICES):
            k = _key(self.cells @ m.T)
            self.keys.append(k)
            self.first.setdefault(k, t)
        self.symmetries = {t for t, k in enumerate(self.keys) if k == self.keys[0]}

    def placement(self, placed: np.ndarray) -> Placement:
        """BurrTools' placement of this shape on `placed` cells: (transformation, x, y, z)."""
        t = self.first[_key(placed)]
        pos = placed.min(axis=0) - (self.cells @ MATRICES[t].T).min(axis=0)
        return (t, int(pos[0]), int(pos[1]), int(pos[2]))


def result_symmetries(puzzle: Puzzle, board: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """(transformation number, cell permutation) of each symmetry of the result (colours kept)."""
    colours = np.asarray(puzzle.board.colours)
    index = {tuple(c): i for i, c in enumerate((board - board.min(axis=0)).tolist())}
    out = []
    for t, m in enumerate(MATRICES):
        img = board @ m.T
        img -= img.min(axis=0)
        perm = np.array([index.get(tuple(c), -1) for c in img.tolist()])
        if (perm >= 0).all() and (colours[perm] == colours).all():
            out.append((t, perm))
    return out


def _pivot(counts: list[int], low: list[int], high: list[int]) -> int:
    """The piece BurrTools compares first (a number past the pieces: none). Its assembler 0
    (every part exactly once) takes the first part sharing the fewest symmetries with the
    result and uses the part's number as a piece number; assembler 1 prefers parts with
    fewer copies, takes the part's first piece, and has no pivot when that part has copies
    or some part a min..max range (assembler_0.cpp, assembler_1.cpp: prepare)."""
    if all(h <= 1 and lo == h for lo, h in zip(low, high)):
        return counts.index(min(counts))
    breaker, piece, best, pc = 0, 0, counts[0], high[0]
    for i in range(1, len(counts)):
        if high[i] < high[breaker] or (high[i] == high[breaker] and counts[i] < best):
            breaker, piece, best = i, pc, counts[i]
        pc += high[i]
    if high[breaker] > 1 or any(lo != h for lo, h in zip(low, high)):
        return sum(high) + 1
    return piece


class Chooser:
    """BurrTools' member of each class: `choose(items)` for an assembly given as (part,
    cell indices) pairs returns the member BurrTools keeps, its pieces in BurrTools' order."""

    def __init__(self, puzzle: Puzzle, board: np.ndarray, mirrors: bool, image_of: object):
        pieces = [p for p in puzzle.pieces if p.name != VIRTUAL]
        self.shapes = [Orientations(np.asarray(p.cells, np.int64).reshape(len(p.cells), -1)) for p in pieces]
        self.board = board
        syms = result_symmetries(puzzle, board)
        self.images = [(t, perm) for t, perm in syms if t < 24 or mirrors]
        result_set = {t for t, _ in syms}
        counts = [len(result_set & s.symmetries) for s in self.shapes]
        low, high = [p.least for p in pieces], [p.count for p in pieces]
        self.pivot = _pivot(counts, low, high) if len(syms) > 1 else len(pieces)
        self.image_of = image_of  # tiling.burr._image bound to the parts (mirror partners)
        self.known: dict[tuple[int, tuple[int, ...]], Placement] = {}
        self.turned: dict[tuple[int, int, tuple[int, ...]], tuple[Placement, tuple[int, ...]]] = {}

    def _placement(self, part: int, cells: tuple[int, ...]) -> Placement:
        found = self.known.get((part, cells))
        if found is None:
            found = self.known[(part, cells)] = self.shapes[part].placement(self.board[list(cells)])
        return found

    def order(self, items: Items) -> tuple[list[Placement], Items]:
        """The pieces in BurrTools' order (by part, copies by placement) and their placements."""
        placed = sorted((p, self._placement(p, c), c) for p, c in items)
        return [pl for _, pl, _ in placed], [(p, c) for p, _, c in placed]

    def _turned(self, t: int, perm: np.ndarray, part: int, cells: tuple[int, ...]) -> tuple[Placement, tuple[int, ...]]:
        """A placement turned by result symmetry t: its placement and cells (cached)."""
        key = (t, part, cells)
        found = self.turned.get(key)
        if found is None:
            img = tuple(sorted(perm[list(cells)].tolist()))
            found = self.turned[key] = (self._placement(part, img), img)
        return found

    def choose(self, items: Items, used: list[int]) -> Items:
        """The member of the class of `items` that BurrTools keeps, as (part, cells) pairs in
        BurrTools' piece order (`used`: the copies of each part placed)."""
        best_key, best = None, None
        for t, perm in self.images:
            if t < 24:
                placed = sorted((p, *self._turned(t, perm, p, c)) for p, c in items)
                placements, ordered = [pl for _, pl, _ in placed], [(p, c) for p, _, c in placed]
            else:
                img = self.image_of(items, used, perm, False)  # type: ignore[operator]
                if img is None:
                    continue
                placements, ordered = self.order(list(img))
            key = ([placements[self.pivot]] if self.pivot < len(placements) else []) + placements
            if best_key is None or key < best_key:
                best_key, best = key, ordered
        return best if best is not None else self.order(items)[1]
