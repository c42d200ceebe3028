"""Meshes of BurrTools' other grids (core/grids/solids.py, core/grids/balls.py,
draw/mesh_solids.py), checked with trimesh, which shares no code with polytile.

Expected values from outside our code: a triangle of edge 1 has area sqrt(3)/4; a cube of
edge 2 cut by its six diagonal planes gives 24 equal tetrahedra (8 / 24 each); a rhombic
dodecahedron is a cube with a pyramid of height half its edge on each face (twice the cube);
the regular tetrahedron inscribed in the unit cube has volume 1/3 and leaves four corners of
1/6; eight such corners round a point make the octahedron of edge sqrt(2) (volume 4/3);
a ball of diameter 1 holds pi / 6. Convex solids are checked to lie behind each of their faces' planes. Balls are polyhedra with vertices on the sphere: their volumes are within 1%."""

from __future__ import annotations

import math
from itertools import product

import numpy as np
import pytest
import trimesh
from paths import TESTS
from test_mesh import assert_closed

from polytile.core.grids import balls, by_burr, solids
from polytile.draw.mesh import piece_mesh

PRISM, SPHERE, RHOMBIC, TETRA_OCTA = (by_burr(n) for n in (1, 2, 3, 4))


def cells_of(kind, lo: int, hi: int) -> list[tuple[int, int, int]]:
    out = []
    for c in product(range(lo, hi), repeat=3):
        try:
            kind(c)
        except ValueError:
            continue
        out.append(c)
    return out


def block(kind, size: int, at=(0, 0, 0)) -> list[tuple[int, int, int]]:
    return [c for c in cells_of(kind, 0, size) for c in [tuple(x + size * a for x, a in zip(c, at))]]


def convex(t: trimesh.Trimesh) -> bool:
    """Every vertex on or behind every face's plane (a closed surface so is convex)."""
    normals = t.face_normals
    offsets = np.einsum("ij,ij->i", normals, t.vertices[t.faces[:, 0]])
    return bool((t.vertices @ normals.T <= offsets + 1e-9).all())


@pytest.mark.parametrize(
    "grid, cell, volume",
    [
        (PRISM, (0, 1, 1, 0), math.sqrt(3) / 4),
        (PRISM, (1, 1, 0, -2), math.sqrt(3) / 4),
        (RHOMBIC, (0, 2, 1), 8 / 24),
        (RHOMBIC, (7, 5, 8), 8 / 24),
        (TETRA_OCTA, (1, 1, 1), 1 / 3),
        (TETRA_OCTA, (2, 0, 0), 1 / 6),
        (TETRA_OCTA, (3, 0, 0), 1 / 6),
    ],
)
def test_one_cell_is_a_closed_convex_solid_of_its_volume(grid, cell, volume):
    t = assert_closed(piece_mesh(grid, np.array([cell])))
    assert math.isclose(t.volume, volume, rel_tol=1e-12) and convex(t)


def test_every_voxel_of_a_block_is_a_cell_or_refused():
    assert len(cells_of(solids.rhombic, 0, 5)) == 24  # BurrTools' voxel_3 table
    assert len(cells_of(solids.tetra_octa, 0, 3)) == 5  # the tetrahedron and four corners
    assert len(cells_of(solids.tetra_octa, 3, 6)) == 5
    for grid, kind in ((RHOMBIC, solids.rhombic), (TETRA_OCTA, solids.tetra_octa)):  # the grid's own cells
        voxels = np.array(list(product(range(-6, 7), repeat=3)))
        assert sorted(map(tuple, voxels[grid.valid(voxels)].tolist())) == cells_of(kind, -6, 7)


def test_neighbours_share_a_face():
    """Cells the grid calls neighbours meet in a whole face (2 shared corners of a ball's
    neighbour: touching at one point)."""
    for grid, cell in (
        (PRISM, (0, 1, 1, 0)),
        (PRISM, (1, 0, 0, 3)),
        (RHOMBIC, (0, 2, 1)),
        (TETRA_OCTA, (1, 1, 1)),
        (TETRA_OCTA, (2, 0, 0)),
    ):
        mine = {tuple(np.round(p, 9)) for p in grid.solid(cell)[0].tolist()}
        nbrs = grid.neighbours(cell)
        assert nbrs
        for other in nbrs:
            theirs = {tuple(np.round(p, 9)) for p in grid.solid(other)[0].tolist()}
            assert len(mine & theirs) >= 3, (grid, cell, other)
        t = assert_closed(piece_mesh(grid, np.array([cell, *nbrs])))
        assert math.isclose(t.volume, sum(trimesh_volume(grid, c) for c in [cell, *nbrs]))
    centre = solids.sphere_centre((0, 0, 0))
    for other in SPHERE.neighbours((0, 0, 0)):
        assert math.isclose(np.linalg.norm(solids.sphere_centre(other) - centre), 1.0)  # touching balls


def trimesh_volume(grid, cell) -> float:
    v, faces = grid.solid(cell)
    tris = [(f[0], f[i], f[i + 1]) for f in faces for i in range(1, len(f) - 1)]
    return trimesh.Trimesh(v, tris, process=False).volume


def test_a_rhombic_block_is_the_cube_of_edge_two():
    t = assert_closed(piece_mesh(RHOMBIC, np.array(block(solids.rhombic, 5, (1, 0, 2)))))
    assert math.isclose(t.volume, 8.0) and convex(t)
    assert np.allclose(t.bounds, [[2, 0, 4], [4, 2, 6]])


def test_a_rhombic_dodecahedron_from_a_block_and_its_neighbours_pyramids():
    centre = block(solids.rhombic, 5, (1, 1, 1))
    pyramids = []
    for axis, side in product(range(3), (-1, 1)):
        at = [1, 1, 1]
        at[axis] += side
        near = 4 if side < 0 else 0  # the neighbour's face towards the centre block
        pyramids += [c for c in block(solids.rhombic, 5, tuple(at)) if c[axis] % 5 == near]
    assert len(pyramids) == 24
    t = assert_closed(piece_mesh(RHOMBIC, np.array(centre + pyramids)))
    assert math.isclose(t.volume, 16.0) and convex(t)


def test_tetra_octa_cubes_and_an_octahedron():
    cubes = cells_of(solids.tetra_octa, 0, 6)
    t = assert_closed(piece_mesh(TETRA_OCTA, np.array(cubes)))
    assert math.isclose(t.volume, 8.0) and convex(t)
    around = [
        c
        for c in cells_of(solids.tetra_octa, -3, 6)
        if c != tuple(3 * (x // 3) + 1 for x in c)
        and np.linalg.norm(solids.tetra_octa(c)[0].mean(axis=0) - (1, 0, 0)) < 0.5
    ]
    assert len(around) == 8
    t = assert_closed(piece_mesh(TETRA_OCTA, np.array(around)))
    assert math.isclose(t.volume, 4 / 3) and convex(t)


def test_prism_layers_stack_and_join():
    hexagon = [(0, 1, 1), (1, 1, 0), (1, 0, 1), (0, 1, 0)]  # around no vertex: just 4 joined triangles
    cells = [(*tri, z) for tri in hexagon for z in (0, 1, 2)]
    t = assert_closed(piece_mesh(PRISM, np.array(cells)))
    assert math.isclose(t.volume, len(cells) * math.sqrt(3) / 4)
    assert np.allclose(t.bounds[:, 2], [0, 3])


def test_cells_touching_along_an_edge_only_stay_manifold():
    a, b = (0, 2, 1), (2, 1, 0)  # rhombic: two tetrahedra of one cube on the edge z = 0, y = 0
    t = assert_closed(piece_mesh(RHOMBIC, np.array([a, b])))
    assert math.isclose(t.volume, 2 / 3)


def shells(faces: np.ndarray) -> int:
    """Connected pieces of a surface (triangles linked through their corners)."""
    up = list(range(int(faces.max()) + 1))

    def find(x: int) -> int:
        while up[x] != x:
            up[x] = up[up[x]]
            x = up[x]
        return x

    for a, b, c in faces.tolist():
        up[find(b)] = find(a)
        up[find(c)] = find(a)
    return len({find(v) for v in np.unique(faces).tolist()})


def ideal_volume(cells) -> float:
    have = {tuple(c) for c in cells}
    necks = sum(tuple(x + d for x, d in zip(c, step)) in have for c in have for step in balls.DIRECTIONS) // 2
    return len(have) * math.pi / 6 + necks * balls.neck_volume()


@pytest.mark.parametrize(
    "cells, bodies, euler",
    [
        ([(0, 0, 0)], 1, 2),
        ([(0, 0, 0), (1, 1, 0)], 1, 2),
        ([(0, 0, 0), (2, 0, 0)], 2, 4),  # not neighbours: two balls
        ([(0, 0, 0), (1, 1, 0), (1, 0, 1)], 1, 0),  # three touching: a ring of necks
        ([c for c in product(range(3), repeat=3) if sum(c) % 2 == 0], 1, None),
    ],
)
def test_balls_joined_by_necks_are_one_closed_manifold(cells, bodies, euler):
    t = assert_closed(piece_mesh(SPHERE, np.array(cells)))
    assert t.is_volume and shells(t.faces) == bodies
    if euler is not None:
        assert t.euler_number == euler
    assert abs(t.volume / ideal_volume(cells) - 1) < 0.01


def test_a_ball_alone_lies_on_its_sphere():
    v, faces = balls.ball((1, 1, 2))
    centre = np.array((1, 1, 2)) / math.sqrt(2)
    assert np.allclose(np.linalg.norm(v - centre, axis=1), 0.5)
    assert abs(trimesh.Trimesh(v, [f for f in faces], process=False).volume / (math.pi / 6) - 1) < 0.01


def test_the_neck_is_thinner_than_the_balls_and_meets_the_middle_plane():
    profile = balls.neck_profile(0.5)
    assert profile[-1] == pytest.approx((0.75 * 0.5 / 2, 0.5))  # BurrTools' connection radius 0.75
    rad, ax = profile[0]
    assert math.isclose(math.hypot(rad, ax), 0.5)  # starts on the ball
    cylinder = math.pi * 0.1875**2 * 2 * (0.5 - math.sqrt(0.5**2 - 0.1875**2))
    assert 0 < balls.neck_volume() < 3 * cylinder


def test_no_gap_or_bevel_on_these_grids():
    with pytest.raises(ValueError, match="without a gap or a bevel"):
        piece_mesh(RHOMBIC, np.array([(0, 2, 1)]), 0.05, 0.0)


def block_puzzle(grid, lo: int, hi: int) -> dict:
    """A JSON puzzle: the grid's cells in [lo, hi)^3 as the board, split in two pieces."""
    voxels = np.array(list(product(range(lo, hi), repeat=3)))
    cells = voxels[grid.valid(voxels)].tolist()
    half = len(cells) // 2
    return {
        "grid": grid.name,
        "board": cells,
        "pieces": [{"name": "A", "cells": cells[:half]}, {"name": "B", "cells": cells[half:]}],
    }


@pytest.mark.parametrize(
    "grid, lo, hi, volume, tolerance",
    [
        (RHOMBIC, 0, 5, 8.0, 1e-6),  # one block: the cube of edge 2
        (TETRA_OCTA, 0, 6, 8.0, 1e-6),  # eight unit cubes
        (SPHERE, 0, 3, None, 0.01),  # 14 balls
    ],
)
def test_polytile_mesh_writes_closed_shells(tmp_path, grid, lo, hi, volume, tolerance):
    """`polytile mesh` on a JSON puzzle of the grid: the STL's shells closed, outward, of the
    pieces' volumes (millimetres: --unit 10, so volumes times 1000)."""
    import json

    from cli_helpers import call_cli

    puzzle = block_puzzle(grid, lo, hi)
    src, out = tmp_path / "p.json", tmp_path / "p.stl"
    src.write_text(json.dumps(puzzle))
    r = call_cli("mesh", str(src), "-o", str(out))
    assert r.returncode == 0, r.stderr
    t = trimesh.load(str(out))
    assert t.is_watertight and t.is_winding_consistent and shells(t.faces) == 2
    expected = volume if volume is not None else sum(ideal_volume(p["cells"]) for p in puzzle["pieces"])
    assert abs(t.volume / 1000 / expected - 1) < tolerance
    refused = call_cli("mesh", str(src), "-o", str(out), "--bevel", "0.5")
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and "no gap or bevel" in refused.stderr


def test_the_page_gets_each_cells_solid_and_layer():
    from polytile.draw.view_solids import view

    cells = np.array(block_puzzle(RHOMBIC, 0, 10)["board"])
    v = view(RHOMBIC, cells)
    assert len(v["solids"]) == len(cells) == len(v["layers"]) and set(v["layers"]) == {0, 1}
    assert all(len(verts) == 4 and len(faces) == 4 for verts, faces in v["solids"])
    assert [c[2] // 5 for c in cells.tolist()] == v["layers"]  # the blocks' layers
    balls_view = view(SPHERE, np.array([(0, 0, 0), (1, 1, 0), (0, 0, 2)]))
    assert balls_view["radius"] == 0.5 and balls_view["layers"] == [0, 0, 1]
    assert np.allclose(balls_view["balls"][1], (1 / math.sqrt(2), 1 / math.sqrt(2), 0))
    assert view(by_burr(0), np.array([(0, 0, 0)])) == {}  # cubes: the view draws them itself


XMPUZZLE = TESTS / "xmpuzzle"
FILES = {
    "Bermuda": "prism",
    "Prisgon": "prism",
    "BallRoom": "sphere",
    "12PieceSeparation": "rhombic",
    "AugmentedSecondStellation": "rhombic",
    "BrokenSticks": "rhombic",
    "DiagonalCube": "rhombic",
    "HexSticks": "rhombic",
    "PermutatedThirdStellation": "rhombic",
    "PiecesOfEight": "rhombic",
    "FourPieceTetrahedron": "tetra-octa",
}


def hand_volume(name: str, cells) -> float:
    """A piece's volume by the hand formulas of the module's docstring."""
    if name == "prism":
        return len(cells) * math.sqrt(3) / 4
    if name == "rhombic":
        return len(cells) * 8 / 24
    if name == "tetra-octa":
        middles = sum(tuple(v % 3 for v in c) == (1, 1, 1) for c in cells)
        return middles / 3 + (len(cells) - middles) / 6
    return ideal_volume(cells)


@pytest.mark.parametrize("stem", sorted(FILES))
def test_every_piece_of_burrtools_examples_is_closed(stem):
    """BurrTools' own examples (tests/xmpuzzle/): each piece one closed, outward, 2-manifold
    shell of its cells' volume (balls: within 1%)."""
    from polytile.formats import load

    puzzle = load(XMPUZZLE / f"{stem}.xmpuzzle")
    assert puzzle.board.grid.name == FILES[stem]
    for piece in puzzle.pieces:
        t = assert_closed(piece_mesh(puzzle.board.grid, piece.cells))
        expected = hand_volume(FILES[stem], piece.cells.tolist())
        assert abs(t.volume / expected - 1) < (0.01 if FILES[stem] == "sphere" else 1e-9)
        if FILES[stem] != "sphere":  # (balls: the necks add to the cells)
            grid = puzzle.board.grid
            assert math.isclose(sum(grid.cell_volume_of(c) for c in map(tuple, piece.cells.tolist())), expected)


@pytest.mark.parametrize("stem", ["Bermuda", "BallRoom", "DiagonalCube", "FourPieceTetrahedron"])
def test_a_solution_assembled_fills_the_board(tmp_path, stem):
    """`polytile mesh --solution 1`: the pieces in place hold the board's volume (every cell
    of these boards is filled; balls: the pieces' balls and their own necks)."""
    from cli_helpers import call_cli
    from polytile.formats import load

    out = tmp_path / "s.stl"
    r = call_cli("mesh", str(XMPUZZLE / f"{stem}.xmpuzzle"), "--solution", "1", "-o", str(out))
    assert r.returncode == 0, r.stderr
    puzzle = load(XMPUZZLE / f"{stem}.xmpuzzle")
    tris = trimesh.load(str(out), process=False)
    if FILES[stem] == "sphere":  # balls and the necks within each piece (a piece's necks turn with it)
        expected = sum(p.count * ideal_volume(p.cells.tolist()) for p in puzzle.pieces)
        assert len(puzzle.board.cells) == sum(p.count * len(p.cells) for p in puzzle.pieces)
        assert abs(tris.volume / 1000 / expected - 1) < 0.01
    else:
        expected = hand_volume(FILES[stem], puzzle.board.cells.tolist())
        assert abs(tris.volume / 1000 / expected - 1) < 1e-5
