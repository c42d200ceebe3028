"""Sphere cells as one closed surface: balls joined by necks where two of a piece touch.

The sphere grid's balls (diameter 1, `solids.sphere_centre`) touch their twelve neighbours at
the points half-way along the twelve directions (+-1, +-1, 0) / sqrt(2) ... BurrTools
(voxel_2_mesh.cpp) joins two touching balls of a piece by a neck, a surface of revolution about
the line of their centres: the ball's surface up to a circle around the touching point, then a
circular fillet (a torus) that meets the plane half-way between the balls at right angles, at
radius CONNECTION * r / 2 (its STL exporter's default connection radius 0.75, curvature 1: the
largest fillet that stays between the balls, radius a^2 / (2 (r - a)) for a = 0.75 r / 2).

The surface of one ball is cut as a rhombic dodecahedron is: one spherical rhombus per
direction, each holding the circle where a neck starts (the fillet's tangent circle, 26 degrees
around the touching point) and the ring between that circle and the rhombus. Inside the circle:
a cap (no neighbour there) or the neck's half, which ends on the middle plane in a ring of
points the neighbour's half computes too. Every ring has the same rays (towards points spaced
evenly along the rhombus's edges, computed from the edge's ends in one order so that the two
rhombi of an edge share them), so the pieces meet vertex to vertex: the surface is closed and
2-manifold, its vertices on the ball and on the fillet. Necks of one ball do not meet (the
circles are 52 degrees wide, 60 degrees apart) and miss every other ball of the piece.
"""

from __future__ import annotations

from math import atan2, cos, sin, sqrt

import numpy as np

from .solids import SPHERE_RADIUS, sphere_centre

CONNECTION = 0.75  # neck radius on the middle plane, in ball radii times 2 (BurrTools' default)
EDGE_STEPS = 6  # points per rhombus edge: 24 rays per direction
RING_STEPS = 2  # rings between a neck's circle and the rhombus
CAP_STEPS = 3  # rings inside a closed cap
FILLET_STEPS = 4  # rings along a neck's fillet
DIRECTIONS = tuple(  # BurrTools' order (connectionPoints)
    (a, b, c)
    for a, b, c in (
        (-1, -1, 0), (-1, 1, 0), (1, -1, 0), (1, 1, 0),
        (-1, 0, -1), (-1, 0, 1), (1, 0, -1), (1, 0, 1),
        (0, -1, -1), (0, -1, 1), (0, 1, -1), (0, 1, 1),
    )
)  # fmt: skip


def neck_profile(r: float = SPHERE_RADIUS) -> list[tuple[float, float]]:
    """(distance from the axis, distance along it) of the neck's rings, from the ball's
    circle to the middle plane (at distance r)."""
    a = CONNECTION * r / 2
    fillet = a * a / (2 * (r - a))
    cx, cy = a + fillet, r  # the fillet's centre
    top = atan2(cy, cx)  # where the fillet touches the ball
    out = []
    for i in range(FILLET_STEPS, -1, -1):
        beta = top * i / FILLET_STEPS
        out.append((cx - fillet * cos(beta), cy - fillet * sin(beta)))
    return out


def neck_volume(r: float = SPHERE_RADIUS, steps: int = 20000) -> float:
    """The volume one neck adds to its two balls (the fillet's solid of revolution between the
    balls, less the caps of the balls inside it), by the midpoint rule along the axis."""
    a = CONNECTION * r / 2
    fillet = a * a / (2 * (r - a))
    cx = a + fillet
    y0 = r * r / (r + fillet)  # height of the fillet's contact with the ball
    ys = y0 + (np.arange(steps) + 0.5) * (r - y0) / steps
    rho = cx - np.sqrt(np.maximum(fillet**2 - (r - ys) ** 2, 0.0))
    solid = float(np.pi * (rho**2).sum() * (r - y0) / steps)
    h = r - y0
    return 2 * (solid - np.pi * h * h * (3 * r - h) / 3)


def _frame(d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The four corners of direction d's rhombus (unit vectors, counter-clockwise seen from
    outside): the two axis points and the two cube corners next to it."""
    axes = [np.eye(3)[i] * np.sign(d[i]) for i in range(3) if d[i]]
    free = next(i for i in range(3) if d[i] == 0)
    cubes = []
    for s in (1.0, -1.0):
        v = np.sign(d).astype(float)
        v[free] = s
        cubes.append(v / sqrt(3))
    ring = [axes[0], cubes[0], axes[1], cubes[1]]
    n = d / np.linalg.norm(d)
    if np.cross(ring[0] - n, ring[1] - n) @ n < 0:
        ring = ring[::-1]
    return np.array(ring), n


def _boundary(corners: np.ndarray) -> np.ndarray:
    """EDGE_STEPS points per edge of a rhombus, its corners first (each edge computed from its
    ends in sorted order: both rhombi of an edge get the same numbers)."""
    out = []
    for i in range(4):
        p, q = corners[i], corners[(i + 1) % 4]
        flip = tuple(p) > tuple(q)
        lo, hi = (q, p) if flip else (p, q)
        for k in range(EDGE_STEPS):
            t = 1 - k / EDGE_STEPS if flip else k / EDGE_STEPS
            x = lo + t * (hi - lo)
            out.append(p if k == 0 else x / np.linalg.norm(x))
    return np.array(out)


def _grid_triangles(n_rings: int, n: int) -> np.ndarray:
    """Triangles (m, 3) between consecutive rings of n points (indices into the rings stacked)."""
    j, i = np.meshgrid(np.arange(n_rings - 1), np.arange(n), indexing="ij")
    a = (j * n + i).ravel()
    b = (j * n + (i + 1) % n).ravel()
    return np.concatenate([np.stack([a, b, b + n], 1), np.stack([a, b + n, a + n], 1)])


def _rings(d: np.ndarray, open_neck: bool, r: float) -> tuple[np.ndarray, np.ndarray]:
    """The surface of a ball (centred at 0) around direction d: the ring to the rhombus, then
    the cap or the neck's half: (points (k, 3), triangles (m, 3)), orientation not yet fixed."""
    corners, n = _frame(d)
    edge = _boundary(corners)
    rays = edge - np.outer(edge @ n, n)
    rays /= np.linalg.norm(rays, axis=1, keepdims=True)
    profile = neck_profile(r)
    ang = atan2(*profile[0])
    circle = cos(ang) * n + sin(ang) * rays
    rings = [edge * r]
    for j in range(RING_STEPS - 1, 0, -1):
        x = (1 - j / RING_STEPS) * circle + j / RING_STEPS * edge
        rings.append(x / np.linalg.norm(x, axis=1, keepdims=True) * r)
    rings.append(circle * r)
    if open_neck:
        rings += [b * n + a * rays for a, b in profile[1:]]
    else:
        rings += [(cos(a) * n + sin(a) * rays) * r for a in (ang * (1 - j / CAP_STEPS) for j in range(1, CAP_STEPS))]
    k = len(rays)
    tris = _grid_triangles(len(rings), k)
    points = np.concatenate(rings)
    if not open_neck:
        last = (len(rings) - 1) * k + np.arange(k)
        fan = np.stack([last, np.roll(last, -1), np.full(k, len(points))], 1)
        tris = np.concatenate([tris, fan])
        points = np.concatenate([points, (n * r)[None]])
    return points, tris


def ball_triangles(cell: tuple[int, ...], joined: set[tuple[int, ...]]) -> np.ndarray:
    """The surface of one ball, its necks' halves towards the neighbours in `joined`, as
    triangles (m, 3, 3) counter-clockwise seen from outside."""
    centre = sphere_centre(cell)
    out = []
    for d in DIRECTIONS:
        linked = tuple(c + s for c, s in zip(cell, d)) in joined
        dv = np.array(d, dtype=float)
        points, tris = _rings(dv, linked, SPHERE_RADIUS)
        t = points[tris]
        normal = np.cross(t[:, 1] - t[:, 0], t[:, 2] - t[:, 0])
        away = t.mean(axis=1)
        if linked:  # away from the neck's axis (on the ball this agrees with away from the centre)
            axis = dv / np.linalg.norm(dv)
            away = away - np.outer(away @ axis, axis)
        flip = np.einsum("ij,ij->i", normal, away) < 0
        t[flip] = t[flip][:, ::-1]
        out.append(t + centre)
    return np.concatenate(out)


def weld(corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Triangles (m, 3, 3) as (vertices, faces): corners within about 1e-12 are one vertex
    (positions rounded to 1e-6, the rounding grid shifted until no coordinate lies within
    1e-13 of a rounding step, so that two copies of a point cannot round apart); triangles
    whose corners weld together are dropped."""
    flat = corners.reshape(-1, 3)
    scaled = flat * 1e6
    for shift in np.linspace(0.0, 0.9, 10):
        frac = (scaled + shift) % 1.0
        if not (np.abs(frac - 0.5) < 1e-7).any():
            break
    keys = np.round(scaled + shift).astype(np.int64)
    _, first, inverse = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    faces = inverse.reshape(-1, 3)
    keep = (faces[:, 0] != faces[:, 1]) & (faces[:, 1] != faces[:, 2]) & (faces[:, 0] != faces[:, 2])
    return flat[first], faces[keep]


def surface(cells: list[tuple[int, ...]]) -> tuple[np.ndarray, np.ndarray]:
    """A piece of sphere cells as one closed surface: (vertices (k, 3), triangles (m, 3)
    counter-clockwise seen from outside), touching balls joined by necks."""
    have = {tuple(int(x) for x in c) for c in cells}
    if not have:
        return np.zeros((0, 3)), np.zeros((0, 3), dtype=np.int64)
    return weld(np.concatenate([ball_triangles(c, have) for c in sorted(have)]))


def ball(cell: tuple[int, ...]) -> tuple[np.ndarray, tuple[tuple[int, ...], ...]]:
    """One sphere cell alone: a closed polyhedron with its vertices on the ball."""
    v, f = surface([cell])
    return v, tuple(tuple(int(i) for i in t) for t in f.tolist())
