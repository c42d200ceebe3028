"""polytile vs the fastest native solvers (docs/performance.md's table), in one run.

    python bench/bench_native.py [--repeat N] [--cases NAME...] [--bedlam]
        [--sugyan BIN] [--tyfkda BIN] [--burr BIN] [--xmpuzzles DIR]

Builds nothing: the peers are run only when their binaries are given (options, or the
environment variables POLYTILE_SUGYAN, POLYTILE_TYFKDA, POLYTILE_BURRTXT and
POLYTILE_XMPUZZLES, the folder of BurrTools puzzle files named like the examples).
How to build them from their public sources: bench/README.md, "Optional peers" (they are
not part of the project).

Figures, per case: polytile's search time, counting all and unique solutions on one
thread (bench/search_seconds.py in a fresh process: the kernel's runs with the leaves'
classification, kernels loaded first as `count` does), with its tables (search plan and
kernel tables, which the peers build before their timers start) and its set-up (model
and symmetry analysis) beside it (`count --unique --json --jobs 1`'s `seconds` is the sum
of the three); and each peer's own timer: sugyan's `main -q -u -s optimized-small`
("Found N solutions in T": its search and its store of unique solutions, after building
its tables), tyfkda's `pent-rs -q -s WxH` ("elapsed=T"); burrTxt prints no timer, so its
figure is the whole process's wall time. The ratios compare polytile's search with the
peer's figure. The commands run in turn (A B C A B C ...) `--repeat` times; the table
shows medians.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


@dataclass(frozen=True)
class Case:
    file: str  # in examples/
    unique: int  # classes under the board's symmetry (published values)
    sugyan: str  # sugyan's board name
    tyfkda: str  # tyfkda's board name


CASES = {
    "6x10": Case("pentomino-6x10.txt", 2339, "rect6x10", "6x10"),
    "5x12": Case("pentomino-5x12.txt", 1010, "rect5x12", "5x12"),
    "4x15": Case("pentomino-4x15.txt", 368, "rect4x15", "4x15"),
    "3x20": Case("pentomino-3x20.txt", 2, "rect3x20", "3x20"),
    "8x8 centre hole": Case("pentomino-8x8-centre-hole.txt", 65, "rect8x8-2x2", "8x8"),
    "Bedlam cube": Case("bedlam-cube.json", 19186, "", ""),
}
UNITS = {"ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def rust_duration(text: str, pattern: str) -> float:
    """Seconds from Rust's `{:?}` of a Duration after `pattern` (e.g. '156.6ms')."""
    m = re.search(pattern + r"\s*([0-9.]+)\s*(ns|µs|us|ms|s)\b", text)
    if not m:
        raise RuntimeError(f"no timer in {text!r}")
    return float(m.group(1)) * UNITS[m.group(2)]


def run(cmd: list[str]) -> tuple[str, float]:
    t = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, check=False)
    wall = time.perf_counter() - t
    if out.returncode != 0:
        raise RuntimeError(f"{cmd[0]} exited {out.returncode}: {out.stderr.strip()[:200]}")
    return out.stdout, wall


def polytile(case: Case) -> tuple[int, float, float, float]:
    """(unique, search, tables, set-up seconds) from bench/search_seconds.py."""
    text, _ = run([sys.executable, str(ROOT / "bench" / "search_seconds.py"), str(EXAMPLES / case.file)])
    import json

    data = json.loads(text)
    return int(data["unique"]), float(data["search"]), float(data["tables"]), float(data["setup"])


def sugyan(binary: str, case: Case) -> tuple[int, float]:
    text, _ = run([binary, "-q", "-u", "-s", "optimized-small", "-b", case.sugyan])
    return int(re.search(r"Found (\d+) solutions", text).group(1)), rust_duration(text, r"solutions in")


def tyfkda(binary: str, case: Case) -> tuple[int, float]:
    text, _ = run([binary, "-q", "-s", case.tyfkda])
    # tyfkda counts every solution: 4 per class on a rectangle, 8 on the square
    n = int(re.search(r"Solution=(\d+)", text).group(1))
    return n, rust_duration(text, r"elapsed=")


def burr(binary: str, puzzles: str, case: Case) -> tuple[int, float]:
    text, wall = run([binary, "-q", str(Path(puzzles) / (Path(case.file).stem + ".xmpuzzle"))])
    m = re.search(r"(\d+)\s+assembl", text) or re.search(r"(\d+)", text)
    return int(m.group(1)) if m else -1, wall


def tools(args) -> dict:
    """name -> function(case) for every peer whose binary was given and exists."""
    have = {}
    if args.sugyan and Path(args.sugyan).exists():
        have["sugyan optimized-small -u"] = lambda c: sugyan(args.sugyan, c) if c.sugyan else None
    if args.tyfkda and Path(args.tyfkda).exists():
        have["tyfkda pent-rs"] = lambda c: tyfkda(args.tyfkda, c) if c.tyfkda else None
    if args.burr and Path(args.burr).exists() and args.xmpuzzles:
        have["burrTxt (process)"] = lambda c: burr(args.burr, args.xmpuzzles, c)
    return have


def measure(names: list[str], peers: dict, repeat: int) -> dict:
    """{(case, tool): [(count, seconds), ...]}, the tools run in turn for each repetition."""
    runs: dict = {}
    for name in names:
        case = CASES[name]
        for _ in range(repeat):
            runs.setdefault((name, "polytile"), []).append(polytile(case))
            for tool, fn in peers.items():
                got = fn(case)
                if got is not None:
                    runs.setdefault((name, tool), []).append(got)
        print(f"  {name}: {repeat} rounds", file=sys.stderr, flush=True)
    return runs


def fmt(s: float) -> str:
    if s < 0.01:
        return f"{s * 1000:.2f} ms"
    return f"{s * 1000:.1f} ms" if s < 1 else f"{s:.2f} s"


def table(names: list[str], peers: dict, runs: dict) -> str:
    cols = list(peers)
    lines = [
        "| case | " + " | ".join(cols) + " | polytile search | polytile seconds |",
        "|---|" + "---:|" * (len(cols) + 2),
    ]
    for name in names:
        mine = statistics.median(r[1] for r in runs[(name, "polytile")])
        tables = statistics.median(r[2] for r in runs[(name, "polytile")])
        setup = statistics.median(r[3] for r in runs[(name, "polytile")])
        seconds = statistics.median(r[1] + r[2] + r[3] for r in runs[(name, "polytile")])
        counts = {r[0] for r in runs[(name, "polytile")]}
        cells = []
        for tool in cols:
            got = runs.get((name, tool))
            if not got:
                cells.append("–")
                continue
            theirs = statistics.median(s for _, s in got)
            cells.append(
                f"{fmt(theirs)} (polytile {mine / theirs:.2f}x; n={got[0][0]}; "
                f"peer / polytile seconds {theirs / seconds:.2f})"
            )
        lines.append(
            f"| {name} {sorted(counts)} | "
            + " | ".join(cells)
            + f" | {fmt(mine)} (tables {fmt(tables)}, set-up {fmt(setup)}) | {fmt(seconds)} |"
        )
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--cases", nargs="*", choices=list(CASES))
    ap.add_argument("--bedlam", action="store_true", help="include the Bedlam cube (minutes)")
    ap.add_argument("--sugyan", default=os.environ.get("POLYTILE_SUGYAN"))
    ap.add_argument("--tyfkda", default=os.environ.get("POLYTILE_TYFKDA"))
    ap.add_argument("--burr", default=os.environ.get("POLYTILE_BURRTXT"))
    ap.add_argument("--xmpuzzles", default=os.environ.get("POLYTILE_XMPUZZLES"))
    args = ap.parse_args()
    names = args.cases or [n for n in CASES if n != "Bedlam cube" or args.bedlam]
    peers = tools(args)
    if not peers:
        print("bench_native: no peer binary given (--sugyan/--tyfkda/--burr); polytile only", file=sys.stderr)
    runs = measure(names, peers, args.repeat)
    print(
        f"medians of {args.repeat} alternating runs; polytile's search on one thread (its "
        "tables and set-up apart) vs each peer's own timer (burrTxt: whole process); "
        "n = the peer's count; polytile seconds = set-up (model, symmetry analysis) + tables "
        "(plan, kernel tables) + search, what `count --unique --json --jobs 1` reports"
    )
    print(table(names, peers, runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
