"""Counting on threads, on a Dask cluster, and resuming from a checkpoint give the
manifest's counts."""

from __future__ import annotations

import json
import sqlite3
import subprocess
from pathlib import Path

import pytest

import polytile
from conftest import CORPUS, tiling_cases
from cli_helpers import call_cli, start_cli

CASES = {c["id"]: c for c in tiling_cases()}
PICK = [
    "pentomino-8x8-side-offset-missing",
    "pentomino-6x10",
    "soma-3x3x3",
    "partial-x-triplication",
    "tetromino-box-4x5-atmost2",
    "checkerboard-8x8-centre-hole",
    "rotate-only-4L4-4x4",
]


def load(case):
    t = polytile.load(CORPUS / "tiling" / case["file"])
    return t if case["allow_reflection"] else t.no_reflect()


@pytest.mark.parametrize("case_id", PICK)
def test_two_jobs_give_the_manifest_counts(case_id):
    case = CASES[case_id]
    r = load(case).count(unique=True, jobs=2)
    assert r.complete and (r.solutions, r.unique) == (case["solutions"], case["unique"])


def run(*args):
    return call_cli("count", *args)


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
    args = ["count", path, "--engine", "dlx", "--jobs", "1", "--checkpoint", ck, "--json"]
    proc = start_cli(*args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
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
    out = call_cli(*args)
    assert json.loads(out.stdout)["solutions"] == case["solutions"]


def test_resume_redoes_only_unfinished_parts_and_accepts_other_jobs(tmp_path):
    """Parts finished before the interruption keep their rows (not redone); the resumed run
    may use another number of workers."""
    case = CASES["pentomino-8x8-side-offset-missing"]
    path = CORPUS / "tiling" / case["file"]
    ck = tmp_path / "run.sqlite"
    assert json.loads(run(path, "--jobs", 2, "--checkpoint", ck, "--json").stdout)["solutions"] == case["solutions"]
    with sqlite3.connect(ck) as db:
        db.execute("DELETE FROM done WHERE task % 3 = 0")
        kept = db.execute("SELECT task, at FROM done ORDER BY task").fetchall()
    assert len(kept) > 4
    out = run(path, "--jobs", 1, "--checkpoint", ck, "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["solutions"] == case["solutions"]
    with sqlite3.connect(ck) as db:
        rows = dict(db.execute("SELECT task, at FROM done").fetchall())
    assert all(rows[t] == at for t, at in kept)  # untouched
    assert len(rows) > len(kept)  # the forgotten ones redone


def test_progress_reports_parts_and_the_estimated_share_done():
    seen = []
    r = load(CASES["pentomino-6x10"]).count(jobs=2, progress=lambda res, d, n, f: seen.append((d, n, f)))
    assert r.solutions == CASES["pentomino-6x10"]["solutions"]
    parts = [d for d, _, _ in seen]
    assert parts == sorted(parts) and seen[-1][0] == seen[-1][1]
    fractions = [f for _, _, f in seen]  # None while the gauge learns
    assert all(0 < f < 1 for f in fractions[:-1] if f is not None)
    assert fractions[-1] is None or fractions[-1] == pytest.approx(1.0)


def test_progress_shows_solutions_of_parts_under_way(monkeypatch):
    """With short slices, the bar shows solutions found inside parts not yet finished;
    the numbers never go back, and the end is the manifest's count."""
    from polytile.engine import search

    monkeypatch.setattr(search, "SLICE_NODES", 1 << 12)
    seen = []
    case = CASES["pentomino-6x10"]
    r = load(case).count(jobs=2, progress=lambda res, d, n, f: seen.append((res.solutions, d, f)))
    assert r.solutions == case["solutions"]
    assert any(d == 0 and sols > 0 for sols, d, _ in seen)  # before any part finished
    for key in range(2):  # the share done may go back as the gauge learns
        values = [x[key] for x in seen]
        assert values == sorted(values)
    assert seen[-1][0] == case["solutions"]


def test_interrupted_threads_report_the_part_searched(monkeypatch):
    """Ctrl-C during a threaded count: incomplete, with the nodes searched so far."""
    import threading

    calls = []

    def interrupt(res, done, total, fraction):
        calls.append(done)
        raise KeyboardInterrupt

    before = set(threading.enumerate())  # pytest-xdist's worker has a thread of its own
    t = load(CASES["pentomino-6x10"])
    r = t.count(jobs=2, breaking=False, progress=interrupt)
    assert not r.complete and r.interrupted and r.nodes > 0 and len(calls) == 1
    assert set(threading.enumerate()) == before  # workers stopped


# ---- the tree in parts ---------------------------------------------------------------


def test_tree_estimates_are_exact_on_uniform_trees():
    """Counted by hand: dominoes in a 2x2 box: the root, 2 ways to cover the first cell,
    then one way each: 1 + 2 + 2*1 = 5 nodes on every random path. Four monominoes in a
    1x4 strip: a path of 1 + 4 nodes. Under each of the 2x2 box's two first placements:
    the placement and the one forced domino, 2 nodes."""
    import numpy as np
    from polytile.engine.tree import split, subtree_sizes

    cases = [((2, 2), 2, 2, 5.0), ((4, 1), 1, 4, 5.0)]
    for size, order, copies, nodes in cases:
        cover = polytile.box(order=order, size=size, max_copies=copies).model().cover
        keep = np.ones(cover.n_options, dtype=bool)
        root = [np.zeros(0, dtype=np.int32)]
        assert subtree_sizes(cover, keep, root, probes=7, seed=3).tolist() == [nodes]
    cover = polytile.box(order=2, size=(2, 2), max_copies=2).model().cover
    keep = np.ones(cover.n_options, dtype=bool)
    kids = split(cover, keep, [np.zeros(0, dtype=np.int32)], 2)
    assert len(kids) == 2 and subtree_sizes(cover, keep, kids).tolist() == [2.0, 2.0]


def test_split_and_deal_partition_the_tree():
    from polytile.engine.parallel.counts import deal
    from polytile.engine.search import plan
    from polytile.engine.tree import split, subtree_sizes

    t = load(CASES["pentomino-6x10"])
    cover = t.model().cover
    p = plan(cover, t.symmetry(), unique=False, store=False)
    prefixes = split(cover, p.keep, p.prefixes, 64)
    assert len(prefixes) >= 64
    assert len({tuple(x) for x in prefixes}) == len(prefixes)
    # every prefix starts with one of the plan's first placements
    firsts = {int(x[0]) for x in p.prefixes}
    assert all(int(x[0]) in firsts for x in prefixes)
    sizes = subtree_sizes(cover, p.keep, prefixes)
    tasks, weights = deal(prefixes, sizes, 2)
    dealt = [tuple(x) for task in tasks for x in task]
    assert sorted(dealt) == sorted(tuple(x) for x in prefixes)
    assert sum(weights) == pytest.approx(sizes.sum()) and len(tasks[-1]) == 1


# ---- Dask ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c:
        yield c.scheduler_address


@pytest.mark.parametrize(
    "case_id",
    ["pentomino-6x10", "soma-3x3x3", "partial-x-triplication", "checkerboard-8x8-centre-hole", "rotate-only-4L4-4x4"],
)
def test_dask_cluster_gives_the_manifest_counts(cluster, case_id):
    case = CASES[case_id]
    r = load(case).count(unique=True, scheduler=cluster)
    assert r.complete and (r.solutions, r.unique) == (case["solutions"], case["unique"])
    assert "dask" in r.engine


def test_dask_local_cluster_from_the_command_line(tmp_path):
    case = CASES["pentomino-8x8-centre-hole"]
    ck = tmp_path / "dask.sqlite"
    out = run(CORPUS / "tiling" / case["file"], "--dask", "--jobs", 2, "--unique", "--json", "--checkpoint", ck)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert (got["solutions"], got["unique"]) == (case["solutions"], case["unique"])
    # the same checkpoint resumes on threads: everything is already done
    again = json.loads(run(CORPUS / "tiling" / case["file"], "--unique", "--json", "--checkpoint", ck).stdout)
    assert (again["solutions"], again["unique"]) == (case["solutions"], case["unique"])


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:9", "tcp://no-such-host.invalid:8786", "not-an-address"])
def test_unreachable_scheduler_is_one_line_exit_2(address):
    p = run(CORPUS / "tiling" / "pentomino-6x10.txt", "--scheduler", address)
    assert p.returncode == 2 and p.stdout == ""
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and address in lines[0] and "Traceback" not in p.stderr


@pytest.fixture(scope="module")
def finished_checkpoint(tmp_path_factory):
    """A checkpoint of a finished count, and the count's file and solutions."""
    case = CASES["pentomino-8x8-side-offset-missing"]
    path = CORPUS / "tiling" / case["file"]
    ck = tmp_path_factory.mktemp("ck") / "done.sqlite"
    assert json.loads(run(path, "--jobs", 1, "--checkpoint", ck, "--json").stdout)["solutions"] == case["solutions"]
    return ck, path


@pytest.mark.parametrize(
    "row",
    [
        (-1, "5", "0", 1, 0),  # a task out of range: was counted silently
        (99999, "1", "0", 1, 0),  # was an IndexError traceback
        (0, "-5", "0", 1, 0),
        (0, "abc", "0", 1, 0),
        (0, "1e3", "0", 1, 0),
        (0, "5", None, 1, 0),
        (0, "5", "0", -1, 0),
        (0, "5", "0", "many", 0),
        (0, "5", "0", 1.5, 0),
        (0, "²", "0", 1, 0),
        (0, "05", "0", 1, 0),  # a leading zero: "0144" was read as 144
    ],
)
def test_tampered_checkpoint_rows_are_refused(tmp_path, finished_checkpoint, row):
    ck, path = finished_checkpoint
    mine = tmp_path / "t.sqlite"
    db = sqlite3.connect(mine)
    with sqlite3.connect(ck) as source:  # WAL: copy through SQLite
        source.backup(db)
    db.execute("INSERT OR REPLACE INTO done (task, solutions, uniq, nodes, at) VALUES (?, ?, ?, ?, ?)", row)
    db.commit()
    db.close()
    p = run(path, "--jobs", 1, "--checkpoint", mine, "--json")
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.count("\n") == 1 and "Traceback" not in p.stderr
    assert p.stderr.startswith(f"polytile: {mine}: not a usable checkpoint (row (")
    assert "does not fit the" in p.stderr


def _copy(ck: Path, mine: Path) -> sqlite3.Connection:
    db = sqlite3.connect(mine)
    with sqlite3.connect(ck) as source:  # WAL: copy through SQLite
        source.backup(db)
    return db


def _resume(path, mine):
    p = run(path, "--jobs", 1, "--checkpoint", mine, "--json")
    assert p.returncode == 2 and p.stdout == "" and p.stderr.count("\n") == 1, p.stderr
    assert p.stderr.startswith(f"polytile: {mine}: not a usable checkpoint (row (")
    assert "was not written by this count" in p.stderr
    return p


@pytest.mark.parametrize(
    "edit",
    [
        "UPDATE done SET solutions = CAST(solutions AS INTEGER) + 1 WHERE task = (SELECT MIN(task) FROM done)",
        "UPDATE done SET nodes = nodes + 1",
        # a row moved to another task: counts swapped between the first two tasks
        "UPDATE done SET solutions = (SELECT solutions FROM done d WHERE d.task = done.task + 1) "
        "WHERE task = (SELECT MIN(task) FROM done) AND EXISTS (SELECT 1 FROM done d WHERE d.task = done.task + 1 "
        "AND d.solutions != done.solutions)",
    ],
)
def test_an_edited_row_is_refused(tmp_path, finished_checkpoint, edit):
    """A count edited 144 -> 145 with sqlite3 had resumed silently to 9357."""
    ck, path = finished_checkpoint
    mine = tmp_path / "t.sqlite"
    db = _copy(ck, mine)
    assert db.execute(edit).rowcount >= 1
    db.commit()
    db.close()
    _resume(path, mine)


def test_rows_copied_from_another_checkpoint_are_refused(tmp_path, finished_checkpoint):
    """Two checkpoints of the same count have their own salts: rows do not move between them."""
    ck, path = finished_checkpoint
    other = tmp_path / "other.sqlite"
    run(path, "--jobs", 1, "--checkpoint", other, "--json")
    mine = tmp_path / "t.sqlite"
    db = _copy(ck, mine)
    db.execute("ATTACH ? AS o", (str(other),))
    db.execute("DELETE FROM done")
    db.execute("INSERT INTO done SELECT * FROM o.done")
    db.commit()
    db.close()
    _resume(path, mine)


def test_unsigned_rows_are_counted_again(tmp_path, finished_checkpoint):
    """A checkpoint of an earlier polytile (no signatures) migrates: its rows are counted again."""
    ck, path = finished_checkpoint
    mine = tmp_path / "t.sqlite"
    db = _copy(ck, mine)
    db.execute("UPDATE done SET solutions = '999999', mac = NULL")
    db.commit()
    db.close()
    case = CASES["pentomino-8x8-side-offset-missing"]
    out = json.loads(run(path, "--jobs", 1, "--checkpoint", mine, "--json").stdout)
    assert out["solutions"] == case["solutions"]


def test_resume_with_the_progress_bar(tmp_path):
    """Resuming a checkpointed count with progress shown (a terminal): the parts already
    done are shown at once (this raised NameError before the count had begun)."""
    case = CASES["pentomino-6x10"]
    ck = tmp_path / "run.sqlite"
    assert load(case).count(jobs=2, checkpoint=str(ck)).solutions == case["solutions"]
    with sqlite3.connect(ck) as db:
        db.execute("DELETE FROM done WHERE task % 2 = 0")
    shown = []
    again = load(case).count(jobs=2, checkpoint=str(ck), progress=lambda *a: shown.append(a))
    assert again.solutions == case["solutions"] and shown
