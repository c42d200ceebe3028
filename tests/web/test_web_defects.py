"""Defects the page had, each in real chromium (headless, Selenium) against `polytile serve`:
one job per double click, a progress bar that never goes backwards, Random keeping the shown
solution, hints by the file's names, a click while the server warms up, statistics not offered
on triangle/hex boards, share links opened in the same tab, a bad link's error that stays, the
hex round trip. One server and one browser for the module.
Accessibility and the 360 px layout: test_web_a11y.py."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import threading
import time
import urllib.error
import urllib.request

import pytest
from conftest import CORPUS
from web_browser import click, css, ready, settled, until
from web_helpers import chrome, free_port, get_json

SOMA = CORPUS / "tiling" / "soma-3x3x3.json"
# a count of hours (free pentominoes, 2 copies each, in a 10 x 8 box), for jobs that must run
LONG_BOX = {"kind": "box", "order": 5, "width": 10, "height": 8, "max_copies": 2, "min_copies": 0, "one_sided": False}


def fresh(d, hash_part: str = ""):
    """The page loaded anew (about:blank first: a URL that differs only by its hash would not reload)."""
    d.get("about:blank")
    d.get(d.base_url + "/" + hash_part)
    ready(d)


def running_jobs(d) -> int:
    return get_json(d.base_url + "/api/info")["server"]["running"]


def post(url: str, body: dict) -> tuple[int, dict]:
    req = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def set_box(d):
    d.execute_script("""setMode('box');
        const v = {'#box-order': 5, '#box-width': 10, '#box-height': 8, '#box-max': 2, '#box-min': 0};
        for (const [k, x] of Object.entries(v)) document.querySelector(k).value = x;
        puzzleChanged();""")


def test_double_click_starts_one_job(page):
    from selenium.webdriver.common.action_chains import ActionChains

    d = page
    fresh(d)
    set_box(d)
    ActionChains(d).double_click(css(d, "#count")).perform()
    until(d, lambda d: css(d, "#progress").get_attribute("data-state") == "running", 30, "the count did not start")
    until(d, lambda d: not css(d, "body").get_attribute("data-starting"), 30, "a start still on its way")
    assert running_jobs(d) == 1
    click(d, "#cancel")
    until(d, lambda d: running_jobs(d) == 0, 10, "a job still runs after Cancel")
    # the server's side: a second start from the same tab while one runs is refused (409)
    start = {"action": "count", "puzzle": LONG_BOX, "tab": "t-1", "options": {"heartbeat": 30}}
    status, first = post(d.base_url + "/api/jobs", start)
    assert status == 202
    status, second = post(d.base_url + "/api/jobs", start)
    assert status == 409 and "already has a job" in second["error"]
    urllib.request.urlopen(urllib.request.Request(d.base_url + f"/api/jobs/{first['id']}", method="DELETE"), timeout=10)
    until(d, lambda d: running_jobs(d) == 0, 10, "not cancelled")


FAKE_POLLS = """
const fractions = arguments[0];
window.widths = [];
new MutationObserver(() => window.widths.push(document.querySelector('#progress .bar').style.width))
  .observe(document.querySelector('#progress .bar'), {attributes: true});
const real = window.fetch;
window.k = 0;
window.fetch = async (url, opts) => {
  const res = await real(url, opts);
  if (!/\\/api\\/jobs\\/[^/]+\\?since/.test(url)) return res;
  const data = await res.json();
  if (data.state === 'running' && window.k < fractions.length) data.progress = {...data.progress, fraction: fractions[window.k++], eta: 5};
  return new Response(JSON.stringify(data), {status: res.status, headers: {'Content-Type': 'application/json'}});
};"""


def test_progress_never_goes_backwards(page):  # the page's side; the server's: test_web_eta.py
    d = page
    fresh(d)
    set_box(d)
    d.execute_script(FAKE_POLLS, [0.261, 0.22, 0.05, 0.033, 0.3])  # the cornucopia's figures, then more
    click(d, "#count")
    until(d, lambda d: d.execute_script("return window.k") == 5, 30, "too few polls")
    last = "return parseFloat(window.widths.filter(Boolean).at(-1))"  # (empty: a poll without a share)
    until(d, lambda d: d.execute_script(last) == 30, 10, "the last figure not drawn")
    click(d, "#cancel")
    widths = [float(w.rstrip("%")) for w in d.execute_script("return window.widths") if w]
    assert widths == sorted(widths) and len(widths) >= 2, widths
    assert widths[-1] == pytest.approx(30.0)
    until(d, lambda d: running_jobs(d) == 0, 10, "not cancelled")


SHOWN = """
window.gaps = 0; window.texts = [];
new MutationObserver(() => {
  if (!document.querySelectorAll('#solution-svg g.piece').length) window.gaps++;
}).observe(document.querySelector('#picture'), {childList: true, subtree: true});
new MutationObserver(() => window.texts.push(document.querySelector('#progress-text').textContent))
  .observe(document.querySelector('#progress-text'), {childList: true, characterData: true, subtree: true});"""


def test_random_keeps_the_solution_and_shows_progress(page):
    d = page
    fresh(d)
    d.execute_script("PRESETS['6x10']()")
    click(d, "#solve")  # 1,000 of 9,356 listed: Random draws from all of them on the server
    until(d, lambda d: css(d, "#position").text.startswith("1 / 1,000+"), 60, "listing not finished")
    d.execute_script(SHOWN)
    click(d, "#random")
    until(d, lambda d: css(d, "#position").text == "random solution", 60, "no random solution")
    assert d.execute_script("return window.gaps") == 0, "the picture was empty while drawing"
    texts = d.execute_script("return window.texts")
    assert any(t.startswith("Drawing a random solution:") and "elapsed" in t for t in texts), texts
    assert len(d.find_elements("css selector", "#solution-svg g.piece")) == 12


def proper_rotations():
    for perm in itertools.permutations(range(3)):
        parity = sum(perm[i] > perm[j] for i in range(3) for j in range(i + 1, 3)) % 2
        for signs in itertools.product((1, -1), repeat=3):
            if (signs[0] * signs[1] * signs[2]) * (-1 if parity else 1) == 1:
                yield perm, signs


def canonical(cells) -> tuple:
    """A polycube up to rotation (no mirror images: Soma's A and B are mirror twins)."""
    forms = []
    for perm, signs in proper_rotations():
        moved = [tuple(signs[i] * c[perm[i]] for i in range(3)) for c in cells]
        lo = [min(m[i] for m in moved) for i in range(3)]
        forms.append(tuple(sorted(tuple(m[i] - lo[i] for i in range(3)) for m in moved)))
    return min(forms)


def test_hint_names_the_files_pieces(page):
    d = page
    fresh(d)
    spec = json.loads(SOMA.read_text())
    d.execute_script(
        "setTilingSource('text'); document.querySelector('#tiling-text').value = arguments[0]; newText();",
        SOMA.read_text(),
    )
    until(d, lambda d: "board 3 x 3 x 3" in css(d, "#tiling-text-info").text, 30, "soma not loaded")
    click(d, '#views [data-view="hint"]')
    shapes = {p["name"]: canonical(p["cells"]) for p in spec["pieces"]}
    for k in range(1, 4):
        click(d, "#hint-next")
        until(d, lambda d, k=k: f"(hint {k})" in css(d, "#hint-text").text, 60, "no hint")
        name = css(d, "#hint-text b").text.removeprefix("Place ")
        placed = json.loads(d.find_elements("css selector", "#hint-svg g.piece")[-1].get_attribute("data-cells"))
        assert name in shapes and shapes[name] == canonical(placed), (name, placed)


def test_an_early_click_is_kept(page):
    d = page
    slow = d.execute_cdp_cmd(
        "Page.addScriptToEvaluateOnNewDocument",
        {
            "source": """
        const realFetch = window.fetch;
        window.fetch = async (url, opts) => {
          if (String(url).endsWith('/api/info')) await new Promise((ok) => setTimeout(ok, 2500));
          return realFetch(url, opts);
        };"""
        },
    )
    try:
        d.get("about:blank")
        d.get(d.base_url + "/")
        until(d, lambda d: d.find_elements("css selector", "#solve"), 10)
        assert css(d, "body").get_attribute("data-ready") != "1"
        css(d, "#solve").click()  # the server has not answered yet
        assert "Waiting for the server" in css(d, "#progress-text").text
        until(d, lambda d: "No solution" in css(d, "#result").text, 60, "the early Solve was lost")
        assert css(d, "#progress-text").text.startswith("Solved in")
    finally:
        d.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": slow["identifier"]})


def test_a_hint_asked_before_the_preview_answers(page):
    """Hint right after a change of puzzle, while the page's check of it is on its way (held
    back 3 s here; a busy server): the hint is asked for, not dropped for want of a preview."""
    d = page
    slow = d.execute_cdp_cmd(
        "Page.addScriptToEvaluateOnNewDocument",
        {
            "source": """
        const realFetch = window.fetch;
        window.fetch = async (url, opts) => {
          if (String(url).endsWith('/api/check') && window.holdChecks) await new Promise((ok) => setTimeout(ok, 3000));
          return realFetch(url, opts);
        };"""
        },
    )
    try:
        fresh(d)
        click(d, '#views [data-view="hint"]')
        click(d, "#tiling-none")  # no pieces: refused, no preview
        until(d, lambda d: d.execute_script("return state.preview === null"), 10, "a preview without pieces")
        d.execute_script("window.holdChecks = true; PRESETS['3x20']()")
        click(d, "#hint-next")
        until(d, lambda d: "(hint 1)" in css(d, "#hint-text").text, 30, "the hint was not asked for")
    finally:
        d.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": slow["identifier"]})


@contextlib.contextmanager
def held_back(path: str, seconds: float):
    """The app served from this process (uvicorn in a thread) with one static file held back
    `seconds` before it is sent: a script that arrives late, as on a busy machine."""
    import uvicorn
    from polytile.web.app import create_app

    app = create_app(warm=False)

    async def slow(scope, receive, send):
        if scope["type"] == "http" and scope["path"] == path:
            await asyncio.sleep(seconds)
        await app(scope, receive, send)

    port = free_port()
    srv = uvicorn.Server(uvicorn.Config(slow, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    try:
        deadline = time.time() + 30
        while not srv.started:
            assert time.time() < deadline and thread.is_alive(), "the server did not start"
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(10)


@pytest.mark.parametrize("script", ["tiling.js", "lattice.js", "files.js"])
def test_a_late_script_does_not_stop_the_start(script):
    """The server's first answer may come before the parser has run the scripts after app.js
    (which the rest of the start calls): the page waits for them and gets ready."""
    with held_back(f"/static/{script}", 2.0) as url:
        d = chrome()
        try:
            d.get(url + "/")
            until(d, lambda d: css(d, "body").get_attribute("data-ready") == "1", 30, "the page did not get ready")
            assert "Draw a puzzle" in css(d, "#progress-text").text
            errors = [e for e in d.get_log("browser") if e["level"] == "SEVERE"]
            assert not errors, errors
        finally:
            d.quit()


def test_statistics_not_offered_on_triangle_and_hex(page):
    d = page
    fresh(d)
    assert css(d, "#stats-tab").is_enabled()
    for grid in ("triangle", "hex"):
        d.execute_script("setGrid(arguments[0])", grid)
        until(
            d,
            lambda d: not css(d, "#stats-tab").is_enabled() and not css(d, "#hint-tab").is_enabled(),
            5,
            f"statistics offered on the {grid} grid",
        )
    d.execute_script("setMode('katamino'); setMode('tiling')")  # switching modes keeps it so
    assert not css(d, "#stats-tab").is_enabled()
    d.execute_script("setGrid('square')")
    until(d, lambda d: css(d, "#stats-tab").is_enabled(), 5)


def test_share_link_in_the_same_tab(page):
    d = page
    fresh(d)
    link = d.execute_script("PRESETS['6x10'](); const s = encodeState(); setBoard(8, 8); return s;")
    assert css(d, "#tiling-rows").get_attribute("value") == "8"
    d.execute_script("location.hash = '#p=' + arguments[0]", link)
    until(
        d,
        lambda d: (
            css(d, "#tiling-rows").get_attribute("value") == "6"
            and css(d, "#tiling-cols").get_attribute("value") == "10"
        ),
        5,
        "the new hash was ignored",
    )


def test_bad_link_error_stays(page):
    d = page
    fresh(d, "#p=not-a-puzzle!")
    settled(d)  # the page's first check of its puzzle is back: it must not take the link's error away
    m = css(d, "#message")
    assert m.is_displayed() and "link" in m.text
    d.execute_script("location.hash = '#p=%%%'")  # the same in an open tab
    until(d, lambda d: css(d, "#message").is_displayed(), 5)
    settled(d)
    assert css(d, "#message").is_displayed()


def test_hex_round_trip_keeps_the_board(page):
    d = page
    fresh(d)
    d.execute_script("setGrid('hex')")
    before = d.execute_script("return [state.tiling.rows, state.tiling.cols, latticeBoardRows()]")
    assert before[:2] == [5, 6]
    for _ in range(3):
        d.execute_script("restoreState(decodeState(encodeState()))")
    after = d.execute_script("return [state.tiling.rows, state.tiling.cols, latticeBoardRows()]")
    assert after == before


def test_hint_reasons_name_the_files_pieces():
    """The reasons' piece lists by the file's names too (Soma: A..G are V, L, T, Z, A, B, P)."""
    from polytile.web import puzzles
    from polytile.web.worker import file_names

    soma = puzzles.parse({"kind": "tiling", "text": SOMA.read_text()}).tiling.puzzle
    assert file_names(soma, "A", "4 placements of 2 pieces (A, B) fit there") == (
        "V",
        "4 placements of 2 pieces (V, L) fit there",
    )
    assert file_names(soma, None, "piece C fits nowhere in the empty cells") == (
        None,
        "piece T fits nowhere in the empty cells",
    )
    assert (
        file_names(soma, None, "the board is full but pieces A, G are unused")[1]
        == "the board is full but pieces V, P are unused"
    )
    assert file_names(soma, None, "the empty cell at row 1, column 2 (x)")[1] == "the empty cell at row 1, column 2 (x)"
