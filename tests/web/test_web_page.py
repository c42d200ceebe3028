"""Fixes of the page's early defects in a real browser (Debian's chromium, headless, Selenium):
messages drawn where the user looks, a board too large cleared, a bad Katamino list, pasted
prose, a stale count, Shikaku browsing, clamped copy fields, one tab stop for the board, an
honest dead-end hint, a closed tab's job cancelled, and the phone layout at 360 px."""

from __future__ import annotations

import os

import json

from web_api_helpers import CASES
from web_browser import click, css, open_page, ready, severe, until

from conftest import CORPUS
from web_helpers import get_json, shikaku_rows, verify_rectangles

DOCS = CORPUS.parent.parent / "docs"


HEIGHT = 757  # the window's height: what is "in view"


def in_view(d, selector) -> bool:
    return d.execute_script(
        "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
        "return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth;",
        selector,
    )


def type_into(d, selector, text):
    field = css(d, selector)
    field.clear()
    field.send_keys(text)
    d.execute_script("arguments[0].dispatchEvent(new Event('change'))", field)


def test_page_defects(page_url):
    from selenium.webdriver.common.keys import Keys

    d = open_page(page_url, height=HEIGHT)
    try:
        # a 25 x 25 board: "board too large" in view, the old board gone
        d.execute_script("window.scrollTo(0, document.body.scrollHeight)")
        type_into(d, "#tiling-rows", "25")
        type_into(d, "#tiling-cols", "25")
        until(d, lambda d: "board too large" in css(d, "#message").text, 10)
        assert in_view(d, "#message")
        assert d.find_elements("css selector", "#board-error") and not d.find_elements("css selector", "#board-svg")
        # copy fields show what is used
        type_into(d, "#tiling-rows", "3")
        type_into(d, "#tiling-cols", "20")
        for typed, shown in (("99", "60"), ("-2", "0")):
            field = css(d, '#tiling-pieces input[data-piece="F"]')
            field.send_keys(Keys.CONTROL, "a")
            field.send_keys(typed, Keys.TAB)
            assert field.get_attribute("value") == shown
        d.execute_script(
            "const s = document.querySelector('#tiling-preset'); s.value = '3x20'; s.dispatchEvent(new Event('change'));"
        )
        # one tab stop for the board, arrow keys inside it
        assert len(d.find_elements("css selector", "#tiling-grid [tabindex='0']")) == 1
        css(d, "#tiling-grid [tabindex='0']").send_keys(Keys.ARROW_RIGHT, Keys.ARROW_DOWN)
        focused = d.switch_to.active_element
        assert (focused.get_attribute("data-r"), focused.get_attribute("data-c")) == ("1", "1")
        assert len(d.find_elements("css selector", "#tiling-grid [tabindex='0']")) == 1
        # "unique only" clears a stale count (3 x 20: the manifest's count)
        click(d, "#count")
        until(d, lambda d: d.find_elements("css selector", "#count-solutions"), 60)
        assert css(d, "#count-solutions").text == str(CASES["pentomino-3x20"]["solutions"])
        click(d, "#unique")
        assert css(d, "#result").text == ""
        click(d, "#unique")
        # the copied link is announced in view, wherever the page is scrolled
        d.execute_script("window.scrollTo(0, document.body.scrollHeight)")
        css(d, "#share").click()
        until(d, lambda d: "link" in css(d, "#message").text.lower(), 5)
        assert in_view(d, "#message")
        # a dead end is not "Hint found": 1 x 3 board, one domino
        type_into(d, "#tiling-rows", "1")
        type_into(d, "#tiling-cols", "3")
        click(d, "#tiling-none")
        click(d, '#tiling-orders [data-order="2"]')
        type_into(d, '#tiling-pieces input[data-piece="2-1"]', "1")
        click(d, '#views [data-view="hint"]')
        job = css(d, "body").get_attribute("data-job")
        # the job buttons are disabled while a job starts (one job per click): wait for them
        until(d, lambda d: css(d, "#hint-next").is_enabled() and not css(d, "body").get_attribute("data-starting"), 10)
        click(d, "#hint-next")
        until(
            d,
            lambda d: (
                css(d, "body").get_attribute("data-job") != job
                and css(d, "#progress").get_attribute("data-state") == "done"
            ),
            30,
        )
        assert "Hint found" not in css(d, "#progress-text").text and "dead end" in css(d, "#progress-text").text
        # pasted prose is refused, not read as a board of letters
        click(d, "#tiling-text-tab")
        css(d, "#tiling-text").send_keys("this is garbage")
        until(d, lambda d: "not a puzzle drawing" in css(d, "#message").text, 10)
        assert in_view(d, "#message") and d.find_elements("css selector", "#board-error")
        # a bad Katamino list: a readable error, no exception in the page
        click(d, '#modes [data-mode="katamino"]')
        type_into(d, "#katamino-slam", "pink, q")
        click(d, "#katamino-use")
        until(d, lambda d: '"q"' in css(d, "#message").text, 5)
        assert in_view(d, "#message") and '"pink"' not in css(d, "#message").text
        click(d, "#katamino-play")
        assert not severe(d)
    finally:
        d.quit()


def test_shikaku_solutions_can_be_browsed(page_url):
    d = open_page(page_url, height=HEIGHT)
    try:
        path = CORPUS / "shikaku" / "tatham-10x10a.txt"
        rows = shikaku_rows(path.read_text())
        click(d, '#modes [data-mode="shikaku"]')
        css(d, "#shikaku-text").send_keys(path.read_text())
        click(d, "#shikaku-load")
        until(d, lambda d: "10 x 10" in css(d, "#shikaku-info").text, 10)
        click(d, "#solve")
        until(d, lambda d: css(d, "#position").text == "1 / 4", 30)  # the manifest: 4 solutions
        seen = set()
        for k in ("4", "2", "3", "1"):
            type_into(d, "#goto", k)
            assert css(d, "#position").text == f"{k} / 4"
            rects = [
                json.loads(e.get_attribute("data-rect"))
                for e in d.find_elements("css selector", "#solution-svg rect.rectangle")
            ]
            verify_rectangles(rows, rects)
            seen.add(str(sorted(rects)))
        assert len(seen) == 4
    finally:
        d.quit()


def test_closing_the_tab_cancels_its_job(page_url):
    d = open_page(page_url, height=HEIGHT)
    try:
        first = d.current_window_handle
        d.switch_to.new_window("tab")
        d.get(page_url + "/")
        ready(d)
        click(d, '#modes [data-mode="box"]')
        for sel, value in (("#box-width", "10"), ("#box-height", "8"), ("#box-max", "2")):
            type_into(d, sel, value)
        d.execute_script(
            "const s = document.querySelector('#box-order'); s.value = '5'; s.dispatchEvent(new Event('change'));"
        )
        click(d, "#count")
        until(d, lambda d: css(d, "#progress").get_attribute("data-state") == "running", 30)
        job = css(d, "body").get_attribute("data-job")
        d.close()
        d.switch_to.window(first)
        until(
            d,
            lambda d: get_json(f"{page_url}/api/jobs/{job}")["state"] == "cancelled",
            5,
            "the closed tab's job still runs",
        )
    finally:
        d.quit()


def test_phone_layout_at_360_px(page_url):
    d = open_page(page_url, 360, 740)
    try:
        assert d.execute_script("return document.documentElement.scrollWidth") <= 360
        for sel in ('#modes [data-mode="shikaku"]', "#share"):
            assert in_view(d, sel), sel
        click(d, '#modes [data-mode="katamino"]')
        assert d.execute_script("return document.documentElement.scrollWidth") <= 360
        right = d.execute_script(
            "return Math.max(...[...document.querySelectorAll('.swatch')].map(e => e.getBoundingClientRect().right))"
        )
        assert right <= 360
        click(d, '#modes [data-mode="tiling"]')
        d.execute_script(
            "const s = document.querySelector('#tiling-preset'); s.value = '3x20'; s.dispatchEvent(new Event('change'));"
        )
        assert d.execute_script("return document.documentElement.scrollWidth") <= 360
        click(d, "#solve")
        until(d, lambda d: len(d.find_elements("css selector", "#solution-svg g.piece")) == 12, 30)
        assert in_view(d, "#status")
        if os.environ.get("POLYTILE_SCREENSHOTS"):  # docs/web-phone.png, when asked
            d.save_screenshot(str(DOCS / "web-phone.png"))
    finally:
        d.quit()
