"""Hand play through the API (POST /api/play): a position's completions, counted under a cap,
and "finish it from here". Expected values are counted by hand on tiny boards, or taken from
the corpus and its independent checker (every solution of the corpus puzzle, filtered by the
pieces placed)."""

from __future__ import annotations

import pytest
from checker import all_solutions, check, read_puzzle
from web_api_helpers import CASES, TILING, board_rows

DOMINOES_2X4 = {"kind": "tiling", "board": ["XXXX", "XXXX"], "pieces": [{"name": "2-1", "count": 4}]}
BARS_2X4 = {"kind": "tiling", "board": ["XXXX", "XXXX"], "pieces": [{"name": "4-1", "count": 2}]}
PENTOMINOES = [{"name": n, "count": 1} for n in "FILNPTUVWXYZ"]


def play(client, puzzle: dict, placed: list, finish: bool | None = None, status: int = 200) -> dict:
    body = {"puzzle": puzzle, "placed": placed}
    if finish is not None:
        body["finish"] = finish
    r = client.post("/api/play", json=body)
    assert r.status_code == status, r.text
    return r.json()


# ---- tiny boards, counted by hand ----------------------------------------------------------------


@pytest.mark.parametrize(
    "placed, ways",
    [
        ([], 5),  # dominoes in a 2 x 4 box: Fibonacci F(5)
        ([[[0, 0], [1, 0]]], 3),  # a 2 x 3 box left
        ([[[0, 0], [0, 1]]], 2),  # forces the one below; a 2 x 2 box left
        ([[[0, 1], [0, 2]]], 1),  # both ends stand, the middle lies below
        ([[[0, 0], [1, 0]], [[0, 1], [1, 1]], [[0, 2], [1, 2]]], 1),
    ],
)
def test_dominoes_counted_by_hand(client, placed, ways):
    v = play(client, DOMINOES_2X4, placed)
    assert (v["verdict"], v["completions"], v["capped"]) == ("open", ways, False)


def test_copies_are_interchangeable(client):
    """Two I-tetrominoes in a 2 x 4 box: one way, whichever copy lies first; a third is refused."""
    top, bottom = [[0, c] for c in range(4)], [[1, c] for c in range(4)]
    assert play(client, BARS_2X4, [])["completions"] == 1
    assert play(client, BARS_2X4, [bottom])["completions"] == 1
    assert play(client, BARS_2X4, [top, bottom])["verdict"] == "solved"
    bad = play(client, {**BARS_2X4, "board": ["XXXX"] * 3}, [top, bottom, [[2, c] for c in range(4)]], status=400)
    assert bad["error"] == (
        "placed: placed[2] (at row 3, column 1) is not a piece of the puzzle with a copy left, in the motions allowed"
    )


def test_dead_end_says_why(client):
    """Dominoes lying at (0,1)-(0,2) and (1,0)-(1,1) cut off the corner cell."""
    v = play(client, DOMINOES_2X4, [[[0, 1], [0, 2]], [[1, 0], [1, 1]]])
    assert (v["verdict"], v["completions"], v["capped"]) == ("dead end", 0, False)
    assert v["reason"].startswith("the empty region of 1 cell at row 1, column 1 cannot be filled")


# ---- the corpus ----------------------------------------------------------------------------------


def _corpus(case_id: str) -> tuple[dict, dict, list]:
    path = TILING / CASES[case_id]["file"]
    board, tiles, dim = read_puzzle(path)
    reflect = CASES[case_id]["allow_reflection"]
    pieces = [{"cells": dict(t), "count": 1, "min": 1, "reflect": reflect} for t in tiles]
    return {"kind": "tiling", "text": path.read_text(), "reflect": reflect}, board, pieces


def test_finish_and_positions_from_the_corpus(client):
    """Pentominoes in 3 x 20 (8 solutions): finished from the empty board (checked by the checker),
    then pieces of that solution placed; each count is the checker's number of ways to fill the
    cells left with the pieces left."""
    puzzle, board, _ = _corpus("pentomino-3x20")
    v = play(client, puzzle, [])
    assert (v["completions"], v["capped"]) == (CASES["pentomino-3x20"]["solutions"], False)
    found = play(client, puzzle, [], finish=True)["found"]
    check(
        TILING / CASES["pentomino-3x20"]["file"], [(p["piece"], p["cells"]) for p in found], reflect=True, partial=False
    )
    cells = sorted((p["cells"] for p in found), key=min)
    for k in (5, 7, 11):
        placed, left = cells[:k], cells[k:]
        covered = {tuple(c) for p in placed for c in p}
        rest = {c: "" for c in board if c not in covered}
        pieces = [{"cells": {tuple(c): "" for c in p}, "count": 1, "min": 1, "reflect": True} for p in left]
        ways = len(all_solutions(rest, pieces, 2))
        v = play(client, puzzle, placed)
        assert (v["verdict"], v["completions"], v["capped"]) == ("open", ways, False)
        if k == 11:
            assert ways == 1
    v = play(client, puzzle, cells[:11], finish=True)
    assert [p["cells"] for p in v["found"]] == cells[11:]


def test_rotate_only_refuses_a_flipped_piece(client):
    """Four L-tetrominoes, rotate only, 4 x 4 (3 solutions): a mirrored L is no piece of it."""
    puzzle, board, pieces = _corpus("rotate-only-4L4-4x4")
    assert play(client, puzzle, [])["completions"] == 3
    ell = [[0, 0], [0, 1], [0, 2], [1, 0]]
    assert play(client, puzzle, [ell])["verdict"] == "open"
    mirrored = [[0, 0], [0, 1], [0, 2], [1, 2]]
    assert play(client, puzzle, [mirrored], status=400)["error"].startswith(
        "placed: placed[0] (at row 1, column 1) is not a piece of the puzzle"
    )


def test_capped_count_says_at_least(client):
    """6 x 10 pentominoes (9,356 solutions): the empty board is more than the cap allows."""
    v = play(client, {"kind": "tiling", "board": ["X" * 10] * 6, "pieces": PENTOMINOES}, [])
    assert v["verdict"] == "open" and v["capped"] and 0 < v["completions"] < 9356
    assert v["seconds"] < 1.0


def test_finish_a_dead_end(client):
    """The X in a corner cuts the corner cell off (8 x 8 with the centre hole)."""
    puzzle = {"kind": "tiling", "board": board_rows(TILING / "pentomino-8x8-centre-hole.txt"), "pieces": PENTOMINOES}
    x = [[0, 1], [1, 0], [1, 1], [1, 2], [2, 1]]
    assert play(client, puzzle, [x], finish=True)["verdict"] == "dead end"
    v = play(client, DOMINOES_2X4, [[[0, 1], [0, 2]], [[1, 0], [1, 1]]], finish=True)
    assert v["verdict"] == "dead end" and v["found"] == []


# ---- bad input: one line each ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "body, status, message",
    [
        (
            {"puzzle": DOMINOES_2X4, "placed": 5},
            400,
            'play: "placed" must be a list of at most 20000 pieces (lists of cells)',
        ),
        ({"puzzle": DOMINOES_2X4, "placed": [[[0]]]}, 400, "play: placed[0] must be a list of cells [row, column]"),
        (
            {"puzzle": DOMINOES_2X4, "placed": [[[0, 0, 0], [0, 1, 0]]]},
            400,
            "play: placed[0] must be a list of cells [row, column]",
        ),
        (
            {"puzzle": DOMINOES_2X4, "placed": [[[0, 0], [0, True]]]},
            400,
            "play: placed[0] must be a list of cells [row, column]",
        ),
        (
            {"puzzle": DOMINOES_2X4, "placed": [[[1, 3], [1, 4]]]},
            400,
            "placed: placed[0]: the cell at row 2, column 5 is not a cell of the board",
        ),
        (
            {"puzzle": DOMINOES_2X4, "placed": [[[0, 0], [0, 1]], [[0, 1], [1, 1]]]},
            400,
            "placed: placed[1]: the cell at row 1, column 2 is covered twice (by placed[0] too)",
        ),
        (
            {"puzzle": DOMINOES_2X4, "placed": [[[0, 0], [1, 1]]]},
            400,
            "placed: placed[0] (at row 1, column 1) is not a piece of the puzzle with a copy left, in the motions allowed",
        ),
        ({"puzzle": DOMINOES_2X4, "placed": [], "finish": "yes"}, 400, '"finish" must be true or false'),
        (
            {"puzzle": {"kind": "shikaku", "rows": [[2, 0], [0, 2]]}, "placed": []},
            400,
            "hand play is for tiling puzzles, not Shikaku",
        ),
        (
            {"puzzle": {"kind": "tiling", "board": ["XX"], "pieces": ["Q"]}, "placed": []},
            400,
            'puzzle: unknown piece "Q" (a pentomino letter FILNPTUVWXYZ, a Katamino colour, or a library name such as 4-2)',
        ),
    ],
)
def test_bad_input(client, body, status, message):
    r = client.post("/api/play", json=body)
    assert (r.status_code, r.json()) == (status, {"error": message})


def test_the_guard_applies(client):
    r = client.post("/api/play", content=b'{"puzzle": {}}', headers={"content-type": "text/plain"})
    assert r.status_code == 415
    r = client.post("/api/play", json={"puzzle": DOMINOES_2X4}, headers={"origin": "http://evil.example"})
    assert r.status_code == 403
