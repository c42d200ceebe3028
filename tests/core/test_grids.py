"""core/grids: the registry, each grid's motions as a group (orders by hand: the square's 8,
the cube's 48, the triangle's and the hexagon's 12), its solid cells closed with the cell's
volume (unit square and cube 1, triangle of edge 1 sqrt(3)/4, hexagon 3 sqrt(3)/2), and the
grid objects' identity through a pickle (the worker processes get copies)."""

from __future__ import annotations

import math
import pickle

import pytest
import trimesh

from polytile.core import grids
from polytile.core.grids.moves import image

ORDERS = {("square", 2): (8, 4), ("square", 3): (48, 24), ("triangle", 2): (12, 6), ("hex", 2): (12, 6)}
VOLUMES = {("square", 2): 1.0, ("square", 3): 1.0, ("triangle", 2): math.sqrt(3) / 4, ("hex", 2): 1.5 * math.sqrt(3)}


def test_the_registry():
    assert grids.names() == ("square", "triangle", "hex", "prism", "sphere", "rhombic", "tetra-octa")
    assert grids.grid("square").dim == 2 and grids.grid("square", 3).dim == 3
    assert grids.grid("triangle", 2) is grids.grid("triangle", 3)  # one triangle grid, 3 coordinates
    assert grids.by_burr(0) is grids.grid("square", 3) and grids.by_burr(1) is grids.grid("prism")
    assert grids.burr_numbers() == (0, 1, 2, 3, 4) and grids.by_burr(5) is None
    assert grids.fit(grids.grid("square"), 3).cubic and grids.coerce("square", 3) is grids.grid("square", 3)
    with pytest.raises(ValueError, match="unknown grid 'pentagon'"):
        grids.grid("pentagon")


def _cells(g):
    """A few cells round the origin: the origin cell and its neighbours', twice."""
    cells = {g.origin_cell}
    for _ in range(2):
        cells |= {n for c in cells for n in g.neighbours(c)}
    return sorted(cells)


@pytest.mark.parametrize("key", list(ORDERS))
def test_the_motions_are_a_group(key):
    g = grids.grid(*key)
    order, rotations = ORDERS[key]
    assert len(g.motions) == len(set(g.motions)) == order and g.n_rotations == rotations
    pts = _cells(g)
    acts = {tuple(g.shift_to_origin(image(m, pts))): m for m in g.motions}
    assert len(acts) == order  # distinct on a patch of cells
    for m in g.motions:
        assert all(g.holds(p) for p in image(m, pts))
        for k in g.motions:  # closed under composition, up to a translation of the grid
            assert tuple(g.shift_to_origin(image(m, image(k, pts)))) in acts
    for m in g.motions[: g.n_rotations]:  # the rotations are a subgroup
        for k in g.motions[: g.n_rotations]:
            composed = acts[tuple(g.shift_to_origin(image(m, image(k, pts))))]
            assert g.motions.index(composed) < g.n_rotations


@pytest.mark.parametrize("key", list(ORDERS))
def test_solid_cells_are_closed_with_the_cells_volume(key):
    g = grids.grid(*key)
    for cell in _cells(g)[:5]:
        verts, faces = g.solid(cell)
        tris = [(f[0], f[i], f[i + 1]) for f in faces for i in range(1, len(f) - 1)]
        t = trimesh.Trimesh(verts, tris, process=False)
        assert t.is_watertight and t.is_winding_consistent
        assert t.volume == pytest.approx(VOLUMES[key], rel=1e-9) == pytest.approx(g.cell_volume, rel=1e-9)


def test_grids_survive_a_pickle_equal():
    for key in ORDERS:
        g = grids.grid(*key)
        copy = pickle.loads(pickle.dumps(g))
        assert copy == g and hash(copy) == hash(g) and str(copy) == g.name
    assert grids.grid("square") != grids.grid("square", 3)


def test_built_in_grids_are_made_on_first_use():
    """The registry's table of built-in grids agrees with the classes, and answers `names()`,
    `burr_numbers()` and `by_burr(0)` without importing the other grids' modules."""
    import subprocess
    import sys

    for name, dim, number, _, _ in grids.BUILT_IN:
        g = grids.grid(name, dim)
        assert (g.name, g.dim, g.burr_number) == (name, dim, number)
    probe = (
        "import sys; from polytile.core import grids; grids.names(); grids.burr_numbers(); grids.by_burr(0);"
        "print(sorted(m for m in sys.modules if m.startswith('polytile.core.grids.')))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['polytile.core.grids.base', 'polytile.core.grids.square']"


# each built-in grid's cells: (cell, its solid's volume by hand); the sphere's solid is a
# polyhedron inside the ball (pi / 6), within 1%
CELL_VOLUMES = {
    ("prism", 4): [((0, 0, 2, 0), math.sqrt(3) / 4), ((1, 0, 0, 3), math.sqrt(3) / 4)],
    ("sphere", 3): [((0, 0, 0), math.pi / 6), ((1, 1, 0), math.pi / 6)],
    ("rhombic", 3): [((0, 1, 2), 8 / 24), ((7, 5, 8), 8 / 24)],
    ("tetra-octa", 3): [((1, 1, 1), 1 / 3), ((2, 0, 0), 1 / 6), ((3, 0, 0), 1 / 6), ((4, 4, 4), 1 / 3)],
}


@pytest.mark.parametrize("key", list(CELL_VOLUMES))
def test_each_cells_volume_is_its_solids(key):
    """`cell_volume_of` answers each cell's own volume (the tetra-octa grid's tetrahedra hold
    1/3, its corners 1/6), as its solid measures and as the hand formula says."""
    g = grids.grid(*key)
    for cell, volume in CELL_VOLUMES[key]:
        verts, faces = g.solid(cell)
        tris = [(f[0], f[i], f[i + 1]) for f in faces for i in range(1, len(f) - 1)]
        solid = trimesh.Trimesh(verts, tris, process=False).volume
        assert g.cell_volume_of(cell) == pytest.approx(volume, rel=1e-12)
        assert solid == pytest.approx(volume, rel=0.01 if key[0] == "sphere" else 1e-9)
    assert g.cell_volume == g.cell_volume_of(g.origin_cell)
