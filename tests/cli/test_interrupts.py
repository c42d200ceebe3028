"""Ctrl-C and --time-limit stop every phase at once (search,
listing, parallel count, box --count), with the partial answer marked incomplete."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time

import pytest

from cli_helpers import run_cli, start_cli, wait_busy
from paths import TESTS

BIG = TESTS / "repro" / "board20x20-80P.json"  # 80 P pentominoes: endless
BOUND = 3.0  # seconds from the signal to the exit (1 s locally; CI has 2 cores)

pytestmark = pytest.mark.skipif(os.name != "posix", reason="signals")


def interrupt_after(seconds: float, *args: str) -> tuple[subprocess.CompletedProcess, float]:
    """Run polytile, send SIGINT once it has run `seconds` of CPU (into the search however
    loaded the machine): the process and the delay to its exit."""
    proc = start_cli(*args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if not wait_busy(proc, seconds):
        out, err = proc.communicate()
        pytest.fail(f"finished before the signal: {err}")
    sent = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    delay = time.perf_counter() - sent
    return subprocess.CompletedProcess(args, proc.returncode, out, err), delay


def assert_interrupted(p: subprocess.CompletedProcess, delay: float) -> None:
    assert p.returncode == 130, p.stderr
    assert delay < BOUND
    assert "Traceback" not in p.stderr
    last = p.stderr.splitlines()[-1]
    assert last.startswith("interrupted: ") and last.endswith(" solutions so far (incomplete)")


def test_parallel_count_stops_at_once_on_ctrl_c():
    p, delay = interrupt_after(5, "count", str(BIG), "--json", "--jobs", "2")  # was 18-25 s
    assert_interrupted(p, delay)
    out = json.loads(p.stdout)
    assert out["nodes"] > 0
    assert out["complete"] is False and out["reason"] == "interrupted"  # stdout says so


def test_box_count_interrupted_says_so():
    """Was exit 0 with the partial count printed as final, nothing on stderr."""
    p, delay = interrupt_after(5, "box", "--order", "5", "--size", "20x20", "--max-copies", "8", "--count")
    assert_interrupted(p, delay)
    assert p.stdout.startswith("solutions: ")
    # a script reading stdout alone learns that the counts are lower bounds
    assert p.stdout.splitlines()[-1] == "complete: no (interrupted; the counts are lower bounds)"


def test_listing_all_stops_at_once_on_ctrl_c():
    """`solve --all` went on listing for 50 s after Ctrl-C."""
    p, delay = interrupt_after(5, "solve", str(BIG), "--all", "--format", "json")
    assert_interrupted(p, delay)
    listed = len(json.loads(p.stdout)["solutions"])
    assert p.stderr.splitlines()[-1] == f"interrupted: {listed} solutions so far (incomplete)"


def test_listing_all_keeps_the_time_limit():
    """`solve --all --time-limit 3` ran 69 s and printed 136 MB."""
    t0 = time.perf_counter()
    p = run_cli("solve", BIG, "--all", "--time-limit", "3", "--format", "json", timeout=60)
    elapsed = time.perf_counter() - t0
    assert p.returncode == 124, p.stderr
    listed = len(json.loads(p.stdout)["solutions"])
    assert p.stderr.splitlines()[-1] == f"time limit reached: {listed} solutions so far (incomplete)"
    assert elapsed < 3 + 2 + BOUND  # the limit, start-up (numba), the stop


def _python(code: str) -> subprocess.CompletedProcess:
    """`python -c CODE` with Ctrl-C's default action (as from a terminal)."""
    import sys

    from cli_helpers import _default_sigint

    return subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=120, preexec_fn=_default_sigint)


def test_ctrl_c_while_the_script_imports_is_one_line():
    """Ctrl-C while the script is still importing the command line (here: a Ctrl-C arriving
    in the middle of an import after polytile/console.py) ends in one line and 130, not in
    a traceback out of importlib."""
    done = _python(
        "import os, signal, polytile.console\nos.kill(os.getpid(), signal.SIGINT)\nimport time; time.sleep(60)\n"
    )
    assert (done.returncode, done.stderr, done.stdout) == (130, b"polytile: interrupted\n", b"")


def test_the_commands_get_pythons_ctrl_c_back():
    """main() gives the commands KeyboardInterrupt again (they report what they found); a
    program importing polytile (not the script) keeps its handler; a script started with
    Ctrl-C ignored keeps it ignored."""
    done = _python(
        "import signal, polytile.console\n"
        "from polytile.cli.main import main\n"
        "assert signal.getsignal(signal.SIGINT).__module__ == 'polytile.console'\n"
        "main(['--version'])\n"
        "assert signal.getsignal(signal.SIGINT) is signal.default_int_handler\n"
        "signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
        "import importlib, polytile.cli.main\n"
        "print('ok')\n"
    )
    assert done.returncode == 0 and done.stdout.endswith(b"ok\n"), done.stderr
    ignored = subprocess.run(
        [
            __import__("sys").executable,
            "-c",
            "import signal; signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
            "import subprocess, sys\n"
            "code = 'import signal, polytile.console; print(signal.getsignal(signal.SIGINT) == signal.SIG_IGN)'\n"
            "print(subprocess.run([sys.executable, '-c', code], capture_output=True, text=True).stdout)",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ignored.stdout.strip() == "True", ignored
    plain = _python("import signal, polytile, polytile.cli; print(signal.getsignal(signal.SIGINT).__name__)")
    assert plain.stdout == b"default_int_handler\n", plain
