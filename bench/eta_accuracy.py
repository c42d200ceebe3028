"""How good the ETA of a parallel count is: run the count, record the share done
the gauge reports, and compare each ETA (elapsed x (1 - share) / share) with the time the
count really had left. Usage: python bench/eta_accuracy.py PUZZLE [JOBS]"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from polytile.commands.tiling import _load


def main(path: str, jobs: int = 2) -> None:
    seen: list[tuple[float, float | None, int]] = []
    t0 = time.perf_counter()

    def progress(res, done=None, total=None, share=None):
        seen.append((res.seconds, share, res.nodes))  # the count's clock, as the bar's

    report = _load(Path(path), False).count(jobs=jobs, progress=progress)
    total = report.seconds
    print(f"(set-up before the count: {time.perf_counter() - t0 - total:.1f} s, not in the times below)")
    print(f"{path}: {report.solutions} solutions, {total:.1f} s on {jobs} jobs")
    first = next((t for t, s, _ in seen if s), None)
    print(f"first estimate at {first:.1f} s ({100 * first / total:.0f}% of the time)" if first else "no estimate")
    worst_after_20 = 1.0
    for step in range(5, 100, 5):
        at = total * step / 100
        known = [x for x in seen if x[0] <= at]
        if not known:
            continue
        t, s, nodes = known[-1]
        true_left = total - t
        if not s:
            print(f"{step:3d}% of the time: estimating")
            continue
        eta = t * (1 - s) / s
        ratio = max(eta / true_left, true_left / eta) if eta > 0 and true_left > 0 else float("inf")
        if step >= 20:
            worst_after_20 = max(worst_after_20, ratio)
        print(
            f"{step:3d}% of the time: share {100 * s:5.1f}%  ETA {eta:7.1f} s  true {true_left:7.1f} s  off x{ratio:.2f}  "
            f"(nodes done {100 * nodes / report.nodes:5.1f}%)"
        )
    print(f"worst factor from 20% of the time on: x{worst_after_20:.2f}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 2)
