"""Files opened on the page, the server's side: what the page takes is decided by the model's
estimated memory within the page's budget (512 MB) and by what the page can draw, not by a count
of pieces, so BurrTools' own cube examples open (SolidSixPieceBurrs has 150 pieces, Dracula's
1,656 result voxels); a model over the budget is refused in one line that says so.

Expected values come from outside polytile: each file's result voxels and pieces as
tests/burr_checker.py reads them (the standard library's XML parser), solutions checked by it."""

from __future__ import annotations

import json

import pytest
from paths import EXAMPLES
from test_web_formats import XM, burr_spec, refused
from web_api_helpers import run

import burr_checker

CUBE_EXAMPLES = [  # tests/xmpuzzle/README.md: BurrTools' examples on the cube grid
    "AlPackino",
    "CubeInCage",
    "DemoMirrorParadox",
    "DemoPieceGenerator",
    "DraculasDentalDesaster",
    "PelikanBurr",
    "SolidSixPieceBurrs",
]


@pytest.mark.parametrize("stem", CUBE_EXAMPLES)
def test_burrtools_cube_examples_open(client, stem):
    path = XM / f"{stem}.xmpuzzle"
    res, pieces, *_ = burr_checker.read(path)
    r = client.post("/api/check", json={"puzzle": burr_spec(path)})
    assert r.status_code == 200, r.text
    s = r.json()
    assert s["area"] == len(res)
    counts = {p["name"]: p["count"] for p in s["pieces"] if p["name"] in pieces}
    assert counts == {name: hi for name, (_, _, hi) in pieces.items() if hi}


def test_solid_six_piece_burrs_is_solved_on_the_page(client):
    """150 pieces (the page refused it at 120): the first solution, checked by burr_checker."""
    path = XM / "SolidSixPieceBurrs.xmpuzzle"
    assert sum(hi for _, _, hi in burr_checker.read(path)[1].values()) == 150
    view = run(client, "solve", burr_spec(path), limit=2)
    assert view["state"] == "done" and len(view["solutions"]) == 2, view.get("error")
    for solution in view["solutions"]:
        burr_checker.check(path, [(p["piece"], p["cells"]) for p in solution])


def test_a_model_over_the_page_budget_is_refused(client):
    """The 35 hexominoes on a 100 x 200 board: about 200 orientations at 20,000 cells, more than
    26 million covered cells, over 1 GB of model and tables."""
    doc = json.loads((EXAMPLES / "hexomino-cornucopia-6x17.json").read_text())
    doc["board"] = ["X" * 200] * 100
    message = refused(client, {"kind": "tiling", "text": json.dumps(doc)})
    assert "over the page's memory budget of 512.0 MB" in message, message
    assert "too many pieces" not in message


def test_what_the_page_cannot_draw_is_refused(client):
    big = (
        b'<puzzle><gridType type="0"/><shapes><voxel x="30" y="30" z="30" type="0">'
        + b"#" * 27000
        + b'</voxel><voxel x="1" y="1" z="1" type="0">#</voxel></shapes><problems><problem><shapes>'
        + b'<shape id="1" count="27000"/></shapes><result id="0"/></problem></problems></puzzle>'
    )
    message = refused(client, burr_spec(XM / "big.xmpuzzle", big))
    assert "board too large: 27000 cells (the page draws at most 20000)" in message, message
