"""Files on the page in chromium: a refused file (another grid, a broken file, one too large)
clears the puzzle loaded before, and Solve or Count then say why instead of doing nothing (or
quietly solving the file before); a file's problem chooser fits a 360 px screen; downloads are
named after the puzzle (the file's name), not polytile-tiling-N."""

from __future__ import annotations

import gzip
from pathlib import Path

from paths import EXAMPLES, TESTS
from web_browser import click, css, page_width, saved, settled, until

XM = TESTS / "xmpuzzle"
SOMA = XM / "soma-3x3x3.xmpuzzle"


def open_file(d, path: Path) -> None:
    """The file picker's file, as a user chooses it (on the pane for files)."""
    d.execute_script("setMode('tiling'); setTilingSource('text'); document.querySelector('#tiling-file').value = ''")
    css(d, "#tiling-file").send_keys(str(path))


def opened(d, what: str) -> None:
    until(d, lambda d: what in css(d, "#tiling-text-info").text, 60, f"{what!r} never shown")
    assert settled(d) == "shown"


def job_of(d) -> str | None:
    return css(d, "body").get_attribute("data-job")


def test_a_refused_file_clears_the_puzzle_and_solve_says_why(page, tmp_path):
    d = page
    open_file(d, SOMA)
    opened(d, "board 3 x 3 x 3")
    before = job_of(d)
    unknown = tmp_path / "unknown-grid.xmpuzzle"  # BurrTools' grid types are 0-4: a 7 is refused
    unknown.write_bytes(gzip.decompress((XM / "Bermuda.xmpuzzle").read_bytes()).replace(b'type="1"', b'type="7"', 1))
    open_file(d, unknown)
    until(d, lambda d: css(d, "body").get_attribute("data-preview") == "refused", 60, "the file was not refused")
    assert "grid type 7" in css(d, "#message").text
    assert "grid type 7" in css(d, "#board-error").text  # the Soma cube is no longer on show
    assert d.execute_script("return JSON.stringify(currentPuzzle())").find("xmpuzzle") < 0
    assert css(d, "#burr-row").get_attribute("hidden") is not None
    for button in ("#solve", "#count"):
        click(d, "#message")  # the error put away: Solve and Count must bring the reason back
        assert not css(d, "#message").is_displayed()
        click(d, button)
        until(d, lambda d: css(d, "#progress").get_attribute("data-state") == "refused", 10, f"{button}: nothing shown")
        assert "grid type 7" in css(d, "#progress-text").text and "not started" in css(d, "#progress-text").text
        assert css(d, "#message").is_displayed() and "grid type 7" in css(d, "#message").text
        assert job_of(d) == before  # no job started (the Soma cube's, say)
    broken = tmp_path / "broken.xmpuzzle"
    broken.write_bytes(b"\x1f\x8b\x08\x00 not really gzip")
    open_file(d, SOMA)
    opened(d, "board 3 x 3 x 3")
    open_file(d, broken)
    until(d, lambda d: "broken gzip data" in css(d, "#board-error").text, 60, "the broken file left the cube")
    click(d, "#count")
    until(d, lambda d: "broken gzip data" in css(d, "#progress-text").text, 10, "Count did not say why")
    big = tmp_path / "big.txt"  # a text file too large to read: the text before goes too
    big.write_text("X" * 200_001)
    d.execute_script(
        "const t = document.querySelector('#tiling-text'); t.value = 'XX\\n\\nX\\nX'; t.dispatchEvent(new Event('input'))"
    )
    assert settled(d) == "shown"
    open_file(d, big)
    until(d, lambda d: "too large" in css(d, "#board-error").text, 60, "the large file left the text before")
    assert css(d, "#tiling-text").get_attribute("value") == ""
    open_file(d, SOMA)  # a good file after: all is well again
    opened(d, "board 3 x 3 x 3")
    click(d, "#count")
    until(d, lambda d: css(d, "#progress").get_attribute("data-state") == "done", 120, "the cube was not counted")
    assert css(d, "#count-solutions").text == "11,520"  # published


def test_the_problem_chooser_fits_a_phone(page):
    """A file with several problems at 360 px: the chooser's long lines must not widen the page."""
    d = page
    d.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride", {"width": 360, "height": 740, "deviceScaleFactor": 1, "mobile": True}
    )
    try:
        open_file(d, XM / "DemoMirrorParadox.xmpuzzle")
        until(d, lambda d: css(d, "#burr-problem").is_enabled(), 60, "no problem chooser")
        settled(d)
        assert page_width(d) <= 360, page_width(d)
        right = d.execute_script("return document.querySelector('#burr-problem').getBoundingClientRect().right")
        assert right <= 360, right
    finally:
        d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_downloads_take_the_files_name(page):
    d = page
    open_file(d, EXAMPLES / "pentomino-3x20.txt")
    opened(d, "board 3 x 20")
    click(d, "#solve")
    until(d, lambda d: css(d, "#position").text.startswith("1 / "), 60, "not solved")
    for f in ("svg", "json"):
        click(d, f"#dl-{f}")
        saved(d, f"pentomino-3x20-solution-1.{f}")
    open_file(d, SOMA)
    opened(d, "board 3 x 3 x 3")
    click(d, "#solve")
    until(d, lambda d: css(d, "#position").text.startswith("1 / "), 60, "the cube not solved")
    click(d, "#dl-stl")
    assert saved(d, "soma-3x3x3-solution-1.stl").read_bytes().startswith(b"polytile: solution 1")
