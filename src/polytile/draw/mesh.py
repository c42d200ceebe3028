"""A piece as a closed, consistently oriented triangle mesh: the outer faces of its cells.

Input: the convex sub-cells of a solid (`mesh_cells.solid`), every face counter-clockwise
seen from outside its cell. A face two sub-cells share is inner and dropped; the others
are the surface, oriented outwards (right-hand rule), so every surface edge is walked once
in each direction by the two faces that meet there.

Where the piece touches itself along an edge only (two cubes sharing just an edge, two
squares just a corner, the extruded corner's vertical edge), four faces meet at one edge
and a naive mesh is not a 2-manifold. We split there, the way the solid would come apart
if it were shrunk by a hair (the choice `mesh_cells` makes for a real gap):

- around each edge, the cells of the piece fall into runs (cells joined through inner
  faces); each run owns the two surface faces that bound it, a *sheet*;
- a vertex is one per cycle of faces around a lattice point, faces linked through the
  sheets (two cubes sharing only an edge or a corner get a vertex each there; a point
  where the surface only touches itself gets one vertex per cone);
- an edge with several sheets gets a midpoint per sheet, so that no two sheets share
  both ends even where the surface passes one lattice point twice (two holes that touch
  along an edge); faces with a midpoint are fanned from their centre.

Every edge then lies on exactly two triangles and the faces around every vertex form one
cycle: a closed 2-manifold, with coinciding points where the piece touches itself.

Bevel: every vertex on a convex edge moves in so that it lies on the chamfer planes through
the rows of vertices `bevel` away from that edge (which `mesh_cells` puts there): the move
d with d . u = bevel / 2 for the inward normal u of every face at the vertex's convex edges.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from dataclasses import dataclass

import numpy as np

from ..core.grids import Grid, coerce
from .mesh_cells import TINY, Complex, Face, Key, solid
from .mesh_solids import joined, own, piece_surface, solids

Edge = tuple[Key, Key]
Sheet = tuple[Edge, Hashable]  # (edge, run of cells around it)
VertexIds = dict[Hashable, int]  # (face, key) and each corner cycle's root -> vertex id


@dataclass
class Mesh:
    """A triangle mesh: what the STL and OBJ writers take."""

    vertices: np.ndarray  # (n, 3) float
    faces: np.ndarray  # (m, 3) int64, counter-clockwise seen from outside


class _Sets:
    """Union-find over hashable things."""

    def __init__(self) -> None:
        self.up: dict[Hashable, Hashable] = {}

    def find(self, x: Hashable) -> Hashable:
        """The representative of x's set (paths compressed on the way)."""
        path = []
        while self.up.get(x, x) != x:
            path.append(x)
            x = self.up[x]
        for p in path:
            self.up[p] = x
        return x

    def union(self, a: Hashable, b: Hashable) -> None:
        """Join the sets of a and b."""
        a, b = self.find(a), self.find(b)
        if a != b:
            self.up[a] = b


def _edges(face: Face) -> Iterator[tuple[Key, Key, Edge]]:
    """(from, to, edge) around a face; the edge is its two keys in order."""
    for i, a in enumerate(face):
        b = face[(i + 1) % len(face)]
        yield a, b, (a, b) if a < b else (b, a)


def piece_mesh(grid: Grid | str, cells: np.ndarray, shrink: float = 0.0, bevel: float = 0.0) -> Mesh:
    """The mesh of one piece (unit cells), shrunk by `shrink` on its outer faces, its outer
    edges chamfered by `bevel` (both in cell edges). The grids whose cells are solids of
    their own (`mesh_solids.own`) take neither. `grid` may be its JSON spelling."""
    grid = coerce(grid, np.shape(cells)[1])
    if own(grid):
        if shrink >= TINY or bevel >= TINY:
            raise ValueError(f"the {grid.title}'s pieces are meshed without a gap or a bevel")
        return Mesh(*piece_surface(grid, cells)) if joined(grid) else mesh(solids(grid, cells))
    return mesh(solid(grid, cells, shrink, bevel), bevel if bevel >= TINY else 0.0)


def mesh(cx: Complex, bevel: float = 0.0) -> Mesh:
    """The closed surface of a complex of cells, bevelled on its outer edges when asked: one
    printable shell per piece."""
    if not cx.cells:
        return Mesh(np.zeros((0, 3)), np.zeros((0, 3), dtype=np.int64))
    faces, owner, runs = _surface(cx)
    sheets = _sheets(faces, owner, runs)
    ids, keys = _vertices(faces, sheets)
    points = np.array([cx.where[k] for k in keys], dtype=float).reshape(-1, 3)
    mids = _midpoints(sheets, points, ids)
    points = np.concatenate([points, np.array(list(mids.values())).reshape(-1, 3)])
    mid_id = {s: len(keys) + i for i, s in enumerate(mids)}
    rings = [_ring(f, b, owner[b], runs, ids, mid_id) for b, f in enumerate(faces)]
    if bevel > 0:
        points = points + _chamfer(faces, sheets, points, ids, mid_id, bevel, cx)
    return _triangles(rings, points)


def _surface(cx: Complex) -> tuple[list[Face], list[int], _Sets]:
    """The faces of no other sub-cell (with the sub-cell each bounds), and the runs of
    sub-cells around each edge, joined through the inner faces."""
    where: dict[frozenset[Key], list[tuple[int, int]]] = {}
    for c, cell in enumerate(cx.cells):
        for f, face in enumerate(cell):
            where.setdefault(frozenset(face), []).append((c, f))
    faces: list[Face] = []
    owner: list[int] = []
    runs = _Sets()
    for places in where.values():
        if len(places) == 1:
            c, f = places[0]
            faces.append(cx.cells[c][f])
            owner.append(c)
        else:
            (c1, f1), (c2, _) = places
            for _a, _b, e in _edges(cx.cells[c1][f1]):
                runs.union((e, c1), (e, c2))
    return faces, owner, runs


def _sheets(faces: list[Face], owner: list[int], runs: _Sets) -> dict[Sheet, list[int]]:
    """(edge, run) -> the two surface faces that bound that run of cells at that edge."""
    sheets: dict[Sheet, list[int]] = {}
    for b, face in enumerate(faces):
        for _a, _b, e in _edges(face):
            sheets.setdefault((e, runs.find((e, owner[b]))), []).append(b)
    bad = [s for s, fs in sheets.items() if len(fs) != 2]
    if bad:
        raise RuntimeError(f"mesh: {len(bad)} edges not bounded by two faces (first: {bad[0][0]})")
    return sheets


def _vertices(faces: list[Face], sheets: dict[Sheet, list[int]]) -> tuple[VertexIds, list[Key]]:
    """One vertex per cycle of faces around a lattice point: (face, key) -> vertex id,
    and each vertex's key."""
    corners = _Sets()
    for (e, _run), (b1, b2) in sheets.items():
        for k in e:
            corners.union((b1, k), (b2, k))
    ids: VertexIds = {}
    keys: list[Key] = []
    for b, face in enumerate(faces):
        for k in face:
            root = corners.find((b, k))
            if root not in ids:
                ids[root] = len(keys)
                keys.append(k)
            ids[(b, k)] = ids[root]
    return ids, keys


def _midpoints(sheets: dict[Sheet, list[int]], points: np.ndarray, ids: VertexIds) -> dict[Sheet, np.ndarray]:
    """A midpoint per sheet of an edge that has several sheets: sheet -> its point."""
    per_edge: dict[Edge, int] = {}
    for e, _run in sheets:
        per_edge[e] = per_edge.get(e, 0) + 1
    out: dict[Sheet, np.ndarray] = {}
    for (e, run), (b1, _b2) in sheets.items():
        if per_edge[e] > 1:
            out[(e, run)] = (points[ids[(b1, e[0])]] + points[ids[(b1, e[1])]]) / 2
    return out


def _ring(face: Face, b: int, cell: int, runs: _Sets, ids: VertexIds, mid_id: dict[Sheet, int]) -> list[int]:
    """A surface face's vertex ids, midpoints included (marked by a leading -1)."""
    ring, split = [], False
    for a, _to, e in _edges(face):
        ring.append(ids[(b, a)])
        mid = mid_id.get((e, runs.find((e, cell))))
        if mid is not None:
            ring.append(mid)
            split = True
    return [-1] + ring if split else ring


def _planes(faces: list[Face], where: dict[Key, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Each face's unit normal (Newell's, outwards) and centre, faces grouped by corner count."""
    normals, centres = np.zeros((len(faces), 3)), np.zeros((len(faces), 3))
    by_size: dict[int, list[int]] = {}
    for i, f in enumerate(faces):
        by_size.setdefault(len(f), []).append(i)
    for idx in by_size.values():
        pts = np.array([[where[k] for k in faces[i]] for i in idx])
        n = np.cross(pts, np.roll(pts, -1, axis=1)).sum(axis=1)
        normals[idx] = n / np.linalg.norm(n, axis=1, keepdims=True)
        centres[idx] = pts.mean(axis=1)
    return normals, centres


def _chamfer(
    faces: list[Face],
    sheets: dict[Sheet, list[int]],
    points: np.ndarray,
    ids: VertexIds,
    mid_id: dict[Sheet, int],
    bevel: float,
    cx: Complex,
) -> np.ndarray:
    """Each vertex's move onto the chamfer planes of the convex edges it lies on."""
    normals, centres = _planes(faces, cx.where)
    inward: dict[int, set[tuple[float, ...]]] = {}
    for (e, run), (b1, b2) in sheets.items():
        n1, n2 = normals[b1], normals[b2]
        if n1 @ n2 > 1 - 1e-9 or (centres[b2] - cx.where[e[0]]) @ n1 > -1e-9:
            continue  # flat or concave
        at = [ids[(b1, e[0])], ids[(b1, e[1])]] + ([mid_id[(e, run)]] if (e, run) in mid_id else [])
        for v in at:
            inward.setdefault(v, set()).update({tuple(np.round(-n1, 9)), tuple(np.round(-n2, 9))})
    moves = np.zeros_like(points)
    for v, us in inward.items():
        u = np.array(sorted(us))
        moves[v] = np.linalg.lstsq(u, np.full(len(u), bevel / 2), rcond=None)[0]
    return moves


def _folds(rings: list[list[int]], points: np.ndarray) -> np.ndarray:
    """Per ring: for a quad, how much more it encloses split along 0-2 than along 1-3 (zero
    when flat; a chamfered corner's quads are not, and the split that encloses less is the
    one whose triangles lie on the chamfer planes); 0 for other rings."""
    quads = [i for i, r in enumerate(rings) if len(r) == 4]
    out = np.zeros(len(rings))
    if quads:
        a, b, c, d = np.moveaxis(points[np.array([rings[i] for i in quads])], 1, 0)
        out[quads] = np.einsum("ij,ij->i", b - a, np.cross(c - a, d - a))
    return out


def _triangles(rings: list[list[int]], points: np.ndarray) -> Mesh:
    """Convex faces fanned from their first corner (a bent quad split along the diagonal that
    encloses less); faces with midpoints from their centre."""
    tris: list[tuple[int, int, int]] = []
    extra: list[np.ndarray] = []
    folds = _folds(rings, points)
    for ring, fold in zip(rings, folds):
        if ring[0] == -1:
            ring = ring[1:]
            c = len(points) + len(extra)
            extra.append(points[ring].mean(axis=0))
            tris += [(c, ring[i], ring[(i + 1) % len(ring)]) for i in range(len(ring))]
        elif fold > 1e-15:
            tris += [(ring[1], ring[2], ring[3]), (ring[1], ring[3], ring[0])]
        else:
            tris += [(ring[0], ring[i], ring[i + 1]) for i in range(1, len(ring) - 1)]
    verts = np.concatenate([points, np.array(extra).reshape(-1, 3)])
    return Mesh(verts, np.array(tris, dtype=np.int64).reshape(-1, 3))
