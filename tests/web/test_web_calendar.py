"""The calendar tab in real chromium: the date defaults to today; a date's count
is the published table's (tests/calendar/, Andrew Nowell's solver) and its drawn solutions
are checked here without polytile (every cell but the date's covered once, each piece once,
as its shape); the year's count shows its progress within 1 s (the weekday board, ~2-3 s)
and its heat map holds the published count of every date (the classic board); a click on a
date chooses it; labels, a focusable heat map, no sideways scroll at 360 px, and axe-core
finds nothing in the tab empty, while the year is counted and when it is done."""

from __future__ import annotations

import datetime
import json

from test_web_formats import PUBLISHED, verify_calendar
from web_browser import assert_clean, click, css, ready, settled, until


def choose(d, date: str | None = None, board: str | None = None) -> None:
    """Set the date and board as a user's change would (the change event)."""
    d.execute_script(
        """const [date, board] = arguments;
        if (date) document.querySelector('#calendar-date').value = date;
        if (board) document.querySelector('#calendar-board').value = board;
        document.querySelector(date ? '#calendar-date' : '#calendar-board').dispatchEvent(new Event('change'));""",
        date,
        board,
    )


def shown_solution(d) -> list[dict]:
    return [
        {"cells": json.loads(g.get_attribute("data-cells"))}
        for g in d.find_elements("css selector", "#solution-svg g.piece")
    ]


def test_a_date_its_count_and_solutions(page):
    d = page
    click(d, '#modes [data-mode="calendar"]')
    assert css(d, '#modes [data-mode="calendar"]').get_attribute("aria-selected") == "true"
    assert css(d, "#calendar-date").get_attribute("value") == datetime.date.today().isoformat()
    for control in ("#calendar-date", "#calendar-board"):
        assert d.execute_script(f"return document.querySelector('{control}').labels.length") == 1
    until(d, lambda d: d.find_elements("css selector", "#board-svg"), 30, "the board is not drawn")
    assert_clean(d, "calendar tab, empty")
    choose(d, "2026-11-25", "classic")
    settled(d)  # the preview's check
    click(d, "#solve")
    until(d, lambda d: d.find_elements("css selector", "#calendar-count"), 30, "not solved")
    assert css(d, "#calendar-count").text == str(PUBLISHED[(11, 25)]) == "155"
    until(d, lambda d: css(d, "#position").text == "1 / 155", 30)
    summary = d.execute_script("return state.view.job.summary")
    for _ in range(3):
        verify_calendar(summary, shown_solution(d))
        click(d, "#next")
    assert css(d, "#position").text == "4 / 155"
    labels = css(d, "#solution-svg").get_attribute("aria-label")
    assert labels.startswith("a solution for Nov 25") and "Nov" in labels.split("open:")[1]
    choose(d, "2026-10-06")
    settled(d)
    click(d, "#count")
    until(d, lambda d: css(d, "#result").text.startswith(f"{PUBLISHED[(10, 6)]} solutions for Oct 6"), 30)
    link = d.execute_script("updateShareUrl(); return location.href")  # a share link keeps the date
    d.get("about:blank")
    d.get(link)
    ready(d)
    assert css(d, '#modes [data-mode="calendar"]').get_attribute("aria-selected") == "true"
    assert css(d, "#calendar-date").get_attribute("value") == "2026-10-06"


SHOWN_WITHIN = """
const button = document.querySelector('#calendar-year-run');
button.addEventListener('click', () => { window.clickedAt = performance.now(); }, {capture: true, once: true});
const shown = () => document.querySelector('#calendar-year-status').textContent.startsWith('Counting every date')
  && document.querySelector('#progress').dataset.state === 'running';
const watch = new MutationObserver(() => {
  if (window.clickedAt !== undefined && window.shownAfter === undefined && shown()) {
    window.shownAfter = performance.now() - window.clickedAt;
    watch.disconnect();
  }
});
watch.observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});"""


def test_the_year_progress_heat_map_and_accessibility(page):
    d = page
    d.execute_script("setMode('calendar')")
    choose(d, board="weekday")
    d.execute_script(SHOWN_WITHIN)  # timed in the page: the click, the first progress shown
    click(d, "#calendar-year-run")
    until(d, lambda d: d.execute_script("return window.shownAfter !== undefined"), 5, "no progress shown")
    first = d.execute_script("return window.shownAfter") / 1000
    assert first < 1.0, f"the year's progress showed after {first:.2f} s"
    assert css(d, "#calendar-year").get_attribute("aria-busy") == "true"
    assert_clean(d, "calendar tab, counting the year")
    seen = set()

    def done(d) -> bool:
        seen.add(css(d, "#calendar-year-status").text)
        return bool(d.find_elements("css selector", "#heatmap-table"))

    until(d, done, 60, "no heat map")
    assert any(" parts of the search done" in text for text in seen), seen  # a measure, not only a spinner
    assert css(d, "#calendar-year").get_attribute("aria-busy") == "false"
    assert css(d, "#calendar-year-status").text.startswith("2562 dates counted")
    year = int(css(d, "#calendar-date").get_attribute("value")[:4])
    cells = d.find_elements("css selector", "#heatmap-table td[data-count]")
    assert len(cells) == (366 if year % 4 == 0 else 365)
    assert_clean(d, "calendar tab, the weekday year done")
    choose(d, board="classic")
    click(d, "#calendar-year-run")
    until(d, lambda d: css(d, "#calendar-year-status").text.startswith("366 dates counted"), 60)
    table = {
        tuple(int(x) for x in c.get_attribute("data-date").split("-")[1:]): int(c.text)
        for c in d.find_elements("css selector", "#heatmap-table td[data-count]")
    }
    assert table == PUBLISHED  # every date of the year, as published
    region = css(d, "#calendar-heatmap")
    assert region.get_attribute("tabindex") == "0" and region.get_attribute("role") == "region"
    from selenium.webdriver.common.keys import Keys

    click(d, '#heatmap-table td[data-date$="-02-27"]')  # a click chooses a date; then keys
    assert css(d, "#calendar-date").get_attribute("value").endswith("-02-27")
    focused = lambda: d.switch_to.active_element.get_attribute("data-date")[5:]  # noqa: E731
    assert focused() == "02-27"
    for key, want in (
        (Keys.ARROW_RIGHT, "02-28"),
        (Keys.ARROW_RIGHT, "02-29"),
        (Keys.ARROW_DOWN, "03-29"),
        (Keys.END, "03-31"),
        (Keys.ARROW_UP, "01-31"),
        (Keys.HOME, "01-01"),
        (Keys.ARROW_RIGHT, "01-02"),
    ):
        d.switch_to.active_element.send_keys(key)
        assert focused() == want, (key, focused())
    for _ in range(23):
        d.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
    d.switch_to.active_element.send_keys(Keys.ENTER)  # Jan 25 chosen by the keyboard
    assert css(d, "#calendar-date").get_attribute("value").endswith("-01-25")
    assert focused() == "01-25"
    settled(d)
    click(d, "#solve")
    until(d, lambda d: css(d, "#result").text.startswith(f"{PUBLISHED[(1, 25)]} solutions for Jan 25"), 30)
    assert_clean(d, "calendar tab, the classic year and a date solved")


def test_random_among_more_than_the_listed(page):
    """Tue Jun 7 on the weekday board has more solutions than the page lists: Random draws
    from all of them on the server (uniformly), and the drawn one is checked."""
    d = page
    d.execute_script("setMode('calendar')")
    choose(d, board="weekday")
    choose(d, "2022-06-07")
    settled(d)
    click(d, "#solve")
    until(d, lambda d: css(d, "#position").text == "1 / 1,000+", 30, "the listing is not cut at 1,000")
    click(d, "#random")
    until(d, lambda d: css(d, "#position").text == "random solution", 30, "no random solution")
    # the drawn solution is shown when it arrives; the result line comes with the job's end
    until(d, lambda d: css(d, "#progress").get_attribute("data-state") == "done", 30, "the draw did not end")
    assert "drawn uniformly" in css(d, "#result").text
    verify_calendar(d.execute_script("return state.view.job.summary"), shown_solution(d))


def test_no_sideways_scroll_at_360_px(page):
    d = page
    d.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride", {"width": 360, "height": 740, "deviceScaleFactor": 1, "mobile": True}
    )
    try:
        d.execute_script("setMode('calendar')")
        until(d, lambda d: d.find_elements("css selector", "#heatmap-table"), 30)
        assert d.execute_script("return document.documentElement.scrollWidth") <= 360
    finally:
        d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
