"""The solid of one piece as a set of small convex cells, ready to be meshed (see `mesh`).

A piece is a set of lattice cells; its solid is their union, shrunk by `shrink` (half the
gap) on its outer faces. Both are built the same way: every lattice cell is cut into
sub-cells by planes (lines, for the flat grids) at distance `shrink` and `shrink + bevel`
from each of its faces, and a sub-cell belongs to the solid when every cell within
`shrink` of it belongs to the piece. Then

- inner faces stay where they are (a sub-cell next to an inner face needs the neighbour),
- every outer face moves in by exactly `shrink` (the sub-cells next to it are left out),
- the planes at `shrink + bevel` put a row of vertices at distance `bevel` from every
  outer edge, where `mesh` cuts the chamfer,
- and with shrink = bevel = 0 the sub-cells are the cells themselves.

Cube grid (`Grid.cubic`): sub-boxes of a rectilinear grid, keyed by integer indices (exact, no rounding).
Flat grids (`Grid.flat`: square, triangle, hex): the cell polygon is cut by lines parallel to its edges
(convex pieces of a line arrangement), then extruded to unit height as prisms, split at
heights `bevel` and 1 - `bevel` for the chamfer. Their vertices are keyed by position
rounded to 1e-7 cell edges (neighbouring cells compute a shared point within 1e-15).

Coordinates: x right and y up as the puzzle's drawings read (a cell (row, column) has
x = column, y = -row), z up; 3D cells (row, column, layer) map to (column, -row, layer),
a proper rotation, so that a solid piece is not mirrored. Unit edge everywhere: squares
and cubes of side 1, triangles and hexagons of edge 1 (areas sqrt(3)/4 and 3 sqrt(3)/2).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product
from typing import Any

import numpy as np

from ..core.grids import Grid, fit
from ..core.grids.square import BOX_FACES

Key = tuple[Any, ...]  # a vertex's identity: rounded coordinates, or a lattice point and an offset
Face = tuple[Key, ...]  # vertex keys, counter-clockwise seen from outside
ROUND = 1e7  # key resolution of the flat grids: 1e-7 cell edges
TINY = 1e-6  # shrink and bevel under this (in cell edges) are zero


@dataclass
class Complex:
    """Convex sub-cells of one solid: each a tuple of faces; `where` gives each key's point."""

    cells: list[tuple[Face, ...]] = field(default_factory=list)
    where: dict[Key, np.ndarray] = field(default_factory=dict)


def solid(grid: Grid, cells: np.ndarray, shrink: float = 0.0, bevel: float = 0.0) -> Complex:
    """The sub-cells of a piece's solid (cells: (k, d) lattice coordinates; shrink and
    bevel in cell edges, under TINY counting as zero)."""
    cells = np.asarray(cells, dtype=np.int64)
    shrink, bevel = (x if x >= TINY else 0.0 for x in (shrink, bevel))
    grid = fit(grid, cells.shape[1])
    if grid.cubic:
        return _boxes(cells, shrink, bevel)
    return _prisms(grid, cells, shrink, bevel)


def _breaks(shrink: float, bevel: float) -> tuple[list[float], list[int]]:
    """Where a unit interval is cut, and each part's side: -1 within `shrink` of 0,
    +1 within `shrink` of 1, 0 elsewhere."""
    cuts = sorted({0.0, shrink, shrink + bevel, 1 - shrink - bevel, 1 - shrink} - {1.0})
    sides = [0] * len(cuts)
    if shrink > 0:
        sides[0], sides[-1] = -1, 1
    return cuts, sides


def _boxes(cells: np.ndarray, shrink: float, bevel: float) -> Complex:
    """Cube grid: each cube cut into m^3 boxes; a box within `shrink` of some faces needs
    the cubes beyond those faces (and beyond their edges and corners) in the piece."""
    cuts, sides = _breaks(shrink, bevel)
    m = len(cuts)
    have = {tuple(c) for c in cells.tolist()}
    out = Complex()
    for cell in have:
        for part in product(range(m), repeat=3):
            reach = [(0, sides[s]) if sides[s] else (0,) for s in part]
            if all(tuple(c + o for c, o in zip(cell, off)) in have for off in product(*reach)):
                low = tuple(m * c + s for c, s in zip(cell, part))
                out.cells.append(
                    tuple(tuple(tuple(lo + b for lo, b in zip(low, corner)) for corner in face) for face in BOX_FACES)
                )
    for face in (f for cell in out.cells for f in cell):
        for key in face:
            if key not in out.where:
                row, col, layer = (k // m + cuts[k % m] for k in key)
                out.where[key] = np.array([col, -row, layer], dtype=float)
    return out


def _polygon(grid: Grid, cell: tuple[int, ...]) -> np.ndarray:
    """A flat cell's corners (x right, y up), counter-clockwise."""
    pts = np.array([(x, -y) for x, y in grid.corners(cell)], dtype=float)
    return pts if _area(pts) > 0 else pts[::-1]


class _Keys:
    """Points of the plane keyed by their position rounded to 1 / ROUND. Two cells compute a
    shared point within about 1e-14; should the two land either side of a rounding step,
    the second finds the first among the neighbouring keys (distinct points of the sub-cells
    are over 1e-6 apart: sizes under that count as zero)."""

    def __init__(self) -> None:
        self.seen: dict[tuple[int, int], np.ndarray] = {}

    def __call__(self, p: np.ndarray) -> tuple[int, int]:
        k = (int(round(p[0] * ROUND)), int(round(p[1] * ROUND)))
        for dx, dy in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)):
            near = (k[0] + dx, k[1] + dy)
            if near in self.seen and np.abs(self.seen[near] - p).max() < 1e-9:
                return near
        self.seen[k] = p
        return k


def _split(poly: np.ndarray, normal: np.ndarray, offset: float) -> list[np.ndarray]:
    """A convex polygon cut by the line normal . x = offset: its parts (one or two)."""
    s = poly @ normal - offset
    if (s >= -1e-12).all() or (s <= 1e-12).all():
        return [poly]
    parts: list[list[np.ndarray]] = [[], []]
    for i in range(len(poly)):
        j = (i + 1) % len(poly)
        parts[int(s[i] > 0)].append(poly[i])
        if (s[i] > 0) != (s[j] > 0) and abs(s[i] - s[j]) > 1e-15:
            cut = poly[i] + (poly[j] - poly[i]) * (s[i] / (s[i] - s[j]))
            parts[0].append(cut)
            parts[1].append(cut)
    return [np.array(p) for p in parts if len(p) >= 3]


def _regions(poly: np.ndarray, offsets: list[float]) -> list[np.ndarray]:
    """A cell polygon cut by the lines at the given distances inside each of its edges."""
    regions = [poly]
    for i in range(len(poly)):
        edge = poly[(i + 1) % len(poly)] - poly[i]
        inward = np.array([-edge[1], edge[0]]) / np.hypot(*edge)
        for t in offsets:
            regions = [part for r in regions for part in _split(r, inward, inward @ poly[i] + t)]
    return [r for r in regions if _area(r) > 1e-9]


def _area(poly: np.ndarray) -> float:
    x, y = poly[:, 0], poly[:, 1]
    return 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))


def _inside(
    region: np.ndarray,
    poly: np.ndarray,
    keys: list[Key],
    shrink: float,
    shared: dict[frozenset[Key], int],
    full: dict[Key, int],
    grid: Grid,
) -> bool:
    """Whether a region of a cell belongs to the shrunk solid: near an edge it needs the
    neighbour across it, near a corner every cell around that corner."""
    if shrink <= 0:
        return True
    centre = region.mean(axis=0)
    k = len(poly)
    near = []
    for i in range(k):
        edge = poly[(i + 1) % k] - poly[i]
        inward = np.array([-edge[1], edge[0]]) / np.hypot(*edge)
        near.append(inward @ (centre - poly[i]) < shrink)
    for i in range(k):
        if near[i] and shared[frozenset((keys[i], keys[(i + 1) % k]))] < 2:
            return False
        if near[i] and near[(i + 1) % k] and full[keys[(i + 1) % k]] < grid.cells_at_vertex:
            return False
    return True


def _prisms(grid: Grid, cells: np.ndarray, shrink: float, bevel: float) -> Complex:
    """Flat grids: each cell's regions, extruded to unit height (split for the chamfer)."""
    polys = [_polygon(grid, tuple(c)) for c in cells.tolist()]
    key = _Keys()
    corner_keys = [[key(p) for p in poly] for poly in polys]
    shared: dict[frozenset[Key], int] = {}
    full: dict[Key, int] = {}
    for keys in corner_keys:
        for i, k in enumerate(keys):
            full[k] = full.get(k, 0) + 1
            e = frozenset((k, keys[(i + 1) % len(keys)]))
            shared[e] = shared.get(e, 0) + 1
    offsets = sorted({t for t in (shrink, shrink + bevel) if t > 0})
    heights = sorted({0.0, bevel, 1 - bevel, 1.0})
    out = Complex()
    for poly, keys in zip(polys, corner_keys):
        for region in _regions(poly, offsets):
            if _inside(region, poly, keys, shrink, shared, full, grid):
                _extrude(out, region, heights, key)
    return out


def _extrude(out: Complex, region: np.ndarray, heights: list[float], key: _Keys) -> None:
    """A region's prisms, one per layer between consecutive heights."""
    ring: list[tuple[int, int]] = []
    for p in region:
        k = key(p)
        if not ring or (k != ring[-1] and k != ring[0]):
            ring.append(k)
            for level, z in enumerate(heights):
                out.where.setdefault((*k, level), np.array([p[0], p[1], z]))
    if len(ring) < 3:
        return
    n = len(ring)
    for level in range(len(heights) - 1):
        bottom = tuple((*k, level) for k in reversed(ring))
        top = tuple((*k, level + 1) for k in ring)
        sides = tuple(
            ((*ring[i], level), (*ring[(i + 1) % n], level), (*ring[(i + 1) % n], level + 1), (*ring[i], level + 1))
            for i in range(n)
        )
        out.cells.append((bottom, top) + sides)
