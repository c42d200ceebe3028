"""Triangle and hex grids on the page: the API takes a drawn board's "grid" and
library pieces of that grid; the page (Debian's chromium, headless, Selenium) chooses the grid,
loads a published board, counts it and draws solutions on that grid. Expected counts are
Polyform Puzzler's published ones (tests/lattice-corpus/manifest.json); drawn solutions are
verified by the independent checker."""

from __future__ import annotations

import json
import os

import pytest
from checker import check
from grids_extra import Rectangles
from paths import DOCS, TESTS
from web_api_helpers import run, wait
from web_browser import click, css, ready, until

from polytile.web import grid_facts

LATTICE = TESTS / "lattice-corpus"
PUBLISHED = {c["id"]: c for c in json.loads((LATTICE / "manifest.json").read_text())}
HEXIAMONDS = [
    "bar",
    "sphinx",
    "crook",
    "crown",
    "lobster",
    "signpost",
    "snake",
    "butterfly",
    "chevron",
    "hook",
    "yacht",
    "hexagon",
]
TETRAHEXES = ["bar", "worm", "pistol", "propeller", "arch", "bee", "wave"]
# The corpus boards in the drawing convention of lattice_draw (hex: hexes two columns apart).
TETRAHEX_4X7 = ["X.X.X.X.X.X.X", ".X.X.X.X.X.X.X", "..X.X.X.X.X.X.X", "...X.X.X.X.X.X.X"]
HEXIAMOND_6X6 = [
    "......XXXXXXXXXXXX",
    ".....XXXXXXXXXXXX",
    "....XXXXXXXXXXXX",
    "...XXXXXXXXXXXX",
    "..XXXXXXXXXXXX",
    ".XXXXXXXXXXXX",
]


def drawn(grid: str, board: list[str], names: list[str]) -> dict:
    return {"kind": "tiling", "grid": grid, "board": board, "pieces": [{"name": n} for n in names]}


# ---- the API ---------------------------------------------------------------------------------


def test_info_offers_each_grids_library(client):
    """Free n-iamonds n = 1..7 and n-hexes n = 1..5: the published counts 1, 1, 1, 3, 4, 12, 24
    and 1, 1, 3, 7, 22; the named ones by name."""
    lib = client.get("/api/info").json()["lattice_library"]
    for grid, counts in (("triangle", [1, 1, 1, 3, 4, 12, 24]), ("hex", [1, 1, 3, 7, 22])):
        assert [sum(p["order"] == n for p in lib[grid]) for n in range(1, len(counts) + 1)] == counts
        assert all(len(p["cells"]) == len(p["points"]) == p["order"] for p in lib[grid])
    assert sorted(p["name"] for p in lib["triangle"] if p["order"] == 6) == sorted(HEXIAMONDS)
    assert sorted(p["name"] for p in lib["hex"] if p["order"] == 4) == sorted(TETRAHEXES)


def test_check_a_drawn_hex_board(client):
    s = client.post("/api/check", json={"puzzle": drawn("hex", TETRAHEX_4X7, TETRAHEXES)}).json()
    assert s["grid"] == "hex" and s["area"] == 28 == s["tiles_area"]
    assert len(s["points"]) == len(s["cells"]) == 28
    assert all((r + c) % 2 == 0 for r, c in s["points"])  # hexes two columns apart


@pytest.mark.parametrize(
    "puzzle, words",
    [
        (drawn("hexagonal", TETRAHEX_4X7, TETRAHEXES), "unknown grid"),
        (drawn("hex", TETRAHEX_4X7, ["sphinx"]), 'unknown piece "sphinx"'),
        (drawn("triangle", HEXIAMOND_6X6, ["F"]), 'unknown piece "F"'),
        (drawn("hex", ["XX"], ["bee"]), "row 1, column 2"),
        (dict(drawn("hex", TETRAHEX_4X7, TETRAHEXES), grid=6), '"grid" must be a string'),
    ],
)
def test_bad_grid_puzzles_refused(client, puzzle, words):
    r = client.post("/api/check", json={"puzzle": puzzle})
    assert r.status_code == 400 and words in r.json()["error"]


def test_published_counts_through_the_api(client):
    tetra = run(client, "count", drawn("hex", TETRAHEX_4X7, TETRAHEXES), unique=True)
    assert tetra["result"]["unique"] == PUBLISHED["tetrahexes-4x7"]["unique"]
    hexi = run(client, "solve", drawn("triangle", HEXIAMOND_6X6, HEXIAMONDS), limit=1)
    sol = [(p["piece"], p["cells"]) for p in hexi["solutions"][0]]
    check(LATTICE / "hexiamonds-6x6.json", sol, reflect=True, partial=False)
    svg = client.get(f"/api/jobs/{hexi['id']}/solutions/0.svg").content.decode()
    assert svg.count('id="piece-0-') == 12


def test_hint_on_the_hex_grid_is_refused_in_one_line(client):
    """Hints are for the square grid (the hint module's own limit): the job fails with that
    message rather than a wrong hint."""
    r = client.post("/api/jobs", json={"action": "hint", "puzzle": drawn("hex", TETRAHEX_4X7, TETRAHEXES)})
    assert r.status_code == 202
    view = wait(client, r.json()["id"])
    assert view["state"] == "failed" and "square grid only" in view["error"]
    assert "\n" not in view["error"]


# ---- the page --------------------------------------------------------------------------------


def choose(d, selector, value):
    d.execute_script(
        "const s = document.querySelector(arguments[0]); s.value = arguments[1];s.dispatchEvent(new Event('change'));",
        selector,
        value,
    )


def drawn_solution(d) -> list[tuple[str, list]]:
    groups = d.find_elements("css selector", "#solution-svg g.piece")
    return [(g.get_attribute("data-piece"), json.loads(g.get_attribute("data-cells"))) for g in groups]


def test_page_hex_and_triangle_boards(page):
    d = page
    # the hex grid: an editor of hexagons, the tetrahexes offered by name
    choose(d, "#tiling-grid-kind", "hex")
    until(d, lambda d: d.find_elements("css selector", "#lattice-editor[data-grid='hex'] polygon.lattice-cell"))
    cards = d.find_elements("css selector", "#tiling-pieces input[data-piece]")
    assert sorted(c.get_attribute("data-piece") for c in cards) == sorted(TETRAHEXES)
    # the published 4 x 7 board, counted on the page: Polyform Puzzler's 9 solutions
    choose(d, "#lattice-preset", "tetrahexes-4x7")
    until(d, lambda d: len(d.find_elements("css selector", "#lattice-editor polygon.lattice-cell.on")) == 28)
    click(d, "#unique")
    click(d, "#count")
    until(d, lambda d: d.find_elements("css selector", "#count-unique"), message="count did not finish")
    assert css(d, "#count-unique").text == str(PUBLISHED["tetrahexes-4x7"]["unique"])
    click(d, "#unique")
    # a hole clicked into the board: 27 cells, no longer 28
    click(d, "#lattice-editor polygon.lattice-cell.on")
    until(d, lambda d: "board 27 cells" in css(d, "#tiling-area").text)

    # the triangle grid: the 6 x 6 rhombus of the 12 hexiamonds, solved and drawn in triangles
    choose(d, "#tiling-grid-kind", "triangle")
    choose(d, "#lattice-preset", "hexiamonds-6x6")
    until(d, lambda d: len(d.find_elements("css selector", "#lattice-editor polygon.lattice-cell.on")) == 72)
    assert "12 pieces, 72 cells · board 72 cells ✓" in css(d, "#tiling-area").text
    click(d, "#solve")
    until(d, lambda d: len(drawn_solution(d)) == 12, message="no solution drawn")
    check(LATTICE / "hexiamonds-6x6.json", drawn_solution(d), reflect=True, partial=False)
    assert css(d, "#solution-svg").get_attribute("data-grid") == "triangle"
    assert len(d.find_elements("css selector", "#solution-svg polygon")) == 72
    if os.environ.get("POLYTILE_SCREENSHOTS"):
        d.save_screenshot(str(DOCS / "web-hexiamonds.png"))
    # a share link keeps the grid, the board and the pieces
    click(d, "#share")
    until(d, lambda d: "#p=" in d.current_url)
    d.refresh()
    until(d, lambda d: css(d, "body").get_attribute("data-ready") == "1", 60)
    assert css(d, "#tiling-grid-kind").get_attribute("value") == "triangle"
    assert len(d.find_elements("css selector", "#lattice-editor polygon.lattice-cell.on")) == 72
    until(d, lambda d: "12 pieces, 72 cells · board 72 cells ✓" in css(d, "#tiling-area").text)
    # back to the square grid: pentominoes again
    choose(d, "#tiling-grid-kind", "square")
    until(d, lambda d: len(d.find_elements("css selector", "#tiling-grid .cell.on")) == 64)
    assert not [e for e in d.get_log("browser") if e["level"] == "SEVERE" and e.get("source") != "network"]


def test_a_grid_the_server_sends_is_offered_and_drawn(page):
    """A grid no script knows (the tests' 2 x 1 rectangles, its facts as web/grid_facts.py makes
    them, added to /api/info's answer in the browser): the editor's chooser offers it and draws
    its board as 2 x 1 boxes, 6 rows of 6 (`Grid.editor_board`'s default), each cell a button."""
    d = page
    extra = json.dumps(grid_facts.facts(Rectangles()))
    added = d.execute_cdp_cmd(
        "Page.addScriptToEvaluateOnNewDocument",
        {
            "source": f"""
        const realFetch = window.fetch;
        window.fetch = async (url, opts) => {{
          const answer = await realFetch(url, opts);
          if (!String(url).endsWith('/api/info')) return answer;
          const info = await answer.json();
          info.grids.push({extra});
          return new Response(JSON.stringify(info), {{ status: 200, headers: {{ 'Content-Type': 'application/json' }} }});
        }};"""
        },
    )
    try:
        d.get("about:blank")
        d.get(d.base_url + "/")
        ready(d)
        options = [o.get_attribute("value") for o in d.find_elements("css selector", "#tiling-grid-kind option")]
        assert options == ["square", "triangle", "hex", "rectangle"]
        choose(d, "#tiling-grid-kind", "rectangle")
        until(d, lambda d: len(d.find_elements("css selector", "#lattice-editor[data-grid='rectangle'] polygon")) == 36)
        boxes = d.execute_script(
            "return [...document.querySelectorAll('#lattice-editor polygon')].map((p) => { const b = p.getBBox(); return b.width / b.height; });"
        )
        assert all(abs(r - 2) < 0.01 for r in boxes), boxes[:4]
        assert all(
            c.get_attribute("role") == "button" for c in d.find_elements("css selector", "#lattice-editor polygon")
        )
    finally:
        d.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": added["identifier"]})
        d.get(d.base_url + "/")
        ready(d)
