"""BurrTools' grids 1-4 (core/grids/prism.py, sphere.py, rhombic.py, tetra_octa.py): the
motions form groups of the orders BurrTools' tables give, map cells to cells and keep
adjacency; the prism's motions act on cell centres as BurrTools' rotation matrices do."""

from __future__ import annotations

import math
from itertools import product

import numpy as np
import pytest

from polytile.core.grids import by_burr, grid

# NUM_TRANSFORMATIONS, NUM_TRANSFORMATIONS_MIRROR of BurrTools' tables (src/lib/tabs_N/tablesizes.inc
# at b72a71d): the prisms use tabs_1 (12, 24); the rhombic and tetra-octa grids are cubes cut into
# voxels and use the cube's tabs_0 (24, 48); the spheres' tabs_2 lists 120 rotations, of which the
# 24 with integer entries (the cube's) are the packing's symmetries (the rest: flat layers only).
ORDERS = {"prism": (12, 24), "sphere": (24, 48), "rhombic": (24, 48), "tetra-octa": (24, 48)}
NEIGHBOURS = {"prism": 5, "sphere": 12, "rhombic": 4, "tetra-octa": 4}
NAMES = list(ORDERS)


def _cells(name: str) -> np.ndarray:
    """Every cell of the grid in a box around the origin."""
    g = grid(name)
    span = range(-6, 7)
    pts = np.array(list(product(span, repeat=g.dim)), dtype=np.int64)
    if g.dim == 4:
        pts = pts[np.abs(pts[:, 3]) <= 2]
    return pts[g.valid(pts)]


def _apply(motion, cells: np.ndarray) -> np.ndarray:
    mat, off = motion
    return cells @ np.array(mat, dtype=np.int64).T + np.array(off, dtype=np.int64)


def _compose(g, m1, m2):
    """m1 after m2, as (matrix, offset)."""
    a, b = np.array(m1[0]), np.array(m2[0])
    return a @ b, a @ np.array(m2[1]) + np.array(m1[1])


def _index_of(g, mat: np.ndarray, off: np.ndarray) -> int:
    """The motion equal to (mat, off) up to a translation of the grid."""
    found = [
        i for i, (m, t) in enumerate(g.motions) if (np.array(m) == mat).all() and g.is_translation(off - np.array(t))
    ]
    assert len(found) == 1
    return found[0]


@pytest.mark.parametrize("name", NAMES)
def test_group_order_and_closure(name: str) -> None:
    g = grid(name)
    assert (g.n_rotations, len(g.motions)) == ORDERS[name]
    assert by_burr(g.burr_number) is g
    for i, m1 in enumerate(g.motions):
        for j, m2 in enumerate(g.motions):
            k = _index_of(g, *_compose(g, m1, m2))
            assert (k < g.n_rotations) == ((i < g.n_rotations) == (j < g.n_rotations))
    # the rotations are the proper ones in space
    for i, (m, t) in enumerate(g.motions):
        m = np.array(m, dtype=float)
        if g.dim == 4:  # (a, b, c): x -> P x turns the plane when det P = 1; x -> 1 - P x likewise
            sign = round(np.linalg.det(m[:3, :3])) * (1 if t[0] == 0 else -1) * m[3, 3]
        else:
            sign = round(np.linalg.det(m))
        assert (i < g.n_rotations) == (sign == 1)


@pytest.mark.parametrize("name", NAMES)
def test_motions_keep_cells_and_adjacency(name: str) -> None:
    g = grid(name)
    cells = _cells(name)
    inner = cells[(np.abs(cells[:, :3]) <= 3).all(axis=1)]
    for motion in g.motions:
        img = _apply(motion, cells)
        assert g.valid(img).all()
        for c in inner[:: max(1, len(inner) // 40)].tolist():
            moved = tuple(_apply(motion, np.array([c]))[0].tolist())
            expect = {tuple(_apply(motion, np.array([n]))[0].tolist()) for n in g.neighbours(tuple(c))}
            assert set(g.neighbours(moved)) == expect


@pytest.mark.parametrize("name", NAMES)
def test_neighbours_are_cells_both_ways(name: str) -> None:
    g = grid(name)
    for c in _cells(name)[::7].tolist():
        ns = g.neighbours(tuple(c))
        assert len(set(ns)) == NEIGHBOURS[name]
        for n in ns:
            assert g.holds(n) and g.valid(np.array(n))
            assert tuple(c) in g.neighbours(n)


@pytest.mark.parametrize("name", NAMES)
def test_translations_and_normalisation(name: str) -> None:
    g = grid(name)
    cells = _cells(name)
    rng = np.random.default_rng(1)
    for _ in range(30):
        shape = cells[rng.choice(len(cells), 5, replace=False)]
        lo = g.origin_shift(shape)
        assert g.is_translation(lo)
        moved = g.to_origin(shape)
        assert g.valid(moved).all()
        shift = cells[rng.integers(len(cells))] - cells[rng.integers(len(cells))]
        if g.is_translation(shift):
            assert (g.to_origin(shape + shift) == moved).all()
            assert g.valid(shape + shift).all()


@pytest.mark.parametrize("name", NAMES)
def test_burr_voxels_round_trip(name: str) -> None:
    g = grid(name)
    cells = g.to_origin(_cells(name)[::5])
    voxels = g.to_burr(cells)
    assert (voxels >= 0).all()
    back = g.from_burr(voxels)
    assert g.valid(back).all()
    assert (g.to_origin(back) == cells).all()


def test_burr_voxel_validity() -> None:
    """voxel_2/3/4.cpp's validCoordinate, spelled out for one block each."""
    sphere, rhombic, tetra = grid("sphere"), grid("rhombic"), grid("tetra-octa")
    box5 = np.array(list(product(range(5), repeat=3)))
    assert sphere.valid(box5).sum() == 63  # x + y + z even in 5x5x5
    assert rhombic.valid(box5).sum() == 24
    assert {tuple(c) for c in box5[rhombic.valid(box5)].tolist()} >= {(0, 1, 2), (4, 3, 2), (2, 0, 1)}
    box3 = np.array(list(product(range(3), repeat=3)))
    assert {tuple(c) for c in box3[tetra.valid(box3)].tolist()} == {
        (1, 1, 1),
        (2, 0, 0),
        (0, 2, 0),
        (0, 0, 2),
        (2, 2, 2),
    }
    odd = box3 + np.array([3, 0, 0])
    assert {tuple(c - np.array([3, 0, 0])) for c in odd[tetra.valid(odd)]} == {
        (1, 1, 1),
        (0, 0, 0),
        (2, 2, 0),
        (0, 2, 2),
        (2, 0, 2),
    }


def _centre(x: int, y: int, z: int) -> np.ndarray:
    """A prism's centre as voxel_1.cpp places it (transformPoint)."""
    yp = y * math.sqrt(0.75) + (math.sqrt(1 / 3) if (x + y) % 2 else math.sqrt(1 / 12))
    return np.array([0.5 + 0.5 * x, yp, z])


def _tabs_1() -> list[tuple[np.ndarray, bool]]:
    """tabs_1/rotmatrix.inc's 24 maps: turns by k * 60 degrees about z, each also composed with
    the half turn about the x axis (12 rotations), then all of them mirrored in x."""
    out = []
    for mirror in (False, True):
        for flip in (False, True):
            for k in range(6):
                a = math.radians(60 * k)
                r = np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])
                if flip:
                    r = r @ np.diag([1, -1, -1])
                if mirror:
                    r = np.diag([-1, 1, 1]) @ r
                out.append((r, not mirror))
    return out


def test_prism_motions_are_burrtools_rotations() -> None:
    """Each of BurrTools' 24 prism maps moves the cells' centres as exactly one motion does
    (up to a translation), the rotations onto the first 12."""
    g = grid("prism")
    voxels = np.array([(x, y, z) for x in range(4) for y in range(3) for z in range(2)])
    cells = g.from_burr(voxels)
    centres = np.array([_centre(*v) for v in voxels.tolist()])
    for r, proper in _tabs_1():
        want = centres @ r.T
        found = []
        for i, motion in enumerate(g.motions):
            img = g.to_burr(_apply(motion, cells))
            got = np.array([_centre(*v) for v in img.tolist()])
            # same point sets up to a shift: compare sorted rows after subtracting their least
            a = np.round(want - want.min(axis=0), 6)
            b = np.round(got - got.min(axis=0), 6)
            if sorted(map(tuple, a.tolist())) == sorted(map(tuple, b.tolist())):
                # and cell by cell (the same cell goes where the matrix sends it)
                d = got - want
                if np.allclose(d, d[0], atol=1e-6):
                    found.append(i)
        assert len(found) == 1
        assert (found[0] < g.n_rotations) == proper


def test_sphere_layer_turns() -> None:
    """The 96 turns BurrTools adds (tabs_2/rotmatrix.inc: thirds) are rotations, none a motion of
    the packing; with the cube's 24 they are 120 distinct rotations. A flat piece in a layer
    across a corner axis gains the sixth turns: 4 balls in the plane x - y + z = 0 (BallRoom's
    fifth shape) have 24 orientations under the cube's rotations and 48 under BurrTools' 120."""
    from polytile.core.grids.moves import orientations
    from polytile.core.grids.sphere import layer_turns
    from polytile.core.grids.square import rotations

    turns = [np.array(t) for t in layer_turns()]
    assert len(turns) == 96
    for t in turns:
        assert np.allclose((t / 3) @ (t / 3).T, np.eye(3))
        assert round(np.linalg.det(t / 3)) == 1
        assert (t % 3 != 0).any()
    every = {tuple(t.ravel()) for t in turns} | {tuple((3 * r).ravel()) for r in rotations(3)}
    assert len(every) == 120
    g = grid("sphere")
    flat = np.array([(0, 0, 0), (1, 1, 0), (2, 2, 0), (1, 2, 1)])
    assert len(orientations(g, flat, None, False)) == 48
    bent = np.array([(0, 0, 0), (1, 1, 0), (2, 2, 0), (2, 2, 2)])  # not flat: the cube's turns only
    assert len(orientations(g, bent, None, False)) == len(
        {tuple(sorted(map(tuple, g.to_origin(bent @ r.T).tolist()))) for r in rotations(3)}
    )


def test_prisms_and_spheres_lie_in_layers():
    """`layer` and `footprint` (for drawing in layers): the footprints of one layer's cells do
    not overlap (their centres are apart by the polygons' size), and a prism's is its triangle."""
    from polytile.core.grids.triangle import Triangle

    # least distance of two centres in a layer: triangles of edge 1, 1/sqrt(3); balls drawn as
    # the unit squares of their layer's square packing (turned 45 degrees), 1
    for name, least in (("prism", 3**0.5 / 3), ("sphere", 1.0)):
        g = grid(name)
        cells = [tuple(c) for c in _cells(name).tolist() if g.layer(tuple(c)) == 0]
        centres = np.array([np.mean(g.footprint(c), axis=0) for c in cells])
        gaps = np.linalg.norm(centres[:, None] - centres[None], axis=-1) + np.eye(len(cells)) * 99
        assert abs(gaps.min() - least) < 1e-9
    assert grid("prism").footprint((0, 1, 1, 5)) == Triangle().corners((0, 1, 1))
    assert grid("prism").layer((0, 1, 1, 5)) == 5 and grid("sphere").layer((1, 0, 3)) == 3
