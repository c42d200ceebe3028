"""Boards of BurrTools' other grids on the page's API: the summary carries each cell's solid
(or ball) and layer for the 3D view (draw/view_solids.py), and no drawing points."""

from __future__ import annotations

import json
import math
from itertools import product

from polytile.core.grids import grid


def puzzle(name: str, lo: int, hi: int) -> dict:
    g = grid(name, 3)
    cells = [c for c in product(range(lo, hi), repeat=3) if g.holds(c)]
    half = len(cells) // 2
    doc = {
        "grid": name,
        "board": cells,
        "pieces": [{"name": "A", "cells": cells[:half]}, {"name": "B", "cells": cells[half:]}],
    }
    return {"kind": "tiling", "text": json.dumps(doc), "name": f"{name}.json"}


def test_rhombic_and_tetra_octa_boards_send_their_solids(client):
    for name, lo, hi, volume in (("rhombic", 0, 10, 64.0), ("tetra-octa", 0, 6, 8.0)):
        s = client.post("/api/check", json={"puzzle": puzzle(name, lo, hi)}).json()
        assert s["grid"] == name and "points" not in s
        assert len(s["solids"]) == len(s["cells"]) == len(s["layers"])
        assert set(s["layers"]) == {0, 1}  # two blocks high
        total = 0.0
        for vertices, faces in s["solids"]:
            a, b, c, d = (tuple(v) for v in vertices)  # tetrahedra: |det| / 6
            m = [[x - y for x, y in zip(p, a)] for p in (b, c, d)]
            det = (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                   + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))  # fmt: skip
            total += abs(det) / 6
            assert len(faces) == 4
        assert math.isclose(total, volume, rel_tol=1e-5)


def test_sphere_boards_send_their_balls(client):
    s = client.post("/api/check", json={"puzzle": puzzle("sphere", 0, 3)}).json()
    assert s["grid"] == "sphere" and len(s["balls"]) == len(s["cells"]) == 14
    assert s["radius"] == 0.5 and 0 < s["neck"] < 0.25 and sorted(set(s["layers"])) == [0, 1, 2]
    for cell, centre in zip(s["cells"], s["balls"]):
        assert all(math.isclose(x / math.sqrt(2), y, abs_tol=1e-6) for x, y in zip(cell, centre))


def test_burrtools_files_of_each_grid_solve_and_download_as_meshes(client):
    """BurrTools' examples on the four grids: the summary has the view's solids or balls, the
    first solution's STL and OBJ downloads hold the board's volume (hand formulas: a prism
    sqrt(3)/4, a rhombic tetrahedron 8/24 of the cube of edge 2, the tetra-octa tetrahedron
    1/3 and corner 1/6 of the unit cube; balls pi/6 and more, their necks), its SVG refused or
    drawn in layers."""
    import base64
    import io

    import trimesh
    from paths import TESTS
    from web_api_helpers import run

    unit = 10.0  # the page's millimetres per cell edge
    for stem, key, volume in (
        ("Bermuda", "solids", lambda cells: len(cells) * math.sqrt(3) / 4),
        ("DiagonalCube", "solids", lambda cells: len(cells) / 3),
        (
            "FourPieceTetrahedron",
            "solids",
            lambda cells: sum(2 if [v % 3 for v in c] == [1, 1, 1] else 1 for c in cells) / 6,
        ),
        ("BallRoom", "balls", lambda cells: len(cells) * math.pi / 6),
    ):
        raw = (TESTS / "xmpuzzle" / f"{stem}.xmpuzzle").read_bytes()
        spec = {"kind": "tiling", "xmpuzzle": base64.b64encode(raw).decode(), "name": f"{stem}.xmpuzzle"}
        s = client.post("/api/check", json={"puzzle": spec}).json()
        assert key in s and len(s[key]) == len(s["cells"]), stem
        jid = run(client, "solve", spec, limit=1)["id"]
        stl = client.get(f"/api/jobs/{jid}/solutions/0.stl")
        assert stl.status_code == 200, stl.text
        got = trimesh.load(io.BytesIO(stl.content), file_type="stl", process=False).volume / unit**3
        want = volume(s["cells"])
        if key == "balls":
            assert want < got < want * 1.2  # the necks add a little
        else:
            assert math.isclose(got, want, rel_tol=1e-5), stem
        svg = client.get(f"/api/jobs/{jid}/solutions/0.svg")
        if stem == "Bermuda" or stem == "BallRoom":  # layers
            assert svg.status_code == 200 and b"layer 1" in svg.content
        else:
            assert svg.status_code == 400 and "no drawing" in svg.json()["error"]
