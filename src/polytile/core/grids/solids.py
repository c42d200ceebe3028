"""The solids of BurrTools' other grids, one cell at a time, as BurrTools draws them.

Every function returns (vertices (k, 3) float, faces: tuples of vertex indices counter-clockwise
seen from outside) in the common 3D frame (x right, y up, z up), BurrTools' own axes kept
(a proper map: a solid piece is not mirrored). Sizes are BurrTools' drawing sizes:

prism       cells (a, b, c, z): the triangle grid's triangle (edge 1, core.grids.triangle's
            coordinates) extruded from z to z + 1 (voxel_1.cpp: edge 1, layers 1 apart).
sphere      cells (x, y, z), x + y + z even: a ball of diameter 1 centred at (x, y, z) / sqrt(2),
            so that the twelve neighbours (two coordinates +-1) touch it (voxel_2_mesh.cpp).
            Drawn as a polyhedron whose vertices lie on the sphere; `sphere_volume` is the ball's.
rhombic     cells (x, y, z) of 5 x 5 x 5 blocks (voxel_3.cpp): block (X, Y, Z) is the cube
            [2X, 2X + 2] x ... (edge 2, tabs_3/meshverts.inc), cut by its six diagonal planes into
            24 tetrahedra; the voxel on the block's face x = 0 at (y, z) = (2, 1) is the
            tetrahedron of the cube's centre, the face's centre and the face's edge at z = 0.
tetra-octa  cells (x, y, z) of 3 x 3 x 3 blocks (voxel_4.cpp): block (X, Y, Z) is the unit cube
            at (X, Y, Z) (tabs_4/meshverts.inc); its centre voxel is the regular tetrahedron on
            the cube's corners of even coordinate sum, its corner voxels the four corners cut off
            (eight of those, around an odd point, make an octahedron).
"""

from __future__ import annotations

from math import sqrt

import numpy as np

Solid = tuple[np.ndarray, tuple[tuple[int, ...], ...]]

H = sqrt(3) / 2  # height of a unit triangle
PRISM_VOLUME = sqrt(3) / 4  # a unit triangle, unit height
RHOMBIC_VOLUME = 1 / 3  # a 24th of the cube of edge 2
TETRA_VOLUME = 1 / 3  # the regular tetrahedron in the unit cube
CORNER_VOLUME = 1 / 6  # a corner cut off the unit cube
SPHERE_RADIUS = 0.5
SPHERE_STEP = sqrt(0.5)  # sphere centres: cell coordinates times this


def outward(vertices: np.ndarray, faces: list[tuple[int, ...]]) -> tuple[tuple[int, ...], ...]:
    """Faces of a convex solid turned counter-clockwise seen from outside (Newell's normal
    pointing away from the solid's centroid)."""
    centre = vertices.mean(axis=0)
    out = []
    for f in faces:
        pts = vertices[list(f)]
        normal = np.cross(pts, np.roll(pts, -1, axis=0)).sum(axis=0)
        out.append(tuple(f) if normal @ (pts.mean(axis=0) - centre) > 0 else tuple(reversed(f)))
    return tuple(out)


def tetrahedron(points: list[tuple[float, ...]]) -> Solid:
    """A tetrahedron on four points, faces outwards."""
    v = np.array(points, dtype=float)
    return v, outward(v, [(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)])


def prism(cell: tuple[int, ...]) -> Solid:
    """A prism cell (a, b, c, z): the triangle (a, b, c) (up when a + b + c = 2) times [z, z + 1]."""
    a, b, c, z = cell
    if a + b + c == 2:
        corners = [(a + 1, b, c), (a, b + 1, c), (a, b, c + 1)]
    else:
        corners = [(a, b + 1, c + 1), (a + 1, b, c + 1), (a + 1, b + 1, c)]
    ring = [((q - s) / 2, p * H) for p, q, s in corners]  # the triangle grid's vertex, y up
    v = np.array([(x, y, float(h)) for h in (z, z + 1) for x, y in ring])
    return v, outward(v, [(0, 1, 2), (3, 4, 5), (0, 1, 4, 3), (1, 2, 5, 4), (2, 0, 3, 5)])


def _block(cell: tuple[int, ...], size: int) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """(block, position in the block) of a cell of a grid cut from size^3 blocks of voxels."""
    x, y, z = cell
    return (x // size, y // size, z // size), (x % size, y % size, z % size)


def rhombic(cell: tuple[int, ...]) -> Solid:
    """A rhombic-grid voxel: one of the 24 tetrahedra of its block's cube (edge 2)."""
    (bx, by, bz), sub = _block(cell, 5)
    face = [i for i in range(3) if sub[i] in (0, 4)]
    middle = [i for i in range(3) if sub[i] == 2]
    side = [i for i in range(3) if sub[i] in (1, 3)]
    if len(face) != 1 or len(middle) != 1 or len(side) != 1:
        raise ValueError(f"({', '.join(map(str, cell))}) is no cell of the rhombic grid")
    f, m, s = face[0], middle[0], side[0]
    low = np.array([2 * bx, 2 * by, 2 * bz], dtype=float)
    centre = low + 1.0
    face_centre = centre.copy()
    face_centre[f] = low[f] + (0 if sub[f] == 0 else 2)
    ends = []
    for t in (0, 2):
        p = face_centre.copy()
        p[s] = low[s] + (0 if sub[s] == 1 else 2)
        p[m] = low[m] + t
        ends.append(tuple(p))
    return tetrahedron([tuple(centre), tuple(face_centre), *ends])


def tetra_octa(cell: tuple[int, ...]) -> Solid:
    """A tetra-octa voxel: its unit cube's regular tetrahedron (the centre voxel) or one of the
    corners cut off it (the corner voxels)."""
    (bx, by, bz), (xs, ys, zs) = _block(cell, 3)
    corners = [(bx + i, by + j, bz + k) for i in (0, 1) for j in (0, 1) for k in (0, 1)]
    if (xs, ys, zs) == (1, 1, 1):
        return tetrahedron([tuple(map(float, p)) for p in corners if sum(p) % 2 == 0])
    if {xs, ys, zs} <= {0, 2} and (bx + by + bz + (xs + ys + zs) // 2) % 2 == 1:
        k = (bx + xs // 2, by + ys // 2, bz + zs // 2)
        steps = [1 if k[i] == low else -1 for i, low in enumerate((bx, by, bz))]
        nbrs = [tuple(float(k[j] + steps[i] * (i == j)) for j in range(3)) for i in range(3)]
        return tetrahedron([tuple(map(float, k)), *nbrs])
    raise ValueError(f"({', '.join(map(str, cell))}) is no cell of the tetra-octa grid")


def sphere_centre(cell: tuple[int, ...]) -> np.ndarray:
    """Where a sphere cell's ball is centred."""
    return np.array(cell, dtype=float) * SPHERE_STEP


def sphere_volume() -> float:
    """The ball of one sphere cell."""
    return 4 / 3 * np.pi * SPHERE_RADIUS**3
