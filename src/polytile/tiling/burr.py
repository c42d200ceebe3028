"""Assemblies counted as BurrTools counts them (`burrTxt`'s "N assemblies").

BurrTools (src/lib/assembler_0.cpp, assembler_1.cpp, assembly.cpp) differs from polytile's
conventions (DESIGN.md) in two ways:

- pieces are told apart by their shape id: two congruent shapes listed as two parts of a
  problem are two different pieces (polytile makes them copies of one); the copies of
  one part (`count` > 1) are interchangeable (`assembly_c::sort`);
- two assemblies are one when a symmetry of the result shape (its voxels' states and
  colours kept: `voxel_c::selfSymmetries`) maps one onto the other, the result kept in
  place (`smallerRotationExists` with complete = false). Rotations always count; mirror
  images only when the result has a mirror symmetry and either every chiral piece copy
  has a partner (its mirror image, paired first come first served over the piece copies
  in problem order) or some part has a min..max range; a mirror image is then the same
  assembly when every chiral piece placed in it has its partner placed too (the two are
  swapped), and the swapped counts stay within the ranges (`validSolution`).

So the BurrTools figure is the number of classes of *labelled* assemblies (each placement
carries its part) under that group. It is computed here from polytile's solutions: each is
expanded into its labellings (a congruence class of k parts used u times: the ways to give
each part its share); a labelling not met before starts a new class, and all its images
are marked as met."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING

import numpy as np

from ..core.grids import Grid, coerce, grid
from ..core.puzzle import VIRTUAL, Puzzle
from ..core.shape import canonical_keys
from ..errors import PuzzleError

if TYPE_CHECKING:
    from ..core.cover import Cover
    from ..core.results import Report
    from ..core.symmetry import Symmetry

Cells = tuple[int, ...]  # a placement's cells, as sorted indices of the result's voxels
Labelled = list[tuple[int, Cells]]  # (part, cells) of each placement of an assembly
Assembly = list[tuple[str, np.ndarray]]  # (piece name, cells) of each placement of a solution
LIMIT = 2_000_000  # solutions enumerated at most for the BurrTools figure


@dataclass
class Parts:
    """BurrTools' parts (its pieces before congruent ones merge), and which merged piece each
    became: what its assembly count tells apart."""

    names: list[str]
    low: list[int]
    high: list[int]
    of_class: dict[str, list[int]]  # merged piece name -> its parts, in order
    partner: dict[tuple[int, int], tuple[int, int]]  # chiral copy -> partner copy
    chiral: list[bool]
    mirrors: bool  # BurrTools checks mirror images at all


def space_grid(puzzle: Puzzle) -> Grid:
    """The grid BurrTools turns the puzzle's shapes in: a flat puzzle's squares are cubes of
    one layer (`_as_3d`), turned in space; others turn on their own grid."""
    return grid("square", 3) if puzzle.dim == 2 else coerce(puzzle.board.grid, puzzle.dim)


def _as_3d(cells: np.ndarray) -> np.ndarray:
    """A flat puzzle lies in one layer of cubes (what `polytile convert` writes)."""
    cells = np.asarray(cells, dtype=np.int64)
    if cells.shape[1] == 2:
        return np.concatenate([cells[:, [1, 0]], np.zeros((len(cells), 1), np.int64)], axis=1)
    return cells


def parts_of(puzzle: Puzzle) -> Parts:
    """The problem's parts (the real pieces, in order), their congruence classes and the
    mirror pairing of their copies."""
    pieces = [p for p in puzzle.pieces if p.name != VIRTUAL]
    shapes = [(_as_3d(p.cells), np.asarray(p.colours, np.int64)) for p in pieces]
    same = canonical_keys([(p.cells, p.colours, puzzle.reflects(p)) for p in pieces], puzzle.board.grid)
    of_class: dict[str, list[int]] = {}
    first: dict[tuple[bytes, bool], str] = {}
    for i, (k, p) in enumerate(zip(same, pieces)):
        name = first.setdefault((k, puzzle.reflects(p)), p.name)
        of_class.setdefault(name, []).append(i)
    space = space_grid(puzzle)
    mirror = space.motions[space.n_rotations]  # any reflection tells a chiral shape from its image
    rot = canonical_keys([(c, col, False) for c, col in shapes], space)
    mirrored = canonical_keys([(_moved(mirror, c), col, False) for c, col in shapes], space)
    chiral = [r != m for r, m in zip(rot, mirrored)]
    slots = [(i, c) for i, p in enumerate(pieces) for c in range(p.count)]
    partner: dict[tuple[int, int], tuple[int, int]] = {}
    paired_all = True
    for s, (i, c) in enumerate(slots):
        if not chiral[i] or (i, c) in partner:
            continue
        match = next((t for t in slots[s + 1 :] if t not in partner and rot[t[0]] == mirrored[i]), None)
        if match is None:
            paired_all = False
            continue
        partner[(i, c)], partner[match] = match, (i, c)
    low = [p.least for p in pieces]
    high = [p.count for p in pieces]
    ranges = any(lo != hi for lo, hi in zip(low, high))
    return Parts([p.name for p in pieces], low, high, of_class, partner, chiral, paired_all or ranges)


def _moved(motion: tuple[tuple[tuple[int, ...], ...], tuple[int, ...]], cells: np.ndarray) -> np.ndarray:
    """The cells' images under a motion (moves.image, on arrays)."""
    mat, off = motion
    return np.asarray(cells, dtype=np.int64) @ np.array(mat, dtype=np.int64).T + np.array(off, dtype=np.int64)


def result_group(puzzle: Puzzle) -> list[tuple[np.ndarray, bool]]:
    """The result's symmetries (cells and colours kept) as permutations of the board's
    cells, each with whether it is a rotation, turning in space (`space_grid`)."""
    space = space_grid(puzzle)
    cells = _as_3d(puzzle.board.cells)
    colours = np.asarray(puzzle.board.colours)
    index = {tuple(c): i for i, c in enumerate(space.to_origin(cells).tolist())}
    out = []
    for k, motion in enumerate(space.motions):
        img = space.to_origin(_moved(motion, cells))
        perm = np.array([index.get(tuple(c), -1) for c in img.tolist()])
        if (perm >= 0).all() and (colours[perm] == colours).all():
            out.append((perm, k < space.n_rotations))
    return out


def _labellings(parts: Parts, groups: dict[str, list[Cells]]) -> list[tuple[Labelled, list[int]]]:
    """Every labelled assembly of one solution: (part, cells) pairs and the parts' uses."""
    per_class = []
    for name, placed in groups.items():
        per_class.append(list(_share(parts, parts.of_class[name], placed)))
    assemblies: list[tuple[Labelled, list[int]]] = [([], [0] * len(parts.names))]
    for options in per_class:
        grown = []
        for items, used in assemblies:
            for extra, counts in options:
                u = list(used)
                for p, n in counts.items():
                    u[p] += n
                grown.append((items + extra, u))
        assemblies = grown
    return assemblies


def _share(parts: Parts, members: list[int], placed: list[Cells]) -> Iterator[tuple[Labelled, dict[int, int]]]:
    """Ways to give the placements of one congruence class to its parts (each part
    within its min..max): (labelled placements, uses per part)."""
    if len(members) == 1:
        yield [(members[0], cs) for cs in placed], {members[0]: len(placed)}
        return
    head, rest = members[0], members[1:]
    for k in range(parts.low[head], min(parts.high[head], len(placed)) + 1):
        for chosen in combinations(range(len(placed)), k):
            left = [cs for j, cs in enumerate(placed) if j not in chosen]
            for tail, counts in _share(parts, rest, left):
                yield [(head, placed[j]) for j in chosen] + tail, {head: k, **counts}


def _image(
    parts: Parts, items: Labelled, used: list[int], perm: np.ndarray, rotation: bool
) -> tuple[tuple[int, Cells], ...] | None:
    """The labelled image of an assembly, or None when BurrTools would not consider it
    (a mirrored chiral piece copy without a partner copy, or counts out of range). A
    mirrored copy takes its partner's place (`assembly_c::transform`: swapped with it when
    that one is placed, moved there when not)."""
    out = []
    new_used = [0] * len(used)
    copies = [0] * len(used)
    for part, cells in items:
        target = part
        if not rotation and parts.chiral[part]:
            mate = parts.partner.get((part, copies[part]))
            copies[part] += 1
            if mate is None:
                return None
            target = mate[0]
        new_used[target] += 1
        out.append((target, tuple(sorted(int(perm[c]) for c in cells))))
    if any(not lo <= n <= hi for n, lo, hi in zip(new_used, parts.low, parts.high)):
        return None
    return tuple(sorted(out))


def burr_classes(puzzle: Puzzle, solutions: list[Assembly]) -> int:
    """The number of BurrTools assemblies among `solutions` (all of the puzzle's, each a
    list of (piece name, cells))."""
    return sum(1 for _ in burr_assemblies(puzzle, solutions))


def burr_assemblies(puzzle: Puzzle, solutions: list[Assembly]) -> Iterator[Labelled]:
    """One labelled assembly, (part, cells) pairs, per BurrTools assembly among `solutions`:
    the first of its class that the solutions give."""
    parts = parts_of(puzzle)
    group = result_group(puzzle)
    if not parts.mirrors:
        group = [(perm, rot) for perm, rot in group if rot]
    cells = _as_3d(puzzle.board.cells)
    low = cells.min(axis=0)
    index = {tuple(c): i for i, c in enumerate((cells - low).tolist())}
    seen: set[tuple[tuple[int, Cells], ...]] = set()  # every labelled assembly of the classes met so far
    for s in solutions:
        groups: dict[str, list[tuple[int, ...]]] = {}
        for piece, at in s:
            if piece != VIRTUAL:
                key = tuple(sorted(index[tuple(c)] for c in (_as_3d(at) - low).tolist()))
                groups.setdefault(piece, []).append(key)
        for items, used in _labellings(parts, groups):
            if tuple(sorted(items)) in seen:
                continue
            yield items  # a new class: all its members are its images
            seen.update(f for perm, rot in group if (f := _image(parts, items, used, perm, rot)) is not None)


def all_solutions(puzzle: Puzzle, limit: int = LIMIT) -> list[Assembly]:
    """Every solution as a list of (piece name, cells): one per symmetry class from the
    search (which breaks the symmetry), then each class's images that are solutions (a
    plain listing of every solution can take minutes where the count takes a second)."""
    from ..engine.search import search
    from .solver import Tiling

    tiling = Tiling(puzzle)
    total = tiling.count().solutions  # the count is quick; listing them may not be
    if total > limit:
        raise PuzzleError(f"--burr lists every solution: {total} here, more than {limit}", puzzle.source)
    if total == 0:
        return []
    model = tiling.model()
    cover = model.cover
    sym = tiling.symmetry()
    if len(set(sym.opt_label.tolist())) < cover.n_options:  # a cell-set of two pieces (not np.unique: numpy.ma)
        res = _whole(search(cover, sym, limit=limit + 1, store=True, breaking=False))
        found = [np.asarray(o) for o in res.found]
        solutions = {frozenset(int(o) for o in opts) for opts in found}
    else:
        reps = _whole(search(cover, sym, unique=True, store=True)).found
        solutions = _orbits(cover, sym, reps, limit)
    if len(solutions) > limit:
        raise PuzzleError(f"--burr lists every solution: more than {limit} here", puzzle.source)
    names = [p.name for p in model.puzzle.pieces]
    out = []
    for opts in solutions:
        placed = [model.placement(o) for o in sorted(opts)]
        out.append([(names[p], at) for p, at in placed])
    return out


def _whole(report: Report[np.ndarray]) -> Report[np.ndarray]:
    """The search's report, or KeyboardInterrupt when Ctrl-C stopped it (a partial list
    would give a wrong figure)."""
    if report.interrupted:
        raise KeyboardInterrupt
    return report


def _orbits(cover: Cover, sym: Symmetry, reps: list[np.ndarray], limit: int) -> set[frozenset[int]]:
    """The images of the representatives under the board's symmetries that are solutions
    (every image cell-set a placement, each piece used within its bounds)."""
    option_of = {int(lab): o for o, lab in enumerate(sym.opt_label.tolist())}
    out: set[frozenset[int]] = set()
    for rep in reps:
        labels = sym.opt_label[np.asarray(rep, dtype=np.int64)]
        for g in range(sym.order):
            found = [option_of.get(int(lab)) for lab in sym.label_img[g, labels]]
            image = [o for o in found if o is not None]
            if len(image) < len(found):
                continue
            used = np.bincount(cover.opt_piece[image], minlength=len(cover.piece_count))
            if ((used >= cover.piece_min) & (used <= cover.piece_count)).all():
                out.add(frozenset(image))
        if len(out) > limit:
            break
    return out


def same_as_unique(puzzle: Puzzle) -> bool:
    """Whether BurrTools' count is polytile's unique count: no two parts are congruent
    (so no labellings to tell apart) and flat pieces may flip (BurrTools' rotations in
    space flip them). Then both merge the assemblies that a rotation of the result maps
    onto each other, and a mirror image when it is an assembly (BurrTools' pairing of a
    chiral copy with its partner, or its test that a mirrored chiral copy has none, accepts
    exactly the images whose pieces and counts are those of an assembly);
    tests/formats/test_xmpuzzle.py checks the two ways agree."""
    parts = parts_of(puzzle)
    flat_ok = puzzle.dim != 2 or all(puzzle.reflects(p) for p in puzzle.pieces)
    return flat_ok and all(len(members) == 1 for members in parts.of_class.values())


def burr_count(puzzle: Puzzle, limit: int = LIMIT, shortcut: bool = True, unique: int | None = None) -> int:
    """The puzzle's assemblies as BurrTools counts them: polytile's unique count where
    that is the same (`unique`, when known), else every solution listed and classified."""
    if shortcut and same_as_unique(puzzle):
        if unique is None:
            from .solver import Tiling

            unique = Tiling(puzzle).count(unique=True).unique
        return int(unique)  # type: ignore[arg-type]
    return burr_classes(puzzle, all_solutions(puzzle, limit))
