"""The Design tab's API (web/design_api.py): challenge cards of the page's puzzle, each card's
puzzle re-counted to exactly one completion by tests/checker.py's brute force (no polytile
code), its placed pieces and solution covering the board; the cards' JSON and printable sheet
named after the puzzle; a calendar piece set checked over every date, the classic set's
figures those of the published table (tests/calendar/, Andrew Nowell's solver) and their
spread computed from that table; every refusal one line with its status."""

from __future__ import annotations

from checker import all_solutions, card_completions
from test_web_formats import PUBLISHED
from web_api_helpers import wait

from polytile.analysis.spread import spread
from polytile.formats.calendar_board import CLASSIC, MONTHS, piece_rows

FIVE_BY_TWELVE = {
    "kind": "tiling",
    "board": ["X" * 12] * 5,
    "pieces": [{"name": x, "count": 1} for x in "FILNPTUVWXYZ"],
}
CLASSIC_SET = ["2x3", "L", "N", "P", "U", "V", "Y", "Z"]


brute_count = card_completions


def checker_count(pieces: list[str], month: int, day: int) -> int:
    """The classic board's date by the checker's brute force: every cell but the date's covered."""
    rows = [line.split() for line in CLASSIC.splitlines() if line and not line.startswith(("#", "pieces"))]
    shut = {MONTHS[month - 1], str(day)}
    board = {(r, c): "" for r, row in enumerate(rows) for c, label in enumerate(row) if label not in shut}
    tiles = [
        {
            "cells": {(r, c): "" for r, row in enumerate(piece_rows(p) or ()) for c, ch in enumerate(row) if ch == "X"},
            "count": 1,
            "min": 1,
            "reflect": True,
        }
        for p in pieces
    ]
    return len(all_solutions(board, tiles, 2))


def calendar(pieces: list[str] | None = None, board: str = "classic") -> dict:
    spec = {"kind": "calendar", "board": board, "date": "2026-11-25"}
    if pieces is not None:
        spec["pieces"] = pieces
    return spec


def started(client, path: str, puzzle: dict, **options) -> dict:
    r = client.post(path, json={"puzzle": puzzle, "options": options})
    assert r.status_code == 202, r.text
    view = wait(client, r.json()["id"], timeout=120)
    assert view["state"] == "done", view["error"]
    return view


def refused(client, path: str, puzzle: dict, status: int = 400, **options) -> str:
    r = client.post(path, json={"puzzle": puzzle, "options": options})
    assert r.status_code == status, r.text
    message = r.json()["error"]
    assert "\n" not in message
    return message


def test_cards_of_the_five_by_twelve_board_each_with_one_completion(client):
    view = started(client, "/api/design/cards", FIVE_BY_TWELVE, cards=8, levels=4, seed=1)
    r = view["result"]
    assert r["complete"] is True and len(r["cards"]) == 8
    assert r["levels"] == {"1": 2, "2": 2, "3": 2, "4": 2}
    assert [c["level"] for c in r["cards"]] == [1, 1, 2, 2, 3, 3, 4, 4]
    board = {(row, col) for row in range(5) for col in range(12)}
    for card in r["cards"]:
        assert brute_count(card["puzzle"]) == 1
        cells = [tuple(c) for p in card["placed"] + card["solution"] for c in p["cells"]]
        assert len(cells) == 60 and set(cells) == board
        assert {tuple(c) for c in card["puzzle"]["board"]} == {tuple(c) for p in card["solution"] for c in p["cells"]}
        assert all(p["piece"] in r["colours"] for p in card["placed"] + card["solution"])
    assert view["progress"]["done"] == 8 and view["progress"]["wanted"] == 8


def test_the_cards_download_named_after_the_puzzle(client):
    view = started(client, "/api/design/cards", FIVE_BY_TWELVE, cards=4, levels=2)
    job = view["id"]
    got = client.get(f"/api/jobs/{job}/cards.json")
    assert got.status_code == 200
    assert got.headers["content-disposition"] == 'attachment; filename="tiling-5x12-cards.json"'
    assert got.json() == {"complete": True, "cards": view["result"]["cards"]}
    pages = view["result"]["pages"]
    assert pages == 2  # 4 cards fit one A4 page: the cards, then their solutions
    svg = client.get(f"/api/jobs/{job}/cards/1.svg")
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert svg.headers["content-disposition"] == 'attachment; filename="tiling-5x12-cards-1.svg"'
    assert svg.text.count('<g class="card">') == 4 and "Level 1" in svg.text
    assert "Solution 1" in client.get(f"/api/jobs/{job}/cards/2.svg?paper=letter").text
    assert client.get(f"/api/jobs/{job}/cards/3.svg").status_code == 404
    assert client.get(f"/api/jobs/{job}/cards/1.svg?paper=a3").status_code == 400
    solve = client.post("/api/jobs", json={"action": "count", "puzzle": FIVE_BY_TWELVE})
    assert client.get(f"/api/jobs/{solve.json()['id']}/cards.json").status_code == 404


def test_cards_refusals(client):
    path = "/api/design/cards"
    assert "options.cards must be an integer 1..40" in refused(client, path, FIVE_BY_TWELVE, cards=41)
    assert "options.levels must be an integer 1..4" in refused(client, path, FIVE_BY_TWELVE, levels=0)
    assert "options.cards" in refused(client, path, FIVE_BY_TWELVE, cards=True)
    short = dict(FIVE_BY_TWELVE, board=["X" * 12] * 4)
    assert "cover the board exactly (the board has 48 cells, the pieces 60" in refused(client, path, short)
    assert "not of a calendar puzzle" in refused(client, path, calendar())
    shikaku = {"kind": "shikaku", "rows": [[2, 0], [0, 2]]}
    assert "not of a shikaku puzzle" in refused(client, path, shikaku)


def test_the_classic_set_checked_over_every_date_is_the_published_table(client):
    view = started(client, "/api/design/calendar", calendar(CLASSIC_SET))
    r = view["result"]
    assert r["every_date_solvable"] is True and r["unsolvable"] == []
    assert r["number_of_dates"] == len(PUBLISHED) == 366
    assert {(m, d): n for m, d, _, n in r["dates"]} == PUBLISHED
    published = [PUBLISHED[key] for key in sorted(PUBLISHED)]
    assert r["spread"] == spread(published).as_dict()
    assert (r["spread"]["min"], r["spread"]["max"], r["spread"]["unsolvable"]) == (7, 216, 0)
    assert r["spread"]["mean"] == round(sum(published) / 366, 3) == 66.68
    assert r["pieces"] == CLASSIC_SET
    same = started(client, "/api/design/calendar", calendar())  # no "pieces": the board's own
    assert same["result"]["spread"] == r["spread"]


def test_another_set_its_dates_by_the_brute_force(client):
    """The classic board with the T in place of the Y: the dates listed as unsolvable are those
    counted 0, and an unsolvable date, the fewest and the most are the checker's counts."""
    pieces = ["2x3", "L", "N", "P", "U", "V", "T", "Z"]
    r = started(client, "/api/design/calendar", calendar(pieces))["result"]
    zero = [(m, d) for m, d, _, n in r["dates"] if n == 0]
    assert r["unsolvable"] == [f"{MONTHS[m - 1]} {d}" for m, d in zero]
    assert r["spread"]["unsolvable"] == len(zero) > 0 and r["every_date_solvable"] is False
    assert checker_count(pieces, *zero[0]) == 0
    counts = {(m, d): n for m, d, _, n in r["dates"]}
    for value in (min(v for v in counts.values() if v), r["spread"]["max"]):
        date = next(k for k, v in counts.items() if v == value)
        assert checker_count(pieces, *date) == value


def test_calendar_check_refusals(client):
    path = "/api/design/calendar"
    wrong = refused(client, path, calendar(["2x3", "L", "N", "P", "U", "V", "Y"]))
    assert wrong == "pieces: the pieces cover 36 cells, the board leaves 41 to cover (43 cells, 2 left open)"
    assert "unknown piece 'Q'" in refused(client, path, calendar(["Q", "L"]))
    assert "named twice" in refused(client, path, calendar(["L", "l", "N"]))
    assert '"pieces" must be a list' in refused(client, path, calendar([]))
    assert '"pieces" must be a list' in refused(client, path, calendar(["L"] * 21))
    assert "needs a calendar puzzle" in refused(client, path, FIVE_BY_TWELVE)
    weekday = refused(client, path, calendar(CLASSIC_SET, "weekday"))
    assert weekday == "pieces: the pieces cover 41 cells, the board leaves 47 to cover (50 cells, 3 left open)"


def test_a_cards_job_is_cancelled_like_any_job(client):
    """Forty cards of the 8x8 board with its centre hole (seconds of work): cancelled as it
    starts, its state says so, and it has no cards to download."""
    board = ["XXXXXXXX"] * 3 + ["XXX..XXX"] * 2 + ["XXXXXXXX"] * 3
    puzzle = dict(FIVE_BY_TWELVE, board=board)
    r = client.post("/api/design/cards", json={"puzzle": puzzle, "options": {"cards": 40}})
    assert r.status_code == 202, r.text
    job = r.json()["id"]
    cancelled = client.post(f"/api/jobs/{job}/cancel").json()
    assert cancelled["state"] == "cancelled" and cancelled["result"] is None
    assert wait(client, job)["state"] == "cancelled"
    assert client.get(f"/api/jobs/{job}/cards.json").status_code == 404
