"""The disassembly's limits: the time limit (between assemblies and inside a search), the
state budget, Ctrl-C, and the search compiled ahead of time. Expected counts from the
recorded burrTxt runs (tests/xmpuzzle/burrtxt-disassembly.txt, read by test_disassembly)."""

from __future__ import annotations

import os

import pytest

from cli_helpers import call_cli
from polytile.engine import kernels
from test_disassembly import BURRTXT, FILES


def test_a_time_limit_stops_between_assemblies():
    from polytile.formats import load
    from polytile.tiling.disassembly_run import disassemble_puzzle

    out = disassemble_puzzle(load(FILES / "CubeInCage.xmpuzzle"), time_limit=0.0)
    assert out.timed_out and out.assemblies == 0
    whole = disassemble_puzzle(load(FILES / "CubeInCage.xmpuzzle"), time_limit=600.0)
    assert not whole.timed_out and whole.assemblies == BURRTXT[("CubeInCage", 0)][0]


def test_the_stop_flag_ends_a_search_in_its_course(monkeypatch):
    """The time limit's flag (set by a thread of the run) is looked at inside a search: set
    before, PelikanBurr's first search (thousands of states) stops at its first state."""
    from polytile.formats import load
    from polytile.tiling.disassembly import Stopped
    from polytile.tiling.disassembly_run import disassemble_puzzle

    from polytile.tiling import disassembly_run

    whole = disassemble_puzzle(load(FILES / "PelikanBurr.xmpuzzle"))
    assert whole.nodes > 1000
    seen: list = []
    monkeypatch.setattr(disassembly_run, "_run_all", lambda tasks, *a: seen.extend(tasks))
    disassemble_puzzle(load(FILES / "PelikanBurr.xmpuzzle"))
    dis = seen[0][2]  # the first assembly's disassembler, as the run builds it
    dis.control[0] = 1
    with pytest.raises(Stopped):
        dis.run()
    assert dis.control[1] == 0  # not one state entered


def test_a_tiny_time_limit_exits_124_with_what_it_has(monkeypatch):
    """SolidSixPieceBurrs with a time limit shorter than its run: exit 124, the figures so
    far marked incomplete; off a terminal the progress lines say how far the disassembly got."""
    from polytile.cli import progress

    monkeypatch.delenv("POLYTILE_PROGRESS", raising=False)
    monkeypatch.setattr(progress, "PLAIN_EVERY", 0.05)
    args = ("count", FILES / "SolidSixPieceBurrs.xmpuzzle", "--burr", "--disassemble", "--jobs", "1", "--json")
    whole = call_cli(*args)
    assert whole.returncode == 0, whole.stderr
    lines = [line for line in whole.stderr.splitlines() if line.startswith("polytile: ")]
    assert any("assemblies come apart" in line and "states" in line for line in lines), whole.stderr
    r = call_cli(*args, "--time-limit", "0.2")
    assert r.returncode == 124, r.stderr
    assert "time limit reached" in r.stderr and "Traceback" not in r.stderr, r.stderr
    monkeypatch.setenv("POLYTILE_PROGRESS", "0")
    quiet = call_cli(*args)
    assert quiet.returncode == 0 and "polytile: " not in quiet.stderr, quiet.stderr


def test_a_search_over_its_state_budget_is_refused():
    """PelikanBurr's first separation takes 98 moves over thousands of states."""
    from polytile.errors import PuzzleError
    from polytile.formats import load
    from polytile.tiling.disassembly_run import disassemble_puzzle

    with pytest.raises(PuzzleError, match="more than 100 states"):
        disassemble_puzzle(load(FILES / "PelikanBurr.xmpuzzle"), max_nodes=100)


@pytest.mark.parametrize("cpu", [0.9, 1.6])
def test_ctrl_c_stops_count_disassemble(cpu):
    """Ctrl-C, in the count, the listing or the disassembly (after `cpu` seconds of CPU,
    wherever that is on this machine): exit 130, the partial figures marked as such."""
    import signal
    import subprocess

    from cli_helpers import start_cli, wait_busy

    proc = start_cli(
        "count", FILES / "SolidSixPieceBurrs.xmpuzzle", "--disassemble", "--jobs", "1",
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    if not wait_busy(proc, cpu):
        proc.communicate()
        pytest.skip("finished before the signal")
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, (out, err)
    assert "interrupted" in err and "Traceback" not in err, err


@pytest.mark.skipif(
    bool(os.environ.get("POLYTILE_JIT")) or not kernels.compiled_table(),
    reason="no compiled kernels (POLYTILE_JIT=1, or the extension is missing or stale)",
)
def test_the_search_is_compiled_ahead_of_time():
    """With the extension built, a disassembly runs without loading numba."""
    import subprocess
    import sys

    code = (
        "import sys, polytile; o = polytile.disassemble(sys.argv[1]); print(o.disassemblable, 'numba' in sys.modules)"
    )
    r = subprocess.run([sys.executable, "-c", code, str(FILES / "CubeInCage.xmpuzzle")], capture_output=True, text=True)
    assert r.stdout.split() == ["1", "False"], r.stderr
