"""The command-line contract of DESIGN.md, run as a user would."""

from __future__ import annotations

import json
import os
import signal
import subprocess

import pytest
from cli_helpers import call_cli, start_cli, wait_busy

from checker import check
from conftest import CORPUS, tiling_cases

TILING = CORPUS / "tiling"
CASES = {c["id"]: c for c in tiling_cases()}


run = call_cli  # in this process; Ctrl-C below needs a process of its own


def test_count_json_contract():
    case = CASES["pentomino-8x8-centre-hole"]
    p = run("count", TILING / case["file"], "--unique", "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert set(out) == {"solutions", "unique", "seconds", "nodes", "complete", "method"} and out["complete"] is True
    assert (out["solutions"], out["unique"]) == (case["solutions"], case["unique"])
    assert isinstance(out["seconds"], float) and out["seconds"] >= 0
    assert isinstance(out["nodes"], int) and out["nodes"] > 0


def test_count_json_without_unique_has_null():
    case = CASES["pentomino-3x20"]
    out = json.loads(run("count", TILING / case["file"], "--json").stdout)
    assert out["solutions"] == case["solutions"] and out["unique"] is None


def test_count_no_reflect_soma():
    case = CASES["soma-3x3x3"]
    out = json.loads(run("count", TILING / case["file"], "--unique", "--no-reflect", "--json").stdout)
    assert (out["solutions"], out["unique"]) == (case["solutions"], case["unique"])


def test_no_reflect_changes_rotate_only_case():
    case = CASES["rotate-only-4L4-4x4"]
    path = TILING / case["file"]
    rot = json.loads(run("count", path, "--no-reflect", "--json").stdout)["solutions"]
    assert rot == case["solutions"]
    free = json.loads(run("count", path, "--json").stdout)["solutions"]
    assert free > rot  # with flipping allowed, mixed L/J tilings appear too


def test_solve_json_placements_are_verified():
    case = CASES["checkerboard-8x8-centre-hole"]
    path = TILING / case["file"]
    p = run("solve", path, "--all", "--format", "json")
    assert p.returncode == 0, p.stderr
    sols = json.loads(p.stdout)["solutions"]
    assert len(sols) == case["solutions"]
    for s in sols:
        check(path, [(pl["piece"], pl["cells"]) for pl in s], reflect=True, partial=False)


def test_solve_text_one_letter_per_piece():
    path = TILING / "pentomino-6x10.txt"
    p = run("solve", path)
    assert p.returncode == 0
    rows = p.stdout.strip().splitlines()
    assert len(rows) == 6 and all(len(r) == 10 for r in rows)
    letters = "".join(rows)
    assert sorted(set(letters)) == sorted("FILNPTUVWXYZ")
    assert all(letters.count(ch) == 5 for ch in set(letters))


def test_solve_3d_layers_side_by_side():
    p = run("solve", TILING / "soma-3x3x3.json")
    rows = p.stdout.rstrip("\n").splitlines()
    assert len(rows) == 3
    layers = [r.split() for r in rows]
    assert all(len(layer) == 3 and all(len(x) == 3 for x in layer) for layer in layers)
    letters = "".join("".join(x) for x in layers)
    assert len(letters) == 27 and len(set(letters)) == 7


def test_solve_limit_and_unique():
    path = TILING / "pentomino-3x20.txt"
    p = run("solve", path, "--all", "--unique", "--format", "json")
    assert len(json.loads(p.stdout)["solutions"]) == CASES["pentomino-3x20"]["unique"]
    p = run("solve", path, "--limit", "3", "--format", "json")
    assert len(json.loads(p.stdout)["solutions"]) == 3


def test_solve_output_file(tmp_path):
    out = tmp_path / "sol.json"
    p = run("solve", TILING / "pentomino-3x20.txt", "--format", "json", "-o", out)
    assert p.returncode == 0 and p.stdout == ""
    assert len(json.loads(out.read_text())["solutions"]) == 1


def test_unsolvable_solve_exits_1_count_exits_0():
    path = TILING / "rotate-only-5L-5x5.txt"
    p = run("solve", path, "--no-reflect")
    assert p.returncode == 1
    p = run("count", path, "--no-reflect", "--json")
    assert p.returncode == 0 and json.loads(p.stdout)["solutions"] == 0


def test_partial_puzzle_warns():
    p = run("count", TILING / "partial-x-triplication.txt", "--json")
    assert "warning: not all tiles are used" in p.stderr
    assert json.loads(p.stdout)["solutions"] == CASES["partial-x-triplication"]["solutions"]


LONG = (
    "\n".join(["X" * 16] * 10)
    + "\n\n"
    + "\n\n".join(
        [
            "XXXXX",
            "X\nXXXX",
            "XX\n XXX",
            "XXX\nXX",
            "XXX\n X\n X",
            "X X\nXXX",
            "X\nX\nXXX",
            "X\nXX\n XX",
            " X\nXXX\n X",
            " X\nXXXX",
            "XX\n X\n XX",
            " XX\nXX\n X",
        ]
        * 3
    )
    + "\n"
)


def test_time_limit_reports_partial_count(tmp_path):
    f = tmp_path / "long.txt"
    f.write_text(LONG)  # 36 pentominoes on 10x16: far too long to finish
    p = run("count", f, "--json", "--time-limit", "1")
    assert p.returncode == 124
    assert "time limit" in p.stderr
    out = json.loads(p.stdout)
    assert out["complete"] is False and out["reason"] == "time limit"  # the DESIGN.md contract
    p = run("count", f, "--time-limit", "0.5")
    assert p.stdout.splitlines()[-1] == "complete: no (time limit; the counts are lower bounds)"


@pytest.mark.skipif(os.name != "posix", reason="signals")
def test_ctrl_c_stops_cleanly(tmp_path):
    f = tmp_path / "long.txt"
    f.write_text(LONG)
    proc = start_cli("count", f, "--json", stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert wait_busy(proc, 3.0)  # 3 s of CPU: into the count, however loaded the machine
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert "interrupted" in err and "Traceback" not in err
    assert json.loads(out)["nodes"] > 0


@pytest.mark.parametrize("verb", ["count", "solve", "mesh", "stats"])
def test_the_help_names_every_format_the_command_reads(verb, tmp_path):
    """`mesh` and `stats` read BurrTools files as `count` does; their help said only ASCII or JSON."""
    assert ".xmpuzzle" in " ".join(run(verb, "--help").stdout.split())
    soma = CORPUS.parent / "xmpuzzle" / "soma-3x3x3.xmpuzzle"
    if verb == "mesh":
        p = run("mesh", soma, "-o", tmp_path / "soma.stl")
        assert p.returncode == 0 and p.stdout.startswith(f"{tmp_path / 'soma.stl'}: 7 pieces"), p.stderr
