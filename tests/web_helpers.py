"""Shared by the browser test and the screenshot script: the real server on a free port
(`polytile serve` in a subprocess) and Debian's chromium driven by Selenium, offline."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path
from cli_helpers import start_cli

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
MISSING = "chromium/chromedriver not installed: apt-get install chromium chromium-driver"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get_json(url: str, timeout: float = 5.0):
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return json.loads(r.read())


@contextlib.contextmanager
def server(*args: str):
    """`polytile serve` on a free port; yields its base URL; stops it afterwards."""
    port = free_port()
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    # the server's output goes to a file, not a pipe nobody reads while the tests run: a full
    # pipe (64 KB) would block the server mid-write and every later request with it
    log = tempfile.TemporaryFile("w+")
    proc = start_cli(
        "serve",
        "--port",
        port,
        *args,
        stdout=log,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 60
        while True:
            try:
                get_json(url + "/api/info", 1.0)
                break
            except OSError:
                if proc.poll() is not None or time.time() > deadline:
                    log.seek(0)
                    raise RuntimeError(f"polytile serve did not start: {log.read()}") from None
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if os.environ.get("POLYTILE_SERVE_LOG"):  # (how much the server wrote, for a test's author)
            print(f"polytile serve wrote {os.fstat(log.fileno()).st_size} bytes")
        log.close()


def chromium_available() -> bool:
    """True where chromium and chromedriver are installed; always true under .ci/run
    (POLYTILE_BROWSER=required), so a CI without the browser fails instead of skipping."""
    if os.environ.get("POLYTILE_BROWSER") == "required":
        return True
    return (
        Path(CHROMIUM).exists()
        and Path(CHROMEDRIVER).exists()
        or bool(shutil.which("chromium") and shutil.which("chromedriver"))
    )


def chrome(width: int = 1400, height: int = 1000):
    """Headless chromium through /usr/bin/chromedriver; selenium-manager never downloads."""
    os.environ["SE_OFFLINE"] = "true"
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    # WebGL (the 3D view) in software: SwiftShader, which newer chromium enables only on request
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--enable-unsafe-swiftshader",
        f"--window-size={width},{height}",
        "--hide-scrollbars",
        "--force-device-scale-factor=1",
    ):
        options.add_argument(arg)
    driver_path = CHROMEDRIVER if Path(CHROMEDRIVER).exists() else shutil.which("chromedriver")
    return webdriver.Chrome(service=Service(executable_path=driver_path), options=options)


def verify_rectangles(rows: list[list[int]], rects: list[list[int]]) -> None:
    """An independent Shikaku check: the rectangles tile the grid, each holds one number, its area."""
    h, w = len(rows), len(rows[0])
    owner = {}
    for k, (r, c, a, b) in enumerate(rects):
        assert 0 <= r and 0 <= c and r + a <= h and c + b <= w and a > 0 and b > 0
        for y in range(r, r + a):
            for x in range(c, c + b):
                assert (y, x) not in owner, f"cell {(y, x)} covered twice"
                owner[(y, x)] = k
    assert len(owner) == h * w, "a cell is not covered"
    for k, (r, c, a, b) in enumerate(rects):
        inside = [rows[y][x] for y in range(r, r + a) for x in range(c, c + b) if rows[y][x]]
        assert inside == [a * b], f"rectangle {k} holds {inside}, area {a * b}"


def shikaku_rows(text: str) -> list[list[int]]:
    """The grid of the Shikaku text form (`W H`, then rows), read without polytile."""
    lines = [line.split() for line in text.splitlines() if line.strip()]
    return [[int(x) for x in line] for line in lines[1:]]
