"""Every date of a calendar puzzle: `polytile calendar --all-dates` (one search, tallied
by open cells) against the plain way (a polytile Tiling count per date, through the API),
whole processes, in one run.

    python bench/bench_calendar.py [--runs 5] [--sample 10]

For each built-in board: the command's wall time (median of --runs, after a warm-up run;
interpreter start, imports and all), then a Python process counting the same dates one
Tiling at a time (the board without the date's cells; every date on the classic board,
every --sample-th of the 2,562 month x day x weekday instances on the weekday board, the
time scaled to all of them and marked so). Both report every date's count; the script
checks they agree on the dates both counted. Prints a markdown table.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
POLYTILE = [sys.executable, "-m", "polytile"]

PLAIN = """
import json, sys, numpy as np
from polytile.core.library import cells_from_rows
from polytile.core.puzzle import Board, Piece, Puzzle
from polytile.tiling.calendar_report import load_calendar
from polytile.tiling.solver import Tiling
cal = load_calendar(sys.argv[1])
step = int(sys.argv[2])
pieces = [Piece(n, cells_from_rows(list(r)), np.zeros(sum(x.count("X") for x in r), np.int64))
          for n, r in cal.board.pieces]
out = {}
for date in cal.dates()[::step]:
    gone = set(cal.open_cells(date))
    keep = [i for i in range(len(cal.cells)) if i not in gone]
    board = Board(cal.cells[keep], np.zeros(len(keep), np.int64))
    out[repr(date)] = Tiling(Puzzle(board, pieces)).count().solutions
print(json.dumps(out))
"""


def wall(cmd: list[str]) -> tuple[float, str]:
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=ROOT)
    return time.perf_counter() - t0, p.stdout


def median_wall(cmd: list[str], runs: int) -> tuple[float, str]:
    wall(cmd)  # warm-up: caches, page cache
    times, out = [], ""
    for _ in range(runs):
        t, out = wall(cmd)
        times.append(t)
    return statistics.median(times), out


def one_board(board: str, runs: int, step: int) -> dict:
    ours, text = median_wall(POLYTILE + ["calendar", "--board", board, "--all-dates", "--format", "json"], runs)
    data = json.loads(text)
    counts = {repr((r["month"], r["day"], r["weekday"])): r["solutions"] for r in data["dates"]}
    plain, text = wall([sys.executable, "-c", PLAIN, board, str(step)])
    theirs = json.loads(text)
    assert all(counts[k] == v for k, v in theirs.items()), "the tally and the plain counts disagree"
    scaled = plain * len(counts) / len(theirs)
    return {
        "board": board,
        "instances": len(counts),
        "ours": ours,
        "plain": scaled,
        "sampled": len(theirs) < len(counts),
        "counted": len(theirs),
        "packings": data["packings"],
        "hardest": data["hardest"],
        "easiest": data["easiest"],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--sample", type=int, default=10, help="plain way on the weekday board: every N-th instance")
    args = ap.parse_args()
    rows = [one_board("classic", args.runs, 1), one_board("weekday", args.runs, args.sample)]
    print(
        "| board | instances | `calendar --all-dates` (median of %d) | plain: a Tiling count per date | ratio |"
        % args.runs
    )
    print("|---|---:|---:|---:|---:|")
    for r in rows:
        note = f" (scaled from {r['counted']})" if r["sampled"] else ""
        print(
            f"| {r['board']} | {r['instances']} | {r['ours']:.3f} s | {r['plain']:.2f} s{note} | "
            f"{r['plain'] / r['ours']:.1f}x |"
        )
    for r in rows:
        print(
            f"\n{r['board']}: {r['packings']} packings; hardest {', '.join(r['hardest']['dates'])} "
            f"({r['hardest']['solutions']}), easiest {', '.join(r['easiest']['dates'])} "
            f"({r['easiest']['solutions']})"
        )


if __name__ == "__main__":
    main()
