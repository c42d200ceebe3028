"""Input files that are no puzzle files: a device that never ends (/dev/zero, /dev/urandom),
a FIFO no one writes, endless standard input. Each is one line and exit 2, at once, having
read no more than the size limit and one byte. In processes of their own, under a memory cap
and a timeout: a reader that reads them whole or waits on them fails the test, not the run."""

from __future__ import annotations

import os
import resource
import subprocess

import pytest

from cli_helpers import call_cli, command
from paths import EXAMPLES
from test_bad_input import assert_one_error

CAP = 1 << 30  # address space: far beyond the 4 MB limit, far below /dev/zero read whole
DOMINOES = "XX\nXX\n\nXX\n\nXX\n"


def _capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CAP, CAP))


def run(*args: str, cwd=None, stdin=None, input=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        command(*args),
        cwd=cwd,
        stdin=stdin,
        input=input,
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=_capped,
    )


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
@pytest.mark.parametrize("verb", ["count", "solve", "convert"])
def test_an_endless_device_is_refused_in_one_line(tmp_path, device, verb):
    args = (verb, device, "out.json") if verb == "convert" else (verb, device)
    assert_one_error(run(*args, cwd=tmp_path), f"{device}: not a regular file (a device)")


def test_a_fifo_no_one_writes_is_refused_within_the_time_limit(tmp_path):
    os.mkfifo(tmp_path / "p.txt")
    line = assert_one_error(
        run("count", "p.txt", "--time-limit", "2", cwd=tmp_path), "p.txt: not a regular file (a FIFO)"
    )
    assert "- to read standard input" in line


def test_endless_standard_input_is_read_to_the_limit_only(tmp_path):
    with open("/dev/zero", "rb") as zero:
        assert_one_error(run("count", "-", cwd=tmp_path, stdin=zero), "-: file too large (limit 4000000 bytes)")


def test_a_name_for_standard_input_still_reads_a_pipe(tmp_path):
    res = run("count", "/dev/stdin", cwd=tmp_path, input=DOMINOES)
    assert res.returncode == 0, res.stderr
    assert "solutions: 2" in res.stdout


PROSE = """# Notes

Counted with `polytile count FILE --unique`, on one core of a busy machine:
the 12 pentominoes fill a 6x10 box in 2,339 ways up to symmetry.
"""


@pytest.mark.parametrize("verb", ["count", "solve"])
def test_a_file_that_is_not_a_puzzle_is_refused_naming_it(tmp_path, verb):
    (tmp_path / "notes.md").write_text(PROSE)
    assert_one_error(call_cli(verb, "notes.md", cwd=tmp_path), "notes.md: not a puzzle drawing")
    readme = str(EXAMPLES / "README.md")
    assert_one_error(call_cli(verb, readme), f"{readme}: not a puzzle drawing")


def test_a_drawing_in_ten_colours_is_still_a_puzzle(tmp_path):
    colours = "ABCDEFGHIJ"  # a 1x10 board, each cell its own colour; ten monominoes, one of each
    (tmp_path / "p.txt").write_text(colours + "\n\n" + " ".join(colours) + "\n")
    res = call_cli("count", "p.txt", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "solutions: 1\n" in res.stdout
