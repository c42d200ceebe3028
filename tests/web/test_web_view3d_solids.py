"""The page's 3D view of BurrTools' other grids in a real browser (chromium, WebGL in
software): a rhombic, a tetra-octa and a sphere board read from polytile JSON files, drawn on
the canvas from the cells' own solids (or balls), one mesh per piece shown, layers counted in
the grid's blocks, the controls as for cubes; without WebGL, a note in one line."""

from __future__ import annotations

import json
from itertools import product

from test_web_view3d import painted, report, slide

from polytile.core.grids import grid
from web_browser import click, css, ready, until
from web_helpers import chrome


def write_puzzle(tmp_path, name: str, lo: int, hi: int):
    g = grid(name, 3)
    cells = [c for c in product(range(lo, hi), repeat=3) if g.holds(c)]
    half = len(cells) // 2
    doc = {
        "grid": name,
        "board": cells,
        "pieces": [{"name": "A", "cells": cells[:half]}, {"name": "B", "cells": cells[half:]}],
    }
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(doc))
    return path, len(cells)


def shown_empty(d):
    r = report(d)
    return r if r and r["empty"] else None


def solved(pieces: int):
    def check(d):
        r = report(d)
        return r if r and r["pieces"] == pieces and not r["empty"] else None

    return check


def load(d, url, path):
    d.get(url + "/")
    ready(d)
    click(d, "#tiling-text-tab")
    css(d, "#tiling-file").send_keys(str(path.resolve()))


def test_solid_grids_in_3d(page_url, tmp_path):
    d = chrome(1200, 900)
    try:
        for name, lo, hi, layers in (("rhombic", 0, 10, 2), ("tetra-octa", 0, 6, 2), ("sphere", 0, 3, 3)):
            path, _ = write_puzzle(tmp_path, name, lo, hi)
            load(d, page_url, path)
            r = until(d, shown_empty, 30, f"no 3D view of {name}")
            assert css(d, "body").get_attribute("data-webgl") == "1"
            assert not css(d, "#board-svg").is_displayed()  # the note stays, hidden
            assert r["layers"] == layers and r["pieces"] == 0
            assert not css(d, "#picture .view3d-flat").is_displayed()  # no flat layers: the SVG is a note
            assert painted(d) > 2000, f"the {name} canvas is blank"
            slide(d, "#picture .view3d-layers", 1)
            assert report(d)["layers"] == 1
            assert "1–1 of" in css(d, "#picture .view3d-layer-text").text
            # the controls are labelled, reachable by the keyboard like the cube view's
            for sel in (".view3d-explode", ".view3d-layers"):
                assert css(d, f"#picture {sel}").get_attribute("aria-label")
            if name == "rhombic":  # hand play is not offered on boards of solids: one sentence says so
                click(d, "#play-tab")
                until(d, lambda d: "not the rhombic grid" in css(d, "#play-status").text, 10)
                click(d, '#views [data-view="solutions"]')
            assert not [e for e in d.get_log("browser") if e["level"] == "SEVERE"]
    finally:
        d.quit()


def test_without_webgl_a_note(page_url, tmp_path):
    d = chrome(1000, 800)
    try:
        d.execute_cdp_cmd(
            "Page.addScriptToEvaluateOnNewDocument",
            {
                "source": "const get = HTMLCanvasElement.prototype.getContext;"
                "HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {"
                "  return /webgl/.test(kind) ? null : get.call(this, kind, ...rest); };"
            },
        )
        path, _ = write_puzzle(tmp_path, "rhombic", 0, 5)
        load(d, page_url, path)
        until(d, lambda d: css(d, "body").get_attribute("data-webgl") == "0", 20, "WebGL was not found missing")
        assert "drawn in the 3D view" in css(d, "#board-svg").text
    finally:
        d.quit()


def test_burrtools_solutions_in_3d(page_url):
    """BurrTools' examples read as files and solved: the solution's pieces in the 3D view, one
    mesh each, pulled apart by "Exploded"; the next solution in the same view."""
    from paths import TESTS

    d = chrome(1200, 900)
    try:
        for stem, pieces in (("FourPieceTetrahedron", 4), ("BallRoom", 4), ("Bermuda", 12)):
            load(d, page_url, TESTS / "xmpuzzle" / f"{stem}.xmpuzzle")
            until(d, shown_empty, 30, f"no 3D view of {stem}'s board")
            click(d, "#solve")
            r = until(d, solved(pieces), 120, f"no solution of {stem} in 3D")
            assert r["meshes"] == pieces and len(set(r["letters"])) >= 2
            assert painted(d) > 2000, f"{stem}: the canvas is blank"
            slide(d, "#picture .view3d-explode", 100)
            assert report(d)["spread"] > 1
            slide(d, "#picture .view3d-explode", 0)
        assert not [e for e in d.get_log("browser") if e["level"] == "SEVERE"]
    finally:
        d.quit()
