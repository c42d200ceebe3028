"""Speed-up of `polytile count --jobs 2` over `--jobs 1` (the goal: >= 1.8x on a sub-second
count), as whole processes: each repetition runs `count FILE --json --jobs 1` and then
`--jobs 2`, alternately, and reads both the count's own `seconds` (model, symmetry, set-up,
search) and the wall time of the process (start-up and imports included, which two jobs
cannot share out). Medians of --repeat; the load average before and after is printed,
since other work on the machine changes the figures. On a machine shared with other work,
`--wait-idle S` starts each pair of runs only once the cores have been idle for half a
second (Linux /proc/stat; waiting at most S seconds), and prints how many pairs had to go
without.

    python bench/bench_parallel.py [--repeat 5] [--jobs 2] [--cases corner 6x10 soma box]
                                   [--wait-idle 60]

Cases: the 8x8 board with a corner missing (the one the goal names), 6x10, the Soma cube and
the 12 pentominoes in a 2x5x6 box (3D, written to a temporary file). Each count is
checked against its published value (10054 with 5027 up to the board's symmetry: the
corner board has one reflection; 2339 x 4 = 9356; Soma 240 x 48 = 11520 with
reflections; the 2x5x6 box 264 classes, x 8 motions = 2112)."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus" / "tiling"
CASES = {
    "corner": (CORPUS / "pentomino-8x8-corner-missing.txt", 10054, 5027),
    "6x10": (CORPUS / "pentomino-6x10.txt", 9356, 2339),
    "soma": (CORPUS / "soma-3x3x3.json", 11520, 240),
    "box": (None, 2112, 264),
}


def box_puzzle(folder: Path) -> Path:
    """The 12 pentominoes (those of the 6x10 file, in the plane z = 0) and a 2x5x6 box."""
    from polytile.tiling.solver import load

    puzzle = load(CORPUS / "pentomino-6x10.txt").puzzle
    pieces = [
        {"name": p.name, "cells": [[int(c[0]), int(c[1]), 0] for c in p.cells], "count": 1} for p in puzzle.pieces
    ]
    board = [[x, y, z] for x in range(2) for y in range(5) for z in range(6)]
    path = folder / "pentomino-2x5x6-box.json"
    path.write_text(json.dumps({"board": board, "pieces": pieces, "allow_reflection": True}))
    return path


def idle_cores(seconds: float = 0.5) -> float:
    """How many cores were idle over the last `seconds` (all of them where /proc/stat is
    missing)."""

    def snap() -> tuple[int, int]:
        with open("/proc/stat") as f:
            ticks = [int(x) for x in f.readline().split()[1:]]
        return ticks[3] + ticks[4], sum(ticks)

    try:
        idle0, all0 = snap()
        time.sleep(seconds)
        idle1, all1 = snap()
    except OSError:
        return float(os.cpu_count() or 1)
    return (os.cpu_count() or 1) * (idle1 - idle0) / max(1, all1 - all0)


def wait_idle(most: float) -> bool:
    """Wait (at most `most` seconds) until every core but a tenth of one is idle; whether it was."""
    end = time.perf_counter() + most
    while time.perf_counter() < end:
        if idle_cores() >= (os.cpu_count() or 1) - 0.2:
            return True
    return most <= 0


def one_run(path: Path, jobs: int, unique: bool) -> tuple[float, float, dict]:
    """(the count's seconds, the process's wall seconds, its JSON)."""
    command = [sys.executable, "-m", "polytile", "count", str(path), "--json", "--jobs", str(jobs)]
    if unique:
        command.append("--unique")
    t0 = time.perf_counter()
    out = subprocess.run(command, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t0
    report = json.loads(out.stdout)
    return report["seconds"], wall, report


def measure(name: str, path: Path, unique: bool, jobs: int, repeat: int, wait: float) -> dict:
    """Medians of `repeat` alternating runs on 1 and `jobs` workers, and the ratios."""
    _, solutions, classes = CASES[name]
    seconds: dict[int, list[float]] = {1: [], jobs: []}
    walls: dict[int, list[float]] = {1: [], jobs: []}
    one_run(path, jobs, unique)  # caches warm, pages in memory
    busy = 0
    for _ in range(repeat):
        busy += not wait_idle(wait)
        for j in (1, jobs):
            s, w, report = one_run(path, j, unique)
            if report["solutions"] != solutions or (unique and report["unique"] != classes):
                sys.exit(f"WRONG COUNT: {name} --jobs {j}: {report}")
            seconds[j].append(s)
            walls[j].append(w)
    m = {k: statistics.median(v) for k, v in seconds.items()}
    w = {k: statistics.median(v) for k, v in walls.items()}
    return {
        "case": name + (" --unique" if unique else ""),
        "seconds_1": m[1],
        "seconds_n": m[jobs],
        "ratio": m[1] / m[jobs],
        "wall_1": w[1],
        "wall_n": w[jobs],
        "wall_ratio": w[1] / w[jobs],
        "ratios": sorted(a / b for a, b in zip(seconds[1], seconds[jobs])),
        "busy": busy,
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", nargs="*", default=list(CASES), choices=list(CASES))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json", help="also write the rows to this file")
    ap.add_argument(
        "--wait-idle",
        type=float,
        default=0.0,
        metavar="S",
        help="before each pair of runs, wait up to S seconds for idle cores",
    )
    a = ap.parse_args()
    print(
        f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
        f"{os.cpu_count()} cores; medians of {a.repeat}"
    )
    n = a.jobs
    print(
        f"{'case':18} {'1 job s':>8} {f'{n} jobs s':>8} {'ratio':>6}   {'1 job proc':>10} "
        f"{f'{n} jobs proc':>11} {'ratio':>6}   each run's ratio (seconds)"
    )
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in a.cases:
            path = CASES[name][0] or box_puzzle(Path(tmp))
            for unique in (False, True):
                r = measure(name, path, unique, n, a.repeat, a.wait_idle)
                rows.append(r)
                each = " ".join(f"{x:.2f}" for x in r["ratios"])
                if r["busy"]:
                    each += f"  ({r['busy']} of {a.repeat} pairs on a busy machine)"
                print(
                    f"{r['case']:18} {r['seconds_1']:8.3f} {r['seconds_n']:8.3f} {r['ratio']:5.2f}x   "
                    f"{r['wall_1']:10.3f} {r['wall_n']:11.3f} {r['wall_ratio']:5.2f}x   {each}",
                    flush=True,
                )
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
