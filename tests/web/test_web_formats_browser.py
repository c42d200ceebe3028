"""BurrTools files and solution downloads in real chromium (the new formats): the
Soma cube's .xmpuzzle opened through the file picker and counted (11,520 solutions, 240 up to
the cube's symmetry: published, and burrTxt's 240 on this very file in
tests/xmpuzzle/README.md), its drawn solution checked by tests/burr_checker.py,
the problem chooser of a file with two problems, a bad file's one-line error, and the
.xmpuzzle, STL and OBJ downloads saved by the browser and read back (burr_checker, trimesh).
axe-core finds nothing once a file is opened and solved."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from paths import EXAMPLES, TESTS
from web_browser import assert_clean, click, css, previewed, saved, until
from test_web_formats import UNIT, mesh_volume

import burr_checker

XM = TESTS / "xmpuzzle"
SOMA = XM / "soma-3x3x3.xmpuzzle"


def open_file(d, path: Path) -> None:
    d.execute_script("setMode('tiling'); setTilingSource('text'); document.querySelector('#tiling-file').value = ''")
    css(d, "#tiling-file").send_keys(str(path))


def drawn(d) -> list:
    groups = d.find_elements("css selector", "#solution-svg g.piece")
    return [(g.get_attribute("data-piece"), json.loads(g.get_attribute("data-cells"))) for g in groups]


def test_open_count_solve_and_download_soma(page):
    d = page
    open_file(d, SOMA)
    until(d, lambda d: "3 x 3 x 3" in css(d, "#tiling-text-info").text, 30, "the file's board is not shown")
    assert css(d, "#burr-name").text == "soma-3x3x3.xmpuzzle: 1 problem"
    assert not css(d, "#reflect").is_selected() and not css(d, "#reflect").is_enabled()  # solids: rotate only
    assert_clean(d, "a .xmpuzzle opened")
    click(d, "#unique")
    click(d, "#count")
    until(d, lambda d: d.find_elements("css selector", "#count-unique"), 60, "not counted")
    assert (css(d, "#count-solutions").text, css(d, "#count-unique").text) == ("11,520", "240")
    click(d, "#unique")
    click(d, "#solve")
    until(d, lambda d: css(d, "#position").text.startswith("1 / "), 60, "not solved")
    click(d, "#next")
    shown = drawn(d)
    assert len(shown) == 7
    burr_checker.check(SOMA, shown)
    assert_clean(d, "a .xmpuzzle solved")
    for f in ("xmpuzzle", "stl", "obj"):
        assert css(d, f"#dl-{f}").get_attribute("href").endswith(f"/solutions/1.{f}")
        click(d, f"#dl-{f}")
    back = saved(d, "soma-3x3x3-solution-2.xmpuzzle")
    stored = burr_checker.stored(back)
    assert len(stored) == 1
    burr_checker.check(back, stored[0])
    assert sorted(sorted(map(tuple, c)) for _, c in stored[0]) == sorted(sorted(map(tuple, c)) for _, c in shown)
    stl, obj = (saved(d, f"soma-3x3x3-solution-2.{f}").read_bytes() for f in ("stl", "obj"))
    assert mesh_volume(stl, obj) == pytest.approx(27 * UNIT**3, rel=1e-6)
    link = d.execute_script("updateShareUrl(); return location.href")  # a share link holds the file
    d.get("about:blank")
    d.get(link)
    until(d, lambda d: css(d, "body").get_attribute("data-ready") == "1", 60)
    until(d, lambda d: "3 x 3 x 3" in css(d, "#tiling-text-info").text, 30, "the shared file is not shown")
    assert css(d, "#burr-name").text == "soma-3x3x3.xmpuzzle: 1 problem"


def test_problem_chooser_plain_xml_and_bad_files(page, tmp_path):
    d = page
    open_file(d, XM / "DemoMirrorParadox.xmpuzzle")
    until(d, lambda d: not css(d, "#burr-row").get_attribute("hidden") and css(d, "#burr-problem").is_enabled(), 30)
    options = d.find_elements("css selector", "#burr-problem option")
    assert [o.text.split(" · ")[1] for o in options] == ["Example From Text", "Another Example"]
    assert d.execute_script("return document.querySelector('#burr-problem').labels.length") == 1
    until(d, lambda d: "problem 1" in (d.execute_script("return state.preview && state.preview.source") or ""), 30)
    from selenium.webdriver.support.ui import Select

    Select(css(d, "#burr-problem")).select_by_value("2")
    until(
        d,
        lambda d: "problem 2" in (d.execute_script("return state.preview && state.preview.source") or ""),
        30,
        "choosing problem 2 did not show it",
    )
    plain = tmp_path / "soma-as-plain.xml"  # plain XML, told by its <puzzle> root
    plain.write_bytes(gzip.decompress(SOMA.read_bytes()))
    open_file(d, plain)
    until(d, lambda d: "soma-as-plain.xml: 1 problem" == css(d, "#burr-name").text, 30)
    until(d, lambda d: "27 cells" in css(d, "#tiling-text-info").text, 30)
    broken = tmp_path / "broken.xmpuzzle"
    broken.write_bytes(b"\x1f\x8b\x08\x00 not really gzip")
    open_file(d, broken)
    until(d, lambda d: css(d, "#message").is_displayed(), 30, "no error shown")
    message = css(d, "#message").text
    assert (
        message.startswith("broken.xmpuzzle: broken gzip data") and "\n" not in message and "Traceback" not in message
    )
    assert_clean(d, "a bad .xmpuzzle refused")


def test_download_links_say_why_not(page):
    """A link a puzzle cannot use is greyed with the reason in its title: no .xmpuzzle for a
    hex board nor for rotate-only flat pieces, no mesh for Shikaku."""
    d = page

    def links() -> dict:
        return {
            f: (css(d, f"#dl-{f}").get_attribute("aria-disabled") == "true", css(d, f"#dl-{f}").get_attribute("title"))
            for f in ("xmpuzzle", "stl", "obj")
        }

    def solved(test: str, what: str) -> None:
        until(
            d,
            lambda d: d.execute_script(f"const v = state.view; return !!v && v.job.state === 'done' && ({test})"),
            60,
            f"{what}: {d.execute_script('return JSON.stringify([state.mode, state.view && state.view.job.puzzle])')[:300]}",
        )

    d.execute_script("setMode('tiling'); setView('solutions')")
    d.execute_script(
        "setTilingSource('text'); const t = document.querySelector('#tiling-text'); t.value = arguments[0]; "
        "t.dispatchEvent(new Event('input'))",
        (EXAMPLES / "tetrahexes-4x7.json").read_text(),
    )
    until(d, lambda d: "28 cells" in css(d, "#tiling-text-info").text, 30)
    click(d, "#solve")
    solved("v.job.summary.grid === 'hex'", "hex not solved")
    got = links()
    assert got["xmpuzzle"][0] and "not the hex grid" in got["xmpuzzle"][1]
    assert not got["stl"][0] and not got["obj"][0]
    d.execute_script("setTilingSource('draw'); setGrid('square'); PRESETS['6x10']()")
    d.execute_script("const r = document.querySelector('#reflect'); r.checked = false; puzzleChanged()")  # rotate only
    previewed(d, "the rotate-only 6x10")
    click(d, "#solve")
    solved("v.job.puzzle.reflect === false && v.job.summary.area === 60", "6x10 not solved")
    assert links()["xmpuzzle"][0] and "rotate-only" in links()["xmpuzzle"][1]
    d.execute_script("document.querySelector('#reflect').checked = true")
    d.execute_script(
        "setMode('shikaku'); document.querySelector('#shikaku-text').value = '7x7:a8a4e3a3a2f2c6f5k6_2_2_2_4a'"
    )
    click(d, "#shikaku-load")
    until(d, lambda d: css(d, "#shikaku-info").text.startswith("7 x 7, "), 30, "the Shikaku text was not loaded")
    previewed(d, "the Shikaku puzzle")
    click(d, "#solve")
    solved("v.job.summary.kind === 'shikaku'", "shikaku not solved")
    assert all(off and "Shikaku" in why for off, why in links().values())
    d.execute_script("setMode('tiling')")
