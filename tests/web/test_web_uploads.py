"""Files opened on the page, the server's side: what the page takes is decided by the model's
estimated memory within the page's budget (512 MB) and by what the page can draw, not by a count
of pieces, so BurrTools' own cube examples open (SolidSixPieceBurrs has 150 pieces, Dracula's
1,656 result voxels); a model over the budget is refused in one line that says so.

Expected values come from outside polytile: each file's result voxels and pieces as
tests/burr_checker.py reads them (the standard library's XML parser), solutions checked by it.

Hostile files (the red team's: 20,000 colours in a 2.3 KB gzip, seven 2048 x 2048 shapes, a piece
count of 10^9, superscript digits) are answered 4xx in one line, read in a process of their own
within the page's budget (web/reading.py): the server's own memory does not grow."""

from __future__ import annotations

import gzip
import json
import resource
import time

import pytest
from polytile.budget import PAGE_BYTES
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
        + b'<shape id="1" count="9000"/></shapes><result id="0"/></problem></problems></puzzle>'
    )
    message = refused(client, burr_spec(XM / "big.xmpuzzle", big))
    assert "board too large: 27000 cells (the page draws at most 20000)" in message, message


# ---- downloads are named after the puzzle ----------------------------------------------------------


def disposition(client, path: str) -> str:
    r = client.get(path)
    assert r.status_code == 200, r.text
    return r.headers["content-disposition"]


def test_downloads_are_named_after_the_puzzle(client):
    from web_api_helpers import centre_hole

    cases = [
        (burr_spec(XM / "soma-3x3x3.xmpuzzle"), "soma-3x3x3"),
        (burr_spec(XM / "DemoMirrorParadox.xmpuzzle", problem=2), "DemoMirrorParadox-problem-2"),
        (
            {"kind": "tiling", "text": (EXAMPLES / "tetrahexes-4x7.json").read_text(), "name": "tetrahexes-4x7.json"},
            "tetrahexes-4x7",
        ),
        ({"kind": "tiling", "text": (EXAMPLES / "pentomino-3x20.txt").read_text()}, "tiling-3x20"),  # pasted: no name
        (centre_hole(), "tiling-8x8"),
        ({"kind": "katamino", "pieces": ["L", "Y", "P", "W"], "height": 5}, "katamino-LYPW-5x4"),
        ({"kind": "box", "order": 4, "width": 5, "height": 4, "max_copies": 2}, "box-4-ominoes-5x4"),
        ({"kind": "shikaku", "text": "7x7:a8a4e3a3a2f2c6f5k6_2_2_2_4a"}, "shikaku-7x7"),
        ({"kind": "calendar", "board": "classic", "date": "2026-11-25"}, "calendar-classic-2026-11-25"),
        (  # a hostile name: no path, no quote, no line break reaches the header
            {"kind": "tiling", "text": "XX\n\nXX\n", "name": '..\\../"evil"\r\nX-Header: 1.txt'},
            "evil-X-Header-1",
        ),
    ]
    for puzzle, stem in cases:
        view = run(client, "solve", puzzle, limit=2)
        assert view["state"] == "done" and view["solutions"], (stem, view.get("error"))
        jid = view["id"]
        for fmt in ("svg", "json"):
            got = disposition(client, f"/api/jobs/{jid}/solutions/0.{fmt}")
            assert got == f'attachment; filename="{stem}-solution-1.{fmt}"', got
        assert disposition(client, f"/api/jobs/{jid}/solutions.json") == f'attachment; filename="{stem}-solutions.json"'
    soma = run(client, "solve", burr_spec(XM / "soma-3x3x3.xmpuzzle"), limit=2)["id"]
    for fmt in ("png", "xmpuzzle", "stl", "obj"):
        got = disposition(client, f"/api/jobs/{soma}/solutions/1.{fmt}")
        assert got == f'attachment; filename="soma-3x3x3-solution-2.{fmt}"', got


# ---- hostile uploads: 4xx in one line, read outside the server within the page's budget -------------

SOMA_SHAPES = (
    '<voxel x="2" y="2" z="1" name="V" type="0">###_</voxel>'
    '<voxel x="3" y="3" z="3" name="R" type="0">' + "#" * 27 + "</voxel>"
)
SQUARE_2048 = '<voxel x="2048" y="2048" z="1" type="0">' + "#" * (2048 * 2048) + "</voxel>"


def burr_xml(shapes: str, parts: str, result: int, colours: str = "") -> bytes:
    return (
        f'<?xml version="1.0"?>\n<puzzle version="2"><gridType type="0"/><colors>{colours}</colors>'
        f'<shapes>{shapes}</shapes><problems><problem><shapes>{parts}</shapes><result id="{result}"/>'
        "<bitmap></bitmap></problem></problems></puzzle>"
    ).encode()


def hostile_files() -> dict[str, bytes]:
    """The red team's .xmpuzzle files (gzip-compressed, as BurrTools writes them), rebuilt."""
    files = {
        "colours-20000": burr_xml(
            SOMA_SHAPES, '<shape id="0" count="9"/>', 1, '<color red="1" green="1" blue="1"/>' * 20000
        ),
        "seven-2048x2048": burr_xml(SQUARE_2048 * 7, '<shape id="0" count="1"/>', 1),
        "board-2048x2048": burr_xml(SQUARE_2048 + SOMA_SHAPES, '<shape id="1" count="1"/>', 0),
        "piece-2048x2048": burr_xml(SQUARE_2048 + SOMA_SHAPES, '<shape id="0" count="1"/>', 2),
        "superscript-colour": burr_xml(
            '<voxel x="2" y="2" z="1" type="0">#\u00b2##_</voxel>' + SOMA_SHAPES, '<shape id="0" count="1"/>', 2
        ),
        "superscript-count": burr_xml(SOMA_SHAPES, '<shape id="0" count="\u00b2"/>', 1),
    }
    return {name: gzip.compress(xml, 9) for name, xml in files.items()}


def test_hostile_files_are_refused_in_one_line_outside_the_server(client, caplog):
    reader = client.app.state.reader
    files = hostile_files()
    assert len(files["colours-20000"]) < 2500  # 20,000 colours in 2.3 KB
    before, reads = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss << 10, reader.reads
    for name, data in files.items():
        t0 = time.monotonic()
        r = client.post("/api/check", json={"puzzle": burr_spec(XM / f"{name}.xmpuzzle", data)})
        if name == "colours-20000" and r.status_code == 200:  # colours past BurrTools' 63 are never used:
            continue  # a Soma problem with 20,000 idle colours opens, within the budget
        assert 400 <= r.status_code < 500, (name, r.status_code, r.text)
        message = r.json()["error"]
        assert message.startswith(f"{name}.xmpuzzle") and "\n" not in message and "Traceback" not in message, message
        assert time.monotonic() - t0 < 60, name
    assert reader.reads == reads + len(files)  # each read in a process of its own
    assert reader.grew <= PAGE_BYTES  # ... which stayed within the page's budget
    grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss << 10) - before
    assert grown < 128 << 20, f"the server's own memory grew by {grown >> 20} MB"
    assert "Traceback" not in caplog.text


def test_a_piece_count_of_a_billion_is_refused_in_one_line(client):
    """count="1000000000": refused as the JSON reader refuses more than 10,000 copies, in one
    line naming the file, before anything grows with the copies."""
    data = gzip.compress(burr_xml(SOMA_SHAPES, '<shape id="0" count="1000000000"/>', 1))
    spec = burr_spec(XM / "billion.xmpuzzle", data)
    r = client.post("/api/check", json={"puzzle": spec})
    assert 400 <= r.status_code < 500, r.text
    message = r.json()["error"]
    assert message.startswith("billion.xmpuzzle") and "10000" in message and "\n" not in message, message
