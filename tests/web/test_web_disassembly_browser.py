""" "Take apart" in real chromium: PelikanBurr.xmpuzzle opened, solved, a solution taken apart
(burrTxt's level 98.2.4.2 and its 108 moves, from tests/xmpuzzle/burrtxt-disassembly.txt and
burrtxt-plans/), then played by keyboard to the end, each step announced in the live region and
the pieces moved in the 3D view; axe-core finds nothing; the controls fit a 360 px phone."""

from __future__ import annotations

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from test_web_disassembly import burrtxt_level, burrtxt_moves
from test_web_formats_browser import XM, open_file
from web_browser import assert_clean, click, css, open_page, page_width, until

PELIKAN = XM / "PelikanBurr.xmpuzzle"


def status(d) -> str:
    return css(d, "#apart-status").text


def solved_and_taken_apart(d) -> None:
    """Open PelikanBurr, solve it, take solutions apart until one comes apart."""
    open_file(d, PELIKAN)
    until(d, lambda d: "PelikanBurr.xmpuzzle" in css(d, "#burr-name").text, 60, "the file is not open")
    click(d, "#solve")
    until(d, lambda d: css(d, "#position").text.startswith("1 / "), 120, "not solved")
    until(d, lambda d: css(d, "#progress").get_attribute("data-state") not in ("running", "starting"), 120)
    for _ in range(12):
        until(d, lambda d: css(d, "#apart-run").is_displayed() and css(d, "#apart-run").is_enabled(), 30)
        click(d, "#apart-run")
        until(d, lambda d: status(d).startswith(("Comes apart", "This assembly cannot", "Not taken")), 120, status(d))
        assert not status(d).startswith("Not taken"), status(d)
        if status(d).startswith("Comes apart"):
            return
        click(d, "#next")
    raise AssertionError("no solution came apart")


def test_take_apart_and_play_by_keyboard(page):
    d = page
    solved_and_taken_apart(d)
    level, n = burrtxt_level("PelikanBurr"), burrtxt_moves("PelikanBurr")
    assert css(d, "#apart-level").text == f"Level {level} · {n} moves"
    until(d, lambda d: d.execute_script("return view3d.report(document.querySelector('#picture'))"), 60)
    before = d.execute_script("return view3d.report(document.querySelector('#picture')).moved")
    assert_clean(d, "a plan shown")
    keys = ActionChains(d)
    for _ in range(3):
        keys.send_keys(".")
    keys.perform()
    until(d, lambda d: status(d).startswith(f"Step 3 of {n}: "), 10, status(d))
    keys = ActionChains(d)
    for _ in range(n - 3):
        keys.send_keys(".")
    keys.perform()
    until(d, lambda d: status(d).startswith(f"Step {n} of {n}: "), 30, status(d))
    assert status(d).endswith("Every piece is apart.") and " out along " in status(d)
    assert css(d, "#apart").get_attribute("data-step") == str(n)
    after = d.execute_script("return view3d.report(document.querySelector('#picture')).moved")
    assert after != before and len(after) == len(before) == 7
    assert css(d, "#apart-next").get_attribute("disabled") is not None
    ActionChains(d).send_keys(",").perform()
    until(d, lambda d: status(d).startswith(f"Step {n - 1} of {n}: "), 10, status(d))
    ActionChains(d).send_keys(Keys.HOME).perform()
    until(d, lambda d: status(d) == f"Step 0 of {n}: assembled.", 10, status(d))
    home = d.execute_script("return view3d.report(document.querySelector('#picture')).moved")
    assert home == before
    assert_clean(d, "a plan played")


def test_take_apart_fits_a_phone(page_url):
    d = open_page(page_url, width=360, height=740)
    try:
        solved_and_taken_apart(d)
        assert page_width(d) <= 360
        for sel in ("#apart-run", "#apart-next", "#apart-prev", "#apart-first", "#apart-last"):
            box = d.execute_script(f"return document.querySelector('{sel}').getBoundingClientRect().toJSON()")
            assert box["width"] > 0 and box["right"] <= 360, (sel, box)
        click(d, "#apart-last")
        until(d, lambda d: status(d).startswith(f"Step {burrtxt_moves('PelikanBurr')} of "), 10, status(d))
    finally:
        d.quit()
