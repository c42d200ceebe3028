"""Ctrl-C at random moments on a parallel count, with the other core kept busy:
the count printed is never less than what the progress bar showed (never 0 after progress).
`make fuzz` (POLYTILE_FUZZ=long) runs 50 trials; the default profile 6 (about 15 s idle)."""

from __future__ import annotations

import os
import pty
import random
import re
import select
import signal
import subprocess
import sys
import time

import pytest
from cli_helpers import start_cli
from paths import EXAMPLES

BEDLAM = EXAMPLES / "bedlam-cube.json"
TRIALS = 50 if os.environ.get("POLYTILE_FUZZ") == "long" else 6
SHOWN = re.compile(rb"([0-9][0-9,]*) solutions")


def _read_bar(fd: int, until: float) -> bytes:
    """What the bar drew on the terminal until `until` (perf_counter)."""
    out = b""
    while (left := until - time.perf_counter()) > 0:
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                out += os.read(fd, 65536)
            except OSError:
                break
    return out


def _trial(rng: random.Random) -> tuple[int, int]:
    """One count interrupted at a random moment: (most solutions shown, solutions printed)."""
    master, slave = pty.openpty()
    env = dict(os.environ, COLUMNS="120")
    env.pop("POLYTILE_PROGRESS", None)  # the suite turns the bar off; this test reads it
    proc = start_cli(
        "count", BEDLAM, "--jobs", "2", stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL, env=env
    )
    os.close(slave)
    try:
        start = time.perf_counter()
        bar = b""
        while b"solutions" not in bar and time.perf_counter() - start < 30:
            bar += _read_bar(master, time.perf_counter() + 0.05)
        bar += _read_bar(master, time.perf_counter() + rng.uniform(0.0, 2.0))
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=30)
        said = _read_bar(master, time.perf_counter() + 1.0)  # the rest of stderr
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    shown = max((int(m.replace(b",", b"")) for m in SHOWN.findall(bar)), default=0)
    assert b"Traceback" not in bar + said and proc.returncode == 130, (proc.returncode, out, bar + said)
    printed = re.search(rb"solutions: ([0-9]+)", out)
    if printed is None:  # Ctrl-C before the search began (a loaded machine's start-up): nothing counted
        assert out == b"" and b"polytile: interrupted" in said and shown == 0, (out, said)
        return 0, 0
    return shown, int(printed.group(1))


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs a terminal (pty)")
def test_ctrl_c_keeps_the_count_shown_with_the_other_core_busy():
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        rng = random.Random(19)
        for _ in range(TRIALS):
            shown, printed = _trial(rng)
            assert printed >= shown, f"the bar showed {shown:,} solutions, then {printed:,} printed"
            assert printed > 0 or shown == 0
    finally:
        busy.kill()
        busy.wait()
