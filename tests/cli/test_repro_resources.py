"""Inputs that exhausted time or memory: each gives one line and exit 2, or a correct
or honestly partial answer, in bounded time and memory. Files in tests/repro/ (README)."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

from paths import TESTS
from cli_helpers import child_cpu
from test_bad_input import assert_one_error, run

REPRO = TESTS / "repro"


def copy(tmp_path: Path, name: str) -> str:
    shutil.copy(REPRO / name, tmp_path / name)
    return name


# leading zeros: the expected answers, worked out by hand from each file (the zeros hide small numbers)
@pytest.mark.parametrize(
    "name, stdout",
    [
        ("shikaku-text-leading-zeros.txt", "1\nA A\n"),  # 2x1, one 2: one rectangle
        ("puzzlink-leading-zeros.txt", "0\n"),  # 2x1 with no clue at all
    ],
)
def test_leading_zeros_are_read_as_their_value(tmp_path, name, stdout):
    res = run(tmp_path, "shikaku", copy(tmp_path, name))
    assert "Traceback" not in res.stderr and res.returncode == 0, res.stderr
    assert res.stdout == stdout


def test_leading_zeros_in_a_game_id(tmp_path):
    # 2x1:b2 is two blanks and a 2: three cells for a grid of two
    res = run(tmp_path, "shikaku", copy(tmp_path, "tatham-leading-zeros.txt"))
    assert_one_error(res, "more than 2 x 1 cells")


def test_a_long_digit_run_is_refused_in_linear_time(tmp_path):
    text = "1x" + "1" * 100_000
    (tmp_path / "id.txt").write_text(text)
    with child_cpu() as cpu:
        res = run(tmp_path, "shikaku", "id.txt")
        assert_one_error(res, "id.txt:1:")
        res = run(tmp_path, "shikaku", text)  # given in place of a file name
    line = assert_one_error(res, "(100002 characters)")
    assert len(line) < 300
    assert cpu[0] < 5, cpu  # CPU seconds, two commands (was 52 s of backtracking)


@pytest.mark.parametrize("action", [[], {}, 3, None, True])
def test_an_action_of_the_wrong_type_is_a_400(client, action):
    r = client.post("/api/jobs", json={"action": action, "puzzle": {}})
    assert r.status_code == 400, r.text
    assert r.json()["error"].startswith("unknown action")


def dense_lattice(tmp_path: Path) -> str:
    """The 24x24 checkerboard of 2s (about 10^70 domino tilings) took over 40 s and 2.9 GB,
    with no way to stop it. Grids of 2s are now counted exactly in milliseconds
    (test_shikaku_dense.py); a 42x42 grid of 3s on row + col = 0 mod 3 (straight-tromino
    tilings: far more states than any budget here) is the dense grid that must still stop."""
    rows = [" ".join("3" if (r + c) % 3 == 0 else "0" for c in range(42)) for r in range(42)]
    (tmp_path / "lattice-42x42-3s.txt").write_text("42 42\n" + "\n".join(rows) + "\n")
    return "lattice-42x42-3s.txt"


def test_a_dense_grid_stops_at_the_memory_budget(tmp_path):
    """The counter's budget refuses it in one line (a small budget here)."""
    res = run(tmp_path, "shikaku", "--count", dense_lattice(tmp_path), "--max-memory", "64M")
    assert_one_error(res, "over the memory budget of 64.0 MB", "--max-memory")


def test_a_dense_grid_keeps_the_time_limit(tmp_path):
    with child_cpu() as cpu:
        res = run(tmp_path, "shikaku", "--json", dense_lattice(tmp_path), "--time-limit", "0.5")
    assert cpu[0] < 3 and res.returncode == 124, cpu
    out = json.loads(res.stdout)
    assert out["solutions"] is None and out["complete"] is False and out["reason"] == "time limit"
    res = run(tmp_path, "shikaku", "lattice-42x42-3s.txt", "--time-limit", "0.2")
    assert res.stdout.startswith("solutions: unknown (time limit")


def test_the_checkerboard_of_2s_is_counted(tmp_path):
    res = run(
        tmp_path,
        "shikaku",
        "--count",
        copy(tmp_path, "shikaku-24x24-checker-2s.txt"),
        "--max-memory",
        "64M",
        "--time-limit",
        "2",
    )
    assert res.returncode == 0 and len(res.stdout.strip()) == 70  # the exact value: test_shikaku_dense


def test_max_memory_is_a_size(tmp_path):
    res = run(tmp_path, "shikaku", "--count", "2x2:b2b", "--max-memory", "lots")
    assert_one_error(res, "--max-memory", "no size")


BIG = REPRO / "board20x20-80P.json"  # 80 P pentominoes on 20x20: endless


@pytest.mark.parametrize("jobs", ["2", "0"])
def test_a_parallel_count_keeps_its_time_limit(tmp_path, jobs):
    """`count --jobs 2 --time-limit 5` was refused ("a time limit needs one job")."""
    t = time.perf_counter()
    res = run(tmp_path, "count", str(BIG), "--jobs", jobs, "--time-limit", "1.5", "--json")
    took = time.perf_counter() - t
    assert res.returncode == 124, res.stderr
    assert took < 1.5 + 1.5  # the limit + 1 s (and a loaded CI machine's margin)
    out = json.loads(res.stdout)
    assert out["complete"] is False and out["reason"] == "time limit" and out["solutions"] > 0


def test_a_time_limited_checkpointed_count_resumes_to_the_published_count(tmp_path):
    """Stopped by its time limit, a checkpointed parallel count keeps its finished parts;
    run again without a limit it finishes with the corpus count (6x10: 9356)."""
    path = TESTS / "corpus" / "tiling" / "pentomino-6x10.txt"
    ck = tmp_path / "ck.sqlite"
    first = run(tmp_path, "count", str(path), "--jobs", "2", "--checkpoint", str(ck), "--time-limit", "0.05", "--json")
    assert first.returncode in (0, 124)
    again = run(tmp_path, "count", str(path), "--jobs", "2", "--checkpoint", str(ck), "--json")
    out = json.loads(again.stdout)
    assert again.returncode == 0 and out["solutions"] == 9356 and out["complete"] is True


# the peak resident set of this process's own address space (VmHWM, kB): ru_maxrss would
# also count the pages of the forking test process, which it keeps across exec
PEAK = (
    "import re, sys\nfrom polytile.cli.main import main\ncode = main(sys.argv[1:])\n"
    "hwm = re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read()).group(1)\n"
    "print('peak', hwm, file=sys.stderr)\nsys.exit(code)\n"
)


def run_measured(tmp_path: Path, *args: str):
    """polytile in a process of its own: the result, the CPU seconds it used (user and
    system: a loaded machine stretches the wall clock, not the work, and a deadline not kept
    shows as work done past it) and its peak memory (bytes)."""
    import resource
    import subprocess
    import sys

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    res = subprocess.run([sys.executable, "-c", PEAK, *args], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    took = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    peak = int(res.stderr.splitlines()[-1].split()[1]) * 1024
    res.stderr = "\n".join(res.stderr.splitlines()[:-1]) + "\n"
    return res, took, peak


def cube_of_pentacubes(tmp_path: Path) -> str:
    """A 27x27x27 box of pentacubes, as the survey's make_big_inputs.py writes it."""
    cells = [[x, y, z] for x in range(27) for y in range(27) for z in range(27)]
    pieces = [
        {"name": "A", "cells": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0]], "count": 3936},
        {"name": "M", "cells": [[0, 0, 0]], "count": 3},
    ]
    (tmp_path / "cube27.json").write_text(json.dumps({"board": cells, "pieces": pieces}))
    return "cube27.json"


@pytest.mark.parametrize("name", ["json-100-board-60-piece-partial.json", "cube27"])
def test_big_counts_keep_the_time_limit_and_the_memory_budget(tmp_path, name):
    """The 60x60 piece on a 100x100 board was 31 s and 8.6 GB, the box of pentacubes 21.8 s and
    3.1 GB, both under --time-limit 2."""
    file = cube_of_pentacubes(tmp_path) if name == "cube27" else copy(tmp_path, name)
    res, took, peak = run_measured(tmp_path, "count", file, "--time-limit", "2", "--json", "--jobs", "1")
    assert res.returncode == 124, res.stderr
    out = json.loads(res.stdout)
    assert out["complete"] is False and out["reason"] == "time limit"
    assert peak < 1 << 30, peak
    assert took < 2 + 1 + 2.5  # the limit, its second, and a slow CI machine's start-up


@pytest.mark.parametrize("name", ["json-100-board-60-piece-partial.json", "cube27"])
def test_big_unique_beyond_the_budget_is_one_line(tmp_path, name):
    file = cube_of_pentacubes(tmp_path) if name == "cube27" else copy(tmp_path, name)
    # (the refusal comes before any search; the time limit only bounds a run that would not
    # refuse, and is long enough for a loaded machine's start-up and model)
    res = run(tmp_path, "count", file, "--unique", "--time-limit", "120")
    line = assert_one_error(
        res, "the symmetry analysis needs about", "over the memory budget of 1.0 GB", "--max-memory"
    )
    assert line.startswith(f"polytile: {file}:")


def test_a_model_beyond_the_budget_is_refused_before_it_is_built(tmp_path):
    res = run(tmp_path, "count", copy(tmp_path, "json-100-board-60-piece-partial.json"), "--max-memory", "64M")
    assert_one_error(res, "building the placements needs about", "over the memory budget of 64.0 MB")


def test_box_counts_keep_a_time_limit(tmp_path):
    """`box` takes --time-limit too (every command that counts does); the count is
    then marked a lower bound on stdout."""
    with child_cpu() as cpu:
        res = run(
            tmp_path,
            "box",
            "--order",
            "5",
            "--size",
            "20x20",
            "--max-copies",
            "8",
            "--count",
            "--json",
            "--time-limit",
            "1",
        )
    assert res.returncode == 124 and cpu[0] < 1 + 2.5, (cpu, res.stderr)
    out = json.loads(res.stdout)
    assert out["complete"] is False and out["reason"] == "time limit"
