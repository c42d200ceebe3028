"""polytile mesh from the command line and the STL/OBJ files: STL parsed back triangle by
triangle, the tetrahexes and hexiamonds as pieces and solutions (apart, gapped, bevelled),
a pentomino solution assembled as OBJ, the Soma cube, one-line refusals. Each file is
checked with trimesh: closed, consistently wound, volumes by hand formulas."""

from __future__ import annotations

import io
from itertools import product

import numpy as np
import pytest
import trimesh
from cli_helpers import call_cli
from paths import EXAMPLES
from test_mesh import CELL_VOLUME, family, winding_numbers

from polytile.draw import meshfile
from polytile.draw.mesh import piece_mesh
from polytile.draw.mesh_scene import Shell


def test_stl_parses_back_with_every_triangle_and_the_volume():
    grid, pieces = family("pentominoes")
    parts = [Shell(f"p{i}", piece_mesh(grid, np.array(c))) for i, c in enumerate(pieces[:1])]
    data = meshfile.stl_bytes(parts, unit=10.0)
    assert len(data) == 84 + 50 * len(parts[0].mesh.faces)
    back = trimesh.load(io.BytesIO(data), file_type="stl")
    assert len(back.faces) == len(parts[0].mesh.faces)
    assert back.is_watertight
    assert back.volume == pytest.approx(5 * 1000.0, rel=1e-6)


def _bodies(t: trimesh.Trimesh) -> list[list[int]]:
    """The faces of each connected part (through shared vertices)."""
    up = list(range(len(t.vertices)))

    def find(x):
        while up[x] != x:
            up[x] = up[up[x]]
            x = up[x]
        return x

    for a, b, c in t.faces.tolist():
        up[find(a)] = find(b)
        up[find(b)] = find(c)
    parts: dict[int, list[int]] = {}
    for i, f in enumerate(t.faces.tolist()):
        parts.setdefault(find(f[0]), []).append(i)
    return list(parts.values())


def reported(stdout: str) -> int:
    """The triangle count the command prints ("OUT: 7 pieces, 464 triangles, ...")."""
    return int(stdout.split(" triangles")[0].split()[-1])


def test_cli_tetrahexes_pieces_to_stl(tmp_path):
    out = tmp_path / "hex.stl"
    r = call_cli("mesh", EXAMPLES / "tetrahexes-4x7.json", "-o", out, "--unit", 10)
    assert r.returncode == 0, r.stderr
    back = trimesh.load(out)
    assert len(back.faces) == reported(r.stdout)
    bodies = _bodies(back)
    assert len(bodies) == 7  # the seven pieces, apart
    for faces in bodies:
        part = back.submesh([faces], append=True)
        assert part.is_watertight and part.is_winding_consistent
        assert part.volume == pytest.approx(4 * CELL_VOLUME["hex"] * 1000, rel=1e-6)
    assert back.bounds[0][2] == pytest.approx(0) and back.bounds[1][2] == pytest.approx(10)
    assert_apart([back.vertices[np.unique(back.faces[faces])] for faces in bodies])


def assert_apart(parts: list[np.ndarray]) -> None:
    """No two parts' bounding boxes overlap in the plane (laid out side by side)."""
    boxes = [(p.min(axis=0), p.max(axis=0)) for p in parts]
    for i, (a, b) in enumerate(boxes):
        for c, d in boxes[i + 1 :]:
            assert (b[:2] <= c[:2] + 1e-9).any() or (d[:2] <= a[:2] + 1e-9).any()


@pytest.mark.parametrize("args", [(), ("--solution", 1, "--apart", "--gap", 0.2, "--bevel", 0.5)])
def test_cli_hexiamonds_to_stl(tmp_path, args):
    """Triangle cells have three coordinates, yet are flat: prisms, lying as drawn."""
    out = tmp_path / "tri.stl"
    r = call_cli("mesh", EXAMPLES / "hexiamonds-6x6.json", "-o", out, *args)
    assert r.returncode == 0, r.stderr
    back = trimesh.load(out)
    bodies = _bodies(back)
    assert len(bodies) == 12
    for faces in bodies:
        part = back.submesh([faces], append=True)
        assert part.is_watertight and part.is_winding_consistent
        assert part.volume <= 6 * CELL_VOLUME["triangle"] * 1000 * (1 + 1e-6)  # float32 in STL
        if not args:
            assert part.volume == pytest.approx(6 * CELL_VOLUME["triangle"] * 1000, rel=1e-6)
    assert back.bounds[1][2] - back.bounds[0][2] == pytest.approx(10)
    assert_apart([back.vertices[np.unique(back.faces[faces])] for faces in bodies])


def test_cli_pentomino_solution_assembled_to_obj(tmp_path):
    out = tmp_path / "six.obj"
    r = call_cli("mesh", EXAMPLES / "pentomino-6x10.txt", "-o", out, "--solution", 1, "--gap", 0.2)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "six.mtl").exists()
    text = out.read_text()
    assert text.count("\no ") == 12 and text.count("\ng ") == 12 and "mtllib six.mtl" in text
    scene = trimesh.load(out, force="scene")
    assert len(scene.geometry) == 12
    assert sum(len(g.faces) for g in scene.geometry.values()) == text.count("\nf ") == reported(r.stdout)
    perimeters = []
    for g in scene.geometry.values():
        assert g.is_watertight and g.is_winding_consistent
        # a polyomino inset by d (its corners cut square): area A - P d + 4 d^2 (perimeter P,
        # four more convex corners than concave ones), in mm, 10 mm high
        d = 0.1
        p = 100 if abs(g.volume - (500 - 100 * d + 4 * d * d) * 10) < 1e-6 else 120
        assert g.volume == pytest.approx((500 - p * d + 4 * d * d) * 10, rel=1e-9)
        perimeters.append(p)
    assert sorted(perimeters) == [100] + [120] * 11  # P's perimeter is 10, the others' 12
    lo, hi = scene.bounds
    assert sorted((hi - lo)[:2]) == pytest.approx([59.8, 99.8])  # the board less the gap
    assert (hi - lo)[2] == pytest.approx(10)
    board = [(10 * c + 5, -10 * r - 5, 5) for r in range(6) for c in range(10)]
    assert_tiled(list(scene.geometry.values()), np.array(board, dtype=float), 5)


def assert_tiled(shells, board_centres: np.ndarray, size: int) -> None:
    """The printed solution is one: every board cell's centre lies in exactly one shell
    (winding numbers), and each shell holds `size` of them."""
    inside = np.array([winding_numbers(g, board_centres) for g in shells])
    assert np.abs(inside - np.round(inside)).max() < 1e-6
    assert (np.round(inside).sum(axis=0) == 1).all()
    assert (np.round(inside).sum(axis=1) >= 1).all() and np.round(inside).sum() == len(board_centres)
    if size:
        assert (np.round(inside).sum(axis=1) == size).all()


def test_cli_soma_pieces_solution_and_apart(tmp_path):
    soma = EXAMPLES / "soma-3x3x3.json"
    for args, size in ((("--solution", 1), 30.0), (("--solution", 1, "--apart"), None), ((), None)):
        out = tmp_path / "soma.obj"
        r = call_cli("mesh", soma, "-o", out, *args)
        assert r.returncode == 0, r.stderr
        scene = trimesh.load(out, force="scene")
        assert len(scene.geometry) == 7
        assert all(g.is_watertight for g in scene.geometry.values())
        assert sum(g.volume for g in scene.geometry.values()) == pytest.approx(27000)
        lo, hi = scene.bounds
        assert lo[2] == pytest.approx(0)
        if size:  # assembled: the 3x3x3 cube
            assert hi - lo == pytest.approx([size] * 3)
            board = [(10 * j + 5, -10 * i - 5, 10 * k + 5) for i, j, k in product(range(3), repeat=3)]
            assert_tiled(list(scene.geometry.values()), np.array(board, dtype=float), 0)
        else:  # apart: no two pieces overlap
            assert_apart([g.vertices for g in scene.geometry.values()])
    r = call_cli("mesh", soma, "-o", tmp_path / "soma.stl", "--solution", 1, "--gap", 0.4, "--bevel", 0.5)
    back = trimesh.load(tmp_path / "soma.stl")
    assert len(_bodies(back)) == 7 and back.is_watertight  # with a gap nothing touches
    assert back.volume < 27000


@pytest.mark.parametrize(
    "args,message",
    [
        (("-o", "x.ply"), "must end in .stl or .obj"),
        (("-o", "x.stl", "--apart"), "--apart"),
        (("-o", "x.stl", "--gap", 5), "--gap"),
        (("-o", "no/such/dir/x.stl"), "cannot write"),
    ],
)
def test_cli_refuses_with_one_line(tmp_path, args, message):
    r = call_cli(
        "mesh",
        EXAMPLES / "soma-3x3x3.json",
        *[tmp_path / a if ".stl" in str(a) or ".ply" in str(a) else a for a in args],
    )
    assert r.returncode == 2 and message in r.stderr and r.stderr.count("\n") == 1
