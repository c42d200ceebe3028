"""STL / OBJ export (`polytile mesh`, draw/mesh*.py): meshes checked with trimesh, a mesh
library that shares no code with polytile.

Expected values come from outside our code: volumes from the cell count times the cell's
volume by hand formula (unit square and cube: 1; triangle of edge 1: sqrt(3)/4; hexagon of
edge 1: 3 sqrt(3)/2; prisms of height 1), bounding boxes from the cells' extent, genus
from the shape (a ring or a tunnel: Euler characteristic 0), the tetracubes written out
by hand (all eight, both screws). Closed means: trimesh's watertight and winding checks
(every edge on exactly two faces, walked once each way), plus our own check that the faces
around every vertex form a single cycle (a 2-manifold, which trimesh does not test)."""

from __future__ import annotations

import math
import random
from itertools import product

import numpy as np
import pytest
import trimesh
from cli_helpers import call_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from polytile.core import grids, lattice_forms, polyforms
from polytile.draw import meshfile
from polytile.draw import mesh as _mesh
from polytile.draw import mesh_scene as _scene
from polytile.draw.mesh_scene import Shell


def lattice(grid: str, dim: int = 2) -> grids.Grid:
    """The grid object a test names by its JSON spelling ("cube": the square grid in 3D)."""
    return grids.grid("square", 3) if grid == "cube" else grids.grid(grid, dim)


def piece_mesh(grid: str, cells, *sizes):
    """`draw.mesh.piece_mesh` on the grid named by its JSON spelling."""
    return _mesh.piece_mesh(lattice(grid), cells, *sizes)


def flat_down(grid: str, cells):
    return _scene.flat_down(lattice(grid), cells)


SQRT3 = math.sqrt(3)
CELL_VOLUME = {"square": 1.0, "cube": 1.0, "triangle": SQRT3 / 4, "hex": 3 * SQRT3 / 2}
TETRACUBES = {  # by hand: (x, y, z) of the eight free tetracubes (chiral pair included)
    "I": [(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0)],
    "L": [(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0)],
    "T": [(0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 1, 0)],
    "S": [(0, 0, 0), (1, 0, 0), (1, 1, 0), (2, 1, 0)],
    "O": [(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)],
    "branch": [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)],
    "screw-left": [(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 0, 1)],
    "screw-right": [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 1, 1)],
}
# (grid, cells, Euler characteristic of the surface). Where cells touch along an edge or at
# a corner only, the mesh parts them as any gap would: the ring touching itself at a corner
# is open there (a sphere, 2), two cubes sharing an edge are two spheres (4), the two pillars
# of the column whose middle layer has a diagonal pair of holes stand apart (a ring, 0).
# Where holes touch only at a corner, the solid stays whole (a ball with two dents, 2).
TRICKY = {
    "cubes sharing an edge": ("square", [(0, 0, 0), (1, 1, 0)], 4),
    "cubes sharing a corner": ("square", [(0, 0, 0), (1, 1, 1)], 4),
    "squares sharing a corner": ("square", [(0, 0), (1, 1)], 4),
    "ring touching itself at a corner": ("square", [(0, 0), (0, 1), (0, 2), (1, 2), (2, 2), (2, 1), (1, 0)], 2),
    "ring with a hole": ("square", [(r, c) for r in range(3) for c in range(3) if (r, c) != (1, 1)], 0),
    "tunnel": ("square", [(x, y, z) for x in range(3) for y in range(3) for z in range(3) if (x, y) != (1, 1)], 0),
    "holes touching along an edge": (
        "square",
        [(x, y, z) for x in range(2) for y in range(2) for z in range(3) if not (z == 1 and x != y)],
        0,
    ),
    "holes touching at a corner": (
        "square",
        [(x, y, z) for x, y, z in product(range(2), repeat=3) if (x, y, z) not in ((0, 0, 0), (1, 1, 1))],
        2,
    ),
    "triangles sharing a corner": ("triangle", [(0, 1, 1), (1, 0, 1)], 4),
    "hexes round a hole": ("hex", [(1, 0), (2, 0), (2, 1), (1, 2), (0, 2), (0, 1)], 0),
}


def as_trimesh(m) -> trimesh.Trimesh:
    return trimesh.Trimesh(m.vertices, m.faces, process=False)


def one_cycle_round_every_vertex(m) -> bool:
    """The triangles round each vertex, through the edges they share, make one cycle."""
    nxt: dict[int, dict[int, int]] = {}
    for tri in m.faces.tolist():
        for i in range(3):
            v, a, b = tri[i], tri[(i + 1) % 3], tri[(i + 2) % 3]
            if a in nxt.setdefault(v, {}):
                return False
            nxt[v][a] = b
    for links in nxt.values():
        start = next(iter(links))
        seen, at = 1, links[start]
        while at != start:
            if at not in links:
                return False
            at, seen = links[at], seen + 1
        if seen != len(links):
            return False
    return True


def assert_closed(m) -> trimesh.Trimesh:
    t = as_trimesh(m)
    assert len(m.faces) > 0
    assert t.is_watertight and t.is_winding_consistent
    assert one_cycle_round_every_vertex(m)
    assert t.volume > 0  # outward normals: a positive signed volume
    return t


def cell_volume(grid: str, cells) -> float:
    return len(cells) * CELL_VOLUME["cube" if grid == "square" and len(cells[0]) == 3 else grid]


def perimeter(cells) -> int:
    """Edges of a polyomino's outline: four per cell, less two per pair of neighbours."""
    have = {tuple(c) for c in cells}
    return 4 * len(have) - 2 * sum((r + 1, c) in have for r, c in have) - 2 * sum((r, c + 1) in have for r, c in have)


def family(name: str):
    if name == "pentominoes":
        return "square", [p.cells.tolist() for p in polyforms.polyforms(5, 2)]
    if name == "tetracubes":
        return "square", list(TETRACUBES.values())
    if name == "hexiamonds":
        return "triangle", [p.cells.tolist() for p in lattice_forms.polyforms(6, grids.grid("triangle"))]
    return "hex", [p.cells.tolist() for p in lattice_forms.polyforms(4, grids.grid("hex"))]


FAMILIES = {"pentominoes": 12, "tetracubes": 8, "hexiamonds": 12, "tetrahexes": 7}


@pytest.mark.parametrize("name", FAMILIES)
def test_every_piece_of_a_family_is_closed_with_the_exact_volume(name):
    grid, pieces = family(name)
    assert len(pieces) == FAMILIES[name]
    for cells in pieces:
        t = assert_closed(piece_mesh(grid, np.array(cells)))
        assert t.volume == pytest.approx(cell_volume(grid, cells), rel=1e-9)
        assert t.euler_number == 2


@pytest.mark.parametrize("name", FAMILIES)
def test_a_gap_shrinks_every_piece_and_keeps_it_closed(name):
    grid, pieces = family(name)
    gap = 0.1
    for cells in pieces:
        exact = piece_mesh(grid, np.array(cells))
        shrunk = piece_mesh(grid, np.array(cells), gap / 2)
        t = assert_closed(shrunk)
        assert t.volume < cell_volume(grid, cells) - 1e-3
        lo, hi = exact.vertices.min(axis=0), exact.vertices.max(axis=0)
        slo, shi = shrunk.vertices.min(axis=0), shrunk.vertices.max(axis=0)
        flat = len(cells[0]) == 2 or grid == "triangle"
        exact_axes = {"square": [0, 1] if flat else [0, 1, 2], "hex": [0], "triangle": []}[grid]
        for axis in exact_axes:  # faces at the extremes: exactly half the gap each side
            assert (hi - lo)[axis] - (shi - slo)[axis] == pytest.approx(gap, abs=1e-9)
        for axis in (0, 1):  # corners at the extremes: at least that
            assert (hi - lo)[axis] - (shi - slo)[axis] >= gap - 1e-9
        if flat:  # flat pieces keep their height
            assert (shi - slo)[2] == pytest.approx(1.0)
        if name == "pentominoes":  # area A - P d + 4 d^2 (see the OBJ test)
            d = gap / 2
            assert t.volume == pytest.approx(5 - perimeter(cells) * d + 4 * d * d, rel=1e-9)


@pytest.mark.parametrize("name", FAMILIES)
def test_a_bevel_cuts_the_edges_and_keeps_every_piece_closed(name):
    grid, pieces = family(name)
    for cells in pieces:
        for gap in (0.0, 0.1):
            t = assert_closed(piece_mesh(grid, np.array(cells), gap / 2, 0.1))
            plain = as_trimesh(piece_mesh(grid, np.array(cells), gap / 2)).volume
            assert t.volume < plain - 1e-3


@pytest.mark.parametrize("name", TRICKY)
def test_pieces_touching_themselves_give_a_manifold(name):
    grid, cells, euler = TRICKY[name]
    t = assert_closed(piece_mesh(grid, np.array(cells)))
    assert t.volume == pytest.approx(cell_volume(grid, cells), rel=1e-9)
    assert t.euler_number == euler
    for shrink, bevel in ((0.05, 0.0), (0.0, 0.1), (0.05, 0.1)):
        t = assert_closed(piece_mesh(grid, np.array(cells), shrink, bevel))
        assert t.volume < cell_volume(grid, cells) - 1e-3


def winding_numbers(m, points: np.ndarray) -> np.ndarray:
    """How many times the surface winds round each point (1 inside, 0 outside; other values,
    or fractions, where a surface overlaps itself or is open): the solid angles of the
    triangles (Van Oosterom and Strackee) summed over 4 pi."""
    a, b, c = (m.vertices[m.faces][None, :, i, :] - points[:, None, :] for i in range(3))
    la, lb, lc = (np.linalg.norm(x, axis=2) for x in (a, b, c))
    det = np.einsum("ptk,ptk->pt", a, np.cross(b, c))
    dots = (
        np.einsum("ptk,ptk->pt", a, b) * lc + np.einsum("ptk,ptk->pt", b, c) * la + np.einsum("ptk,ptk->pt", c, a) * lb
    )
    return (2 * np.arctan2(det, la * lb * lc + dots)).sum(axis=1) / (4 * np.pi)


def centres(grid: str, cells) -> np.ndarray:
    """Cell centres in the mesh's frame (x = column, y = -row, z up; flat cells 1 high)."""
    if len(cells[0]) == 3 and grid == "square":
        return np.array([(c + 0.5, -r - 0.5, k + 0.5) for r, c, k in cells])
    lat = lattice(grid, 2)
    return np.array([(x, -y, 0.5) for x, y in (lat.centre(tuple(cell)) for cell in cells)])


def empty_neighbours(grid: str, cells) -> list:
    lat = lattice("square", 3) if len(cells[0]) == 3 and grid == "square" else lattice(grid, 2)
    have = {tuple(c) for c in cells}
    near = {tuple(a + b for a, b in zip(c, step)) for c in have for step in lat.steps}
    return [c for c in near - have if lat.holds(c)]


@pytest.mark.parametrize("name", TRICKY)
@pytest.mark.parametrize("sizes", [(0, 0), (0.05, 0.1)])
def test_the_surface_winds_once_round_the_cells_and_never_round_the_rest(name, sizes):
    """Inside and outside checked apart from the volume: the winding number is 1 at every
    cell's centre, 0 at the centre of every empty neighbour, and a whole number (0 or 1:
    no surface overlapping itself, none open) at points scattered over the bounding box."""
    grid, cells, _ = TRICKY[name]
    m = piece_mesh(grid, np.array(cells), *sizes)
    assert winding_numbers(m, centres(grid, cells)) == pytest.approx(1, abs=1e-9)
    assert winding_numbers(m, centres(grid, empty_neighbours(grid, cells))) == pytest.approx(0, abs=1e-9)
    lo, hi = m.vertices.min(axis=0) - 0.1, m.vertices.max(axis=0) + 0.1
    points = np.random.default_rng(7).uniform(lo, hi, size=(300, 3))
    w = winding_numbers(m, points)
    assert np.abs(w - np.round(w)).max() < 1e-6 and set(np.round(w).astype(int)) <= {0, 1}


@pytest.mark.parametrize("cells", [[(0, 0, 0)], [(0, 0)]])
@pytest.mark.parametrize("gap,b", [(0.1, 0.1), (0.0, 0.1), (0.2, 0.05)])
def test_a_single_cell_with_a_gap_and_a_bevel_is_the_chamfered_box(cells, gap, b):
    """A box of side s with its 12 edges cut by the planes through the lines b in from the
    edge on both faces: the 12 wedges (b^2/2 by s) overlap pairwise at the 8 corners
    (3 pairs, b^3/3 each) and three at a time (b^3/4), so by inclusion-exclusion
    V = s^3 - 6 b^2 s + 6 b^3. A flat square keeps its height 1 and is cut the same way."""
    s = 1 - gap
    t = assert_closed(piece_mesh("square", np.array(cells), gap / 2, b))
    if len(cells[0]) == 3:
        assert t.volume == pytest.approx(s**3 - 6 * b * b * s + 6 * b**3, rel=1e-9)
    else:  # s x s x 1: four wedges of length 1, eight of length s, the same corners
        assert t.volume == pytest.approx(s * s - 4 * b * b / 2 - 8 * b * b / 2 * s + 6 * b**3, rel=1e-9)


def _grown(grid: str, seed: int, size: int) -> np.ndarray:
    """A random connected set of cells grown from one cell by lattice steps."""
    lat = lattice("square", 3) if grid == "cube" else lattice(grid, 2)
    start = {"square": (0, 0), "cube": (0, 0, 0), "triangle": (0, 1, 1), "hex": (0, 0)}[grid]
    rng = random.Random(seed)
    cells = [start]
    while len(cells) < size:
        new = tuple(a + b for a, b in zip(rng.choice(cells), rng.choice(lat.steps)))
        if lat.holds(new) and new not in cells:
            cells.append(new)
    return np.array(cells)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["square", "cube", "triangle", "hex"]),
    st.integers(0, 2**32),
    st.integers(1, 9),
    st.sampled_from([(0, 0), (0, 0), (0.05, 0), (0, 0.1), (0.05, 0.1), (0.1, 0.1)]),
)
def test_random_polyforms_are_closed_with_the_exact_volume(grid, seed, size, sizes):
    cells = _grown(grid, seed, size)
    g = "square" if grid == "cube" else grid
    m = piece_mesh(g, cells, *sizes)
    t = assert_closed(m)
    if sizes == (0, 0):
        assert t.volume == pytest.approx(size * CELL_VOLUME[grid], rel=1e-9)
    else:
        assert t.volume < size * CELL_VOLUME[grid] - 1e-3
    cells = cells.tolist()
    assert winding_numbers(m, centres(g, cells)) == pytest.approx(1, abs=1e-9)
    assert winding_numbers(m, centres(g, empty_neighbours(g, cells))) == pytest.approx(0, abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from([2, 3]),
    st.lists(st.booleans(), min_size=27, max_size=27),
    st.sampled_from([(0, 0), (0.05, 0), (0, 0.1), (0.05, 0.1)]),
)
def test_random_cell_sets_in_a_box_stay_closed(dim, bits, sizes):
    """Any cells at all, touching anyhow (edges, corners, holes that touch): closed."""
    cells = [c for c, b in zip(product(range(3), repeat=dim), bits) if b]
    if not cells:
        return
    shrink, bevel = sizes
    t = assert_closed(piece_mesh("square", np.array(cells), shrink, bevel))
    exact = len(cells)
    assert t.volume == pytest.approx(exact) if sizes == (0, 0) else t.volume < exact


def test_cli_a_puzzle_without_that_many_solutions_exits_1(tmp_path):
    board = tmp_path / "two.txt"
    board.write_text("XX\n\nXX\n")  # a domino on a 1x2 board: one solution
    r = call_cli("mesh", board, "-o", tmp_path / "x.stl", "--solution", 2)
    assert r.returncode == 1 and "no solution 2" in r.stderr and not (tmp_path / "x.stl").exists()
    r = call_cli("mesh", board, "-o", tmp_path / "x.stl", "--solution", 1)
    assert r.returncode == 0 and trimesh.load(tmp_path / "x.stl").volume == pytest.approx(2000)


def test_obj_colours_one_material_per_piece(tmp_path):
    grid, pieces = family("tetrahexes")
    parts = [Shell(f"piece {i}", piece_mesh(grid, np.array(c))) for i, c in enumerate(pieces)]
    meshfile.write(tmp_path / "h.obj", parts, unit=1.0)
    mtl = (tmp_path / "h.mtl").read_text()
    obj = (tmp_path / "h.obj").read_text()
    assert mtl.count("newmtl ") == 7 and len(set(line for line in mtl.splitlines() if line.startswith("Kd"))) == 7
    assert [line.split()[1] for line in obj.splitlines() if line.startswith("usemtl")] == [
        f"piece_{i}" for i in range(7)
    ]


def _helix_sign(points: np.ndarray) -> float:
    """The handedness of four cube centres joined as a path (a screw tetracube): the sign
    of the triple product of its three steps (the same read from either end; mirrored
    when the solid is)."""
    adjacent = [
        [j for j in range(4) if j != i and np.isclose(np.linalg.norm(points[i] - points[j]), 1)] for i in range(4)
    ]
    path = [next(i for i in range(4) if len(adjacent[i]) == 1)]
    while len(path) < 4:
        path.append(next(j for j in adjacent[path[-1]] if j not in path))
    p = points[path]
    return float(np.sign(np.linalg.det(np.array([p[1] - p[0], p[2] - p[1], p[3] - p[2]]))))


@pytest.mark.parametrize("name", ["screw-left", "screw-right"])
def test_solid_pieces_are_never_mirrored(name):
    """The cubes inside the mesh (found by winding number, not from our geometry) make a
    screw of the same hand as the cells given, also when laid flat for printing."""

    cells = np.array(TETRACUBES[name])
    for placed in (cells, flat_down("square", cells)):
        m = piece_mesh("square", placed)
        lo, hi = m.vertices.min(axis=0), m.vertices.max(axis=0)
        grid = np.stack(np.meshgrid(*(np.arange(a + 0.5, b, 1.0) for a, b in zip(lo, hi)), indexing="ij"), -1)
        points = grid.reshape(-1, 3)
        inside = points[np.isclose(winding_numbers(m, points), 1)]
        assert len(inside) == 4
        assert _helix_sign(inside) == _helix_sign(cells.astype(float))
    assert _helix_sign(np.array(TETRACUBES["screw-left"], dtype=float)) != _helix_sign(
        np.array(TETRACUBES["screw-right"], dtype=float)
    )


def test_a_point_two_cells_compute_either_side_of_a_rounding_step_is_one_vertex():
    from polytile.draw.mesh_cells import ROUND, _Keys

    key = _Keys()
    a = np.array([(12345 + 0.5) / ROUND - 1e-15, 0.25])
    b = a + np.array([2e-15, 0.0])
    assert round(a[0] * ROUND) != round(b[0] * ROUND)  # the step lies between them
    assert key(a) == key(b)
    assert key(a + np.array([1e-6, 0.0])) != key(a)  # points 1e-6 apart stay apart
