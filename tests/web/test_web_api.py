"""The web API (`polytile serve`) through Starlette's TestClient: the page, and counts and
solutions against the corpus manifests, checked by the independent checker."""

from __future__ import annotations

import re

import polytile

from checker import as_set, board_symmetries, canonical, check
from katamino_slams import pieces_of, slam_lists
from web_api_helpers import BIG_ROWS, CASES, SHIKAKU, SHIKAKU_CASES, STATIC, TILING, centre_hole, placements, run
from web_helpers import verify_rectangles


# ---- the page ------------------------------------------------------------------------------------


def test_page_and_static_files(client):
    r = client.get("/")
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    assert "polytile" in r.text and "/static/app.js" in r.text
    assert "default-src 'self'" in r.headers["content-security-policy"]
    for name in ("app.js", "style.css", "index.html"):
        s = client.get(f"/static/{name}")
        assert s.status_code == 200 and len(s.text) > 1000
    files = [f for f in STATIC.rglob("*") if f.is_file()]  # vendor/ too: three.js
    assert STATIC / "vendor" / "three.min.js" in files
    for f in files:  # nothing loaded from elsewhere
        text = f.read_text()
        assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", text), f.name
        assert not re.search(r"""(fetch|import)\s*\(\s*["']https?://""", text), f.name
        assert not re.search(r"""\bfrom\s*["'](https?:)?//""", text), f.name
        assert "@import" not in text
    assert client.get("/static/../pyproject.toml").status_code == 404


def test_the_pages_scripts_are_served_under_the_csp(client):
    """index.html loads every script of static/ (the tabs' own scripts since app.js was split;
    view3d.js imports three.js itself), each from this server as JavaScript; no inline script,
    which the CSP (default-src 'self') would block; the page and its files revalidate."""
    page = client.get("/")
    assert page.headers["cache-control"] == "no-cache"
    assert "script-src" not in page.headers["content-security-policy"]  # default-src 'self' governs scripts
    tags = re.findall(r"<script\b([^>]*)>(.*?)</script>", page.text, re.S)
    assert all(body.strip() == "" for _, body in tags), "an inline script"
    assert not re.search(r"""\son[a-z]+\s*=""", page.text), "an inline event handler"
    loaded = [re.search(r'src="/static/([^"]+)"', attrs).group(1) for attrs, _ in tags]
    assert sorted(loaded) == sorted(f.name for f in STATIC.glob("*.js"))
    assert loaded[0] == "app.js" and len(loaded) == len(set(loaded))
    for name in loaded:
        r = client.get(f"/static/{name}")
        assert r.status_code == 200 and r.headers["content-type"].split(";")[0] == "text/javascript", name
        assert r.headers["cache-control"] == "no-cache" and "default-src 'self'" in r.headers["content-security-policy"]
        if name != "view3d.js":  # the ES module; the rest are classic scripts sharing the page's globals
            assert r.text.lstrip().startswith("//") and '"use strict";' in r.text[:1200], name
    assert max(len((STATIC / n).read_text().splitlines()) for n in loaded) < 400  # (one tab, one script)


def test_info(client):
    info = client.get("/api/info").json()
    names = {p["name"] for p in info["library"] if p["order"] == 5}
    assert names == set("FILNPTUVWXYZ")
    assert len([p for p in info["library"] if p["order"] == 4]) == 5  # free tetrominoes
    assert [k["colour_name"] for k in info["katamino"]][:3] == ["lightbrown", "orange", "darkbrown"]
    assert info["limits"]["board_cells"] >= 60 and info["limits"]["jobs_per_client"] == 2


def test_check_refuses_bad_puzzles(client):
    for puzzle in (
        {"kind": "tiling", "board": BIG_ROWS, "pieces": ["F"]},
        {"kind": "katamino", "pieces": []},
        {"kind": "shikaku", "text": "2 2\n1 x\n0 0"},
        "tiling",
        None,
    ):
        r = client.post("/api/check", json={"puzzle": puzzle})
        assert r.status_code == 400 and r.json()["error"], puzzle
    err = client.post("/api/check", json={"puzzle": {"kind": "shikaku", "text": "2 2\n1 x\n0 0"}}).json()["error"]
    assert err.startswith("<text>:2:3:")  # the position, as the CLI gives it


def test_check_returns_the_board(client):
    s = client.post("/api/check", json={"puzzle": centre_hole()}).json()
    assert s["area"] == 60 and s["tiles_area"] == 60 and s["shape"] == [8, 8]
    assert len(s["cells"]) == 60 and [3, 3] not in s["cells"]
    text = (TILING / "soma-3x3x3.json").read_text()
    s = client.post("/api/check", json={"puzzle": {"kind": "tiling", "text": text}}).json()
    assert s["dim"] == 3 and s["area"] == 27


# ---- counts and solutions against the corpus -------------------------------------------------------


def test_count_centre_hole_drawn_and_as_text(client):
    case = CASES["pentomino-8x8-centre-hole"]
    r = run(client, "count", centre_hole(), unique=True)["result"]
    assert (r["solutions"], r["unique"]) == (case["solutions"], case["unique"])
    text = (TILING / case["file"]).read_text()
    r = run(client, "count", {"kind": "tiling", "text": text}, unique=False)["result"]
    assert r["solutions"] == case["solutions"] and r["unique"] is None


def test_solve_lists_every_solution_verified(client):
    case = CASES["pentomino-8x8-centre-hole"]
    path = TILING / case["file"]
    view = run(client, "solve", centre_hole(), limit=1000)
    sols = view["solutions"]
    assert view["result"]["complete"] and len(sols) == case["solutions"]
    for s in sols:
        check(path, placements(s), reflect=True, partial=False)
        assert all(re.fullmatch(r"#[0-9a-f]{6}", p["colour"]) for p in s)
    assert len({as_set(placements(s)) for s in sols}) == case["solutions"]
    syms = board_symmetries(path)
    assert len({canonical(placements(s), syms) for s in sols}) == case["unique"]
    # unique only: one solution per class
    view = run(client, "solve", centre_hole(), limit=1000, unique=True)
    sols = view["solutions"]
    assert len(sols) == case["unique"]
    for s in sols:
        check(path, placements(s), reflect=True, partial=False)
    assert len({canonical(placements(s), syms) for s in sols}) == case["unique"]


def test_first_solution_and_katamino_colours(client):
    view = run(client, "solve", centre_hole(), limit=1)
    assert len(view["solutions"]) == 1 and view["result"]["complete"] is False
    colours = {p["piece"]: p["colour"] for p in view["solutions"][0]}
    assert colours["X"] == "#e74c3c" and colours["I"] == "#c8a165"  # red, light brown


def test_katamino_against_the_slam_corpus(client):
    order, cases = slam_lists()["slam1"]
    case = cases[5]
    letters = pieces_of(case["file"])
    puzzle = {"kind": "katamino", "pieces": letters, "height": 5}
    r = run(client, "count", puzzle, unique=True)["result"]
    assert (r["solutions"], r["unique"]) == (case["solutions"], case["unique"])
    view = run(client, "solve", puzzle, limit=100)
    assert len(view["solutions"]) == case["solutions"]
    for s in view["solutions"]:
        check(TILING / case["file"], placements(s), reflect=True, partial=False)
    slam = run(client, "slam", {"kind": "katamino", "pieces": order[:7], "height": 5})
    rows = {row["n"]: row for row in slam["result"]["rows"]}
    assert sorted(rows) == [3, 4, 5, 6, 7] and len(slam["rows"]) == 5
    for n, row in rows.items():
        assert (row["solutions"], row["unique"]) == (cases[n]["solutions"], cases[n]["unique"]), n


def test_boxing_against_the_corpus(client):
    case = CASES["tetromino-box-4x5-atmost2"]
    puzzle = {"kind": "box", "order": 4, "width": 5, "height": 4, "max_copies": 2}
    r = run(client, "count", puzzle, unique=True)["result"]
    assert (r["solutions"], r["unique"]) == (case["solutions"], case["unique"])
    view = run(client, "solve", puzzle, limit=1000)
    assert len(view["solutions"]) == case["solutions"]
    for s in view["solutions"][:40]:
        check(TILING / case["file"], placements(s), reflect=True, partial=True)
    sample = run(client, "sample", puzzle, seed=7)
    assert sample["result"]["uniform"] and len(sample["solutions"]) == 1
    check(TILING / case["file"], placements(sample["solutions"][0]), reflect=True, partial=True)
    odd = run(client, "count", dict(puzzle, width=3, height=3), unique=True)["result"]
    assert odd["solutions"] == 0 and "multiple of 4" in odd["reasons"][0]


def test_shikaku_text_and_game_id(client):
    for cid in ("tatham-7x7", "domino-4x4", "tiny-2x4-two", "unsolvable-3x3"):
        case = SHIKAKU_CASES[cid]
        text = (SHIKAKU / case["file"]).read_text()
        view = run(client, "solve", {"kind": "shikaku", "text": text})
        assert view["result"]["solutions"] == case["solutions"], cid
        rows = [[int(x) for x in line.split()] for line in text.split("\n")[1:] if line.strip()]
        if case["solutions"]:
            verify_rectangles(rows, view["solutions"][0]["rectangles"])
        else:
            assert not view["solutions"] and view["result"]["reasons"]
        if "game_id" in case:
            again = run(client, "solve", {"kind": "shikaku", "text": case["game_id"]})
            assert again["solutions"] == view["solutions"]
            typed = run(client, "count", {"kind": "shikaku", "rows": rows})
            assert typed["result"]["solutions"] == case["solutions"]


def test_big_counts_travel_exactly(client):
    case = SHIKAKU_CASES["domino-10x10"]
    text = (SHIKAKU / case["file"]).read_text()
    r = run(client, "count", {"kind": "shikaku", "text": text})["result"]
    assert int(r["solutions"]) == case["solutions"]


def test_hint_and_stats(client):
    case = CASES["pentomino-8x8-centre-hole"]
    path = TILING / case["file"]
    h = run(client, "hint", centre_hole())["result"]
    assert h["verdict"] == "place" and len(h["cells"]) == 5
    listed = run(client, "solve", centre_hole(), limit=1000)["solutions"]
    hinted = frozenset(map(tuple, h["cells"]))
    assert any(hinted in as_set(placements(s)) for s in listed)  # it leads to a solution
    h2 = run(client, "hint", centre_hole(), placed=[h["cells"]])["result"]
    assert h2["verdict"] == "place" and not set(map(tuple, h2["cells"])) & hinted
    # a piece that walls off the corner cell: a dead end
    dead = run(client, "hint", centre_hole(), placed=[[[0, 1], [1, 0], [1, 1], [1, 2], [2, 1]]])["result"]
    assert dead["verdict"] == "dead end" and dead["reason"]
    st = run(client, "stats", centre_hole())["result"]
    assert (st["solutions"], st["unique"]) == (case["solutions"], case["unique"])
    assert len(st["pieces"]) == 12 and st["cells"] == 60
    check(path, placements(listed[0]), reflect=True, partial=False)


def test_downloads(client):
    view = run(client, "solve", centre_hole(), limit=3)
    jid = view["id"]
    svg = client.get(f"/api/jobs/{jid}/solutions/0.svg")
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert b"<svg" in svg.content[:400]
    png = client.get(f"/api/jobs/{jid}/solutions/2.png")
    assert png.status_code == 200 and png.content[:8] == b"\x89PNG\r\n\x1a\n"
    js = client.get(f"/api/jobs/{jid}/solutions/1.json").json()
    assert js["puzzle"]["kind"] == "tiling"
    check(TILING / "pentomino-8x8-centre-hole.txt", placements(js["solution"]), reflect=True, partial=False)
    assert len(client.get(f"/api/jobs/{jid}/solutions.json").json()["solutions"]) == 3
    assert client.get(f"/api/jobs/{jid}/solutions/3.svg").status_code == 404
    assert client.get(f"/api/jobs/{jid}/solutions/0.gif").status_code == 404
    sh = run(client, "solve", {"kind": "shikaku", "text": SHIKAKU_CASES["tatham-7x7"]["game_id"]})
    svg = client.get(f"/api/jobs/{sh['id']}/solutions/0.svg")
    assert svg.status_code == 200 and b"<svg" in svg.content[:200]
    assert client.get(f"/api/jobs/{sh['id']}/solutions/0.png").content[:4] == b"\x89PNG"


def test_triangle_and_hex_puzzles(client):
    """A polytile JSON with "grid": the board's grid in the summary, counts, and pictures
    drawn on the puzzle's grid (one filled path per piece)."""
    examples = STATIC.parent.parent.parent.parent / "examples"
    for name, grid, n_pieces in (("tetrahexes-4x7.json", "hex", 7), ("hexiamonds-6x6.json", "triangle", 12)):
        puzzle = {"kind": "tiling", "text": (examples / name).read_text()}
        s = client.post("/api/check", json={"puzzle": puzzle}).json()
        assert s["grid"] == grid and sum(p["count"] for p in s["pieces"]) == n_pieces
    view = run(client, "solve", {"kind": "tiling", "text": (examples / "tetrahexes-4x7.json").read_text()}, limit=1)
    svg = client.get(f"/api/jobs/{view['id']}/solutions/0.svg").content.decode()
    assert svg.count('id="piece-0-') == 7


def test_a_listing_keeps_its_limit_when_listing_is_slow(monkeypatch):
    """A solve stopped by its solution limit lists all of them: the grace for turning found
    solutions into pieces is for a time limit or Ctrl-C (a busy machine listed 385 to 846 of
    6 x 10's first 1,000 within it, and the page waited for "1 / 1,000+")."""
    import polytile.tiling.solver as solver

    monkeypatch.setattr(solver, "LISTING_GRACE", 0.0)  # as if listing were slower than the grace
    r = polytile.load(TILING / CASES["pentomino-6x10"]["file"]).solve(limit=1000)
    assert not r.complete and not r.timed_out and len(r.found) == 1000
    r = polytile.load(TILING / CASES["pentomino-6x10"]["file"]).solve(limit=None, time_limit=1e-9)
    assert r.timed_out and len(r.found) <= 1  # a time limit still lists only what the grace allows
