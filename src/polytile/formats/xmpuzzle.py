"""BurrTools `.xmpuzzle` files in: gzip-compressed (or plain) XML holding a grid type,
shapes as voxel strings and problems (a result shape, pieces with counts or min..max
ranges, colour constraints). Each of BurrTools' grids (0 cubes, 1 triangular prisms, 2 spheres,
3 rhombic, 4 tetra-octa) is polytile's grid of that number (`core.grids.by_burr`); voxels become
cells by its `from_burr`, and a voxel that is no cell of it is refused.

How BurrTools' notions become polytile's model (see docs/parts/xmpuzzle.md):
- every shape is a solid: pieces are only rotated (the grid's rotations), never mirrored;
- a problem's part with `count` n (or `min`..`max`) is a Piece with count max, minimum min;
- voxel colours: colour 0 is neutral; a piece voxel of colour p may lie on a result voxel
  of colour r when either is neutral or the problem's `<bitmap>` has the pair (p, r)
  (`problem_c::placementAllowed`) -> the Puzzle's `allowed` table;
- variable voxels ('+', may stay empty) -> board cells of their own colour codes that a
  virtual one-cell piece FILLER (count = their number, minimum 0) may also take; its
  copies are interchangeable, so each assembly is counted once. It never leaves
  `strip_fillers` in a printed solution.

The file is read defensively (the XML itself: xmpuzzle_xml.py): sizes are capped before
anything is built (voxels per shape and per file, copies per shape and per problem;
colours beyond BurrTools' 63 are never used, so the colour table stays small), voxel
strings are read at numpy's speed in ASCII only, and every fault is one PuzzleError naming
the file (and the line and column where there is one)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..core.grids import burr_numbers, by_burr
from ..core.puzzle import VIRTUAL
from ..errors import PuzzleError
from .common import clip
from .common import read_bytes as common_read_bytes
from .xmpuzzle_xml import number, parse_xml
from .xmpuzzle_xml import unpack as unpack  # the page reads uploads with it

if TYPE_CHECKING:
    from xml.etree.ElementTree import Element

    from ..core.grids import Grid
    from ..core.puzzle import Puzzle
    from ..core.results import Solution

MAX_VOXELS = 1 << 20  # x * y * z of one shape (a board holds at most a million cells)
MAX_TOTAL_VOXELS = 1 << 22  # of all the shapes of a file
MAX_COLOUR = 63  # BurrTools' voxels have 6 bits of colour
MAX_COPIES = 10_000  # of one shape in a problem (as in polytile JSON)
MAX_PIECES = 100_000  # in a problem, all shapes' copies together
SHOWN = 5  # problem names a message lists
MAX_SHAPES = 5_000  # shapes in a file, and parts in a problem (BurrTools' own files: a few dozen)
OTHER, STATE, DIGIT, BLANK = 0, 1, 2, 3  # what each byte of a voxel string is
KINDS = np.zeros(256, dtype=np.uint8)
KINDS[list(b"#+_")], KINDS[list(b"0123456789")], KINDS[list(b" \t\n\r")] = STATE, DIGIT, BLANK
FILLER = VIRTUAL  # the virtual piece that takes a variable voxel left empty
# BurrTools' names of its grid types (gridtype.cpp), for messages; polytile's grids: `core.grids.by_burr`
BURR_GRIDS = {0: "cube", 1: "triangular prism", 2: "sphere", 3: "rhombic dodecahedron", 4: "tetrahedron-octahedron"}


@dataclass
class Shape:
    """A BurrTools shape as read: its filled and variable voxels with their colours."""

    name: str
    size: tuple[int, int, int]
    filled: np.ndarray  # (n, 3) cells of '#' voxels
    variable: np.ndarray  # (m, 3) cells of '+' voxels
    filled_colour: np.ndarray  # (n,) colour per filled cell (0 neutral)
    variable_colour: np.ndarray  # (m,)
    weight: int = 1  # which side moves in a disassembly (the heavier one stays)


@dataclass
class Problem:
    """A BurrTools problem: which shapes are the pieces (with counts) and which the result, and
    the colour rules."""

    name: str
    parts: list[tuple[int, int, int]]  # (shape id, min, max)
    result: int
    pairs: set[tuple[int, int]] = field(default_factory=set)  # (piece colour, result colour), 1-based
    groups: list[list[tuple[int, int]]] = field(default_factory=list)  # per part: (group, count), disassembly's


@dataclass
class BurrFile:
    """A BurrTools file as read, before a problem is chosen and turned into a Puzzle."""

    grid: int
    colours: int  # number of constraint colours defined
    shapes: list[Shape]
    problems: list[Problem]


def read_bytes(path: str | Path) -> bytes:
    """The file's XML: read with a size limit, gunzipped in chunks up to MAX_XML bytes."""
    return unpack(common_read_bytes(path), str(path))


def _voxels(
    text: str, size: tuple[int, int, int], name: str, where: str, at: tuple[int, int] | None
) -> tuple[np.ndarray, np.ndarray]:
    """States (the characters `#+_`) and colours of the voxels, x fastest, then y, then z;
    a colour's digits follow the voxel they colour (`voxel_c::voxel_c`). Read at numpy's
    speed: a shape may hold a million voxels."""
    n = size[0] * size[1] * size[2]
    if not text.isascii():
        bad = next(i for i, ch in enumerate(text) if not ch.isascii())
        raise _at(f"{where}: unexpected character {text[bad]!r} in the voxel string", name, text, bad, at)
    buf = np.frombuffer(text.encode("ascii"), dtype=np.uint8)
    kind = KINDS[buf]
    starts = np.flatnonzero(kind == STATE)
    digit = kind == DIGIT
    if len(starts):
        digit[: starts[0]] = False  # a digit before the first voxel colours nothing
    other = (kind == OTHER) | ((kind == DIGIT) & ~digit)
    if other.any():
        bad = int(other.argmax())
        raise _at(f"{where}: unexpected character {text[bad]!r} in the voxel string", name, text, bad, at)
    if len(starts) != n:
        raise PuzzleError(f"{where}: {len(starts)} voxels given for {size[0]}x{size[1]}x{size[2]} = {n}", name)
    colours = np.zeros(n, dtype=np.int64)
    if digit.any():
        colours = _colours(buf, starts, np.flatnonzero(digit), name, where)
    return buf[starts], colours


def _colours(buf: np.ndarray, starts: np.ndarray, digits: np.ndarray, name: str, where: str) -> np.ndarray:
    """Each voxel's colour: the number its digits spell (at most MAX_COLOUR)."""
    owner = np.searchsorted(starts, digits) - 1  # the voxel each digit follows
    value = buf[digits].astype(np.int64) - ord("0")
    first = np.r_[True, owner[1:] != owner[:-1]]
    group = np.cumsum(first) - 1
    size = np.bincount(group)
    power = size[group] - 1 - (np.arange(len(digits)) - np.flatnonzero(first)[group])  # 10's exponent
    if ((power >= 2) & (value > 0)).any():  # 100 or more
        k = int(owner[((power >= 2) & (value > 0)).argmax()])
        spelled = bytes(buf[digits[owner == k]]).decode().lstrip("0")
        raise PuzzleError(f"{where}: colour {clip(spelled, 12)} is too big (at most {MAX_COLOUR})", name)
    colours = np.zeros(len(starts), dtype=np.int64)
    np.add.at(colours, owner, value * 10 ** np.minimum(power, 2))
    if colours.max() > MAX_COLOUR:
        raise PuzzleError(f"{where}: colour {int(colours.max())} is too big (at most {MAX_COLOUR})", name)
    return colours


def _at(message: str, name: str, text: str, i: int, at: tuple[int, int] | None) -> PuzzleError:
    """The error at character i of an element's text that starts at `at` (line, column)."""
    if at is None:
        return PuzzleError(message, name)
    line = at[0] + text.count("\n", 0, i)
    col = i - text.rfind("\n", 0, i) if "\n" in text[:i] else at[1] + i
    return PuzzleError(message, name, line, col)


def _size(element: Element, index: int, name: str) -> tuple[int, int, int]:
    """A shape's box (x, y, z), at most MAX_VOXELS voxels."""
    where = f"shape {index + 1}"
    x, y, z = (number(element, axis, name, where, most=MAX_VOXELS) for axis in "xyz")
    if x * y * z > MAX_VOXELS:
        raise PuzzleError(f"{where}: {x}x{y}x{z} voxels (limit {MAX_VOXELS})", name)
    return x, y, z


def _shapes(elements: list[Element], name: str, positions: dict[Element, tuple[int, int]]) -> list[Shape]:
    """Every shape, their sizes checked (MAX_TOTAL_VOXELS in all) before any is read."""
    if len(elements) > MAX_SHAPES:
        raise PuzzleError(f"{len(elements)} shapes (limit {MAX_SHAPES})", name)
    sizes = [_size(v, i, name) for i, v in enumerate(elements)]
    if sum(x * y * z for x, y, z in sizes) > MAX_TOTAL_VOXELS:
        raise PuzzleError(f"the shapes hold more than {MAX_TOTAL_VOXELS} voxels in all", name)
    return [_shape(v, i, size, name, positions.get(v)) for i, (v, size) in enumerate(zip(elements, sizes))]


def _shape(element: Element, index: int, size: tuple[int, int, int], name: str, at: tuple[int, int] | None) -> Shape:
    where = f"shape {index + 1}"
    if number(element, "type", name, where, 0) != 0:
        raise PuzzleError(f"{where}: unknown voxel type {clip(element.get('type') or '')}", name)
    states, colours = _voxels(element.text or "", size, name, where, at)
    full, var = np.flatnonzero(states == ord("#")), np.flatnonzero(states == ord("+"))
    return Shape(
        element.get("name") or f"S{index + 1}",
        size,
        _cells(full, size),
        _cells(var, size),
        colours[full],
        colours[var],
        number(element, "weight", name, where, 1, most=MAX_COPIES),
    )


def _cells(idx: np.ndarray, size: tuple[int, int, int]) -> np.ndarray:
    """(n, 3) voxel coordinates of flat indices, x fastest."""
    return np.stack([idx % size[0], idx // size[0] % size[1], idx // (size[0] * size[1])], axis=1).astype(np.int64)


def _problem(element: Element, index: int, n_shapes: int, name: str) -> Problem:
    where = f"problem {index + 1}"
    parts: list[tuple[int, int, int]] = []
    groups: list[list[tuple[int, int]]] = []
    shapes = element.find("shapes")
    found = [] if shapes is None else shapes.findall("shape")
    if len(found) > MAX_SHAPES:
        raise PuzzleError(f"{where}: {len(found)} parts (limit {MAX_SHAPES})", name)
    for part in found:
        sid = number(part, "id", name, where)
        if sid >= n_shapes:
            raise PuzzleError(f"{where}: shape id {sid} does not exist (the file has {n_shapes} shapes)", name)
        if part.get("count") is not None:
            lo = hi = number(part, "count", name, where, most=MAX_COPIES)
        elif part.get("min") is not None and part.get("max") is not None:
            lo, hi = (
                number(part, "min", name, where, most=MAX_COPIES),
                number(part, "max", name, where, most=MAX_COPIES),
            )
            if lo > hi:
                raise PuzzleError(f"{where}: shape {sid} has min {lo} > max {hi}", name)
        else:
            lo = hi = 1
        parts.append((sid, lo, hi))
        groups.append(_groups(part, hi, name, where))
    if sum(hi for _, _, hi in parts) > MAX_PIECES:
        raise PuzzleError(f"{where}: more than {MAX_PIECES} pieces", name)
    result = element.find("result")
    if result is None:
        raise PuzzleError(f"{where}: no result shape", name)
    rid = number(result, "id", name, where)
    if rid >= n_shapes:
        raise PuzzleError(f"{where}: result shape id {rid} does not exist (the file has {n_shapes} shapes)", name)
    pairs = set()
    bitmap = element.find("bitmap")
    for pair in [] if bitmap is None else bitmap.findall("pair"):
        pairs.add((number(pair, "piece", name, where) + 1, number(pair, "result", name, where) + 1))
    return Problem(element.get("name") or "", parts, rid, pairs, groups)


def _groups(part: Element, most: int, name: str, where: str) -> list[tuple[int, int]]:
    """A part's piece groups (BurrTools' problem.cpp): a `group` attribute puts all its
    copies in one group; `<group group= count=>` children share them out."""
    if part.get("group") is not None:
        gid = number(part, "group", name, where, most=MAX_COPIES)
        return [(gid, most)] if gid else []
    found = [
        (number(g, "group", name, where, most=MAX_COPIES), number(g, "count", name, where, most=MAX_COPIES))
        for g in part.findall("group")
    ]
    return [(gid, n) for gid, n in found if gid]


def read_file(path: str | Path) -> BurrFile:
    """The file's grid, shapes and problems; only cube grids are accepted."""
    return read_xml(read_bytes(path), str(path))


def read_xml(data: bytes, name: str) -> BurrFile:
    """The grid, shapes and problems of a file's XML (`name` for the messages)."""
    root, positions = parse_xml(data, name)
    if root.tag != "puzzle":
        raise PuzzleError(f"not a BurrTools puzzle (root element <{clip(root.tag)}>)", name)
    grid_el = root.find("gridType")
    grid = 0 if grid_el is None else number(grid_el, "type", name, "gridType")
    if by_burr(grid) is None:
        what, known = BURR_GRIDS.get(grid, "unknown"), ", ".join(f"{n} ({BURR_GRIDS[n]})" for n in burr_numbers())
        raise PuzzleError(f"grid type {grid} ({what}) is not supported (only {known})", name)
    colours_el = root.find("colors")
    # a voxel's colour is at most MAX_COLOUR: colours defined beyond are never used
    n_colours = 0 if colours_el is None else min(len(colours_el.findall("color")), MAX_COLOUR)
    shapes_el = root.find("shapes")
    shapes = _shapes([] if shapes_el is None else shapes_el.findall("voxel"), name, positions)
    for i, s in enumerate(shapes):
        _on_grid(grid, s, i, name)
        top = max([int(s.filled_colour.max(initial=0)), int(s.variable_colour.max(initial=0))])
        if top > n_colours:
            raise PuzzleError(f"shape {i + 1}: colour {top} used, the file defines {n_colours}", name)
    problems_el = root.find("problems")
    problems = [
        _problem(p, i, len(shapes), name)
        for i, p in enumerate([] if problems_el is None else problems_el.findall("problem"))
    ]
    if not problems:
        raise PuzzleError("the file holds no problem", name)
    return BurrFile(grid, n_colours, shapes, problems)


def _on_grid(number: int, shape: Shape, index: int, name: str) -> None:
    """Refuse a voxel that is no cell of the grid (BurrTools' validCoordinate)."""
    g = by_burr(number)
    assert g is not None
    voxels = np.concatenate([shape.filled, shape.variable])
    bad = ~g.valid(g.from_burr(voxels))
    if bad.any():
        x, y, z = voxels[int(bad.argmax())].tolist()
        why = f" ({g.not_a_cell})" if g.not_a_cell else ""
        raise PuzzleError(f"shape {index + 1}: voxel ({x}, {y}, {z}) is no cell of the {g.title}{why}", name)


def choose(burr: BurrFile, problem: str | None, name: str) -> int:
    """The index of the problem named by `problem`: a number counted from 1, or a name
    (default: the first problem)."""
    if problem is None:
        return 0
    names = [p.name for p in burr.problems]
    if problem in names:
        return names.index(problem)
    if re.fullmatch(r"[0-9]+", problem.strip()):  # ASCII digits: int() would take '١' too
        digits = problem.strip().lstrip("0") or "0"
        if len(digits) <= 9 and 1 <= int(digits) <= len(burr.problems):
            return int(digits) - 1
        raise PuzzleError(f"no problem {clip(digits)}: the file has {len(burr.problems)} (numbered from 1)", name)
    shown = ", ".join(repr(clip(n)) for n in names[:SHOWN]) + (", ..." if len(names) > SHOWN else "")
    raise PuzzleError(f"no problem named {clip(problem)!r} (problems: {shown})", name)


def listing(burr: BurrFile) -> list[str]:
    """One line per problem: number (from 1), name, pieces, result size."""
    out = []
    for i, p in enumerate(burr.problems, start=1):
        lo, hi = sum(a for _, a, _ in p.parts), sum(b for _, _, b in p.parts)
        pieces = f"{hi} pieces" if lo == hi else f"{lo}..{hi} pieces"
        res = burr.shapes[p.result]
        var = f" + {len(res.variable)} variable" if len(res.variable) else ""
        out.append(
            f"{i}\t{p.name or '(unnamed)'}\t{len(p.parts)} shapes, {pieces}\t"
            f"result {res.name}: {len(res.filled)} voxels{var}"
        )
    return out


def to_puzzle(burr: BurrFile, index: int, name: str) -> Puzzle:
    """Problem `index` as a polytile Puzzle (see the module's note)."""
    from ..core.puzzle import Board, Piece, Puzzle

    prob = burr.problems[index]
    res = burr.shapes[prob.result]
    if len(res.filled) + len(res.variable) == 0:
        raise PuzzleError(f"problem {index + 1}: the result shape {res.name} is empty", name)
    g = by_burr(burr.grid)
    assert g is not None
    n = burr.colours
    cells = g.to_origin(g.from_burr(np.concatenate([res.filled, res.variable])))  # from the result's least corner
    board_colours = np.concatenate([res.filled_colour, res.variable_colour + n + 1])
    pieces: list[Piece] = []
    seen: set[str] = set()
    for sid, lo, hi in prob.parts:
        shape = burr.shapes[sid]
        if hi == 0:
            continue
        if len(shape.filled) == 0:
            raise PuzzleError(f"problem {index + 1}: piece shape {shape.name} is empty", name)
        label = shape.name if shape.name not in seen else f"{shape.name}#{sid + 1}"
        seen.add(label)
        pieces.append(
            Piece(label, g.from_burr(shape.filled), shape.filled_colour.copy(), hi, None if lo == hi else lo, False)
        )
    allowed = None
    if n or len(res.variable):
        _one_kind(g, cells[len(res.filled) :], f"problem {index + 1}", name)
        filler = np.array([g.origin_cell], dtype=np.int64)
        pieces.append(Piece(FILLER, filler, np.array([2 * n + 2]), len(res.variable), 0, False))
        allowed = _allowed(n, prob.pairs)
    names = [""] + [f"c{k}" for k in range(1, n + 1)] + ["+"] + [f"c{k}+" for k in range(1, n + 1)]
    label = f"{name} problem {index + 1}" + (f" ({prob.name})" if prob.name else "")
    return Puzzle(Board(cells, board_colours, g), pieces, False, names + [FILLER], label, [], allowed)


def _one_kind(g: Grid, variable: np.ndarray, where: str, name: str) -> None:
    """Refuse variable voxels that the one-cell FILLER cannot take: cells no rotation of the
    grid's origin cell is (on grids of several kinds of cell; every shift of the cube grid is
    a translation, so its one kind needs no look)."""
    if g.every_shift or not len(variable):
        return
    from ..core.shape import orientations

    kinds = {tuple(c[0].tolist()) for c, _ in orientations(np.array([g.origin_cell]), None, False, g)}
    for cell in {tuple(c) for c in variable.tolist()}:  # (np.unique's first call imports numpy.ma: 20-50 ms)
        if g.shift_to_origin([cell])[0] not in kinds:
            raise PuzzleError(
                f"{where}: variable voxels on cells of more than one kind (the {g.title}) are not supported", name
            )


def _allowed(n: int, pairs: set[tuple[int, int]]) -> np.ndarray:
    """allowed[board colour, piece colour] over the codes 0..n (result colours), n+1..2n+1
    (the same on variable voxels) and 2n+2 (FILLER)."""
    base = np.ones((n + 1, n + 1), dtype=bool)
    if n:
        base[1:, 1:] = False
        for p, r in pairs:
            if 1 <= p <= n and 1 <= r <= n:
                base[r, p] = True
    table = np.zeros((2 * n + 3, 2 * n + 3), dtype=bool)
    table[: n + 1, : n + 1] = base
    table[n + 1 : 2 * n + 2, : n + 1] = base
    table[n + 1 : 2 * n + 2, 2 * n + 2] = True
    return table


def load(path: str | Path, problem: str | None = None) -> Puzzle:
    """Problem `problem` (number from 1 or name; default the first) of a BurrTools file."""
    burr = read_file(path)
    return to_puzzle(burr, choose(burr, problem, str(path)), str(path))


def strip_fillers(solutions: list[Solution]) -> list[Solution]:
    """Solutions without the virtual pieces that stand for variable voxels left empty."""
    from dataclasses import replace

    return [replace(s, placements=[p for p in s.placements if p.piece != FILLER]) for s in solutions]


def dump(puzzle: Puzzle, solutions: list[Solution] | None, source: str) -> bytes:
    """The puzzle as a gzip-compressed .xmpuzzle (see `xmpuzzle_out`)."""
    from .xmpuzzle_out import dump as write

    return write(puzzle, solutions, source)
