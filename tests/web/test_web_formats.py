"""The new formats through the web API: BurrTools files opened on the page (sent as
base64, read by the CLI's reader), the shown solution downloaded as .xmpuzzle, STL and OBJ,
and the calendar's jobs (a date's solutions, the year's tally).

Expected values come from outside polytile: the Soma cube's 11,520 solutions and 240 up to
the cube's symmetry (published; burrTxt's 240 assemblies of this very file are recorded in
tests/xmpuzzle/README.md), A-Puzzle-A-Day's per-date table (tests/calendar/,
Andrew Nowell's solver), files read back by tests/burr_checker.py (no polytile code) and
meshes by trimesh; mesh volumes by hand (cells x the cell's volume)."""

from __future__ import annotations

import base64
import gzip
import io
import math
import re
from collections import Counter
from pathlib import Path

import pytest
import trimesh
from paths import EXAMPLES, TESTS
from web_api_helpers import STATIC, run

import burr_checker

XM = TESTS / "xmpuzzle"
SOMA = XM / "soma-3x3x3.xmpuzzle"
PUBLISHED = {
    (int(m), int(d)): int(n)
    for m, d, n in re.findall(
        r"(\d\d)-(\d\d) has (\d+) solutions", (TESTS / "calendar" / "anowell-count_solutions.txt").read_text()
    )
}
SQRT3 = math.sqrt(3)
CELL_VOLUME = {"square": 1.0, "triangle": SQRT3 / 4, "hex": 3 * SQRT3 / 2}  # edge 1, height 1
UNIT = 10.0  # mm per cell edge in the page's meshes


def burr_spec(path: Path, data: bytes | None = None, **more) -> dict:
    raw = path.read_bytes() if data is None else data
    return {"kind": "tiling", "xmpuzzle": base64.b64encode(raw).decode(), "name": path.name, **more}


def refused(client, puzzle: dict) -> str:
    r = client.post("/api/check", json={"puzzle": puzzle})
    assert r.status_code == 400, r.text
    message = r.json()["error"]
    assert "\n" not in message and "Traceback" not in message
    return message


def test_soma_file_counts_as_published(client):
    recorded = (XM / "README.md").read_text()  # burrTxt on this very file
    assert "`$ burrTxt -q soma-3x3x3.xmpuzzle` -> `240 assemblies" in recorded.replace("\n  ", " ")
    for data in (SOMA.read_bytes(), gzip.decompress(SOMA.read_bytes())):  # gzip, and plain XML
        s = client.post("/api/check", json={"puzzle": burr_spec(SOMA, data)}).json()
        assert (s["dim"], s["area"], s["reflect"], len(s["pieces"])) == (3, 27, False, 7)
        assert [p["number"] for p in s["problems"]] == [1]
        r = run(client, "count", burr_spec(SOMA, data), unique=True)["result"]
        assert (r["solutions"], r["unique"], r["complete"]) == (11520, 240, True)


def test_problems_are_listed_and_chosen(client):
    path = XM / "DemoMirrorParadox.xmpuzzle"
    first = client.post("/api/check", json={"puzzle": burr_spec(path)}).json()
    assert [(p["number"], p["name"]) for p in first["problems"]] == [(1, "Example From Text"), (2, "Another Example")]
    second = client.post("/api/check", json={"puzzle": burr_spec(path, problem=2)}).json()
    assert second["problems"] == first["problems"] and second["source"] != first["source"]
    assert "no problem 3" in refused(client, burr_spec(path, problem=3))
    assert "problem" in refused(client, burr_spec(path, problem="two"))


@pytest.mark.parametrize(
    "data,words",
    [
        (b"\x1f\x8b\x08\x00broken", "broken gzip data"),
        (b"<puzzle><gridType type='7'/></puzzle>", "grid type 7 (unknown) is not supported"),
        (b"<puzzle><shapes>", "malformed XML"),
        (b"<!DOCTYPE p [<!ENTITY e 'x'>]><puzzle>&e;</puzzle>", "refused XML"),
        (b"<puzzle/>", "holds no problem"),
    ],
)
def test_bad_files_get_one_line_naming_the_file(client, data, words):
    message = refused(client, burr_spec(Path("mine.xmpuzzle"), data))
    assert message.startswith("mine.xmpuzzle") and words in message, message


def test_a_file_past_the_drawn_boards_limit_opens(client):
    """A file's board is limited by its model's memory (tests/web/test_web_uploads.py), not by
    the 400 cells of a board drawn on the page: 512 unit cubes in an 8 x 8 x 8 box."""
    big = (
        b'<puzzle><gridType type="0"/><shapes><voxel x="8" y="8" z="8" type="0">'
        + b"#" * 512
        + b'</voxel><voxel x="1" y="1" z="1" type="0">#</voxel></shapes><problems><problem><shapes>'
        + b'<shape id="1" count="512"/></shapes><result id="0"/></problem></problems></puzzle>'
    )
    r = client.post("/api/check", json={"puzzle": burr_spec(Path("big.xmpuzzle"), big)})
    assert r.status_code == 200 and r.json()["area"] == 512, r.text


def test_upload_limits(client):
    from polytile.web.burrfile import MAX_FILE

    assert f"const BURR_MAX = {MAX_FILE};" in (STATIC / "files.js").read_text()  # the page says the same
    too_big = base64.b64encode(b"\0" * (MAX_FILE + 3)).decode()
    assert "file too large" in refused(client, {"kind": "tiling", "xmpuzzle": too_big, "name": "big.xmpuzzle"})
    assert "not valid base64" in refused(client, {"kind": "tiling", "xmpuzzle": "@@@@", "name": "x.xmpuzzle"})
    bomb = gzip.compress(b"<puzzle>" + b" " * (9 << 20) + b"</puzzle>")
    assert "gzip bomb" in refused(client, burr_spec(Path("bomb.xmpuzzle"), bomb))
    r = client.post("/api/check", content=b"{" + b" " * 1_000_001 + b"}", headers={"content-type": "application/json"})
    assert r.status_code == 413


def download(client, jid: str, k: int, fmt: str, mime: str) -> bytes:
    r = client.get(f"/api/jobs/{jid}/solutions/{k}.{fmt}")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].split(";")[0] == mime
    disposition = r.headers["content-disposition"]
    assert disposition.startswith('attachment; filename="') and disposition.endswith(f'-solution-{k + 1}.{fmt}"')
    return r.content


def obj_objects(text: str) -> list:
    """Each `o` of an OBJ file as a trimesh (vertices numbered through the whole file)."""
    vertices, objects = [], []
    for line in text.splitlines():
        word, *rest = line.split() or [""]
        if word == "o":
            objects.append([])
        elif word == "v":
            vertices.append([float(x) for x in rest])
        elif word == "f":
            objects[-1].append([int(x.split("/")[0]) - 1 for x in rest])
    return [trimesh.Trimesh(vertices, faces, process=True) for faces in objects]


def mesh_volume(stl: bytes, obj: bytes) -> float:
    """The volume of a solution's meshes, each piece checked closed by trimesh (watertight,
    consistently wound) in both files: OBJ's objects, and the STL's triangles cut where the
    OBJ's pieces end (the same shells in the same order; each chunk's corners are that
    piece's vertices). The assembled pieces touch (no clearance), so the STL as a whole is
    one closed oriented surface that touches itself: every edge walked as often each way."""
    parts = obj_objects(obj.decode())
    assert parts and all(g.is_watertight and g.is_winding_consistent for g in parts)
    whole = trimesh.load(io.BytesIO(stl), file_type="stl", process=False)
    triangles = whole.triangles
    assert len(triangles) == int.from_bytes(stl[80:84], "little") == sum(len(g.faces) for g in parts)
    start, volume = 0, 0.0
    for g in parts:
        chunk = triangles[start : start + len(g.faces)]
        start += len(g.faces)
        piece = trimesh.Trimesh(**trimesh.triangles.to_kwargs(chunk))
        piece.merge_vertices()
        assert piece.is_watertight and piece.is_winding_consistent
        assert piece.volume == pytest.approx(g.volume, rel=1e-4)  # OBJ: 6 significant digits
        assert abs(chunk.reshape(-1, 3)[:, None] - g.vertices[None]).sum(axis=2).min(axis=1).max() < 1e-3
        volume += float(piece.volume)
    merged = trimesh.load(io.BytesIO(stl), file_type="stl")
    walked = Counter(map(tuple, merged.edges.tolist()))
    assert all(walked[(b, a)] == n for (a, b), n in walked.items())
    return volume


def test_soma_solution_downloads(client, tmp_path):
    view = run(client, "solve", burr_spec(SOMA), limit=3)
    jid, shown = view["id"], view["solutions"][2]
    data = download(client, jid, 2, "xmpuzzle", "application/gzip")
    path = tmp_path / "soma.xmpuzzle"
    path.write_bytes(data)
    stored = burr_checker.stored(path)
    assert len(stored) == 1
    burr_checker.check(path, stored[0])
    assert sorted(sorted(map(tuple, cells)) for _, cells in stored[0]) == sorted(
        sorted(map(tuple, p["cells"])) for p in shown
    )  # the shown solution, decoded
    stl, obj = download(client, jid, 2, "stl", "model/stl"), download(client, jid, 2, "obj", "model/obj")
    assert mesh_volume(stl, obj) == pytest.approx(27 * UNIT**3, rel=1e-6)


def test_flat_and_lattice_solution_meshes(client):
    from web_api_helpers import centre_hole

    cases = [
        (centre_hole(), "square", 60),
        ({"kind": "tiling", "text": (EXAMPLES / "tetrahexes-4x7.json").read_text()}, "hex", 28),
        ({"kind": "tiling", "text": (EXAMPLES / "hexiamonds-6x6.json").read_text()}, "triangle", 72),
    ]
    for puzzle, grid, cells in cases:
        jid = run(client, "solve", puzzle, limit=1)["id"]
        stl, obj = download(client, jid, 0, "stl", "model/stl"), download(client, jid, 0, "obj", "model/obj")
        assert mesh_volume(stl, obj) == pytest.approx(cells * CELL_VOLUME[grid] * UNIT**3, rel=1e-6), grid
        r = client.get(f"/api/jobs/{jid}/solutions/0.xmpuzzle")
        if grid == "square":
            assert r.status_code == 200 and r.content[:2] == b"\x1f\x8b"
        else:
            assert r.status_code == 400 and "grid" in r.json()["error"]
    sh = run(client, "solve", {"kind": "shikaku", "text": "7x7:a8a4e3a3a2f2c6f5k6_2_2_2_4a"})
    for fmt in ("xmpuzzle", "stl", "obj"):
        r = client.get(f"/api/jobs/{sh['id']}/solutions/0.{fmt}")
        assert r.status_code == 400 and "shikaku" in r.json()["error"].lower()


# ---- the calendar ---------------------------------------------------------------------------


def calendar(date: str, board: str = "classic") -> dict:
    return {"kind": "calendar", "board": board, "date": date}


def orientations(cells: list) -> set:
    """The 8 images of a flat shape, normalised (written here, not polytile's)."""
    out = set()
    for flip in (False, True):
        pts = [(r, -c) if flip else (r, c) for r, c in cells]
        for _ in range(4):
            pts = [(c, -r) for r, c in pts]
            r0, c0 = min(p[0] for p in pts), min(p[1] for p in pts)
            out.add(tuple(sorted((r - r0, c - c0) for r, c in pts)))
    return out


def verify_calendar(summary: dict, solution: list) -> None:
    """Every cell covered once except the date's open ones; each piece once, as its shape."""
    cells = {tuple(c) for c in summary["cells"]}
    open_cells = {tuple(summary["cells"][i]) for i in summary["open"]}
    covered: list = []
    for p in solution:
        covered += [tuple(c) for c in p["cells"]]
    assert len(covered) == len(set(covered)) and set(covered) == cells - open_cells
    shapes = sorted(tuple(sorted(orientations(p["cells"]))) for p in solution)
    assert shapes == sorted(tuple(sorted(orientations(q["cells"]))) for q in summary["pieces"])


def test_calendar_date_solutions_and_count(client):
    for date in ("2026-11-25", "2024-02-29", "2026-10-06", "2027-01-25"):
        _, m, d = (int(x) for x in date.split("-"))
        view = run(client, "solve", calendar(date))
        summary = client.post("/api/check", json={"puzzle": calendar(date)}).json()
        assert view["result"]["solutions"] == PUBLISHED[(m, d)] == len(view["solutions"])
        for sol in view["solutions"]:
            verify_calendar(summary, sol)
        assert run(client, "count", calendar(date))["result"]["solutions"] == PUBLISHED[(m, d)]
    week = run(client, "solve", calendar("2026-11-25", "weekday"), limit=50)
    summary = client.post("/api/check", json={"puzzle": calendar("2026-11-25", "weekday")}).json()
    assert sorted(summary["labels"][i] for i in summary["open"]) == ["25", "Nov", "Wed"]
    assert len(week["solutions"]) == 50
    for sol in week["solutions"]:
        verify_calendar(summary, sol)


def test_calendar_year_tally_is_the_published_table(client):
    view = run(client, "tally", calendar("2026-11-25"))
    rows = view["result"]["dates"]
    assert {(m, d): n for m, d, _, n in rows} == PUBLISHED
    assert view["result"]["number_of_dates"] == 366 and view["result"]["weekday"] is False


def test_calendar_refusals(client):
    assert "not a date" in refused(client, calendar("2026-02-30"))
    assert "cannot read" in refused(client, calendar("yesterday"))
    assert "unknown calendar board" in refused(client, calendar("2026-11-25", "lunar"))
    r = client.post("/api/jobs", json={"action": "hint", "puzzle": calendar("2026-11-25")})
    assert r.status_code == 400 and "not for calendar" in r.json()["error"]
    r = client.post("/api/jobs", json={"action": "tally", "puzzle": {"kind": "tiling", "text": "XX\n\nX X"}})
    assert r.status_code == 400 and "calendar" in r.json()["error"]
    view = run(client, "solve", calendar("2026-11-25"), limit=2)
    r = client.get(f"/api/jobs/{view['id']}/solutions/0.xmpuzzle")
    assert r.status_code == 400 and "calendar" in r.json()["error"]
    stl, obj = download(client, view["id"], 0, "stl", "model/stl"), download(client, view["id"], 0, "obj", "model/obj")
    assert mesh_volume(stl, obj) == pytest.approx(41 * UNIT**3, rel=1e-6)  # 43 cells, 2 open


def test_calendar_random_solution(client):
    summary = client.post("/api/check", json={"puzzle": calendar("2026-06-07", "weekday")}).json()
    view = run(client, "sample", calendar("2026-06-07", "weekday"), seed=7)
    assert view["result"]["uniform"] and view["result"]["listed"] == len(view["solutions"]) == 1
    verify_calendar(summary, view["solutions"][0])


@pytest.mark.parametrize(
    "stem,grid",
    [("Bermuda", "prism"), ("BallRoom", "sphere"), ("HexSticks", "rhombic"), ("FourPieceTetrahedron", "tetra-octa")],
)
def test_files_on_burrtools_other_grids_open(client, stem, grid):
    """BurrTools' grid types 1-4 open (their cells, no drawing points: the page shows them in 3D)."""
    r = client.post("/api/check", json={"puzzle": burr_spec(XM / f"{stem}.xmpuzzle")})
    assert r.status_code == 200, r.text
    assert r.json()["grid"] == grid and "points" not in r.json()
