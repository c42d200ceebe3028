"""The web API (`polytile serve`) through Starlette's TestClient: every endpoint, counts against
the corpus manifests, solutions checked by the independent checker, bad input answered with
a 4xx and a one-line JSON error, and a server that keeps answering afterwards."""
from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

import warnings

import pytest

with warnings.catch_warnings():        # Starlette 1.x would like httpx2; httpx works the same here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from checker import as_set, board_symmetries, canonical, check, read_puzzle
from conftest import CORPUS, tiling_cases
from test_katamino import pieces_of, slam_lists

from polytile.web.app import create_app
from web_helpers import verify_rectangles

TILING = CORPUS / "tiling"
SHIKAKU = CORPUS / "shikaku"
CASES = {c["id"]: c for c in tiling_cases()}
SHIKAKU_CASES = {c["id"]: c for c in json.loads((SHIKAKU / "manifest.json").read_text())}
LONG_BOX = {"kind": "box", "order": 5, "width": 10, "height": 8, "max_copies": 2}   # hours to count
STATIC = Path(__file__).parent.parent / "src" / "polytile" / "web" / "static"


@pytest.fixture(scope="module")
def client():
    app = create_app(per_client=2, running=4, seconds=120, count_jobs=2)
    with TestClient(app) as c:
        yield c


def board_rows(path: Path) -> list[str]:
    """The board of a corpus drawing as rows of X (cell) and . (hole), read by the checker."""
    board, _, _ = read_puzzle(path)
    h = 1 + max(r for r, _ in board)
    w = 1 + max(c for _, c in board)
    return ["".join("X" if (r, c) in board else "." for c in range(w)) for r in range(h)]


def wait(client, job_id: str, timeout: float = 90.0) -> dict:
    """Poll until the job ends; the view with every listed solution."""
    deadline = time.time() + timeout
    solutions: list = []
    while True:
        r = client.get(f"/api/jobs/{job_id}", params={"since": len(solutions)})
        assert r.status_code == 200, r.text
        view = r.json()
        solutions += view["solutions"]
        if view["state"] not in ("starting", "running") and len(solutions) >= view["listed"]:
            view["solutions"] = solutions
            return view
        assert time.time() < deadline, f"job {job_id} still {view['state']} after {timeout} s"
        time.sleep(0.05)


def run(client, action: str, puzzle: dict, **options) -> dict:
    r = client.post("/api/jobs", json={"action": action, "puzzle": puzzle, "options": options})
    assert r.status_code == 202, r.text
    view = wait(client, r.json()["id"])
    assert view["state"] == "done", view["error"]
    return view


def placements(solution) -> list[tuple[str, list]]:
    return [(p["piece"], p["cells"]) for p in solution]


def centre_hole() -> dict:
    return {"kind": "tiling", "board": board_rows(TILING / "pentomino-8x8-centre-hole.txt"),
            "pieces": [{"name": n, "count": 1} for n in "FILNPTUVWXYZ"]}


# ---- the page ------------------------------------------------------------------------------------

def test_page_and_static_files(client):
    r = client.get("/")
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    assert "polytile" in r.text and "/static/app.js" in r.text
    assert "default-src 'self'" in r.headers["content-security-policy"]
    for name in ("app.js", "style.css", "index.html"):
        s = client.get(f"/static/{name}")
        assert s.status_code == 200 and len(s.text) > 1000
    for f in STATIC.iterdir():          # nothing loaded from elsewhere
        text = f.read_text()
        assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", text), f.name
        assert not re.search(r"""(fetch|import)\s*\(\s*["']https?://""", text), f.name
        assert "@import" not in text
    assert client.get("/static/../pyproject.toml").status_code == 404


def test_info(client):
    info = client.get("/api/info").json()
    names = {p["name"] for p in info["library"] if p["order"] == 5}
    assert names == set("FILNPTUVWXYZ")
    assert len([p for p in info["library"] if p["order"] == 4]) == 5      # free tetrominoes
    assert [k["colour_name"] for k in info["katamino"]][:3] == ["lightbrown", "orange", "darkbrown"]
    assert info["limits"]["board_cells"] >= 60 and info["limits"]["jobs_per_client"] == 2


def test_check_refuses_bad_puzzles(client):
    for puzzle in ({"kind": "tiling", "board": BIG_ROWS, "pieces": ["F"]}, {"kind": "katamino", "pieces": []},
                   {"kind": "shikaku", "text": "2 2\n1 x\n0 0"}, "tiling", None):
        r = client.post("/api/check", json={"puzzle": puzzle})
        assert r.status_code == 400 and r.json()["error"], puzzle
    err = client.post("/api/check", json={"puzzle": {"kind": "shikaku", "text": "2 2\n1 x\n0 0"}}).json()["error"]
    assert err.startswith("<text>:2:3:")          # the position, as the CLI gives it


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
    assert colours["X"] == "#e74c3c" and colours["I"] == "#c8a165"     # red, light brown


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
    assert any(hinted in as_set(placements(s)) for s in listed)     # it leads to a solution
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


# ---- cancel and limits ----------------------------------------------------------------------------

def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:                       # a zombie is dead too
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def test_cancel_kills_the_process_and_the_server_answers(client):
    r = client.post("/api/jobs", json={"action": "count", "puzzle": LONG_BOX})
    assert r.status_code == 202
    jid = r.json()["id"]
    deadline = time.time() + 30
    while client.get(f"/api/jobs/{jid}").json()["state"] != "running":
        assert time.time() < deadline
        time.sleep(0.05)
    job = client.app.state.manager.get(jid)
    pid = job.process.pid
    time.sleep(0.5)
    assert _alive(pid)
    t0 = time.time()
    view = client.delete(f"/api/jobs/{jid}").json()
    assert view["state"] == "cancelled"
    while _alive(pid):
        assert time.time() - t0 < 5, "the job's process still runs after Cancel"
        time.sleep(0.05)
    assert client.get(f"/api/jobs/{jid}").json()["state"] == "cancelled"
    assert client.post(f"/api/jobs/{jid}/cancel").status_code == 200      # twice is harmless
    r = run(client, "count", centre_hole(), unique=True)["result"]
    assert r["solutions"] == CASES["pentomino-8x8-centre-hole"]["solutions"]


def test_jobs_per_client_limit(client):
    ids = []
    try:
        for _ in range(2):
            r = client.post("/api/jobs", json={"action": "count", "puzzle": LONG_BOX})
            assert r.status_code == 202
            ids.append(r.json()["id"])
        r = client.post("/api/jobs", json={"action": "count", "puzzle": LONG_BOX})
        assert r.status_code == 429 and "limit 2" in r.json()["error"]
    finally:
        for jid in ids:
            client.delete(f"/api/jobs/{jid}")
    case = CASES["pentomino-8x8-centre-hole"]
    assert run(client, "count", centre_hole())["result"]["solutions"] == case["solutions"]


def test_a_failing_job_reports_its_error(client):
    r = client.post("/api/jobs", json={"action": "hint", "puzzle": centre_hole(),
                                       "options": {"placed": [[[0, 0], [0, 1]], "x"]}})
    view = wait(client, r.json()["id"])
    assert view["state"] == "failed" and "placed" in view["error"]
    r = client.post("/api/jobs", json={"action": "hint", "puzzle": centre_hole(),
                                       "options": {"placed": [[[0, 0], [0, 1]]]}})
    view = wait(client, r.json()["id"])
    assert view["state"] == "failed" and "no (remaining) piece" in view["error"]


BIG_ROWS = ["X" * 100] * 100
BAD = [
    ("garbage", b"{this is not json", 400, "malformed JSON"),
    ("not an object", b"[1, 2, 3]", 400, "JSON object"),
    ("empty", b"", 400, "empty"),
    ("binary", b"\xff\xfe\x00garbage", 400, "UTF-8"),
    ("deep", b"[" * 100000 + b"]" * 100000, 400, "JSON"),
    ("no puzzle", {"action": "solve"}, 400, "puzzle"),
    ("unknown kind", {"action": "solve", "puzzle": {"kind": "sudoku"}}, 400, "unknown puzzle kind"),
    ("unknown action", {"action": "rm -rf", "puzzle": {"kind": "tiling"}}, 400, "unknown action"),
    ("huge board", {"action": "count", "puzzle": {"kind": "tiling", "board": BIG_ROWS, "pieces": ["F"]}}, 400, "too large"),
    ("board over the cell limit", {"action": "count", "puzzle": {"kind": "tiling", "board": ["X" * 30] * 30, "pieces": ["F"]}}, 400, "limit 400"),
    ("unknown piece", {"action": "solve", "puzzle": {"kind": "tiling", "board": ["XXXXX"], "pieces": ["Q"]}}, 400, "unknown piece"),
    ("count not a number", {"action": "solve", "puzzle": {"kind": "tiling", "board": ["XXXXX"], "pieces": [{"name": "I", "count": "two"}]}}, 400, "count"),
    ("too many pieces", {"action": "solve", "puzzle": {"kind": "tiling", "board": ["XXXXX"], "pieces": [{"name": "I", "count": 10000}]}}, 400, "count"),
    ("board rows not strings", {"action": "solve", "puzzle": {"kind": "tiling", "board": [[1, 1]], "pieces": ["I"]}}, 400, "board"),
    ("bad board character", {"action": "solve", "puzzle": {"kind": "tiling", "board": ["XX<script>"], "pieces": ["I"]}}, 400, "unexpected character"),
    ("pasted file too large", {"action": "solve", "puzzle": {"kind": "tiling", "text": ("X" * 1000 + "\n") * 300}}, 400, "too long"),
    ("pasted drawing too large", {"action": "solve", "puzzle": {"kind": "tiling", "text": ("X" * 140 + "\n") * 140 + "\nX\n"}}, 400, "limit"),
    ("pasted control character", {"action": "solve", "puzzle": {"kind": "tiling", "text": "XX\x07\n\nX"}}, 400, "control character"),
    ("pasted bad JSON", {"action": "solve", "puzzle": {"kind": "tiling", "text": "{\"board\": [1"}}, 400, "malformed JSON"),
    ("katamino unknown colour", {"action": "solve", "puzzle": {"kind": "katamino", "pieces": ["red", "mauve"]}}, 400, "unknown piece"),
    ("katamino height type", {"action": "solve", "puzzle": {"kind": "katamino", "pieces": ["L", "Y"], "height": "5"}}, 400, "height"),
    ("katamino no fit", {"action": "solve", "puzzle": {"kind": "katamino", "pieces": ["L", "Y"], "height": 3}}, 400, "height"),
    ("box too large", {"action": "count", "puzzle": {"kind": "box", "order": 4, "width": 60, "height": 60, "max_copies": 2}}, 400, "too large"),
    ("box order", {"action": "count", "puzzle": {"kind": "box", "order": 12, "width": 6, "height": 6, "max_copies": 2}}, 400, "order"),
    ("box bool", {"action": "count", "puzzle": {"kind": "box", "order": True, "width": 6, "height": 6, "max_copies": 2}}, 400, "order"),
    ("shikaku huge", {"action": "solve", "puzzle": {"kind": "shikaku", "text": "300 300\n" + ("0 " * 300 + "\n") * 300}}, 400, "too"),
    ("shikaku rows ragged", {"action": "solve", "puzzle": {"kind": "shikaku", "rows": [[1, 0], [0]]}}, 400, "same length"),
    ("shikaku negative", {"action": "solve", "puzzle": {"kind": "shikaku", "rows": [[-1, 0], [0, 0]]}}, 400, "not a number"),
    ("shikaku bad url", {"action": "solve", "puzzle": {"kind": "shikaku", "text": "https://puzz.link/p?shikaku/x/y/z"}}, 400, ""),
    ("shikaku hint", {"action": "hint", "puzzle": {"kind": "shikaku", "rows": [[2, 0]]}}, 400, "tiling"),
    ("slam not katamino", {"action": "slam", "puzzle": {"kind": "box", "order": 2, "width": 2, "height": 2, "max_copies": 2}}, 400, "Katamino"),
    ("limit zero", {"action": "solve", "puzzle": {"kind": "box", "order": 2, "width": 2, "height": 2, "max_copies": 2}, "options": {"limit": 0}}, 400, "limit"),
    ("unique not bool", {"action": "count", "puzzle": {"kind": "box", "order": 2, "width": 2, "height": 2, "max_copies": 2}, "options": {"unique": "yes"}}, 400, "unique"),
    ("options not an object", {"action": "count", "puzzle": {"kind": "box", "order": 2, "width": 2, "height": 2, "max_copies": 2}, "options": [1]}, 400, "options"),
]


@pytest.mark.parametrize("name, body, status, words", BAD, ids=[b[0] for b in BAD])
def test_bad_input_is_a_4xx_with_a_message(client, name, body, status, words):
    if isinstance(body, bytes):
        r = client.post("/api/jobs", content=body, headers={"Content-Type": "application/json"})
    else:
        r = client.post("/api/jobs", json=body)
    assert r.status_code == status, r.text
    err = r.json()["error"]
    assert isinstance(err, str) and err and "\n" not in err and "Traceback" not in err
    assert words in err, err
    assert client.get("/api/info").status_code == 200


def test_oversized_body_and_other_errors(client):
    r = client.post("/api/jobs", content=b"x" * 2_000_000, headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and "too large" in r.json()["error"]
    assert client.get("/api/jobs/nope").status_code == 404
    assert client.delete("/api/jobs/nope").json()["error"].startswith("no such job")
    assert client.get("/api/nothing").json() == {"error": "not found"}
    assert client.get("/api/jobs").status_code == 405
    assert client.put("/api/check", json={}).status_code == 405
    view = run(client, "count", centre_hole())
    assert client.get(f"/api/jobs/{view['id']}", params={"since": "-1"}).status_code == 400
    assert client.get(f"/api/jobs/{view['id']}", params={"since": "x"}).status_code == 400
    assert client.get("/api/info").status_code == 200


def test_serve_command_help():
    import subprocess
    import sys
    p = subprocess.run([sys.executable, "-m", "polytile", "serve", "--help"], capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 0 and "--port" in p.stdout and "--host" in p.stdout and "--open" in p.stdout
    p = subprocess.run([sys.executable, "-m", "polytile", "serve", "--port", "99999"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "port" in p.stderr


def count_shikaku(rows: list[list[int]], cap: int = 2) -> int:
    """Solutions of a small Shikaku by plain backtracking (no polytile code), up to `cap`."""
    h, w = len(rows), len(rows[0])
    used = [[False] * w for _ in range(h)]

    def first_free():
        for r in range(h):
            for c in range(w):
                if not used[r][c]:
                    return r, c
        return None

    def go() -> int:
        cell = first_free()
        if cell is None:
            return 1
        r, c = cell
        total = 0
        for a in range(1, h - r + 1):
            for b in range(1, w - c + 1):
                if any(used[y][x] for y in range(r, r + a) for x in range(c, c + b)):
                    break
                clues = [rows[y][x] for y in range(r, r + a) for x in range(c, c + b) if rows[y][x]]
                if clues != [a * b]:
                    continue
                for y in range(r, r + a):
                    for x in range(c, c + b):
                        used[y][x] = True
                total += go()
                for y in range(r, r + a):
                    for x in range(c, c + b):
                        used[y][x] = False
                if total >= cap:
                    return total
        return total
    return go()


def test_generate_a_shikaku_with_one_solution(client):
    view = run(client, "generate", {"kind": "shikaku", "rows": [[0] * 6 for _ in range(5)]}, seed=3)
    g = view["result"]
    assert (g["width"], g["height"]) == (6, 5) and len(g["rows"]) == 5
    assert count_shikaku(g["rows"]) == 1                  # unique, by an independent search
    again = run(client, "solve", {"kind": "shikaku", "text": g["game_id"]})
    assert again["result"]["solutions"] == 1
    verify_rectangles(g["rows"], again["solutions"][0]["rectangles"])
    r = client.post("/api/jobs", json={"action": "generate", "puzzle": centre_hole()})
    assert r.status_code == 400 and "Shikaku" in r.json()["error"]


def test_a_job_over_its_time_limit_is_stopped():
    app = create_app(per_client=1, running=1, seconds=1.5, count_jobs=1)
    with TestClient(app) as c:
        r = c.post("/api/jobs", json={"action": "count", "puzzle": LONG_BOX})
        view = wait(c, r.json()["id"], timeout=60)
        assert view["state"] == "failed" and "time limit" in view["error"]
        pid = app.state.manager.get(view["id"]).process.pid
        deadline = time.time() + 5
        while _alive(pid):
            assert time.time() < deadline
            time.sleep(0.05)
        assert run(c, "count", centre_hole(), unique=True)["result"]["unique"] == \
            CASES["pentomino-8x8-centre-hole"]["unique"]
