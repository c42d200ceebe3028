"""Hand play with the keyboard alone on every grid, in real chromium: a whole square
puzzle (Katamino's slam 1 with 4 pentominoes, 5 x 4), a whole hex puzzle (the 7 tetrahexes in
their 4 x 7 parallelogram), a triangle one (two triamonds in a hexagon) and a whole cube puzzle (a 2 x 3 x 2 box of three Soma pieces, T, A
and P, rotate only) are played to the end by key presses only: Enter on the Play tab, Tab to a
piece of the tray, Enter to bring it onto the board, R / Shift+R / F (and T, Y on cubes) to turn
it, the arrows (and Page Up / Page Down on cubes) to move it, Enter to place it; Backspace undoes
once on the way. Each move is announced in the live region. The solution played is the
independent checker's (tests/checker.py), and the final position is checked by it too (every
cell covered once, every piece one of the puzzle's). axe-core finds nothing in the playing state
on each grid. Hint and Statistics are not offered on the triangle grid, and say why."""

from __future__ import annotations

import json

from checker import _shape_key, all_solutions, check, read_puzzle, shift_of
from web_browser import css, until, violations

from conftest import CORPUS

SLAM = CORPUS / "tiling" / "katamino-slam1-4.txt"
TETRAHEXES = CORPUS.parent / "lattice-corpus" / "tetrahexes-4x7.json"
SOMA = CORPUS / "tiling" / "soma-3x3x3.json"


# ---- the keyboard ----------------------------------------------------------------------------

PRESSED: list[str] = []  # the keys of the game being played


def press(d, *keys):
    PRESSED.extend(keys)
    d.switch_to.active_element.send_keys(*keys)


def status(d) -> str:
    return css(d, "#play-status").text


def ghost(d) -> list | None:
    found = d.find_elements("css selector", "#play-svg[data-ghost]")
    return json.loads(found[0].get_attribute("data-ghost")) if found else None


def hand(d) -> list[tuple[str, list]]:
    return [
        (g.get_attribute("data-piece"), json.loads(g.get_attribute("data-cells")))
        for g in d.find_elements("css selector", '#play-svg g.piece[data-source="hand"]')
    ]


def same_shape(a: list, b: list, lattice: bool) -> bool:
    """Whether b is a translate of a (on triangle and hex drawings: by an even row + column)."""
    a, b = sorted(map(tuple, a)), sorted(map(tuple, b))
    delta = [y - x for x, y in zip(a[0], b[0])]
    moved = [tuple(x + dx for x, dx in zip(p, delta)) for p in a]
    return moved == b and (not lattice or sum(delta) % 2 == 0)


def open_play(d):
    from selenium.webdriver.common.keys import Keys

    css(d, "#play-tab").send_keys(Keys.ENTER)  # the tab chosen from the keyboard
    until(d, lambda d: not css(d, "#view-play").get_attribute("hidden"), 10, "the play view is hidden")
    try:
        until(d, lambda d: "Can still be finished" in status(d), 30)
    except Exception:
        state = d.execute_script(
            "return {asking: play.asking, again: play.again, summary: !!play.summary, "
            "same: play.key === JSON.stringify(currentPuzzle()), preview: !!state.preview}"
        )
        raise AssertionError(f"no first verdict: {status(d)}; {state}") from None


def focus_tray(d, index: int):
    """Tab (or Shift+Tab) until the tray's piece `index` has the focus."""
    from selenium.webdriver.common.keys import Keys

    for _ in range(60):
        a = d.switch_to.active_element
        at = a.get_attribute("data-piece") if "play-piece" in (a.get_attribute("class") or "") else None
        if at == str(index):
            return
        press(d, Keys.SHIFT + Keys.TAB if at is not None and int(at) > index else Keys.TAB)
    raise AssertionError(f"the tray's piece {index} never took the focus")


def turn_to(d, target: list, cube: bool, lattice: bool, flips: bool) -> None:
    """Turn the ghost until it is a translate of the target: R (and F) on flat grids; on cubes
    every product Y^a T^b R^c, which reaches each of the 24 rotations."""

    def done():
        return same_shape(ghost(d), target, lattice)

    if cube:
        for _ in range(4):
            for _ in range(4):
                for _ in range(4):
                    if done():
                        return
                    press(d, "r")
                press(d, "t")
            press(d, "y")
    else:
        for _ in range(2 if flips else 1):
            for _ in range(6):
                if done():
                    return
                press(d, "r")
                assert "turned" in status(d), status(d)
            press(d, "f")
    assert done(), f"no turn made {target} from {ghost(d)}"


def move_to(d, target: list, cube: bool, lattice: bool, name: str) -> None:
    from selenium.webdriver.common.keys import Keys

    for _ in range(80):
        g = ghost(d)
        if sorted(map(tuple, g)) == sorted(map(tuple, target)):
            return
        delta = [y - x for x, y in zip(min(map(tuple, g)), min(map(tuple, target)))]
        if cube and delta[2]:
            key = Keys.PAGE_UP if delta[2] > 0 else Keys.PAGE_DOWN
        elif delta[0]:
            key = Keys.ARROW_DOWN if delta[0] > 0 else Keys.ARROW_UP
        else:
            key = Keys.ARROW_RIGHT if delta[1] > 0 else Keys.ARROW_LEFT
        press(d, key)
        assert status(d).startswith(name), f"the move was not announced: {status(d)}"
    raise AssertionError(f"the ghost never reached {target}: {ghost(d)}")


# ---- the puzzles and the checker's solution --------------------------------------------------


def flat_turns(part, piece) -> bool:
    """Whether a cube piece goes to `part` by quarter turns in the layer alone (the R key)."""

    def norm(cells):
        lo = [min(c[i] for c in cells) for i in range(3)]
        return sorted(tuple(x - m for x, m in zip(c, lo)) for c in cells)

    cells = [tuple(c) for c in piece]
    for _ in range(4):
        if norm(cells) == norm(part):
            return True
        cells = [(c, -r, z) for r, c, z in cells]
    return False


def target_moves(d, path, grid: str, reflect: bool, special=None) -> list[tuple[int, list]]:
    """The checker's solution as (tray index, the cells the piece goes to in the page's points),
    in reading order. With `special(part, piece cells)`, a solution where some piece needs it
    (a flip, a turn out of the layer), so that the game needs those keys."""
    board, tiles, dim = read_puzzle(path)
    summary = d.execute_script("return state.preview")
    cells = [tuple(c) for c in summary["cells"]]
    lo_file, lo_page = shift_of(list(board), dim, grid), shift_of(cells, dim, grid)
    to_page = {c: tuple(x - a + b for x, a, b in zip(c, lo_file, lo_page)) for c in board}
    points = dict(zip(cells, map(tuple, summary.get("points") or summary["cells"])))
    pieces = [{"cells": t, "count": 1, "min": 1, "reflect": reflect} for t in tiles]
    kinds = [_shape_key({tuple(c): "" for c in p["cells"]}, dim, reflect, grid) for p in summary["pieces"]]
    solutions = sorted(all_solutions(board, pieces, dim, grid=grid), key=lambda s: sorted(map(sorted, s)))

    def kind_of(part) -> int:
        return kinds.index(_shape_key({c: "" for c in part}, dim, reflect, grid))

    chosen = (
        next(
            (s for s in solutions if any(special(part, summary["pieces"][kind_of(part)]["cells"]) for part in s)), None
        )
        if special
        else solutions[0]
    )
    assert chosen, "no solution needs the keys wanted"
    return [(kind_of(part), [list(points[to_page[c]]) for c in part]) for part in sorted(chosen, key=min)]


def play_to_the_end(d, moves, *, cube=False, lattice=False, flips=True) -> None:
    from selenium.webdriver.common.keys import Keys

    PRESSED.clear()
    open_play(d)
    names = [p["name"] for p in d.execute_script("return state.preview.pieces")]
    until(d, lambda d: d.find_elements("css selector", "#play-tray .play-piece svg"), 30, "the tray has no shapes")
    for k, (piece, target) in enumerate(moves):
        focus_tray(d, piece)
        press(d, Keys.ENTER)
        until(d, lambda d: ghost(d) is not None, 10, "no ghost on the board")
        assert d.switch_to.active_element.get_attribute("id") == "play-svg"
        assert status(d).startswith(names[piece]), status(d)
        if cube and k == 0:  # the layer keys, announced
            press(d, Keys.PAGE_UP)
            assert "layer 2" in status(d), status(d)
            press(d, Keys.PAGE_DOWN)
            assert "layer 1" in status(d), status(d)
        turn_to(d, target, cube, lattice, flips)
        move_to(d, target, cube, lattice, names[piece])
        assert "it fits" in status(d), status(d)
        press(d, Keys.ENTER)
        until(d, lambda d, k=k: len(hand(d)) == k + 1, 10, "the piece was not placed")
        if k == 0:  # Backspace takes it back, then again
            until(d, lambda d: "Can still be finished" in status(d), 30, f"no verdict: {status(d)}")
            press(d, Keys.BACKSPACE)
            until(d, lambda d: not hand(d), 10, "Backspace did not undo")
            assert "Undone" in status(d) or "Can still be finished" in status(d), status(d)
            focus_tray(d, piece)
            press(d, Keys.ENTER)
            until(d, lambda d: ghost(d) is not None, 10, "no ghost after the undo")
            move_to(d, target, cube, lattice, names[piece])
            press(d, Keys.ENTER)
            until(d, lambda d: len(hand(d)) == 1, 10, "the piece was not placed again")
            found = violations(d)  # the playing state, a ghost on the board
            assert not found, f"playing: {found}"
    until(d, lambda d: status(d).startswith("Solved"), 30, f"not solved: {status(d)}")


def assert_tiling(d, path, reflect: bool, grid: str) -> None:
    """Every board cell covered once by the hand's pieces, each a piece of the puzzle (checker)."""
    summary = d.execute_script("return state.preview")
    placed = hand(d)
    covered = [tuple(c) for _, cells in placed for c in cells]
    assert sorted(covered) == sorted(map(tuple, summary["cells"])) and len(set(covered)) == len(covered)
    check(path, placed, reflect=reflect, partial=False)
    assert grid == summary["grid"]


def wait_preview(d, grid: str, dim: int, area: int) -> None:
    """Until the page's preview is the puzzle just loaded (the last one's stays until then)."""
    until(
        d,
        lambda d: d.execute_script(
            "const s = state.preview; return !!(s && s.cells && s.grid === arguments[0] "
            "&& s.cells[0].length === arguments[1] && s.area === arguments[2])",
            grid,
            dim,
            area,
        ),
        30,
        f"no preview of the {grid} puzzle",
    )


def load_text(d, path, reflect: bool) -> None:
    d.execute_script(
        """setMode('tiling'); setTilingSource('text');
        document.querySelector('#tiling-text').value = arguments[0];
        document.querySelector('#reflect').checked = arguments[1]; newText(); setView('solutions');""",
        path.read_text(),
        reflect,
    )
    board, _, dim = read_puzzle(path)
    wait_preview(d, "square", dim, len(board))


# ---- the three grids ---------------------------------------------------------------------------


def test_square_puzzle_by_keyboard(page):
    d = page
    load_text(d, SLAM, True)
    play_to_the_end(d, target_moves(d, SLAM, "square", True))
    assert_tiling(d, SLAM, True, "square")


def test_hex_puzzle_by_keyboard(page):
    d = page
    d.execute_script(
        "setMode('tiling'); setTilingSource('draw'); document.querySelector('#reflect').checked = true; "
        "latticePreset('tetrahexes-4x7'); setView('solutions')"
    )
    wait_preview(d, "hex", 2, 28)

    def mirrored(part, piece) -> bool:
        shape = {c: "" for c in part}
        return _shape_key(shape, 2, False, "hex") != _shape_key({tuple(c): "" for c in piece}, 2, False, "hex")

    moves = target_moves(d, TETRAHEXES, "hex", True, mirrored)
    play_to_the_end(d, moves, lattice=True)
    assert_tiling(d, TETRAHEXES, True, "hex")
    assert {"r", "f"} <= set(PRESSED)  # a piece was turned and one flipped


def test_triangle_puzzle_by_keyboard(page, tmp_path):
    """Two triamonds in a hexagon of six triangles (each lies up and down triangles in turn)."""
    d = page
    path = tmp_path / "hexagon.json"
    path.write_text(
        json.dumps(
            {
                "grid": "triangle",
                "board": [[0, 0, 2], [0, 0, 1], [0, 1, 1], [-1, 0, 2], [-1, 1, 2], [-1, 1, 1]],
                "pieces": [{"name": "triamond", "cells": [[0, 0, 2], [0, 0, 1], [0, 1, 1]], "count": 2}],
            }
        )
    )
    d.execute_script(
        """setMode('tiling'); setTilingSource('text');
        document.querySelector('#tiling-text').value = arguments[0];
        document.querySelector('#reflect').checked = true; newText(); setView('solutions');""",
        path.read_text(),
    )
    wait_preview(d, "triangle", 3, 6)
    play_to_the_end(d, target_moves(d, path, "triangle", True), lattice=True)
    assert_tiling(d, path, True, "triangle")
    for tab in ("#hint-tab", "#stats-tab"):  # not offered here, and the reason given
        assert not css(d, tab).is_enabled() and "square" in css(d, tab).get_attribute("title")


def test_cube_puzzle_by_keyboard(page, tmp_path):
    d = page
    soma = {p["name"]: p for p in json.loads(SOMA.read_text())["pieces"]}
    puzzle = {
        "board": [[r, c, z] for r in range(2) for c in range(3) for z in range(2)],
        "pieces": [soma[n] for n in "TAP"],
        "allow_reflection": False,
    }
    path = tmp_path / "soma-tap-2x3x2.json"
    path.write_text(json.dumps(puzzle))
    load_text(d, path, True)  # "pieces may be flipped" left on: the file says rotate only, the page follows
    assert not css(d, "#reflect").is_selected()
    moves = target_moves(d, path, "square", False, lambda part, piece: not flat_turns(part, piece))
    play_to_the_end(d, moves, cube=True, flips=False)
    assert_tiling(d, path, False, "square")
    from selenium.webdriver.common.keys import Keys

    assert {"r", "t"} <= set(PRESSED) and {Keys.PAGE_UP, Keys.PAGE_DOWN} & set(PRESSED) and "f" not in PRESSED


def test_a_click_on_the_tray_brings_the_ghost(page):
    """Off the square grid the mouse chooses a piece (a click on the tray: its ghost on the
    board, which takes the focus) and the buttons turn it; the keys do the rest."""
    from test_web_browser import click

    d = page
    d.execute_script(
        "setMode('tiling'); setTilingSource('draw'); document.querySelector('#reflect').checked = true; "
        "latticePreset('tetrahexes-4x7'); setView('solutions')"
    )
    wait_preview(d, "hex", 2, 28)
    open_play(d)
    until(d, lambda d: d.find_elements("css selector", "#play-tray .play-piece svg"), 30, "the tray has no shapes")
    click(d, '#play-tray [data-piece="1"]')
    until(d, lambda d: ghost(d) is not None, 10, "no ghost after the click")
    assert d.switch_to.active_element.get_attribute("id") == "play-svg"
    before = ghost(d)
    click(d, "#play-rotate")
    assert "turned" in status(d) and not same_shape(before, ghost(d), True)
    click(d, "#play-flip")
    assert "flipped" in status(d)
