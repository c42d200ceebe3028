"""The Design view in real chromium on a 360 px phone: reached by keyboard, 4 cards of the 5x12
pentomino board made as a job (its state on the progress bar, its result announced in the view's
live region), each drawn with its level, one card's solution shown and hidden again (the placed
pieces and the solution cover the board, each cell once, checked here without polytile), the
downloads named after the puzzle; the classic calendar set checked over every date (the
published table's figures: every date solvable, fewest 7, most 216) with its table of counts, a
set of the wrong area refused in one line; axe-core finds nothing and nothing scrolls sideways."""

from __future__ import annotations

import json

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from web_browser import assert_clean, click, css, open_page, page_width, retype, settled, until


def drawn_pieces(d, card: int) -> list[list[tuple[int, int]]]:
    return [
        [tuple(c) for c in json.loads(g.get_attribute("data-cells"))]
        for g in d.find_elements("css selector", f'.design-card[data-card="{card}"] svg g.piece')
    ]


def latest_job(d) -> str | None:
    """The page's latest job (body[data-job], set when a job starts)."""
    return css(d, "body").get_attribute("data-job")


def finished(d, before: str | None) -> str:
    """The state the first job started after `before` ends in. (The progress bar still
    shows the last job's "done" until the new one is started: waiting on the bar alone
    once read "starting" a moment after seeing the cards job's "done".)"""
    until(
        d,
        lambda d: (
            latest_job(d) != before
            and css(d, "#progress").get_attribute("data-state") in ("done", "failed", "cancelled")
        ),
        120,
    )
    return css(d, "#progress").get_attribute("data-state")


def test_cards_and_a_calendar_check_on_a_phone(page_url):
    d = open_page(page_url, width=360, height=740)
    try:
        d.execute_script(
            "const s = document.querySelector('#tiling-preset'); s.value = '5x12'; s.dispatchEvent(new Event('change'));"
        )
        settled(d)
        d.execute_script("document.querySelector('#design-tab').focus()")
        ActionChains(d).send_keys(Keys.ENTER).perform()
        until(d, lambda d: css(d, "#view-design").is_displayed(), 10, "the Design view is not shown")
        assert css(d, "#design-tab").get_attribute("aria-selected") == "true"
        for control in ("#design-cards-n", "#design-levels", "#design-cal-board", "#design-cal-pieces"):
            assert d.execute_script(f"return document.querySelector('{control}').labels.length") == 1, control
        assert css(d, "#design-cards-n").get_attribute("value") == "8"
        assert_clean(d, "the Design view, empty")
        retype(d, "#design-cards-n", "4")
        before = latest_job(d)
        click(d, "#design-cards-run")
        assert finished(d, before) == "done"
        until(d, lambda d: css(d, "#design-cards-status").text.startswith("4 cards made"), 30)
        assert css(d, "#design-cards-status").get_attribute("role") == "status"
        cards = d.find_elements("css selector", ".design-card")
        assert len(cards) == 4
        assert [c.get_attribute("data-level") for c in cards] == ["1", "2", "3", "4"]
        assert css(d, '.design-card[data-card="0"] figcaption').text == "Card 1 · level 1"
        placed = drawn_pieces(d, 0)
        toggle = '.design-card[data-card="0"] .card-toggle'
        assert css(d, toggle).get_attribute("aria-pressed") == "false"
        click(d, toggle)
        until(d, lambda d: css(d, toggle).get_attribute("aria-pressed") == "true", 5)
        solved = drawn_pieces(d, 0)
        cells = [c for piece in solved for c in piece]
        assert len(solved) == 12 and len(cells) == 60 == len(set(cells))
        assert set(cells) == {(r, c) for r in range(5) for c in range(12)}
        assert all(p in solved for p in placed) and len(placed) < 12
        click(d, toggle)
        until(d, lambda d: css(d, toggle).get_attribute("aria-pressed") == "false", 5)
        assert drawn_pieces(d, 0) == placed
        links = [a.get_attribute("href") for a in d.find_elements("css selector", "#design-downloads a")]
        job = d.execute_script("return state.job.id")
        assert links[0].endswith(f"/api/jobs/{job}/cards.json") and links[1].endswith(f"/api/jobs/{job}/cards/1.svg")
        assert page_width(d) <= 360
        assert_clean(d, "four cards, one solution shown and hidden")

        click(d, "#design-cal-chosen")  # the Tiling tab's 12 pentominoes
        assert sorted(css(d, "#design-cal-pieces").get_attribute("value").split()) == sorted("FILNPTUVWXYZ")
        click(d, "#design-cal-own")
        assert css(d, "#design-cal-pieces").get_attribute("value") == "2x3 L N P U V Y Z"
        before = latest_job(d)
        click(d, "#design-check-run")
        assert finished(d, before) == "done"
        status = "#design-check-status"
        until(d, lambda d: "every one of the 366 dates has a solution" in css(d, status).text, 30, css(d, status).text)
        assert "fewest 7, most 216" in css(d, status).text
        assert css(d, "#design-unsolvable").text == "Every date has a solution."
        assert css(d, '#design-heat-table td[data-date$="-10-06"]').get_attribute("data-count") == "7"
        assert page_width(d) <= 360
        assert_clean(d, "the classic set checked")

        retype(d, "#design-cal-pieces", "2x3 L N P U V Y")
        click(d, "#design-check-run")
        until(d, lambda d: css(d, status).text.startswith("Not checked"), 30)
        assert css(d, status).text == (
            "Not checked: pieces: the pieces cover 36 cells, the board leaves 41 to cover (43 cells, 2 left open)"
        )
        assert css(d, "#progress").get_attribute("data-state") == "refused"
        assert_clean(d, "a set of the wrong area refused")
    finally:
        d.quit()
