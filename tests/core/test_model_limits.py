"""The model build is bounded by what the board holds, not by coordinate
ranges; area arguments answer before any model is built. Reproducers in tests/repro/."""

from __future__ import annotations

import json
import resource
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest

from polytile.core.puzzle import Board, Piece, Puzzle
from polytile.tiling.solver import Tiling
from cli_helpers import run_cli
from paths import TESTS

REPRO = TESTS / "repro"

GIB = 1 << 30


def _address_space_cap() -> None:
    """A safety net for the machine: the old code asked for 10 GB and more."""
    resource.setrlimit(resource.RLIMIT_AS, (3 * GIB, 3 * GIB))


def run_bounded(path: Path, *args: str, verb: str = "count", timeout: float = 30) -> subprocess.CompletedProcess:
    as_json = ["--json"] if verb == "count" else ["--format", "json"]
    return run_cli(verb, path, *as_json, *args, timeout=timeout, preexec_fn=_address_space_cap)


def peak_child_rss_bytes() -> int:
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024  # KiB on Linux


@pytest.mark.parametrize(
    "name, reason",
    [
        ("json-sparse-board-1M.json", "no piece can cover cell (0, 0)"),
        ("json-sparse-board-200k.json", "no piece can cover cell (0, 0)"),
        ("ascii-long-tile-mem.txt", "the tiles cover 9000 cells, the board has 10000"),
        ("json-piece-coord-30000.json", "the tiles cover 7 cells, the board has 16"),
        ("json-piece-coord-1e6.json", "the tiles cover 7 cells, the board has 16"),
    ],
)
def test_tiny_hostile_files_answer_quickly_in_little_memory(name, reason):
    t0 = time.perf_counter()
    p = run_bounded(REPRO / name, "--time-limit", "5")
    elapsed = time.perf_counter() - t0
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["solutions"] == 0
    assert f"no solution: {reason}" in p.stderr.splitlines()
    assert "Traceback" not in p.stderr
    assert elapsed < 15  # numba's start-up included; was 45-63 s
    assert peak_child_rss_bytes() < GIB


def test_piece_longer_than_the_board_fits_nowhere(tmp_path):
    """Areas agree (2 + 14 = 16), so the model is built: the far piece fits nowhere."""
    f = tmp_path / "far.json"
    f.write_text(
        json.dumps(
            {
                "board": ["XXXX"] * 4,
                "pieces": [
                    {"name": "far", "cells": [[0, 0], [0, 1000000]]},
                    {"name": "m", "cells": [[0, 0]], "count": 14},
                ],
            }
        )
    )
    p = run_bounded(f)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["solutions"] == 0
    assert "no solution: piece far (2 cells) fits nowhere on the board" in p.stderr.splitlines()
    assert peak_child_rss_bytes() < GIB


def test_far_apart_cells_are_tiled(tmp_path):
    """Two dominoes on two 1x2 islands a million cells apart: one tiling (by hand).
    (`solve`: the symmetry analysis of `count` still lays out a grid over the box.)"""
    f = tmp_path / "islands.json"
    f.write_text(
        json.dumps(
            {
                "board": [[0, 0], [0, 1], [0, 999998], [0, 999999]],
                "pieces": [{"name": "d", "cells": [[0, 0], [0, 1]], "count": 2}],
            }
        )
    )
    p = run_bounded(f, "--all", verb="solve")
    assert p.returncode == 0, p.stderr
    assert len(json.loads(p.stdout)["solutions"]) == 1
    assert peak_child_rss_bytes() < GIB


def test_board_spread_over_a_huge_box_without_a_grid():
    """A 3D board whose bounding box has ~10^18 cells (beyond any grid): two 1x1x2 islands
    and two dominoes, one tiling; each domino has one placement per island (by hand).
    (Listed, not counted: the symmetry analysis still lays out a grid over the box.)"""
    far = 10**6
    cells = np.array([[0, 0, 0], [0, 0, 1], [far, far, far], [far, far, far + 1]], dtype=np.int64)
    domino = np.array([[0, 0, 0], [0, 0, 1]], dtype=np.int64)
    puzzle = Puzzle(
        Board(cells, np.zeros(4, dtype=np.int64)),
        [Piece("d", domino, np.zeros(2, dtype=np.int64), 2)],
        allow_reflection=True,
    )
    tiling = Tiling(puzzle)
    assert tiling.model().cover.n_options == 2
    assert len(tiling.solve(limit=None).found) == 1
