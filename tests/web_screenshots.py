"""Screenshots of the web page for docs/web.md: `.venv/bin/python tests/web_screenshots.py`
writes docs/web-<mode>.png (starts `polytile serve` and a headless chromium)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from web_helpers import chrome, server  # noqa: E402  (after the path)

DOCS = Path(__file__).parent.parent / "docs"
CORPUS = Path(__file__).parent / "corpus"


def main() -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    with server() as url:
        d = chrome(1400, 1040)
        wait = WebDriverWait(d, 60)
        css = lambda sel: d.find_element("css selector", sel)  # noqa: E731

        def click(sel):
            d.execute_script("arguments[0].scrollIntoView({block: 'center'})", css(sel))
            css(sel).click()

        def shot(name):
            d.execute_script("window.scrollTo(0, 0)")
            time.sleep(0.4)
            d.save_screenshot(str(DOCS / f"web-{name}.png"))
            print("wrote", DOCS / f"web-{name}.png")

        def fill(sel, value):
            css(sel).clear()
            css(sel).send_keys(value)

        def select(sel, value):
            d.execute_script(
                f"const s = document.querySelector('{sel}'); s.value = '{value}';s.dispatchEvent(new Event('change'));"
            )

        def solved(n):
            wait.until(
                lambda d: (
                    len(d.find_elements("css selector", "#solution-svg g.piece, #solution-svg rect.rectangle")) >= n
                    and d.find_element("css selector", "#progress").get_attribute("data-state") == "done"
                )
            )

        try:
            d.get(url + "/")
            wait.until(lambda d: d.find_element("css selector", "body").get_attribute("data-ready") == "1")
            # tiling: the 8x8 board with the centre hole, drawn by clicking
            for r, c in ((3, 3), (3, 4), (4, 3), (4, 4)):
                click(f'#tiling-grid [data-r="{r}"][data-c="{c}"]')
            click("#unique")
            click("#solve")
            solved(12)
            for _ in range(6):
                click("#next")
            shot("tiling")
            click('#views [data-view="hint"]')
            click("#hint-next")
            wait.until(lambda d: "Place" in d.find_element("css selector", "#hint-text").text)
            click("#hint-next")
            wait.until(lambda d: "hint 2" in d.find_element("css selector", "#hint-text").text)
            shot("hint")
            click('#views [data-view="stats"]')
            click("#stats-run")
            wait.until(lambda d: d.find_elements("css selector", "#stats-out table"))
            shot("stats")
            click('#views [data-view="solutions"]')

            # Katamino: a challenge list, every prefix, then one board solved
            click('#modes [data-mode="katamino"]')
            fill("#katamino-slam", "2,3,6,11,8,4,5,10,9")
            click("#katamino-play")
            wait.until(lambda d: len(d.find_elements("css selector", "#slam-table tbody button")) == 7)
            rows = d.find_elements("css selector", "#slam-table tbody button")
            d.execute_script("arguments[0].scrollIntoView({block: 'center'}); arguments[0].click()", rows[5])  # n = 8
            solved(8)
            shot("katamino")

            # boxing: free tetrominoes, at most 2 of each, in an 8 x 5 box
            click('#modes [data-mode="box"]')
            fill("#box-width", "8")
            fill("#box-height", "5")
            fill("#box-max", "2")
            select("#box-order", "4")
            click("#solve")
            solved(10)
            click("#random")
            solved(10)
            shot("box")

            # a long count: tetrominoes, 4 of each, in an 8 x 8 box, with its progress bar
            click("#unique")
            fill("#box-width", "8")
            fill("#box-height", "8")
            fill("#box-max", "4")
            click("#count")
            wait.until(lambda d: "left" in d.find_element("css selector", "#progress-text").text)
            time.sleep(1)
            shot("count")
            click("#cancel")
            wait.until(lambda d: d.find_element("css selector", "#progress").get_attribute("data-state") == "cancelled")

            # Shikaku: a 15 x 15 Rectangles game id pasted in
            click('#modes [data-mode="shikaku"]')
            case = {c["id"]: c for c in json.loads((CORPUS / "shikaku" / "manifest.json").read_text())}["tatham-15x15"]
            fill("#shikaku-text", case["game_id"])
            click("#shikaku-load")
            wait.until(lambda d: "15 x 15" in d.find_element("css selector", "#shikaku-info").text)
            click("#solve")
            solved(1)
            shot("shikaku")

            # Design: 8 cards of the 5x12 pentomino board, the first one's solution shown
            click('#modes [data-mode="tiling"]')
            d.execute_script(
                "const s = document.querySelector('#tiling-preset'); s.value = '5x12';"
                " s.dispatchEvent(new Event('change'));"
            )
            click("#design-tab")
            click("#design-cards-run")
            wait.until(lambda d: css("#design-cards-status").text.startswith("8 cards made"))
            click('.design-card[data-card="0"] .card-toggle')
            shot("design")
        finally:
            d.quit()


if __name__ == "__main__":
    main()
