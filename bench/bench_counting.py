"""The counting table of docs/counting.md in one run: Knuth's DLX6, the pure-Python frontier reference and polytile.

    .venv/bin/python bench/bench_counting.py [--dlx6 /tmp/polytile-peers/dlx6/dlx6] [--repeat 3]
        [--time-limit 60] [--dlx6-timeout 200] [--ref-timeout 300] [--rows dominoes-10x10 ...]
        [--keep DIR]

The puzzles are the files of examples/counting/ (pieces given as "count": cells // size,
"min": 0, i.e. any number of each; the distinct rectangles each at most once), each with its
published count (examples/counting/README.md says where each comes from); every tool's count
is checked against it, never against another tool's. Per row:

- DLX6 (only with --dlx6; build it with `sh bench/build_knuth.sh dlx6 CWEBTEST`, Knuth's code is not
  part of polytile): `dlx6 < FILE.dlx`, the wall time of the process, killed after
  --dlx6-timeout seconds. The DLX file is written here from the puzzle, not by polytile: one
  option per placement, its cells (all primary); a piece that can run out gets an item of its
  own (secondary when it may stay unused), a piece that cannot run out (copies >= cells //
  size, min 0) none, since DLX6 reads no multiplicities and numbered copies would count each
  solution once per permutation of copies. DLX6 counts in 64 bits: an overflow (it says so on
  stderr) is shown as such.
- reference: `python bench/frontier_reference.py FILE` (standard library, no polytile), its own
  timer (from the file read to the count, no interpreter start), killed after --ref-timeout.
- polytile: `polytile count FILE --json --jobs 1 --time-limit S` (plus --unique on the 5x26
  --unique row), its JSON `seconds` (from the parsed puzzle to the answer, one thread) with
  its `method` when it names one, and the wall time of the whole process (interpreter start,
  imports, kernel loading). Killed 60 s after its own time limit if it does not stop.

Each tool runs --repeat times per row (once when a run fails, times out or takes over 60 s);
the table shows medians, the counts (ok / WRONG / timeout / error) and the ratios DLX6 /
polytile and reference / polytile of the medians, both against polytile's `seconds`.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "counting"
REFERENCE = ROOT / "bench" / "frontier_reference.py"
POLYTILE = [sys.executable, "-m", "polytile"]
sys.path.insert(0, str(ROOT / "bench"))
import frontier_reference  # noqa: E402  (the reference's own reading of the file)


@dataclass
class Row:
    key: str
    label: str
    file: str
    published: int
    unique: int | None = None  # published count up to symmetry: the row runs polytile --unique


ROWS = [
    Row("dominoes-10x10", "10x10, dominoes", "dominoes-10x10.json", 258584046368),
    Row("dominoes-12x12", "12x12, dominoes", "dominoes-12x12.json", 53060477521960000),
    Row("polyominoes-1-3-8x8", "8x8, 1-3 cells", "polyominoes-1-3-8x8.json", 92109458286284989468604),
    Row("pentominoes-any-6x10", "6x10, pentominoes any", "pentominoes-any-6x10.json", 7845888732),
    Row(
        "pentominoes-any-6x30",
        "6x30, pentominoes any",
        "pentominoes-any-6x30.json",
        74280211349600198206855422647223,
    ),
    Row("squares-5x26", "5x26, squares 1..5", "squares-5x26.json", 2768251248844125),
    Row(
        "squares-5x26-unique",
        "5x26, squares, --unique",
        "squares-5x26.json",
        2768251248844125,
        692062856184512,
    ),
    Row("distinct-rectangles-7x7", "7x7, distinct rectangles", "distinct-rectangles-7x7.json", 2995185),
    Row("distinct-rectangles-8x8", "8x8, distinct rectangles", "distinct-rectangles-8x8.json", 118897973),
]
LONG = 60.0  # a run longer than this is not repeated


@dataclass
class Run:
    count: int | None  # None: no count (timeout, error)
    seconds: float  # the tool's own time (DLX6: the process)
    wall: float = 0.0
    note: str = ""  # timeout / error / overflow / the method
    unique: int | None = None


def dlx_text(path: Path) -> str | None:
    """The puzzle as a DLX file for DLX6 (None when a piece has 2 or more copies that can run
    out: DLX6 has no multiplicities). Built from the reference's reading of the puzzle."""
    data = json.loads(path.read_text())
    board = frontier_reference._cells(data["board"])
    cells = set(board)
    allow = data.get("allow_reflection", True)
    names = {p: f"{p[0]}.{p[1]}" for p in sorted(board)}
    primary, secondary, options = list(names.values()), [], []
    for k, piece in enumerate(data["pieces"]):
        shape = frontier_reference._cells(piece["cells"])
        copies, least = piece.get("count", 1), piece.get("min", piece.get("count", 1))
        item = []
        if copies < len(board) // len(shape) or least > 0:  # can run out
            if copies > 1:
                return None
            item = [f"p{k}"]
            (primary if least else secondary).append(f"p{k}")
        for orient in frontier_reference._orientations(shape, piece.get("reflect", allow)):
            for a, b in sorted(cells):
                placed = [(a + da, b + db) for da, db in orient]
                if all(p in cells for p in placed):
                    options.append(" ".join(item + [names[p] for p in placed]))
    head = " ".join(primary) + (" | " + " ".join(secondary) if secondary else "")
    return f"| {path.name}, written by bench/bench_counting.py\n{head}\n" + "\n".join(options) + "\n"


def run_dlx6(program: str, dlx: Path, timeout: float) -> Run:
    with dlx.open() as stdin:
        t = time.perf_counter()
        try:
            proc = subprocess.run([program], stdin=stdin, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return Run(None, time.perf_counter() - t, note=f"timeout {timeout:.0f} s")
        wall = time.perf_counter() - t
    found = re.search(r"Altogether (\d+) solution", proc.stderr)
    if not found:
        return Run(None, wall, note="error: " + (proc.stderr.strip().splitlines() or ["no output"])[-1][:60])
    return Run(int(found.group(1)), wall, wall, "overflow" if "overflowed" in proc.stderr else "")


def run_reference(path: Path, timeout: float) -> Run:
    t = time.perf_counter()
    try:
        proc = subprocess.run(
            [sys.executable, str(REFERENCE), str(path)], capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return Run(None, time.perf_counter() - t, note=f"timeout {timeout:.0f} s")
    wall = time.perf_counter() - t
    found = re.fullmatch(r"(\d+) ([0-9.]+) s", proc.stdout.strip())
    if not found:
        return Run(None, wall, wall, "error: " + (proc.stderr.strip().splitlines() or ["no output"])[-1][:60])
    return Run(int(found.group(1)), float(found.group(2)), wall)


def run_polytile(path: Path, time_limit: float, unique: bool) -> Run:
    cmd = POLYTILE + ["count", str(path), "--json", "--jobs", "1", "--time-limit", str(time_limit)]
    cmd += ["--unique"] if unique else []
    t = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=time_limit + 60)
    except subprocess.TimeoutExpired:
        return Run(None, time.perf_counter() - t, note="killed (time limit not obeyed)")
    wall = time.perf_counter() - t
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if not lines:
        return Run(None, wall, wall, "error: " + (proc.stderr.strip().splitlines() or ["no output"])[-1][:60])
    out = json.loads(lines[-1])
    method = out.get("method", "")
    if not out.get("complete", True) or out.get("solutions") is None:
        so_far = out.get("solutions")
        note = f"{out.get('reason', 'incomplete')}" + (f", {so_far:,} so far" if so_far is not None else "")
        return Run(None, out.get("seconds") or wall, wall, f"{method}: {note}" if method else note)
    return Run(out["solutions"], out["seconds"], wall, method, out.get("unique"))


def repeated(run, repeat: int) -> list[Run]:
    runs = [run()]
    while len(runs) < repeat and runs[0].count is not None and runs[0].seconds < LONG:
        runs.append(run())
    return runs


def median(runs: list[Run], field: str) -> float:
    return statistics.median(getattr(r, field) for r in runs)


def verdict(runs: list[Run], expected: int, unique: int | None = None) -> str:
    counts = {(r.count, r.unique if unique is not None else None) for r in runs}
    first = runs[0]
    if first.count is None:
        return first.note
    if len(counts) > 1:
        return f"DIFFER between runs {sorted(counts)}"
    if first.note == "overflow":
        return f"WRONG (64-bit overflow: {first.count:,})"
    if first.count != expected:
        return f"WRONG ({first.count:,})"
    if unique is not None and first.unique != unique:
        return f"WRONG unique ({first.unique})"
    return "ok"


def ratio(theirs: float | None, ours: float | None) -> str:
    return f"{theirs / ours:.1f}x" if theirs is not None and ours is not None else "–"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--dlx6", help="Knuth's dlx6 binary (bench/build_knuth.sh dlx6 builds it); without it, no DLX6 column"
    )
    ap.add_argument("--dlx6-timeout", type=float, default=200.0)
    ap.add_argument("--ref-timeout", type=float, default=300.0)
    ap.add_argument("--time-limit", type=float, default=60.0, help="polytile's --time-limit")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--rows", nargs="+", choices=[r.key for r in ROWS], help="Only these rows.")
    ap.add_argument("--no-reference", action="store_true")
    ap.add_argument("--keep", type=Path, help="Keep the DLX files here.")
    args = ap.parse_args()
    rows = [r for r in ROWS if not args.rows or r.key in args.rows]
    out = args.keep or Path(tempfile.mkdtemp(prefix="bench-counting-"))
    out.mkdir(parents=True, exist_ok=True)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} cores")
    print(
        "| puzzle | published | DLX6 s | DLX6 count | reference s | reference count "
        "| polytile s (method) | polytile process s | polytile count | DLX6 / polytile | reference / polytile |"
    )
    print("|---|---:|---:|---|---:|---|---:|---:|---|---:|---:|")
    for row in rows:
        path = EXAMPLES / row.file
        published = f"{row.published:,}" + (f" ({row.unique:,} unique)" if row.unique is not None else "")
        dlx_s = ref_s = None
        dlx_cell = ref_cell = ("–", "–")
        if args.dlx6 and row.unique is None:
            text = dlx_text(path)
            if text is None:
                dlx_cell = ("–", "no multiplicities")
            else:
                dlx = out / (path.stem + ".dlx")
                dlx.write_text(text)
                runs = repeated(partial(run_dlx6, args.dlx6, dlx, args.dlx6_timeout), args.repeat)
                dlx_s = median(runs, "seconds") if runs[0].count is not None else None
                dlx_cell = (f"{median(runs, 'seconds'):.3f}", verdict(runs, row.published))
        if not args.no_reference and row.unique is None:
            runs = repeated(partial(run_reference, path, args.ref_timeout), args.repeat)
            ref_s = median(runs, "seconds") if runs[0].count is not None else None
            ref_cell = (f"{median(runs, 'seconds'):.3f}", verdict(runs, row.published))
        runs = repeated(partial(run_polytile, path, args.time_limit, row.unique is not None), args.repeat)
        pt_s = median(runs, "seconds")
        done = runs[0].count is not None
        method = f" ({runs[0].note})" if done and runs[0].note else ""
        pt_cell = f"{pt_s:.4f}{method}" if done else "–" if runs[0].note.startswith("error") else f"{pt_s:.1f}"
        pt_verdict = verdict(runs, row.published, row.unique)
        ours = pt_s if done and pt_s > 0 else None

        print(
            f"| {row.label} | {published} | {dlx_cell[0]} | {dlx_cell[1]} | {ref_cell[0]} | {ref_cell[1]} "
            f"| {pt_cell} | {median(runs, 'wall'):.2f} | {pt_verdict} | {ratio(dlx_s, ours)} | {ratio(ref_s, ours)} |",
            flush=True,
        )
    print(f"medians; load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
