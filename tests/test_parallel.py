"""Counting on a process pool and resuming from a checkpoint give the single-process counts."""
from __future__ import annotations

import json
import sqlite3
import subprocess
import sys

import pytest

import polytile
from conftest import CORPUS, tiling_cases

CASES = {c["id"]: c for c in tiling_cases()}
PICK = ["pentomino-8x8-side-offset-missing", "pentomino-6x10", "soma-3x3x3", "partial-x-triplication",
        "tetromino-box-4x5-atmost2", "checkerboard-8x8-centre-hole", "rotate-only-4L4-4x4"]


def load(case):
    t = polytile.load(CORPUS / "tiling" / case["file"])
    return t if case["allow_reflection"] else t.no_reflect()


@pytest.mark.parametrize("case_id", PICK)
def test_two_jobs_give_the_manifest_counts(case_id):
    case = CASES[case_id]
    r = load(case).count(unique=True, jobs=2)
    assert r.complete and (r.solutions, r.unique) == (case["solutions"], case["unique"])


def run(*args):
    return subprocess.run([sys.executable, "-m", "polytile", "count", *map(str, args)],
                          capture_output=True, text=True, timeout=300)


def test_checkpoint_resume_and_refusal(tmp_path):
    case = CASES["pentomino-8x8-side-offset-missing"]
    path = CORPUS / "tiling" / case["file"]
    ck = tmp_path / "run.sqlite"
    first = json.loads(run(path, "--jobs", 2, "--checkpoint", ck, "--json").stdout)
    assert first["solutions"] == case["solutions"]
    db = sqlite3.connect(ck)
    done = db.execute("SELECT COUNT(*) FROM done").fetchone()[0]
    # forget half of the finished parts, as if the run had been killed half-way
    db.execute("DELETE FROM done WHERE task % 2 = 0")
    db.commit()
    db.close()
    assert done > 4
    again = json.loads(run(path, "--jobs", 2, "--checkpoint", ck, "--json").stdout)
    assert again["solutions"] == case["solutions"]
    other = run(CORPUS / "tiling" / "pentomino-6x10.txt", "--checkpoint", ck)
    assert other.returncode == 2 and "another puzzle" in other.stderr
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"this is not a database" * 100)
    p = run(path, "--checkpoint", bad)
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1


def test_killed_count_resumes_exactly(tmp_path):
    """SIGKILL a checkpointed count part-way (dancing links: a few seconds), then resume."""
    import signal
    import time
    case = CASES["pentomino-8x8-side-offset-missing"]
    path = CORPUS / "tiling" / case["file"]
    ck = tmp_path / "killed.sqlite"
    args = [sys.executable, "-m", "polytile", "count", str(path), "--engine", "dlx", "--jobs", "1",
            "--checkpoint", str(ck), "--json"]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.time() + 60
    while time.time() < deadline:
        time.sleep(0.2)
        try:
            with sqlite3.connect(ck) as db:
                if db.execute("SELECT COUNT(*) FROM done").fetchone()[0] >= 2:
                    break
        except sqlite3.Error:
            pass
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    with sqlite3.connect(ck) as db:
        finished = db.execute("SELECT COUNT(*) FROM done").fetchone()[0]
    assert finished >= 2
    out = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert json.loads(out.stdout)["solutions"] == case["solutions"]
