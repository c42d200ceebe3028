"""The 3D view of polycube boards in a real browser (Debian's chromium, WebGL in software):
the Soma cube loaded as a file and solved, the canvas drawn (a WebGL context, pixels that are
not all background, one mesh per piece), turned by dragging, exploded, built up layer by layer,
stepped to solution 2, the hint's pieces in it; without WebGL the layers' SVG stays. With
POLYTILE_SCREENSHOTS set it writes docs/web-3d.png."""

from __future__ import annotations

import json
import math
import os

from test_web_browser import CASES, drawn_solution

from checker import check
from conftest import CORPUS
from paths import DOCS
from web_browser import click, css, ready, until
from web_helpers import chrome

SOMA = CASES["soma-3x3x3"]
SOMA_PATH = CORPUS / "tiling" / SOMA["file"]
SOMA_PIECES = 7  # the seven Soma pieces, V L T Z A B P


def report(d, picture="#picture"):
    return d.execute_script(
        "return window.view3d && window.view3d.report(document.querySelector(arguments[0]))", picture
    )


def painted(d, picture="#picture") -> int:
    """Pixels of the canvas that differ from its white background, counted in a 2D copy."""
    return d.execute_script(
        """
        const src = document.querySelector(arguments[0] + ' canvas.view3d-canvas');
        const c = document.createElement('canvas'); c.width = src.width; c.height = src.height;
        const g = c.getContext('2d'); g.drawImage(src, 0, 0);
        const px = g.getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        for (let i = 0; i < px.length; i += 4) if (px[i] < 245 || px[i + 1] < 245 || px[i + 2] < 245) n++;
        return n;""",
        picture,
    )


def drag(d, selector, dx, dy):
    from selenium.webdriver.common.action_chains import ActionChains

    canvas = css(d, selector)
    ActionChains(d).move_to_element(canvas).click_and_hold().move_by_offset(dx // 2, dy // 2).move_by_offset(
        dx - dx // 2, dy - dy // 2
    ).release().perform()


def touch(d, kind, points):
    """A real touch event (chromium's input pipeline, as a phone's finger makes it)."""
    d.execute_cdp_cmd(
        "Input.dispatchTouchEvent",
        {"type": kind, "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]},
    )


def distance(d) -> float:
    return math.dist(report(d)["camera"], (0, 0, 0))


def slide(d, selector, value):
    d.execute_script(
        "const s = document.querySelector(arguments[0]); s.value = arguments[1];s.dispatchEvent(new Event('input'));",
        selector,
        str(value),
    )


def three_loaded(d) -> bool:
    return d.execute_script(
        "return performance.getEntriesByType('resource').some((e) => e.name.endsWith('/three.min.js'))"
    )


def load_soma(d, url):
    d.get(url + "/")
    ready(d)
    assert not three_loaded(d)  # a flat board: three.js is not even loaded
    click(d, "#tiling-text-tab")
    css(d, "#tiling-file").send_keys(str(SOMA_PATH.resolve()))
    until(d, lambda d: "board 3 x 3 x 3" in css(d, "#tiling-text-info").text, 20, "the file was not read")


def test_vendored_three_is_served_as_javascript(page_url):
    import urllib.request

    for path in ("/static/view3d.js", "/static/vendor/three.min.js"):
        with urllib.request.urlopen(page_url + path, timeout=10) as r:
            assert r.headers["Content-Type"].split(";")[0] == "text/javascript", path
            assert r.read(200)


def test_soma_in_3d(page_url):
    d = chrome(1400, 1000)
    try:
        load_soma(d, page_url)
        until(d, lambda d: report(d) and report(d)["empty"], 20, "no 3D view of the empty board")
        assert css(d, "body").get_attribute("data-webgl") == "1"
        assert not css(d, "#board-svg").is_displayed()  # the SVG stays, hidden, for downloads
        assert three_loaded(d)

        click(d, "#solve")
        until(
            d, lambda d: len(drawn_solution(d)) == SOMA_PIECES, 180, "no solution drawn"
        )  # the first job waits for the warm-up
        check(SOMA_PATH, drawn_solution(d), reflect=False, partial=False)
        first = drawn_solution(d)
        r = until(d, lambda d: (lambda r: r if r and r["pieces"] == SOMA_PIECES else None)(report(d)), 10)
        assert r["meshes"] == SOMA_PIECES and not r["empty"]
        assert sorted(r["letters"]) == sorted(p for p, _ in first)
        assert d.execute_script("return !!document.querySelector('#picture canvas').getContext('webgl2')")
        before = painted(d)
        assert before > 2000, "the canvas is blank"

        # turn it by dragging: the camera moves, the picture changes
        camera = r["camera"]
        drag(d, "#picture canvas.view3d-canvas", 160, 40)
        assert report(d)["camera"] != camera
        # zoom with the wheel (out) and a two-finger pinch (in); turn with one finger
        x, y = d.execute_script(
            "const r = document.querySelector('#picture canvas.view3d-canvas').getBoundingClientRect();"
            "return [r.left + r.width / 2, r.top + r.height / 2]"
        )
        far = distance(d)
        d.execute_script(
            "document.querySelector('#picture canvas.view3d-canvas').dispatchEvent(new WheelEvent('wheel',"
            "{deltaY: 400, clientX: arguments[0], clientY: arguments[1], bubbles: true, cancelable: true}))",
            x,
            y,
        )
        assert distance(d) > far * 1.1
        far = distance(d)
        touch(d, "touchStart", [(x - 30, y), (x + 30, y)])
        for k in range(1, 5):
            touch(d, "touchMove", [(x - 30 - 25 * k, y), (x + 30 + 25 * k, y)])
        touch(d, "touchEnd", [])
        assert distance(d) < far * 0.8
        camera = report(d)["camera"]
        touch(d, "touchStart", [(x, y)])
        for k in range(1, 5):
            touch(d, "touchMove", [(x + 20 * k, y)])
        touch(d, "touchEnd", [])
        assert report(d)["camera"] != camera

        # exploded: the pieces move out from the centre; layer by layer: fewer pieces at layer 1
        slide(d, "#picture .view3d-explode", 100)
        assert report(d)["spread"] > 3
        slide(d, "#picture .view3d-explode", 0)
        assert report(d)["spread"] == 0
        slide(d, "#picture .view3d-layers", 1)
        low = report(d)
        assert low["layers"] == 1 and 0 < low["pieces"] <= SOMA_PIECES
        bottom = {p for p, cells in first if any(c[2] == 0 for c in cells)}
        assert sorted(low["letters"]) == sorted(bottom)
        slide(d, "#picture .view3d-layers", 3)

        # solution 2: another solution in the same view, the view kept (turned, all layers)
        turned = report(d)["camera"]
        click(d, "#next")
        until(d, lambda d: css(d, "#position").text.startswith("2 /"), 10)
        second = drawn_solution(d)
        assert second != first
        check(SOMA_PATH, second, reflect=False, partial=False)
        r = report(d)
        assert r["pieces"] == SOMA_PIECES and r["camera"] == turned and r["layers"] == 3
        if os.environ.get("POLYTILE_SCREENSHOTS"):
            click(d, "#picture .view3d-reset")
            slide(d, "#picture .view3d-explode", 40)
            d.execute_script("window.scrollTo(0, 0)")
            d.save_screenshot(str(DOCS / "web-3d.png"))

        # flat layers: the SVG comes back, and the 3D view again
        click(d, "#picture .view3d-flat")
        assert css(d, "#solution-svg").is_displayed() and not css(d, "#picture canvas").is_displayed()
        click(d, "#picture .view3d-flat")
        assert not css(d, "#solution-svg").is_displayed()

        # a hint: its piece in the 3D view of the hint tab, on the empty board's ghost
        click(d, '#views [data-view="hint"]')
        click(d, "#hint-next")
        until(d, lambda d: "hint 1" in css(d, "#hint-text").text, 30)
        hint = json.loads(css(d, "#hint-svg g.piece").get_attribute("data-cells"))
        r = until(d, lambda d: report(d, "#hint-picture"), 10)
        assert r["pieces"] == 1 and r["empty"] and len(hint) in (3, 4)
        assert painted(d, "#hint-picture") > 1000
        assert not [e for e in d.get_log("browser") if e["level"] == "SEVERE"]
    finally:
        d.quit()


def test_without_webgl_the_layers_stay(page_url):
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
        load_soma(d, page_url)
        until(d, lambda d: css(d, "body").get_attribute("data-webgl") == "0", 20, "WebGL was not found missing")
        assert css(d, "#board-svg").is_displayed() and not d.find_elements("css selector", "#picture canvas")
        assert "layer 3" in css(d, "#board-svg").text
    finally:
        d.quit()


def test_hint_pieces_take_the_solutions_colours(client):
    """A hint's polycube is drawn in its piece's colour in the solutions (it was grey)."""
    from web_api_helpers import run

    puzzle = {"kind": "tiling", "text": SOMA_PATH.read_text()}
    colour = {p["letter"]: p["colour"] for p in run(client, "solve", puzzle, limit=1)["solutions"][0]}
    assert len(set(colour.values())) == SOMA_PIECES
    first = run(client, "hint", puzzle)["result"]
    second = run(client, "hint", puzzle, placed=[first["cells"]])["result"]
    for h in (first, second):
        assert h["verdict"] == "place" and h["colour"] == colour[h["letter"]]  # piece: the file's name
