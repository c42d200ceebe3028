"""`polytile cover` against Knuth's dlx1 and xcover on the same DLX files, counted to the end.

    python bench/bench_dlx.py [--dlx1 PATH] [--out DIR] [--repeats N]

The files: pentomino boards written by `polytile convert` (6x10, 5x12, 8x8 with a centre hole,
3x20), the Soma cube, two puzzles with copies written as distinct items (the 8x5 box of
two of each tetromino: 3,106 x 2!^5 solutions; 8 dominoes on 4x4: 36 x 8!), 13 queens (rows and columns primary, diagonals secondary: Knuth's
formulation) and Langford pairs for n = 12. Each program counts every solution of each file:

- polytile: `polytile cover FILE --json` as a process; its `seconds` is the search after the
  file is read and the kernel loaded (start-up apart), on every core (`--jobs 1`: one thread);
- dlx1: Knuth's program, not part of polytile, built from the public ascherer/cwebtest
  repository (dlx1.w, gb_flip.w) by `sh bench/build_knuth.sh dlx1 CWEBTEST` (ctangle, then gcc -O3;
  ctangle: Debian's texlive-binaries), by default in /tmp/polytile-peers/dlx1; `dlx1 < FILE`, the wall time of the process (its parsing of the file
  is a few milliseconds);
- xcover: `xcover.covers` (Algorithm C in numba) from Python, the file read by this script, the
  time of the enumeration alone (numba compiled on a tiny problem first).

Medians of `--repeats` runs (one run for those over 5 s). Prints a markdown table with the
counts of all three (they must agree) and the ratios dlx1/polytile and xcover/polytile.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
POLYTILE = [sys.executable, "-m", "polytile"]
PUZZLES = [
    "pentomino-6x10.txt",
    "pentomino-5x12.txt",
    "pentomino-8x8-centre-hole.txt",
    "pentomino-3x20.txt",
    "soma-3x3x3.json",
    "tetromino-box-8x5-2each.txt",
    "counting/dominoes-4x4.json",
]


def queens(n: int) -> str:
    head = (
        " ".join([f"r{i}" for i in range(n)] + [f"c{j}" for j in range(n)])
        + " | "
        + " ".join([f"a{k}" for k in range(2 * n - 1)] + [f"b{k}" for k in range(2 * n - 1)])
    )
    rows = [f"r{i} c{j} a{i + j} b{i - j + n - 1}" for i in range(n) for j in range(n)]
    return f"| {n} queens\n" + "\n".join([head] + rows) + "\n"


def langford(n: int) -> str:
    head = " ".join([f"d{i}" for i in range(1, n + 1)] + [f"s{k}" for k in range(1, 2 * n + 1)])
    rows = [f"d{i} s{j} s{j + i + 1}" for i in range(1, n + 1) for j in range(1, 2 * n - i)]
    return f"| Langford pairs, n = {n}\n" + "\n".join([head] + rows) + "\n"


def make_files(out: Path) -> list[Path]:
    """The bench's DLX files, written into `out`."""
    files = []
    for name in PUZZLES:
        target = out / (Path(name).stem + ".dlx")
        subprocess.run(
            POLYTILE + ["convert", str(ROOT / "examples" / name), str(target)], check=True, capture_output=True
        )
        files.append(target)
    for name, text in (("queens-13.dlx", queens(13)), ("langford-12.dlx", langford(12))):
        (out / name).write_text(text)
        files.append(out / name)
    return files


def read_dlx(path: Path):
    """(primary, secondary, options) of a DLX file, read here (not by polytile)."""
    rows = [ln.split() for ln in path.read_text().splitlines() if ln.strip() and not ln.strip().startswith("|")]
    head = " ".join(rows[0]).split("|")
    return head[0].split(), (head[1].split() if len(head) > 1 else []), rows[1:]


ENGINES: dict[str, set[str]] = {}  # the kernels each file's runs used


def polytile(path: Path, jobs: int | None = None) -> tuple[int, float, float]:
    """(solutions, search seconds, wall seconds of the command)."""
    extra = [] if jobs is None else ["--jobs", str(jobs)]
    t = time.perf_counter()
    run = subprocess.run(POLYTILE + ["cover", str(path), "--json"] + extra, check=True, capture_output=True, text=True)
    wall = time.perf_counter() - t
    out = json.loads(run.stdout)
    assert out["complete"]
    ENGINES.setdefault(f"{path.name} {jobs}", set()).add(out["engine"] or out["method"])
    return out["solutions"], out["seconds"], wall


def dlx1(program: str, path: Path) -> tuple[int, float]:
    with path.open() as stdin:
        t = time.perf_counter()
        run = subprocess.run([program], stdin=stdin, capture_output=True, text=True, check=True)
        wall = time.perf_counter() - t
    found = re.search(r"Altogether (\d+) solution", run.stderr)
    assert found, run.stderr
    return int(found.group(1)), wall


def xcover(path: Path) -> tuple[int, float]:
    from xcover import covers

    primary, secondary, options = read_dlx(path)
    t = time.perf_counter()
    n = sum(1 for _ in covers(options, primary=primary, secondary=secondary))
    return n, time.perf_counter() - t


def median_runs(run, repeats: int):
    """Run `run()` (returning (count, seconds, ...)) up to `repeats` times (once when a run
    takes over 5 s): the count and the median of each time."""
    results = [run()]
    while len(results) < repeats and results[0][1] < 5:
        results.append(run())
    counts = {r[0] for r in results}
    assert len(counts) == 1, counts
    return (results[0][0],) + tuple(statistics.median(r[k] for r in results) for k in range(1, len(results[0])))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dlx1", default="/tmp/polytile-peers/dlx1/dlx1")
    ap.add_argument("--out", type=Path, help="Keep the DLX files here.")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="bench-dlx-"))
    out.mkdir(parents=True, exist_ok=True)
    from xcover import covers

    assert sum(1 for _ in covers([["a", "b"], ["a"], ["b"]])) == 2  # compiled before timing
    print(
        "| file | items | options | solutions | polytile cover s (kernel) | --jobs 1 s (kernel) | dlx1 s "
        "| xcover s | dlx1 / polytile | xcover / polytile |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for path in make_files(out):
        primary, secondary, options = read_dlx(path)
        ours, secs, _ = median_runs(partial(polytile, path), args.repeats)
        one, one_secs, _ = median_runs(partial(polytile, path, 1), args.repeats)
        theirs, dlx_secs = median_runs(partial(dlx1, args.dlx1, path), args.repeats)
        x, x_secs = median_runs(partial(xcover, path), args.repeats)
        counts = f"{ours}" if ours == one == theirs == x else f"DIFFER {ours}/{one}/{theirs}/{x}"
        engines = "/".join(sorted(ENGINES[f"{path.name} None"]))
        one_engine = "/".join(sorted(ENGINES[f"{path.name} 1"]))
        print(
            f"| {path.name} | {len(primary)}+{len(secondary)} | {len(options)} | {counts} "
            f"| {secs:.3f} ({engines}) | {one_secs:.3f} ({one_engine}) | {dlx_secs:.3f} | {x_secs:.3f} "
            f"| {dlx_secs / secs:.1f}x | {x_secs / secs:.1f}x |",
            flush=True,
        )


if __name__ == "__main__":
    main()
