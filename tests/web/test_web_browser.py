"""The page in a real browser: Debian's chromium, headless, driven by Selenium against
`polytile serve`. Draw the 8x8 board with the centre hole by clicking, solve it and check the
drawn solution with the independent checker, count 520 / 65 (the manifest's values), cancel
a long count and get a working page back, type a Shikaku puzzle and see it solved.
Skipped, with the reason, where chromium or chromedriver is missing."""

from __future__ import annotations

import json
import time

from checker import check
from conftest import CORPUS, tiling_cases
from web_browser import click, css, ready, retype, until
from web_helpers import get_json, shikaku_rows, verify_rectangles

CASES = {c["id"]: c for c in tiling_cases()}
SHIKAKU = {c["id"]: c for c in json.loads((CORPUS / "shikaku" / "manifest.json").read_text())}


def drawn_solution(driver) -> list[tuple[str, list]]:
    groups = driver.find_elements("css selector", "#solution-svg g.piece")
    return [(g.get_attribute("data-piece"), json.loads(g.get_attribute("data-cells"))) for g in groups]


def test_draw_solve_count_cancel_and_shikaku(page):
    d = page
    case = CASES["pentomino-8x8-centre-hole"]
    path = CORPUS / "tiling" / case["file"]

    # draw: the default board is 8 x 8 with the 12 pentominoes; click the centre 2 x 2 out
    for r, c in ((3, 3), (3, 4), (4, 3), (4, 4)):
        click(d, f'#tiling-grid [data-r="{r}"][data-c="{c}"]')
    assert len(d.find_elements("css selector", "#tiling-grid .cell.on")) == 60

    # solve: the first solution is drawn; the checker (no polytile code) accepts it
    click(d, "#solve")
    until(d, lambda d: len(drawn_solution(d)) == 12, message="no solution drawn")
    check(path, drawn_solution(d), reflect=True, partial=False)
    until(d, lambda d: css(d, "#position").text == f"1 / {case['solutions']}", message="listing not finished")
    click(d, "#next")
    second = drawn_solution(d)
    check(path, second, reflect=True, partial=False)
    assert css(d, "#position").text.startswith("2 /")

    # count with unique on: 520 / 65 and the progress bar shown, finished
    click(d, "#unique")
    click(d, "#count")
    until(d, lambda d: d.find_elements("css selector", "#count-unique"), message="count did not finish")
    assert css(d, "#count-solutions").text == f"{case['solutions']:,}"
    assert css(d, "#count-unique").text == f"{case['unique']:,}"
    bar = css(d, "#progress")
    assert bar.is_displayed() and bar.get_attribute("data-state") == "done"
    click(d, "#unique")  # unique off again

    # a long count (free pentominoes, 2 copies each, in a 10 x 8 box: hours) and Cancel
    click(d, '#modes [data-mode="box"]')
    for sel, value in (("#box-width", "10"), ("#box-height", "8"), ("#box-max", "2")):
        retype(d, sel, value)
    d.execute_script(
        "const s = document.querySelector('#box-order'); s.value = '5'; s.dispatchEvent(new Event('change'));"
    )
    click(d, "#count")
    until(
        d,
        lambda d: (
            css(d, "#progress").get_attribute("data-state") == "running" and "elapsed" in css(d, "#progress-text").text
        ),
        30,
        "the count did not start",
    )
    until(d, lambda d: "nodes" in css(d, "#progress-text").text, 30, "no progress from the count")  # under way
    assert css(d, "#progress").is_displayed() and css(d, "#progress").get_attribute("data-state") == "running"
    assert "Counting" in css(d, "#progress-text").text
    job = d.find_element("css selector", "body").get_attribute("data-job")
    t0 = time.time()
    click(d, "#cancel")
    until(d, lambda d: css(d, "#progress").get_attribute("data-state") == "cancelled", 10, "not cancelled")
    assert get_json(f"{d.base_url}/api/jobs/{job}")["state"] == "cancelled"
    assert time.time() - t0 < 10

    # the page answers at once: a small box solves and is drawn
    for sel, value in (("#box-width", "5"), ("#box-height", "4")):
        retype(d, sel, value)
    d.execute_script(
        "const s = document.querySelector('#box-order'); s.value = '4'; s.dispatchEvent(new Event('change'));"
    )
    t0 = time.time()
    click(d, "#solve")
    until(d, lambda d: len(drawn_solution(d)) == 5, 20, "no box solution after the cancel")
    assert time.time() - t0 < 20
    check(CORPUS / "tiling" / CASES["tetromino-box-4x5-atmost2"]["file"], drawn_solution(d), reflect=True, partial=True)

    # Shikaku: type the numbers of the corpus 7 x 7 puzzle, solve, check the rectangles
    scase = SHIKAKU["tatham-7x7"]
    rows = shikaku_rows((CORPUS / "shikaku" / scase["file"]).read_text())
    click(d, '#modes [data-mode="shikaku"]')
    for r, row in enumerate(rows):
        for c, v in enumerate(row):
            if v:
                css(d, f'#shikaku-grid input[data-r="{r}"][data-c="{c}"]').send_keys(str(v))
    click(d, "#solve")
    until(d, lambda d: d.find_elements("css selector", "#solution-svg rect.rectangle"), 30, "Shikaku not solved")
    rects = [
        json.loads(e.get_attribute("data-rect"))
        for e in d.find_elements("css selector", "#solution-svg rect.rectangle")
    ]
    verify_rectangles(rows, rects)
    until(d, lambda d: d.find_elements("css selector", "#shikaku-solutions"), 10)
    assert css(d, "#shikaku-solutions").text == str(scase["solutions"])
    errors = [e for e in d.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, errors


def test_file_upload_share_link_hint_and_stats(page):
    d = page
    case = CASES["pentomino-3x20"]
    path = CORPUS / "tiling" / case["file"]
    d.get(d.base_url + "/")
    ready(d)
    click(d, "#tiling-text-tab")
    css(d, "#tiling-file").send_keys(str(path.resolve()))  # read by the page, sent as text
    until(d, lambda d: "board 3 x 20" in css(d, "#tiling-text-info").text, 20, "the file was not read")
    click(d, "#unique")
    click(d, "#count")
    until(d, lambda d: d.find_elements("css selector", "#count-unique"), 30)
    assert (css(d, "#count-solutions").text, css(d, "#count-unique").text) == (
        str(case["solutions"]),
        str(case["unique"]),
    )

    # the share link brings the same puzzle back in a fresh page
    click(d, "#share")
    link = d.current_url
    assert "#p=" in link
    d.get("about:blank")
    d.get(link)
    ready(d)
    assert css(d, "#tiling-text").get_attribute("value") == path.read_text()
    assert css(d, "#unique").is_selected()
    click(d, "#solve")
    until(d, lambda d: css(d, "#position").text == f"1 / {case['unique']}", 30)
    check(path, drawn_solution(d), reflect=True, partial=False)

    # hints build on each other; statistics agree with the manifest
    click(d, '#views [data-view="hint"]')
    click(d, "#hint-next")
    until(d, lambda d: "hint 1" in css(d, "#hint-text").text, 30)
    click(d, "#hint-next")
    until(d, lambda d: "hint 2" in css(d, "#hint-text").text, 30)
    assert len(d.find_elements("css selector", "#hint-svg g.piece")) == 2
    click(d, '#views [data-view="stats"]')
    click(d, "#stats-run")
    until(d, lambda d: d.find_elements("css selector", "#stats-out table"), 60)
    assert f"{case['solutions']} solutions" in css(d, "#stats-out").text
