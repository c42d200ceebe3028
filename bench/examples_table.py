"""docs/performance.md's table: every bundled tiling example, its counts, time to the first
solution and time to count all (search seconds: model, reduction, search, symmetry; kernels warm).

    python bench/examples_table.py                  # the puzzles of examples/, minus the long ones
    python bench/examples_table.py --all            # with the long ones (SLOW: minutes)
    python bench/examples_table.py FILE...          # these files

Only puzzle files are taken from examples/ (the suffixes polytile reads as tilings: .txt, .json,
.xmpuzzle; READMEs and the subfolders' positions, matrices and Shikaku grids are not puzzles).
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


PUZZLE_SUFFIXES = {".txt", ".json", ".xmpuzzle"}
# what a run of the table leaves out unless --all: minutes each (examples/README.md has their counts)
SLOW = {
    "hexomino-cornucopia-6x17": "about 11 minutes a count",
    "bedlam-cube": "about 6 s a count, 30 s with the repeats",
}


def bundled(include_slow: bool) -> list[Path]:
    """The tiling puzzles of examples/ (not its README nor its subfolders), the slow ones only when asked."""
    files = sorted(p for p in Path("examples").iterdir() if p.is_file() and p.suffix in PUZZLE_SUFFIXES)
    for f in files:
        if f.stem in SLOW and not include_slow:
            print(f"(left out: {f.name}, {SLOW[f.stem]}; --all includes it)", file=sys.stderr)
    return [f for f in files if include_slow or f.stem not in SLOW]


def main(args: list[str]) -> None:
    include_slow = "--all" in args
    paths = [a for a in args if a != "--all"]
    files = [Path(p) for p in paths] or bundled(include_slow)
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
