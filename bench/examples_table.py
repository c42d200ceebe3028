"""The README's table: every bundled example, its counts, time to the first solution and
time to count all (search seconds: model, reduction, search, symmetry; kernels warm).

    python bench/examples_table.py [examples/*.txt examples/*.json]
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

import polytile


def measure(path: Path, repeat: int = 3) -> dict:
    def fresh():
        return polytile.load(path)

    fresh().count()  # warm the kernels
    first = statistics.median(fresh().solve(limit=1).seconds for _ in range(repeat))
    runs = [fresh().count(unique=True) for _ in range(repeat)]
    r = runs[0]
    return {
        "puzzle": path.stem,
        "solutions": r.solutions,
        "unique": r.unique,
        "first": first,
        "all": statistics.median(x.seconds for x in runs),
        "nodes": r.nodes,
    }


def main(paths: list[str]) -> None:
    files = [Path(p) for p in paths] or sorted(Path("examples").glob("*.*"))
    print("| puzzle | solutions | unique | first solution | all solutions | nodes |")
    print("|---|---:|---:|---:|---:|---:|")
    for f in files:
        m = measure(f)
        print(
            f"| {m['puzzle']} | {m['solutions']} | {m['unique']} | {m['first'] * 1000:.1f} ms "
            f"| {m['all'] * 1000:.1f} ms | {m['nodes']} |",
            flush=True,
        )


if __name__ == "__main__":
    main(sys.argv[1:])
