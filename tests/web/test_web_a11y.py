"""The page's accessibility and narrow screens, in real chromium:
axe-core (npm's axe-core, run inside the page: every WCAG 2.1 A/AA rule and axe's best
practices) finds no violation in the states tested; tabs say which is selected; a hole reads
differently from a board cell; triangle and hex cells take the focus, have labels and toggle
from the keyboard; the file picker has a label; the play tray's pieces take the focus; at
360 px the slam table, a 30-column hex board and a 30 x 30 Shikaku grid never make the page
scroll sideways (they scroll in their own box); a puzzle played to the end with the keyboard.

axe-core comes from npm (https://www.npmjs.com/package/axe-core, MPL-2.0), installed outside
the repository: $POLYTILE_AXE names axe.min.js, else /tmp/polytile-axe is used, and filled by
`npm install --prefix /tmp/polytile-axe axe-core` when empty (.ci/run does the same)."""

from __future__ import annotations

import json

from web_browser import assert_clean, click, css, page_width, settled, until


def test_axe_finds_nothing(page):
    d = page
    settled(d)
    assert_clean(d, "empty tiling")
    d.execute_script(
        "PRESETS['8x8-centre'](); setMode('box'); "
        "for (const [k, x] of [['#box-order', 5], ['#box-width', 10], ['#box-height', 8]]) document.querySelector(k).value = x; "
        "puzzleChanged();"
    )
    settled(d)
    click(d, "#count")
    until(d, lambda d: "elapsed" in css(d, "#progress-text").text, 30, "the count did not start")
    assert_clean(d, "counting")
    click(d, "#cancel")
    d.execute_script("setMode('tiling'); PRESETS['8x8-centre']()")
    settled(d)
    click(d, "#solve")
    until(d, lambda d: css(d, "#position").text.startswith("1 / 520"), 60, "not solved")
    assert_clean(d, "solved")
    click(d, '#views [data-view="hint"]')
    click(d, "#hint-next")
    until(d, lambda d: "(hint 1)" in css(d, "#hint-text").text, 60, "no hint")
    assert_clean(d, "hint")
    click(d, '#views [data-view="play"]')
    until(d, lambda d: d.find_elements("css selector", "#play-tray .play-piece"), 30, "no tray")
    assert_clean(d, "playing")
    d.execute_script("setMode('katamino'); document.querySelector('#katamino-slam').value = '2,3,6,11';")
    click(d, "#katamino-play")
    until(d, lambda d: "Slam:" in css(d, "#result").text, 60, "no slam")
    assert_clean(d, "katamino slam")
    d.execute_script(
        "setMode('shikaku'); document.querySelector('#shikaku-text').value = '7x7:a8a4e3a3a2f2c6f5k6_2_2_2_4a';"
    )
    click(d, "#shikaku-load")
    settled(d)
    click(d, "#solve")
    until(d, lambda d: d.find_elements("css selector", "#shikaku-solutions"), 60, "shikaku not solved")
    assert_clean(d, "shikaku solved")
    for grid in ("triangle", "hex"):
        d.execute_script("setMode('tiling'); setGrid(arguments[0])", grid)
        settled(d)
        assert_clean(d, f"{grid} board")
    d.execute_script("setTilingSource('text'); showMessage('an error shown')")
    assert_clean(d, "text pane, an error shown")
    d.execute_script("setTilingSource('draw'); setGrid('square'); showMessage(null)")


def test_screen_reader_names_and_focus(page):
    from selenium.webdriver.common.keys import Keys

    d = page
    d.execute_script("setMode('tiling'); setGrid('square'); setView('solutions')")
    tabs = d.find_elements("css selector", "[role=tab]")
    assert len(tabs) == 10 and all(
        t.get_attribute("aria-selected") in ("true", "false") for t in tabs
    )  # 5 modes (calendar too), 5 views (Design too)
    assert [
        t.get_attribute("data-mode") or t.get_attribute("data-view")
        for t in tabs
        if t.get_attribute("aria-selected") == "true"
    ] == ["tiling", "solutions"]
    click(d, '#modes [data-mode="katamino"]')
    assert css(d, '#modes [data-mode="katamino"]').get_attribute("aria-selected") == "true"
    assert css(d, '#modes [data-mode="tiling"]').get_attribute("aria-selected") == "false"
    click(d, '#modes [data-mode="tiling"]')
    # a hole and a board cell read differently
    cell = '#tiling-grid [data-r="0"][data-c="0"]'
    on = css(d, cell).get_attribute("aria-label")
    css(d, cell).send_keys(Keys.SPACE)
    assert css(d, cell).get_attribute("aria-label") != on and "hole" in css(d, cell).get_attribute("aria-label")
    css(d, cell).send_keys(Keys.SPACE)
    # triangle and hex cells: focusable, labelled, toggled by the keyboard, arrows move
    for grid, n in (("triangle", 72), ("hex", 30)):
        d.execute_script("setGrid(arguments[0])", grid)
        cells = d.find_elements("css selector", "#lattice-editor .lattice-cell")
        assert len(cells) == n
        assert all(c.get_attribute("aria-label") for c in cells)
        assert sum(c.get_attribute("tabindex") == "0" for c in cells) == 1
        first = cells[0]
        first.send_keys(Keys.ENTER)
        assert "hole" in first.get_attribute("aria-label")
        first.send_keys(Keys.ARROW_RIGHT)
        assert d.switch_to.active_element.get_attribute("data-c") == "1"
    d.execute_script("setGrid('square')")
    # the file picker has a label
    assert d.execute_script("return document.querySelector('#tiling-file').labels.length") == 1
    # the play tray's pieces take the focus and Enter chooses one
    d.execute_script("PRESETS['6x10'](); setView('play')")
    until(d, lambda d: d.find_elements("css selector", "#play-tray .play-piece"), 30, "no tray")
    piece = css(d, '#play-tray [data-piece="2"]')
    assert piece.get_attribute("tabindex") == "0" and piece.get_attribute("aria-label")
    piece.send_keys(Keys.ENTER)
    assert css(d, '#play-tray [data-piece="2"]').get_attribute("aria-pressed") == "true"
    d.execute_script("setView('solutions')")


def test_no_sideways_scroll_at_360_px(page):
    d = page
    d.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride", {"width": 360, "height": 740, "deviceScaleFactor": 1, "mobile": True}
    )
    try:
        d.execute_script("setMode('katamino'); document.querySelector('#katamino-slam').value = '2,3,6,11,8';")
        click(d, "#katamino-play")
        until(d, lambda d: "Slam:" in css(d, "#result").text, 60, "no slam")
        widths = {"the slam table": page_width(d)}
        d.execute_script("setMode('tiling'); setGrid('hex'); setBoard(30, 30)")
        settled(d)
        widths["a 30-column hex board"] = page_width(d)
        d.execute_script("setMode('shikaku'); setShikaku(30, 30)")
        settled(d)
        widths["a 30 x 30 Shikaku grid"] = page_width(d)
        assert all(w <= 360 for w in widths.values()), widths
        assert css(d, '#shikaku-grid input[data-r="29"][data-c="29"]').is_enabled()  # still there, in its box
    finally:
        d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        d.execute_script("setMode('tiling'); setGrid('square')")


def test_keyboard_play_to_the_end(page):
    """Dominoes in a 2 x 3 board (three upright dominoes, by hand), played with keys alone:
    the tray piece chosen with Enter, turned with R, moved with the arrows, placed with Enter,
    a refused place and an undo announced, to "Solved"."""
    from selenium.webdriver.common.keys import Keys

    d = page
    d.execute_script(
        "setMode('tiling'); setGrid('square'); setBoard(2, 3); state.tiling.counts = {'2-1': 3}; "
        "state.tiling.order = 2; renderPieceLibrary(); puzzleChanged(); setView('play')"
    )
    until(d, lambda d: d.find_elements("css selector", '#play-tray [data-piece="0"]'), 30, "no tray")
    until(d, lambda d: "Can still be finished" in css(d, "#play-status").text, 30, "no first verdict")
    css(d, '#play-tray [data-piece="0"]').send_keys(Keys.ENTER)
    status = lambda: css(d, "#play-status").text  # noqa: E731
    board = d.switch_to.active_element
    assert board.get_attribute("id") == "play-svg"
    assert status().startswith("2-1 at row 1, column 1: it fits")
    assert len(d.find_elements("css selector", "#play-svg .play-preview")) == 2
    board.send_keys(Keys.ARROW_DOWN)  # lying, on row 2: fits; upright would not
    board.send_keys("r")  # upright from row 2: off the board
    assert "not on the board" in status()
    board.send_keys(Keys.ENTER)
    assert "not on the board" in status()  # refused, announced
    board.send_keys(Keys.ARROW_UP)
    for column in range(3):
        board = d.switch_to.active_element
        assert board.get_attribute("id") == "play-svg"
        # the announcement of the move (a verdict of the last placement may arrive first)
        until(
            d,
            lambda d, column=column: status().startswith(f"2-1 at row 1, column {column + 1}: it fits"),
            10,
            f"no announcement of column {column + 1}: {status()}",
        )
        board.send_keys(Keys.ENTER)
        if column < 2:
            until(d, lambda d: "Can still be finished" in status(), 30, "no verdict")
            if column == 0:  # Backspace undoes, then place again
                d.switch_to.active_element.send_keys(Keys.BACKSPACE)
                until(d, lambda d: not d.find_elements("css selector", '#play-svg g.piece[data-source="hand"]'), 10)
                d.switch_to.active_element.send_keys(Keys.ENTER)
                until(
                    d, lambda d: len(d.find_elements("css selector", '#play-svg g.piece[data-source="hand"]')) == 1, 10
                )
                until(d, lambda d: "Can still be finished" in status(), 30, "no verdict after the undo")
            d.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
    until(d, lambda d: status().startswith("Solved"), 30, "not solved")
    placed = [
        json.loads(g.get_attribute("data-cells"))
        for g in d.find_elements("css selector", '#play-svg g.piece[data-source="hand"]')
    ]
    assert sorted(placed) == [[[0, c], [1, c]] for c in range(3)]
    assert_clean(d, "keyboard play")
    d.execute_script("setView('solutions')")
