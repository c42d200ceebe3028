"""Reproducers D14-D23 of issue 26 (resources): each gives one line and exit 2, or a correct
or honestly partial answer, in bounded time and memory. Files in tests/repro/ (README)."""
from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

from test_bad_input import assert_one_error, run

REPRO = Path(__file__).parent / "repro"


def copy(tmp_path: Path, name: str) -> str:
    shutil.copy(REPRO / name, tmp_path / name)
    return name


# D17: the expected answers, worked out by hand from each file (the zeros hide small numbers)
@pytest.mark.parametrize("name, stdout", [
    ("shikaku-text-leading-zeros.txt", "1\nA A\n"),      # 2x1, one 2: one rectangle
    ("puzzlink-leading-zeros.txt", "0\n"),               # 2x1 with no clue at all
])
def test_d17_leading_zeros_are_read_as_their_value(tmp_path, name, stdout):
    res = run(tmp_path, "shikaku", copy(tmp_path, name))
    assert "Traceback" not in res.stderr and res.returncode == 0, res.stderr
    assert res.stdout == stdout


def test_d17_leading_zeros_in_a_game_id(tmp_path):
    # 2x1:b2 is two blanks and a 2: three cells for a grid of two
    res = run(tmp_path, "shikaku", copy(tmp_path, "tatham-leading-zeros.txt"))
    assert_one_error(res, "more than 2 x 1 cells")


def test_d18_a_long_digit_run_is_refused_in_linear_time(tmp_path):
    text = "1x" + "1" * 100_000
    (tmp_path / "id.txt").write_text(text)
    t = time.perf_counter()
    res = run(tmp_path, "shikaku", "id.txt")
    assert_one_error(res, "id.txt:1:")
    res = run(tmp_path, "shikaku", text)             # given in place of a file name
    line = assert_one_error(res, "(100002 characters)")
    assert len(line) < 300
    assert time.perf_counter() - t < 5               # was 52 s of backtracking


@pytest.mark.parametrize("action", [[], {}, 3, None, True])
def test_d19_an_action_of_the_wrong_type_is_a_400(client, action):
    r = client.post("/api/jobs", json={"action": action, "puzzle": {}})
    assert r.status_code == 400, r.text
    assert r.json()["error"].startswith("unknown action")


def test_d16_a_dense_grid_stops_at_the_memory_budget(tmp_path):
    """D16: 24x24 checkerboard of 2s (about 10^73 domino tilings): over 40 s and 2.9 GB,
    no way to stop it. Now the memo's budget refuses it in one line (a small budget here)."""
    res = run(tmp_path, "shikaku", "--count", copy(tmp_path, "shikaku-24x24-checker-2s.txt"),
              "--max-memory", "64M")
    assert_one_error(res, "over the memory budget of 64.0 MB", "--max-memory")


def test_d16_a_dense_grid_keeps_the_time_limit(tmp_path):
    t = time.perf_counter()
    res = run(tmp_path, "shikaku", "--json", copy(tmp_path, "shikaku-24x24-checker-2s.txt"),
              "--time-limit", "0.5")
    assert time.perf_counter() - t < 3 and res.returncode == 124
    out = json.loads(res.stdout)
    assert out["solutions"] is None and out["complete"] is False and out["reason"] == "time limit"
    res = run(tmp_path, "shikaku", "shikaku-24x24-checker-2s.txt", "--time-limit", "0.2")
    assert res.stdout.startswith("solutions: unknown (time limit")


def test_max_memory_is_a_size(tmp_path):
    res = run(tmp_path, "shikaku", "--count", "2x2:b2b", "--max-memory", "lots")
    assert_one_error(res, "--max-memory", "no size")
