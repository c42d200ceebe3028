"""The page's "Take apart" (action "disassemble"): the shown solution's plan from a job under the
page's limits. Expected values come from burrTxt's recorded runs (tests/xmpuzzle/burrtxt-
disassembly.txt: the level string; burrtxt-plans/: the states it draws, whose count gives the
moves), never from polytile; the solution to take apart is polytile's, checked by burr_checker."""

from __future__ import annotations

import gzip
import re

from test_web_formats import XM, burr_spec
from web_api_helpers import run

import burr_checker
import disassembly_checker


def burrtxt_level(stem: str) -> str:
    """The level burrTxt -d -q -o all printed for the file's first problem."""
    text = (XM / "burrtxt-disassembly.txt").read_text()
    block = text.split(f"-o all {stem}.xmpuzzle", 1)[1]
    found = re.search(r"^level: (\S+)", block, re.M)
    assert found is not None
    return found.group(1)


def burrtxt_moves(stem: str) -> int:
    """Moves in burrTxt -d -p's plan: each separation draws its states (moves + 1 pictures),
    separations are parted by "puzzle separates" lines."""
    lines = gzip.decompress((XM / "burrtxt-plans" / f"{stem}.txt.gz").read_bytes()).decode().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("level:"))
    pictures = [0]
    for line in lines[start + 1 :]:
        if line.startswith(" puzzle separates"):
            pictures.append(0)
        elif line.startswith(" +"):
            pictures[-1] += 1  # two frame lines per picture
    return sum(n // 2 - 1 for n in pictures if n)


def take_apart(client, spec: dict, solution: list) -> dict:
    placed = [{"piece": p["piece"], "cells": p["cells"]} for p in solution]
    return run(client, "disassemble", spec, placed=placed)


def test_pelikan_burr_comes_apart_as_burrtxt_says(client):
    """The plan, turned onto the solution shown, replays on the shown pieces (the independent
    checker), with burrTxt's level and number of moves; assemblies that do not come apart say so
    (burrTxt: 1 of PelikanBurr's 12 assemblies comes apart)."""
    path = XM / "PelikanBurr.xmpuzzle"
    spec = burr_spec(path)
    solved = run(client, "solve", spec, limit=40)
    level, moves = burrtxt_level("PelikanBurr"), burrtxt_moves("PelikanBurr")
    assert (level, moves) == ("98.2.4.2", 108)  # the record as read here
    seen = set()
    for solution in solved["solutions"]:
        burr_checker.check(path, [(p["piece"], p["cells"]) for p in solution])
        answer = take_apart(client, spec, solution)["result"]
        seen.add(answer["apart"])
        if not answer["apart"]:
            assert "level" not in answer and "moves" not in answer
            continue
        assert answer["level"] == level
        assert len(answer["moves"]) == moves
        shown = {str(i): p["cells"] for i, p in enumerate(solution)}
        plan = [dict(m, pieces=[str(i) for i in m["pieces"]]) for m in answer["moves"]]
        disassembly_checker.check(shown, plan, level)
    assert seen == {True, False}


def test_a_flat_puzzle_is_refused_in_one_line(client):
    puzzle = {"kind": "tiling", "grid": "square", "board": ["XXXXX", "XXXXX"], "pieces": ["I", "I"]}
    r = client.post("/api/jobs", json={"action": "disassemble", "puzzle": puzzle, "options": {"placed": []}})
    assert r.status_code == 400
    message = r.json()["error"]
    assert "\n" not in message and "cube grid" in message and "square" in message


def test_bad_placements_are_refused_in_one_line(client):
    spec = burr_spec(XM / "PelikanBurr.xmpuzzle")
    for placed in ([], [{"piece": "S3"}], [{"piece": "nope", "cells": [[0, 0, 0]]}]):
        r = client.post("/api/jobs", json={"action": "disassemble", "puzzle": spec, "options": {"placed": placed}})
        assert r.status_code == 202
        from web_api_helpers import wait

        view = wait(client, r.json()["id"])
        assert view["state"] == "failed" and "\n" not in view["error"] and "placed" in view["error"], view


def test_a_3d_grid_without_unit_steps_fails_in_one_line(client):
    """BallRoom.xmpuzzle (BurrTools' spheres): the job says in one line that it takes the cube
    and prism grids."""
    from web_api_helpers import wait

    spec = burr_spec(XM / "BallRoom.xmpuzzle")
    placed = [{"piece": "x", "cells": [[0, 0, 0]]}]
    r = client.post("/api/jobs", json={"action": "disassemble", "puzzle": spec, "options": {"placed": placed}})
    assert r.status_code == 202, r.text
    view = wait(client, r.json()["id"])
    assert view["state"] == "failed" and "\n" not in view["error"] and "cube and prism grids" in view["error"], view


def test_a_disassembly_is_cancelled_like_any_job(client):
    path = XM / "PelikanBurr.xmpuzzle"
    spec = burr_spec(path)
    solution = run(client, "solve", spec, limit=1)["solutions"][0]
    placed = [{"piece": p["piece"], "cells": p["cells"]} for p in solution]
    r = client.post("/api/jobs", json={"action": "disassemble", "puzzle": spec, "options": {"placed": placed}})
    assert r.status_code == 202
    job = r.json()["id"]
    view = client.post(f"/api/jobs/{job}/cancel").json()
    assert view["state"] in ("cancelled", "done")  # (done: it finished before the cancel came)
    assert client.get(f"/api/jobs/{job}").json()["state"] == view["state"]
