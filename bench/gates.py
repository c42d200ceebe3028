"""The speed gates, all measured in one run, each against its goal.

    python bench/gates.py --sugyan BIN --reference DIR [--repeat 15] [--bedlam-repeat 3]
                          [--skip bedlam parallel shikaku]

One table, one row per gate (medians; PASS when the goal is met):
- `seconds` against sugyan/pentomino's own search timer (`optimized-small -u`) on 6x10, 5x12,
  4x15 and the 8x8 board with a centre hole (goal >= 1.5x): bench_native's runs, the two
  solvers in turn, `--repeat` rounds; polytile's `seconds` = set-up + tables + search of
  bench/search_seconds.py in a fresh process (what `count --unique --json --jobs 1` reports);
- the 3x20 rectangle's `seconds` from `polytile count FILE --unique --json --jobs 1` itself,
  fresh processes (goal < 0.5 ms);
- the Bedlam cube on one thread, `count --unique --jobs 1 --json`'s `seconds` (goal < 12 s;
  19,186 classes, 460,464 solutions, published);
- `count --jobs 2` against `--jobs 1` on the 8x8 board with a corner missing (goal >= 1.8x,
  bench_parallel's alternating runs, waiting for idle cores);
- Shikaku: the 24x24 checkerboard of 2s counted exactly (goal < 2 s, the solve call) and the
  100x100 Tatham grid as whole processes against nanakin/shikaku-solver (goal >= 15x).
Every count is checked against its published or corpus value; a wrong count stops the run.
The peers are optional programs built from their public sources (bench/README.md, "Optional
peers"), never dependencies.
"""

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

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import bench_native  # noqa: E402  (bench/ scripts, imported as modules)
import bench_parallel  # noqa: E402
import bench_shikaku  # noqa: E402

BOARDS = ["6x10", "5x12", "4x15", "8x8 centre hole"]


def count_seconds(path: Path, repeat: int, expected: tuple[int, int]) -> float:
    """Median of `count PATH --unique --json --jobs 1`'s own seconds over fresh processes."""
    got = []
    for _ in range(repeat):
        out = subprocess.run(
            [sys.executable, "-m", "polytile", "count", str(path), "--unique", "--json", "--jobs", "1"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        report = json.loads(out)
        if (report["solutions"], report["unique"]) != expected:
            sys.exit(f"WRONG COUNT: {path.name}: {report}")
        got.append(report["seconds"])
    return statistics.median(got)


def native_rows(sugyan: str, repeat: int) -> list[tuple[str, str, str, bool]]:
    """sugyan's search timer over polytile's seconds on the four boards."""
    peers = {"sugyan": lambda c: bench_native.sugyan(sugyan, c)}
    runs = bench_native.measure(BOARDS, peers, repeat)
    rows = []
    for name in BOARDS:
        mine = runs[(name, "polytile")]
        if {r[0] for r in mine} != {bench_native.CASES[name].unique}:
            sys.exit(f"WRONG COUNT: {name}: {mine}")
        seconds = statistics.median(r[1] + r[2] + r[3] for r in mine)
        search = statistics.median(r[1] for r in mine)
        theirs = statistics.median(s for _, s in runs[(name, "sugyan")])
        ratio = theirs / seconds
        rows.append(
            (
                f"{name}: sugyan search / polytile seconds",
                ">= 1.5x",
                f"{ratio:.2f}x (sugyan {theirs * 1e3:.2f} ms; polytile {seconds * 1e3:.2f} ms, search {search * 1e3:.2f})",
                ratio >= 1.5,
            )
        )
    return rows


def parallel_row(repeat: int) -> tuple[str, str, str, bool]:
    """2 jobs vs 1 on the 8x8 board with a corner missing."""
    path = bench_parallel.CASES["corner"][0]
    r = bench_parallel.measure("corner", path, False, 2, repeat, 60.0)
    return (
        "8x8 corner missing: --jobs 2 vs 1 (seconds)",
        ">= 1.8x",
        f"{r['ratio']:.2f}x ({r['seconds_1'] * 1e3:.1f} -> {r['seconds_n'] * 1e3:.1f} ms; each {' '.join(f'{x:.2f}' for x in r['ratios'])})",
        r["ratio"] >= 1.8,
    )


def shikaku_rows(reference: Path, repeat: int) -> list[tuple[str, str, str, bool]]:
    """The 24x24 checkerboard's exact count, and 100x100 whole processes against nanakin."""
    from polytile.shikaku.model import solve

    p = bench_shikaku.dense_puzzle(bench_shikaku.DENSE[0][1])
    times, ans = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        ans = solve(p, solution=False, max_memory=1 << 30)
        times.append(time.perf_counter() - t0)
    assert ans is not None and ans.solutions is not None
    dense_s = statistics.median(times)
    rows = [
        (
            "Shikaku 24x24 checkerboard of 2s, exact count",
            "< 2 s",
            f"{dense_s:.3f} s ({len(str(ans.solutions))} digits, {ans.method})",
            dense_s < 2,
        )
    ]
    manifest = {c["id"]: c for c in json.loads((bench_shikaku.CORPUS / "manifest.json").read_text())}
    case = manifest["tatham-100x100"]
    path = bench_shikaku.CORPUS / case["file"]
    stubs = Path(tempfile.mkdtemp(prefix="shikaku-stubs-"))
    (stubs / "colorama.py").write_text(bench_shikaku.STUB)
    sides = bench_shikaku._sides(reference, path, stubs, None)
    for argv, env, cwd in sides:
        bench_shikaku.timed(argv, env, cwd)  # warm-up: bytecode caches
    walls: list[list[float]] = [[], []]
    for _ in range(max(repeat, 5)):
        for k, (argv, env, cwd) in enumerate(sides):
            wall, _, out = bench_shikaku.timed(argv, env, cwd)
            if k == 0 and int(out.split()[0]) != case["solutions"]:
                sys.exit(f"WRONG COUNT: shikaku 100x100: {out.split()[0]}")
            walls[k].append(wall)
    ours, theirs = (statistics.median(w) for w in walls)
    rows.append(
        (
            "Shikaku 100x100, whole processes: nanakin / polytile",
            ">= 15x",
            f"{theirs / ours:.1f}x ({theirs:.3f} s vs {ours:.3f} s)",
            theirs / ours >= 15,
        )
    )
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sugyan", default=os.environ.get("POLYTILE_SUGYAN"), required=False)
    ap.add_argument("--reference", type=Path, default=Path("/tmp/polytile-peers/shikaku-solver"))
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--bedlam-repeat", type=int, default=3)
    ap.add_argument("--skip", nargs="*", default=[], choices=["native", "bedlam", "parallel", "shikaku"])
    args = ap.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} cores")
    rows: list[tuple[str, str, str, bool]] = []
    if "native" not in args.skip:
        if not args.sugyan:
            sys.exit("gates: --sugyan BIN is needed (or --skip native)")
        rows += native_rows(args.sugyan, args.repeat)
    s = count_seconds(bench_native.EXAMPLES / "pentomino-3x20.txt", args.repeat, (8, 2))
    rows.append(("3x20: count --unique --jobs 1 seconds", "< 0.5 ms", f"{s * 1e3:.3f} ms", s < 5e-4))
    if "bedlam" not in args.skip:
        s = count_seconds(bench_native.EXAMPLES / "bedlam-cube.json", args.bedlam_repeat, (460464, 19186))
        rows.append(("Bedlam cube, one thread: seconds", "< 12 s", f"{s:.2f} s", s < 12))
    if "parallel" not in args.skip:
        rows.append(parallel_row(max(5, args.repeat // 3)))
    if "shikaku" not in args.skip:
        rows += shikaku_rows(args.reference, 5)
    print(f"medians; load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("| gate | goal | measured | |\n|---|---|---|---|")
    for name, goal, got, ok in rows:
        print(f"| {name} | {goal} | {got} | {'PASS' if ok else 'not met'} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
