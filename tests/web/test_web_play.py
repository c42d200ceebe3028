"""Hand play in a real browser (Debian's chromium, headless, Selenium): pentominoes in 3 x 20.
Two pieces of a solution are dragged from the tray (with the mouse, and with touch), turned with the R key and
the buttons until they match, and dropped; a drop off the board is refused with its reason; a
placed piece is picked up and put back with Undo; the count of completions drops from the
corpus's 8; "Finish it from here" completes the board, checked by the independent checker."""

from __future__ import annotations

import json
import os

import pytest
from checker import check
from paths import DOCS
from web_api_helpers import CASES, TILING
from web_browser import css, open_page, severe, until


def normalise(cells):
    r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
    return sorted((r - r0, c - c0) for r, c in cells)


def turns_to(start, target):
    """(flip, quarter turns) that make the tray's orientation `start` the shape `target`,
    with the page's rule: a turn maps (r, c) to (c, -r), a flip (r, c) to (r, -c)."""
    for flip in (False, True):
        cells = [(r, -c) for r, c in start] if flip else list(start)
        for k in range(4):
            if normalise(cells) == normalise(target):
                return flip, k
            cells = [(c, -r) for r, c in cells]
    raise AssertionError(f"{target} is no orientation of {start}")


def status(d) -> dict:
    s = css(d, "#play-status")
    return {k: s.get_attribute(f"data-{k}") for k in ("verdict", "completions", "capped")} | {"text": s.text}


def cell_offset(d, cell):
    """The offset of a board cell's centre from the centre of the play board's SVG."""
    return d.execute_script(
        """
        const svg = document.querySelector('#play-svg'), box = svg.getBoundingClientRect();
        const W = svg.viewBox.baseVal.width, cols = arguments[2], scale = box.width / W, S = (W - 8) / cols;
        return [(4 + (arguments[1] + 0.5) * S) * scale - box.width / 2, (4 + (arguments[0] + 0.5) * S) * scale - box.height / 2];
    """,
        cell[0],
        cell[1],
        20,
    )


def drag(d, piece: int, cell, touch: bool = False):
    """Drag a tray piece so that its first cell lands on `cell`: with the mouse, or a finger."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput

    card = css(d, f'.play-piece[data-piece="{piece}"]')
    dx, dy = (int(round(v)) for v in cell_offset(d, cell))
    if not touch:
        ActionChains(d).click_and_hold(card).move_by_offset(8, 8).move_to_element_with_offset(
            css(d, "#play-svg"), dx, dy
        ).release().perform()
        return
    finger = ActionBuilder(d, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"))
    finger.pointer_action.move_to(card).pointer_down().move_by(8, 8).move_to(css(d, "#play-svg"), dx, dy).pointer_up()
    finger.perform()


def hand_pieces(d) -> list:
    return [
        json.loads(g.get_attribute("data-cells"))
        for g in d.find_elements("css selector", '#play-svg g.piece[data-source="hand"]')
    ]


def place(d, summary: dict, name: str, target: list, touch: bool = False) -> None:
    """Drag piece `name` onto the cells `target`, turned with the key R and the Flip button."""
    from selenium.webdriver.common.action_chains import ActionChains

    i = next(k for k, p in enumerate(summary["pieces"]) if p["name"] == name)
    css(d, f'.play-piece[data-piece="{i}"]').click()  # a tap chooses it
    flip, k = turns_to([tuple(c) for c in summary["pieces"][i]["cells"]], target)
    if flip:
        css(d, "#play-flip").click()
    for _ in range(k):
        ActionChains(d).send_keys("r").perform()
    before = len(hand_pieces(d))
    drag(d, i, min(map(tuple, target)), touch)
    until(d, lambda d: len(hand_pieces(d)) == before + 1, 10, f"{name} was not placed: {status(d)['text']}")
    assert sorted(map(tuple, hand_pieces(d)[-1])) == sorted(map(tuple, target))


def test_play_by_hand(url_and_solution):
    url, solution = url_and_solution
    d = open_page(url, 1400, 1000)
    try:
        d.execute_script(
            "const s = document.querySelector('#tiling-preset'); s.value = '3x20'; s.dispatchEvent(new Event('change'));"
        )
        until(d, lambda d: d.execute_script("return !!(state.preview && state.preview.area === 60)"), 20)
        css(d, "#play-tab").click()
        until(d, lambda d: status(d)["verdict"] == "open", 20)
        assert (status(d)["completions"], status(d)["capped"]) == (str(CASES["pentomino-3x20"]["solutions"]), "0")
        summary = d.execute_script("return state.preview")
        # a drop off the board is refused, with the reason in view
        i_bar = next(k for k, p in enumerate(summary["pieces"]) if p["name"] == "I")
        drag(d, i_bar, (0, 18))
        until(d, lambda d: "does not fit" in status(d)["text"], 10)
        assert hand_pieces(d) == []
        # two pieces of a solution: one that must be flipped (a mirrored chiral piece) and another
        chosen = pick_two(summary, solution)
        d.execute_script(
            "window.pointerTypes = []; document.addEventListener('pointerdown', "
            "(e) => pointerTypes.push(e.pointerType), true);"
        )
        for (name, cells), touch in zip(chosen, (False, True)):  # the second with a finger
            place(d, summary, name, cells, touch)
        until(d, lambda d: status(d)["verdict"] == "open" and int(status(d)["completions"]) < 8, 20)
        types = d.execute_script("return pointerTypes")  # taps, Flip and a drag by mouse; a drag by touch
        assert types[-1] == "touch" and set(types[:-1]) == {"mouse"}
        # pick the last one up (a tap sends it back to the tray), then Undo puts it back
        last = chosen[-1][1]
        dx, dy = cell_offset(d, min(map(tuple, last)))
        from selenium.webdriver.common.action_chains import ActionChains

        ActionChains(d).move_to_element_with_offset(css(d, "#play-svg"), int(dx), int(dy)).click().perform()
        until(d, lambda d: len(hand_pieces(d)) == 1, 10)
        css(d, "#play-undo").click()
        until(d, lambda d: len(hand_pieces(d)) == 2 and status(d)["verdict"] == "open", 10)
        # finish it from here: the solver's pieces are drawn apart from the player's
        css(d, "#play-finish").click()
        until(d, lambda d: len(d.find_elements("css selector", '#play-svg g.piece[data-source="found"]')) == 10, 30)
        groups = d.find_elements("css selector", "#play-svg g.piece")
        finished = [(g.get_attribute("data-piece"), json.loads(g.get_attribute("data-cells"))) for g in groups]
        check(TILING / CASES["pentomino-3x20"]["file"], finished, reflect=True, partial=False)
        assert "Finished" in status(d)["text"] and not severe(d)
        if os.environ.get("POLYTILE_SCREENSHOTS"):  # docs/web-play.png, when asked
            d.execute_script("window.scrollTo(0, 0)")
            d.save_screenshot(str(DOCS / "web-play.png"))
    finally:
        d.quit()


def test_finish_is_not_lost_behind_a_waiting_count(url_and_solution):
    """Finish clicked while a move's count is on its way and another's waits its turn (a busy
    server: Undo right after a pick-up, then Finish) is done next, not dropped for the count."""
    url, _ = url_and_solution
    d = open_page(url, 1400, 1000)
    try:
        d.execute_script(
            "const s = document.querySelector('#tiling-preset'); s.value = '3x20'; s.dispatchEvent(new Event('change'));"
        )
        until(d, lambda d: d.execute_script("return !!(state.preview && state.preview.area === 60)"), 20)
        css(d, "#play-tab").click()
        until(d, lambda d: status(d)["verdict"] == "open", 20)
        d.execute_script("askServer(false); askServer(false); document.querySelector('#play-finish').click()")
        until(d, lambda d: len(d.find_elements("css selector", '#play-svg g.piece[data-source="found"]')) == 12, 30)
        assert "Finished" in status(d)["text"] and not severe(d)
    finally:
        d.quit()


def pick_two(summary: dict, solution: list) -> list:
    """Two placements of `solution`: first one whose shape needs a flip from the tray's
    orientation, then one that needs no flip but at least one turn."""
    shapes = {p["name"]: [tuple(c) for c in p["cells"]] for p in summary["pieces"]}
    flipped = next((n, c) for n, c in solution if turns_to(shapes[n], c)[0])
    turned = next(
        (n, c)
        for n, c in solution
        if n != flipped[0] and turns_to(shapes[n], c)[0] is False and turns_to(shapes[n], c)[1] > 0
    )
    return [flipped, turned]


@pytest.fixture(scope="module")
def url_and_solution(page_url):
    """The server, and one solution of 3 x 20 from its own finish (the position to play: the
    counts the test checks come from the corpus and the checker)."""
    import urllib.request

    base = page_url
    puzzle = {
        "kind": "tiling",
        "board": ["X" * 20] * 3,
        "pieces": [{"name": n, "count": 1} for n in "FILNPTUVWXYZ"],
        "reflect": True,
    }
    req = urllib.request.Request(
        base + "/api/play",
        method="POST",
        headers={"Content-Type": "application/json"},
        data=json.dumps({"puzzle": puzzle, "placed": [], "finish": True}).encode(),
    )
    with urllib.request.urlopen(req, timeout=60) as r:
        found = json.loads(r.read())["found"]
    yield base, [(p["piece"], p["cells"]) for p in found]
