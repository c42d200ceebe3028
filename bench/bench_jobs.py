"""Speed-up of `count --jobs N` over one job, in one run: the same count alternately on
1 and N workers, medians of the repetitions (search only; kernels loaded first).

    python bench/bench_jobs.py [--jobs 2] [--repeat 15] [PUZZLE ...]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from polytile.tiling.solver import load

ROOT = Path(__file__).resolve().parent.parent
CASES = [
    "tests/corpus/tiling/pentomino-5x12.txt",
    "tests/corpus/tiling/pentomino-6x10.txt",
    "tests/corpus/tiling/pentomino-8x8-four-corners-missing.txt",
]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("puzzles", nargs="*", default=CASES)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument(
        "--no-breaking", action="store_true", help="count without symmetry breaking (every solution visited)"
    )
    a = ap.parse_args()
    print(f"{'puzzle':44} {'solutions':>9} {'1 job ms':>9} {f'{a.jobs} jobs ms':>10} {'speed-up':>8}")
    for name in a.puzzles:
        tiling = load(ROOT / name if not Path(name).exists() else name)
        breaking = not a.no_breaking
        tiling.count(jobs=1, breaking=breaking)
        tiling.count(jobs=a.jobs, breaking=breaking)  # kernels loaded, tables built
        one, many = [], []
        for _ in range(a.repeat):
            for jobs, out in ((1, one), (a.jobs, many)):
                t0 = time.perf_counter()
                r = tiling.count(jobs=jobs, breaking=breaking)
                out.append(time.perf_counter() - t0)
        m1, mn = statistics.median(one), statistics.median(many)
        print(f"{Path(name).stem:44} {r.solutions:>9} {m1 * 1e3:>9.1f} {mn * 1e3:>10.1f} {m1 / mn:>7.2f}x")


if __name__ == "__main__":
    main()
