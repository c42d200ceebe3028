"""What the web API tests share (their `client` fixture is in conftest.py): polling a job
to its end, and the corpus puzzles as the page sends them."""

from __future__ import annotations

import json
import time
import warnings
from pathlib import Path

with warnings.catch_warnings():  # Starlette 1.x would like httpx2; httpx works the same here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from checker import read_puzzle
from conftest import CORPUS, tiling_cases

from polytile.web.app import create_app

__all__ = [
    "TestClient",
    "create_app",
    "board_rows",
    "wait",
    "run",
    "placements",
    "centre_hole",
    "TILING",
    "SHIKAKU",
    "CASES",
    "SHIKAKU_CASES",
    "LONG_BOX",
    "BIG_ROWS",
    "STATIC",
]

TILING = CORPUS / "tiling"
SHIKAKU = CORPUS / "shikaku"
CASES = {c["id"]: c for c in tiling_cases()}
SHIKAKU_CASES = {c["id"]: c for c in json.loads((SHIKAKU / "manifest.json").read_text())}
LONG_BOX = {"kind": "box", "order": 5, "width": 10, "height": 8, "max_copies": 2}  # hours to count
BIG_ROWS = ["X" * 100] * 100
STATIC = Path(__file__).parent.parent / "src" / "polytile" / "web" / "static"


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
    return {
        "kind": "tiling",
        "board": board_rows(TILING / "pentomino-8x8-centre-hole.txt"),
        "pieces": [{"name": n, "count": 1} for n in "FILNPTUVWXYZ"],
    }
