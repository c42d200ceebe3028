"""The API behind fixes of the page's early defects: Shikaku solutions listed for browsing, pasted
text that is no drawing refused, and a page's job cancelled once the page stops asking for it."""

from __future__ import annotations

import time

from web_api_helpers import SHIKAKU, SHIKAKU_CASES, run, wait
from web_helpers import shikaku_rows, verify_rectangles


def test_shikaku_with_several_solutions_lists_them_all(client):
    for case_id in ("tiny-2x4-two", "tatham-10x10a", "domino-4x4"):
        case = SHIKAKU_CASES[case_id]
        rows = shikaku_rows((SHIKAKU / case["file"]).read_text())
        view = run(client, "solve", {"kind": "shikaku", "rows": rows})
        sols = [s["rectangles"] for s in view["solutions"]]
        assert int(view["result"]["solutions"]) == case["solutions"]
        assert len(sols) == case["solutions"], case_id  # every one, to browse
        assert len({str(sorted(s)) for s in sols}) == len(sols)  # all different
        for s in sols:
            verify_rectangles(rows, s)


def test_text_that_is_no_drawing_is_refused(client):
    for text in ("this is garbage", "Hello, world!\nNot a puzzle."):
        r = client.post("/api/check", json={"puzzle": {"kind": "tiling", "text": text}})
        assert r.status_code == 400, r.text
        assert "not a puzzle drawing" in r.json()["error"]
    drawing = "XXX\n\nX XX\n"  # a 1 x 3 board, a monomino and a domino
    r = client.post("/api/check", json={"puzzle": {"kind": "tiling", "text": drawing}})
    assert r.status_code == 200 and r.json()["area"] == 3


def test_a_job_whose_page_stops_polling_is_cancelled(client):
    long_box = {"kind": "box", "order": 5, "width": 10, "height": 8, "max_copies": 2}
    r = client.post("/api/jobs", json={"action": "count", "puzzle": long_box, "options": {"heartbeat": 1}})
    assert r.status_code == 202, r.text
    job = r.json()["id"]
    time.sleep(3.0)  # nobody polls for 3 s
    view = client.get(f"/api/jobs/{job}").json()
    assert view["state"] == "cancelled"
    for bad in (0, 1000, "5", True):
        r = client.post("/api/jobs", json={"action": "count", "puzzle": long_box, "options": {"heartbeat": bad}})
        assert r.status_code == 400 and "heartbeat" in r.json()["error"]


def test_a_polled_job_with_a_heartbeat_runs_on(client):
    case = SHIKAKU_CASES["tatham-7x7"]
    rows = shikaku_rows((SHIKAKU / case["file"]).read_text())
    r = client.post(
        "/api/jobs", json={"action": "solve", "puzzle": {"kind": "shikaku", "rows": rows}, "options": {"heartbeat": 5}}
    )
    assert wait(client, r.json()["id"])["state"] == "done"
