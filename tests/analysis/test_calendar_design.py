"""`polytile design calendar`: piece sets tallied over every date of a calendar board. The
"every date" answers against tests/checker.py's brute force (a few dates of each set),
the stock DragonFjord set against the published table, a run killed with SIGKILL resumed
to the same table, refusals in one line, progress off a terminal."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import time

import pytest
from cli_helpers import call_cli, start_cli
from paths import TESTS

import checker
from polytile.analysis import calendar_design as cd
from polytile.cli import progress
from polytile.formats.calendar_board import BUILT_IN, MONTHS, parse

# the classic board with 8 pentominoes and the 2x3 to choose 7 + 1 from: 8 sets, about half
# of them solve every date (DragonFjord's L N P U V Y Z 2x3 among them)
SMALL = ["--pool", "L,N,P,T,U,V,Y,Z,2x3", "--sizes", "5x7,6x1"]
# 36 sets: long enough to be killed part-way
RESUMED = ["--pool", "L,N,P,T,U,V,W,Y,Z,2x3", "--sizes", "5x7,6x1", "--jobs", "1"]
ROWS = ["Jan Feb Mar Apr May Jun", "Jul Aug Sep Oct Nov Dec"] + [
    " ".join(str(d) for d in range(r, min(r + 7, 32))) for r in range(1, 32, 7)
]
SHAPES = {  # drawn here, independently of polytile's library
    "L": ["X...", "XXXX"],
    "N": ["XX..", ".XXX"],
    "P": ["XX", "XX", "X."],
    "T": ["XXX", ".X.", ".X."],
    "U": ["X.X", "XXX"],
    "V": ["X..", "X..", "XXX"],
    "W": ["X..", "XX.", ".XX"],
    "Y": [".X..", "XXXX"],
    "Z": ["XX.", ".X.", ".XX"],
    "2x3": ["XXX", "XXX"],
}


def brute_force(pieces: list[str], month: int, day: int) -> int:
    """tests/checker.py's count of one date of the classic board with these pieces."""
    cells = {lab: (r, c) for r, row in enumerate(ROWS) for c, lab in enumerate(row.split())}
    board = {cell: "" for lab, cell in cells.items() if lab not in (MONTHS[month - 1], str(day))}
    tiles = [
        {"cells": {(r, c): "" for r, row in enumerate(SHAPES[p]) for c, ch in enumerate(row) if ch == "X"}, "count": 1}
        for p in pieces
    ]
    for t in tiles:
        t.update(min=1, reflect=True)
    return len(checker.all_solutions(board, tiles, 2))


@pytest.fixture(scope="module")
def small() -> cd.Study:
    return cd.Study(parse(BUILT_IN["classic"], "classic"), cd.pool(SMALL[1]), cd.sizes(SMALL[3]))


def test_the_sets_are_every_choice_of_distinct_pieces(small):
    sets = [" ".join(n for n, _ in s) for s in small.sets()]
    assert small.total == len(sets) == len(set(sets)) == 8
    assert all(s.endswith(" 2x3") and len(s.split()) == 8 for s in sets)
    assert cd.Study(small.board, cd.pool("pentominoes,hexominoes"), [(5, 7), (6, 1)]).total == 792 * 35


def test_the_stock_set_counts_as_the_published_table(small):
    table = {}
    for line in (TESTS / "calendar" / "anowell-count_solutions.txt").read_text().splitlines():
        md, _, rest = line.partition(" has ")
        table[int(md[:2]), int(md[3:])] = int(rest.split()[0])
    stock = next(s for s in small.sets() if "T" not in [n for n, _ in s])
    counts = small.tally(stock)
    assert counts == [table[m, d] for m, d, _ in small.dates]


@pytest.mark.parametrize("which", [0, 1, 2, 3, 4, 5, 6, 7])
def test_every_date_answers_agree_with_the_checker(small, which):
    """A set said to fail: the checker finds no solution on a date it names; a set said to
    solve every date: the checker's count of its hardest date is its min."""
    pieces = list(small.sets())[which]
    counts = small.tally(pieces)
    names = [n for n, _ in pieces]
    date = counts.index(min(counts))
    month, day, _ = small.dates[date]
    assert brute_force(names, month, day) == counts[date]


def run(*args, **kw) -> subprocess.CompletedProcess:
    return call_cli("design", "calendar", *args, **kw)


def test_the_table_ranks_the_every_date_sets_by_gini():
    out = run(*SMALL, "--top", "3", "--format", "json")
    assert out.returncode == 0, out.stderr
    info = json.loads(out.stdout)
    assert (info["sets"], info["done"], info["dates"], info["complete"]) == (8, 8, 366, True)
    top = info["top"]
    assert [r["rank"] for r in top] == [1, 2, 3] and len(top) == min(3, info["every_date"])
    assert [r["gini"] for r in top] == sorted(r["gini"] for r in top)
    rows = run(*SMALL, "--format", "csv").stdout.splitlines()
    assert rows[0].startswith("rank,id,pieces,every_date,min,max") and len(rows) == 9
    stock = next(r for r in rows if ",L N P U V Y Z 2x3," in r).split(",")
    assert stock[3:6] == ["1", "7", "216"]  # every date; the published hardest and easiest days
    assert sum(r.split(",")[3] == "1" for r in rows[1:]) == info["every_date"]
    text = run(*SMALL, "--top", "2").stdout.splitlines()
    assert text[1] == f"every date solvable: {info['every_date']} of 8 sets"
    assert text[4].split()[:2] == ["1", top[0]["pieces"].split()[0]]


def _rows(db) -> int:
    try:
        with sqlite3.connect(db) as c:
            return c.execute("SELECT COUNT(*) FROM sets").fetchone()[0]
    except sqlite3.Error:
        return 0


def test_a_run_killed_resumes_to_the_same_table(tmp_path):
    db = tmp_path / "study.sqlite"
    args = [*RESUMED, "--checkpoint", db, "--format", "csv"]
    proc = start_cli("design", "calendar", *args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while _rows(db) < 3 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert 3 <= _rows(db) < 36, "the run was not killed part-way"
    resumed = run(*args)
    assert resumed.returncode == 0, resumed.stderr
    assert _rows(db) == 36
    assert resumed.stdout == run(*RESUMED, "--format", "csv").stdout


def test_a_time_limit_stops_early_and_the_checkpoint_resumes(tmp_path):
    db = tmp_path / "study.sqlite"
    out = run(*SMALL, "--checkpoint", db, "--time-limit", "0")
    assert out.returncode == 124 and "run the same command to resume" in out.stderr
    assert "stopped early" in out.stdout
    assert run(*SMALL, "--checkpoint", db).stdout == run(*SMALL).stdout


@pytest.mark.parametrize(
    "args, says",
    [
        (["--sizes", "5x8"], "the sets cover 40 cells, the board leaves 41 to cover"),
        (["--sizes", "5x7;6x1"], "expected CELLSxHOW_MANY"),
        (["--pool", "pentominoes,Q"], "unknown piece or set 'Q'"),
        (["--pool", "L,N,P,2x3", "--sizes", "5x7,6x1"], "the pool has 3 pieces of 5 cells, not 7"),
        (["--format", "svg"], "unknown format 'svg'"),
        (["--board", "nowhere.txt"], "nowhere.txt"),
        (["--top", "-1"], "--top"),
    ],
)
def test_bad_arguments_are_refused_in_one_line(args, says):
    out = run(*args)
    assert out.returncode == 2 and out.stdout == ""
    assert len(out.stderr.strip().splitlines()) == 1 and says in out.stderr, out.stderr


def test_a_checkpoint_of_another_study_is_refused(tmp_path):
    db = tmp_path / "study.sqlite"
    assert run(*SMALL, "--checkpoint", db, "--time-limit", "0").returncode == 124
    other = run("--pool", "L,N,P,T,U,V,Y,Z,2x3,1x6", "--sizes", "5x7,6x1", "--checkpoint", db)
    assert other.returncode == 2 and len(other.stderr.strip().splitlines()) == 1
    assert "made for another board, pool or sizes" in other.stderr
    db.with_name("junk.sqlite").write_bytes(b"not a database" * 100)
    junk = run(*SMALL, "--checkpoint", db.with_name("junk.sqlite"))
    assert junk.returncode == 2 and len(junk.stderr.strip().splitlines()) == 1


def test_off_a_terminal_a_progress_line_comes_every_few_seconds(monkeypatch):
    monkeypatch.delenv("POLYTILE_PROGRESS", raising=False)
    monkeypatch.setattr(progress, "PLAIN_EVERY", 0.05)
    out = run(*SMALL, "--jobs", "1")
    lines = [line for line in out.stderr.splitlines() if line.startswith("polytile: ")]
    assert lines and all(" elapsed" in line for line in lines), out.stderr
    assert any("/8 tasks (" in line and "sets/s" in line for line in lines), out.stderr


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c:
        yield c.scheduler_address


def test_a_dask_cluster_gives_the_same_table_and_resumes_on_threads(cluster, tmp_path):
    db = tmp_path / "study.sqlite"
    on_dask = run(*SMALL, "--scheduler", cluster, "--checkpoint", db, "--format", "csv")
    assert on_dask.returncode == 0, on_dask.stderr
    assert on_dask.stdout == run(*SMALL, "--format", "csv").stdout
    assert _rows(db) == 8
    assert run(*SMALL, "--checkpoint", db, "--format", "csv").stdout == on_dask.stdout


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:9", "not-an-address"])
def test_an_unreachable_scheduler_is_one_line_exit_2(address):
    out = run(*SMALL, "--scheduler", address)
    assert out.returncode == 2 and out.stdout == ""
    assert len(out.stderr.strip().splitlines()) == 1 and address in out.stderr, out.stderr
