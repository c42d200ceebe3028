"""The web API (`polytile serve`) through Starlette's TestClient: cancel, limits, bad input
answered with a 4xx and a one-line JSON error, and a server that keeps answering."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from web_api_helpers import BIG_ROWS, CASES, LONG_BOX, TestClient, centre_hole, create_app, run, wait
from web_helpers import verify_rectangles


# ---- cancel and limits ----------------------------------------------------------------------------


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is dead too
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
    assert client.post(f"/api/jobs/{jid}/cancel").status_code == 200  # twice is harmless
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
    r = client.post(
        "/api/jobs", json={"action": "hint", "puzzle": centre_hole(), "options": {"placed": [[[0, 0], [0, 1]], "x"]}}
    )
    view = wait(client, r.json()["id"])
    assert view["state"] == "failed" and "placed" in view["error"]
    r = client.post(
        "/api/jobs", json={"action": "hint", "puzzle": centre_hole(), "options": {"placed": [[[0, 0], [0, 1]]]}}
    )
    view = wait(client, r.json()["id"])
    assert view["state"] == "failed" and "no (remaining) piece" in view["error"]


BAD = [
    ("garbage", b"{this is not json", 400, "malformed JSON"),
    ("not an object", b"[1, 2, 3]", 400, "JSON object"),
    ("empty", b"", 400, "empty"),
    ("binary", b"\xff\xfe\x00garbage", 400, "UTF-8"),
    ("deep", b"[" * 100000 + b"]" * 100000, 400, "JSON"),
    ("no puzzle", {"action": "solve"}, 400, "puzzle"),
    ("unknown kind", {"action": "solve", "puzzle": {"kind": "sudoku"}}, 400, "unknown puzzle kind"),
    ("unknown action", {"action": "rm -rf", "puzzle": {"kind": "tiling"}}, 400, "unknown action"),
    (
        "huge board",
        {"action": "count", "puzzle": {"kind": "tiling", "board": BIG_ROWS, "pieces": ["F"]}},
        400,
        "too large",
    ),
    (
        "board over the cell limit",
        {"action": "count", "puzzle": {"kind": "tiling", "board": ["X" * 30] * 30, "pieces": ["F"]}},
        400,
        "limit 400",
    ),
    (
        "unknown piece",
        {"action": "solve", "puzzle": {"kind": "tiling", "board": ["XXXXX"], "pieces": ["Q"]}},
        400,
        "unknown piece",
    ),
    (
        "count not a number",
        {
            "action": "solve",
            "puzzle": {"kind": "tiling", "board": ["XXXXX"], "pieces": [{"name": "I", "count": "two"}]},
        },
        400,
        "count",
    ),
    (
        "too many pieces",
        {
            "action": "solve",
            "puzzle": {"kind": "tiling", "board": ["XXXXX"], "pieces": [{"name": "I", "count": 10000}]},
        },
        400,
        "count",
    ),
    (
        "board rows not strings",
        {"action": "solve", "puzzle": {"kind": "tiling", "board": [[1, 1]], "pieces": ["I"]}},
        400,
        "board",
    ),
    (
        "bad board character",
        {"action": "solve", "puzzle": {"kind": "tiling", "board": ["XX<script>"], "pieces": ["I"]}},
        400,
        "unexpected character",
    ),
    (
        "pasted file too large",
        {"action": "solve", "puzzle": {"kind": "tiling", "text": ("X" * 1000 + "\n") * 300}},
        400,
        "too long",
    ),
    (
        "pasted drawing too large",
        {"action": "solve", "puzzle": {"kind": "tiling", "text": ("X" * 150 + "\n") * 150 + "\nX\n"}},
        400,
        "too large",
    ),
    (
        "pasted control character",
        {"action": "solve", "puzzle": {"kind": "tiling", "text": "XX\x07\n\nX"}},
        400,
        "control character",
    ),
    (
        "pasted bad JSON",
        {"action": "solve", "puzzle": {"kind": "tiling", "text": '{"board": [1'}},
        400,
        "malformed JSON",
    ),
    (
        "katamino unknown colour",
        {"action": "solve", "puzzle": {"kind": "katamino", "pieces": ["red", "mauve"]}},
        400,
        "unknown piece",
    ),
    (
        "katamino height type",
        {"action": "solve", "puzzle": {"kind": "katamino", "pieces": ["L", "Y"], "height": "5"}},
        400,
        "height",
    ),
    (
        "katamino no fit",
        {"action": "solve", "puzzle": {"kind": "katamino", "pieces": ["L", "Y"], "height": 3}},
        400,
        "height",
    ),
    (
        "box too large",
        {"action": "count", "puzzle": {"kind": "box", "order": 4, "width": 60, "height": 60, "max_copies": 2}},
        400,
        "too large",
    ),
    (
        "box order",
        {"action": "count", "puzzle": {"kind": "box", "order": 12, "width": 6, "height": 6, "max_copies": 2}},
        400,
        "order",
    ),
    (
        "box bool",
        {"action": "count", "puzzle": {"kind": "box", "order": True, "width": 6, "height": 6, "max_copies": 2}},
        400,
        "order",
    ),
    (
        "shikaku huge",
        {"action": "solve", "puzzle": {"kind": "shikaku", "text": "300 300\n" + ("0 " * 300 + "\n") * 300}},
        400,
        "too",
    ),
    (
        "shikaku rows ragged",
        {"action": "solve", "puzzle": {"kind": "shikaku", "rows": [[1, 0], [0]]}},
        400,
        "same length",
    ),
    (
        "shikaku negative",
        {"action": "solve", "puzzle": {"kind": "shikaku", "rows": [[-1, 0], [0, 0]]}},
        400,
        "not a number",
    ),
    (
        "shikaku bad url",
        {"action": "solve", "puzzle": {"kind": "shikaku", "text": "https://puzz.link/p?shikaku/x/y/z"}},
        400,
        "",
    ),
    ("shikaku hint", {"action": "hint", "puzzle": {"kind": "shikaku", "rows": [[2, 0]]}}, 400, "tiling"),
    (
        "slam not katamino",
        {"action": "slam", "puzzle": {"kind": "box", "order": 2, "width": 2, "height": 2, "max_copies": 2}},
        400,
        "Katamino",
    ),
    (
        "limit zero",
        {
            "action": "solve",
            "puzzle": {"kind": "box", "order": 2, "width": 2, "height": 2, "max_copies": 2},
            "options": {"limit": 0},
        },
        400,
        "limit",
    ),
    (
        "unique not bool",
        {
            "action": "count",
            "puzzle": {"kind": "box", "order": 2, "width": 2, "height": 2, "max_copies": 2},
            "options": {"unique": "yes"},
        },
        400,
        "unique",
    ),
    (
        "options not an object",
        {
            "action": "count",
            "puzzle": {"kind": "box", "order": 2, "width": 2, "height": 2, "max_copies": 2},
            "options": [1],
        },
        400,
        "options",
    ),
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
    from cli_helpers import call_cli

    p = call_cli("serve", "--help")
    assert p.returncode == 0 and "--port" in p.stdout and "--host" in p.stdout and "--open" in p.stdout
    p = call_cli("serve", "--port", "99999")
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
    assert count_shikaku(g["rows"]) == 1  # unique, by an independent search
    again = run(client, "solve", {"kind": "shikaku", "text": g["game_id"]})
    assert again["result"]["solutions"] == 1
    verify_rectangles(g["rows"], again["solutions"][0]["rectangles"])
    r = client.post("/api/jobs", json={"action": "generate", "puzzle": centre_hole()})
    assert r.status_code == 400 and "Shikaku" in r.json()["error"]


def test_a_job_over_its_time_limit_is_stopped():
    app = create_app(per_client=1, max_active=1, seconds=1.5, count_jobs=1)
    with TestClient(app, base_url="http://127.0.0.1") as c:
        r = c.post("/api/jobs", json={"action": "count", "puzzle": LONG_BOX})
        view = wait(c, r.json()["id"], timeout=60)
        assert view["state"] == "failed" and "time limit" in view["error"]
        pid = app.state.manager.get(view["id"]).process.pid
        deadline = time.time() + 5
        while _alive(pid):
            assert time.time() < deadline
            time.sleep(0.05)
        assert (
            run(c, "count", centre_hole(), unique=True)["result"]["unique"]
            == CASES["pentomino-8x8-centre-hole"]["unique"]
        )
