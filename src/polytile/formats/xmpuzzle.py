"""BurrTools `.xmpuzzle` files in: gzip-compressed (or plain) XML holding a grid type,
shapes as voxel strings and problems (a result shape, pieces with counts or min..max
ranges, colour constraints). Only the cube grid (gridType 0) maps onto polytile.

How BurrTools' notions become polytile's model (see docs/parts/xmpuzzle.md):
- every shape is a solid: pieces are only rotated (24 motions), never mirrored;
- a problem's part with `count` n (or `min`..`max`) is a Piece with count max, minimum min;
- voxel colours: colour 0 is neutral; a piece voxel of colour p may lie on a result voxel
  of colour r when either is neutral or the problem's `<bitmap>` has the pair (p, r)
  (`problem_c::placementAllowed`) -> the Puzzle's `allowed` table;
- variable voxels ('+', may stay empty) -> board cells of their own colour codes that a
  virtual one-cell piece FILLER (count = their number, minimum 0) may also take; its
  copies are interchangeable, so each assembly is counted once. It never leaves
  `strip_fillers` in a printed solution.

The file is read defensively: the size of the decompressed XML is capped (a gzip bomb is
refused after MAX_XML bytes), defusedxml refuses entities and external references, and
every fault is one PuzzleError naming the file (and the line and column XML gives)."""

from __future__ import annotations

import gzip
import io
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..core.puzzle import VIRTUAL
from ..errors import PuzzleError
from .common import read_bytes as common_read_bytes

if TYPE_CHECKING:
    from xml.etree.ElementTree import Element

    from ..core.puzzle import Puzzle
    from ..core.results import Solution

MAX_XML = 32 << 20  # bytes of XML after decompression
MAX_VOXELS = 1 << 22  # x * y * z of one shape
GZIP_MAGIC = b"\x1f\x8b"
FILLER = VIRTUAL  # the virtual piece that takes a variable voxel left empty
GRIDS = {0: "cube", 1: "triangular prism", 2: "sphere", 3: "rhombic dodecahedron", 4: "tetrahedron-octahedron"}


@dataclass
class Shape:
    """A BurrTools shape as read: its filled and variable voxels with their colours."""

    name: str
    size: tuple[int, int, int]
    filled: np.ndarray  # (n, 3) cells of '#' voxels
    variable: np.ndarray  # (m, 3) cells of '+' voxels
    filled_colour: np.ndarray  # (n,) colour per filled cell (0 neutral)
    variable_colour: np.ndarray  # (m,)


@dataclass
class Problem:
    """A BurrTools problem: which shapes are the pieces (with counts) and which the result, and
    the colour rules."""

    name: str
    parts: list[tuple[int, int, int]]  # (shape id, min, max)
    result: int
    pairs: set[tuple[int, int]] = field(default_factory=set)  # (piece colour, result colour), 1-based


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


def unpack(raw: bytes, name: str, limit: int = MAX_XML) -> bytes:
    """The XML of a file's bytes (gzip or plain; the page's uploads come this way, with a
    lower `limit`): gunzipped in chunks, refused past `limit` bytes."""
    if not raw.startswith(GZIP_MAGIC):
        if len(raw) > limit:
            raise PuzzleError(f"more than {limit >> 20} MB of XML", name)
        return raw
    out = bytearray()
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(raw)) as stream:
            while chunk := stream.read(1 << 20):
                out += chunk
                if len(out) > limit:
                    raise PuzzleError(f"decompresses to more than {limit >> 20} MB of XML (a gzip bomb?)", name)
    except (OSError, EOFError, zlib.error) as e:
        raise PuzzleError(f"broken gzip data: {e}", name) from None
    return bytes(out)


def parse_xml(data: bytes, name: str) -> Element:
    """The XML's root element; entities, DTD tricks and syntax errors refused in one line."""
    from xml.etree.ElementTree import ParseError

    import defusedxml
    from defusedxml.ElementTree import fromstring

    try:
        data.decode("utf-8")
    except UnicodeDecodeError:  # BurrTools writes its comments' bytes as they came
        if b"encoding=" not in data[:100]:
            data = data.decode("latin-1").encode("utf-8")
    try:
        root: Element = fromstring(data, forbid_dtd=False, forbid_entities=True, forbid_external=True)
        return root
    except ParseError as e:
        line, col = getattr(e, "position", (None, None))
        msg = str(e).split(":")[0]
        raise PuzzleError(f"malformed XML: {msg}", name, line, None if col is None else col + 1) from None
    except defusedxml.DefusedXmlException as e:
        raise PuzzleError(
            f"refused XML: {type(e).__name__} (entities and external references are not read)", name
        ) from None


def _int(element: Element, attr: str, name: str, where: str, default: int | None = None) -> int:
    text = element.get(attr)
    if text is None:
        if default is None:
            raise PuzzleError(f"{where}: missing attribute {attr!r}", name)
        return default
    try:
        value = int(text.strip())
    except ValueError:
        raise PuzzleError(f"{where}: attribute {attr}={text[:20]!r} is not an integer", name) from None
    if value < 0:
        raise PuzzleError(f"{where}: attribute {attr}={value} is negative", name)
    return value


def _voxels(text: str, size: tuple[int, int, int], name: str, where: str) -> tuple[np.ndarray, np.ndarray]:
    """States and colours of the voxels, x fastest, then y, then z; a colour's digits
    follow the voxel they colour (`voxel_c::voxel_c`)."""
    n = size[0] * size[1] * size[2]
    states: list[str] = []
    colours: list[int] = []
    for ch in text.strip():
        if ch in "#+_":
            states.append(ch)
            colours.append(0)
        elif ch.isdigit() and states:
            colours[-1] = colours[-1] * 10 + int(ch)
            if colours[-1] > 63:
                raise PuzzleError(f"{where}: colour {colours[-1]} is too big (at most 63)", name)
        elif not ch.isspace():
            raise PuzzleError(f"{where}: unexpected character {ch!r} in the voxel string", name)
    if len(states) != n:
        raise PuzzleError(f"{where}: {len(states)} voxels given for {size[0]}x{size[1]}x{size[2]} = {n}", name)
    return np.array(states), np.array(colours, dtype=np.int64)


def _shape(element: Element, index: int, name: str) -> Shape:
    where = f"shape {index + 1}"
    size = (_int(element, "x", name, where), _int(element, "y", name, where), _int(element, "z", name, where))
    if _int(element, "type", name, where, 0) != 0:
        raise PuzzleError(f"{where}: unknown voxel type {element.get('type')}", name)
    if size[0] * size[1] * size[2] > MAX_VOXELS:
        raise PuzzleError(f"{where}: {size[0]}x{size[1]}x{size[2]} voxels (limit {MAX_VOXELS})", name)
    states, colours = _voxels(element.text or "", size, name, where)
    idx = np.arange(len(states))
    cells = np.stack([idx % size[0], idx // size[0] % size[1], idx // (size[0] * size[1])], axis=1)
    full, var = states == "#", states == "+"
    return Shape(
        element.get("name") or f"S{index + 1}",
        size,
        cells[full],
        cells[var],
        colours[full],
        colours[var],
    )


def _problem(element: Element, index: int, n_shapes: int, name: str) -> Problem:
    where = f"problem {index + 1}"
    parts: list[tuple[int, int, int]] = []
    shapes = element.find("shapes")
    for part in [] if shapes is None else shapes.findall("shape"):
        sid = _int(part, "id", name, where)
        if sid >= n_shapes:
            raise PuzzleError(f"{where}: shape id {sid} does not exist (the file has {n_shapes} shapes)", name)
        if part.get("count") is not None:
            lo = hi = _int(part, "count", name, where)
        elif part.get("min") is not None and part.get("max") is not None:
            lo, hi = _int(part, "min", name, where), _int(part, "max", name, where)
            if lo > hi:
                raise PuzzleError(f"{where}: shape {sid} has min {lo} > max {hi}", name)
        else:
            lo = hi = 1
        parts.append((sid, lo, hi))
    result = element.find("result")
    if result is None:
        raise PuzzleError(f"{where}: no result shape", name)
    rid = _int(result, "id", name, where)
    if rid >= n_shapes:
        raise PuzzleError(f"{where}: result shape id {rid} does not exist (the file has {n_shapes} shapes)", name)
    pairs = set()
    bitmap = element.find("bitmap")
    for pair in [] if bitmap is None else bitmap.findall("pair"):
        pairs.add((_int(pair, "piece", name, where) + 1, _int(pair, "result", name, where) + 1))
    return Problem(element.get("name") or "", parts, rid, pairs)


def read_file(path: str | Path) -> BurrFile:
    """The file's grid, shapes and problems; only cube grids are accepted."""
    return read_xml(read_bytes(path), str(path))


def read_xml(data: bytes, name: str) -> BurrFile:
    """The grid, shapes and problems of a file's XML (`name` for the messages)."""
    root = parse_xml(data, name)
    if root.tag != "puzzle":
        raise PuzzleError(f"not a BurrTools puzzle (root element <{root.tag}>)", name)
    grid_el = root.find("gridType")
    grid = 0 if grid_el is None else _int(grid_el, "type", name, "gridType")
    if grid != 0:
        what = GRIDS.get(grid, "unknown")
        raise PuzzleError(f"grid type {grid} ({what}) is not supported (only 0, cubes)", name)
    colours_el = root.find("colors")
    n_colours = 0 if colours_el is None else len(colours_el.findall("color"))
    shapes_el = root.find("shapes")
    shapes = [_shape(v, i, name) for i, v in enumerate([] if shapes_el is None else shapes_el.findall("voxel"))]
    for i, s in enumerate(shapes):
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


def choose(burr: BurrFile, problem: str | None, name: str) -> int:
    """The index of the problem named by `problem`: a number counted from 1, or a name
    (default: the first problem)."""
    if problem is None:
        return 0
    names = [p.name for p in burr.problems]
    if problem in names:
        return names.index(problem)
    if problem.strip().isdigit():
        n = int(problem)
        if 1 <= n <= len(burr.problems):
            return n - 1
        raise PuzzleError(f"no problem {n}: the file has {len(burr.problems)} (numbered from 1)", name)
    raise PuzzleError(f"no problem named {problem!r} (problems: {', '.join(repr(n) for n in names)})", name)


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
    n = burr.colours
    cells = np.concatenate([res.filled, res.variable])
    cells -= cells.min(axis=0)  # from the result's least corner
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
            Piece(label, shape.filled.copy(), shape.filled_colour.copy(), hi, None if lo == hi else lo, False)
        )
    allowed = None
    if n or len(res.variable):
        pieces.append(
            Piece(FILLER, np.zeros((1, 3), dtype=np.int64), np.array([2 * n + 2]), len(res.variable), 0, False)
        )
        allowed = _allowed(n, prob.pairs)
    names = [""] + [f"c{k}" for k in range(1, n + 1)] + ["+"] + [f"c{k}+" for k in range(1, n + 1)]
    label = f"{name} problem {index + 1}" + (f" ({prob.name})" if prob.name else "")
    return Puzzle(Board(cells, board_colours), pieces, False, names + [FILLER], label, [], allowed)


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
