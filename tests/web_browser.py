"""The browser tests' one way to the page, and the waits they share (a pytest plugin: tests/conftest.py
lists it in `pytest_plugins`, so every module gets the fixtures without importing them).

- `page`: `polytile serve` (web_helpers.server) with its fork server warm, Debian's chromium
  (web_helpers.chrome) on the page, ready (`body[data-ready]`); `d.base_url` is the server's
  address and `d.downloads` a folder chromium saves downloads in. One per module.
- `page_url`: the warm server only, for modules that open windows of their own (open_page).

Every wait is on a state the page shows (`body[data-ready]`, `body[data-preview]`, `#progress[data-state]`,
an element's text), never a fixed sleep: the tests must pass on a loaded machine. A module using either
fixture is marked `browser` (tests/conftest.py)."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from web_helpers import MISSING, chrome, chromium_available, get_json, server

AXE_DIR = Path("/tmp/polytile-axe")
WARM_SECONDS = 300  # the fork server's first warm-up (numba's kernels), on a machine with both cores busy


# ---- waits -------------------------------------------------------------------------------------


def until(driver, what, timeout=60.0, message=""):
    """Wait until `what(driver)` is true (an element gone stale meanwhile is asked again)."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda d: what(d), message
    )


def css(driver, selector):
    return driver.find_element("css selector", selector)


def click(driver, selector):
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", css(driver, selector))
    css(driver, selector).click()


def ready(d, timeout: float = 60) -> None:
    """The page has the server's answer and every script ran (`body[data-ready]`)."""
    until(d, lambda d: css(d, "body").get_attribute("data-ready") == "1", timeout, "the page did not get ready")


def settled(d, timeout: float = 60) -> str:
    """The page's check of the puzzle on it is back (`body[data-preview]` is no longer
    pending): shown, refused or none. Returns which."""
    until(
        d,
        lambda d: css(d, "body").get_attribute("data-preview") not in (None, "", "pending"),
        timeout,
        "the page's check of the puzzle did not come back",
    )
    return css(d, "body").get_attribute("data-preview")


def previewed(d, what: str) -> None:
    """Wait until the page's preview (its /api/check) is of the puzzle now on the page: a
    preview of the puzzle before, arriving after Solve, takes the solution's view away (on a
    busy machine the check takes longer than a test's clicks)."""
    until(
        d,
        lambda d: d.execute_script("return !!state.preview && state.previewKey === JSON.stringify(currentPuzzle())"),
        30,
        f"{what}: no preview",
    )


def retype(driver, selector, value: str) -> None:
    """Type `value` over a field's text, selected first, as a user does. Not clear(): it fires
    a change with the field empty, and on a busy machine the page checks that empty box
    (a 400, a SEVERE line in the console) before the next keys arrive."""
    from selenium.webdriver.common.keys import Keys

    field = css(driver, selector)
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(value)


def page_width(d) -> int:
    """The document's width: more than the window's when something makes the page scroll sideways."""
    return d.execute_script("return document.documentElement.scrollWidth")


def severe(d):
    return [e for e in d.get_log("browser") if e["level"] == "SEVERE" and e.get("source") != "network"]


def saved(d, name: str, timeout: float = 30.0) -> Path:
    """A download chromium finished into d.downloads (no .crdownload left)."""
    path = d.downloads / name
    until(
        d,
        lambda d: path.exists() and path.stat().st_size > 0 and not list(d.downloads.glob("*.crdownload")),
        timeout,
        f"{name} was not downloaded (the folder holds {sorted(p.name for p in d.downloads.iterdir())})",
    )
    return path


# ---- axe-core --------------------------------------------------------------------------------------


@functools.cache
def axe_source() -> str:
    """axe.min.js: $POLYTILE_AXE, or npm's axe-core under /tmp/polytile-axe (installed if missing)."""
    path = Path(os.environ.get("POLYTILE_AXE") or AXE_DIR / "node_modules" / "axe-core" / "axe.min.js")
    if not path.exists() and not os.environ.get("POLYTILE_AXE"):
        npm = shutil.which("npm")
        assert npm, "axe-core is missing and npm is not installed (apt-get install npm; or set POLYTILE_AXE)"
        AXE_DIR.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [npm, "install", "--prefix", str(AXE_DIR), "--no-audit", "--no-fund", "axe-core@4"],
            check=True,
            capture_output=True,
            timeout=300,
        )
    return path.read_text()


def violations(d) -> list:
    """axe-core's violations on the page as it is (every WCAG 2.1 A/AA rule and best practice)."""
    if not d.execute_script("return !!window.axe"):
        d.execute_script(axe_source())
    return d.execute_async_script("""const done = arguments[0];
        axe.run(document, {resultTypes: ['violations']}).then((r) => done(r.violations.map(
          (v) => [v.id, v.impact, v.nodes.slice(0, 4).map((n) => n.target.join(' '))])));""")


def assert_clean(d, state: str) -> None:
    found = violations(d)
    assert not found, f"{state}: {found}"


# ---- the server and the browser ------------------------------------------------------------------


def warm(url: str, timeout: float = WARM_SECONDS) -> None:
    """Wait until the server's fork server has loaded the kernels (/api/info says so): the first
    job then starts at once, however busy the machine was while it warmed up."""
    deadline = time.monotonic() + timeout
    while not get_json(url + "/api/info", 30)["server"]["warm"]:
        assert time.monotonic() < deadline, f"the server did not warm up in {timeout} s"
        time.sleep(0.2)  # (polling a state, not waiting a fixed time)


def open_page(url: str, width: int = 1400, height: int = 1000, downloads: Path | None = None):
    """Chromium on the page, ready; a phone's screen emulated below 600 px (a window is at least
    500 px wide)."""
    d = chrome(max(width, 600), height)
    try:
        if width < 600:
            d.execute_cdp_cmd(
                "Emulation.setDeviceMetricsOverride",
                {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True},
            )
        if downloads is not None:
            d.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
        d.base_url, d.downloads = url, downloads
        d.get(url + "/")
        ready(d)
    except BaseException:
        d.quit()
        raise
    return d


@pytest.fixture(scope="module")
def page_url():
    """`polytile serve`, warm, for the module's tests."""
    if not chromium_available():
        pytest.skip(MISSING)
    with server() as url:
        warm(url)
        yield url


@pytest.fixture(scope="module")
def page(page_url, tmp_path_factory):
    """Chromium on the page of the module's server (ready; downloads go to d.downloads)."""
    d = open_page(page_url, downloads=tmp_path_factory.mktemp("downloads"))
    try:
        yield d
    finally:
        d.quit()
