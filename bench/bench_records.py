"""The counting records (examples/counting/README.md) in one run, each count checked against
its published term (or, past the published ones, the independent reference programme's), with
timings; prints markdown tables.

    .venv/bin/python bench/bench_records.py [--longest 40] [--squares 8] [--oblongs 8] [--jobs 2]
        [--time-limit 1800] [--skip-pentominoes] [--skip-rectangles]

- 5 x n and 6 x n, n = 1..--longest, the 12 pentominoes, any number of each (OEIS A174249;
  A233430 = 6 x 5n, A233427 zero unless 5 | n): the reference (`bench/frontier_reference.py`,
  standard library, no polytile) counts every prefix of the h x longest board in one sweep, in
  this process (its seconds: from the parsed dict to the list); polytile counts each board by
  `polytile count FILE --json --jobs 1 --method frontier` (its JSON `seconds`; the wall time
  of all 2 x longest processes is shown apart).
- n x n cut into rectangles of distinct dimensions (A360499, n = 1..--squares) and into oblongs
  of distinct dimensions (A360498, n = 1..--oblongs): `polytile count FILE --json --jobs J
  --method enumerate`, its `seconds`, the process's wall time and its CPU time (all threads).

A360498(9) (87,181,220, its last published term) takes ~15 minutes this way: --oblongs 9, or
`bench/distinct_rectangles.py count --n 9 --oblongs` (the same count split into prefixes).

The expected terms are tests/records/sequences.json (the OEIS data fields, and the
reference's A174249 terms past a(22)); a count that differs is printed as WRONG and the script
exits 1. The puzzle files are written to a temporary folder by bench/make_counting_examples.py's
builders (standard library).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEQUENCES = json.loads((ROOT / "tests" / "records" / "sequences.json").read_text())
POLYTILE = [sys.executable, "-m", "polytile"]
sys.path.insert(0, str(ROOT / "bench"))
import frontier_reference  # noqa: E402
import make_counting_examples as examples  # noqa: E402


def term(name: str, n: int) -> tuple[int | None, str]:
    """a(n) and where it comes from ("OEIS" or "reference"); None past both."""
    seq = SEQUENCES[name]
    i = n - seq["offset"]
    if 0 <= i < len(seq["published"]):
        return int(seq["published"][i]), "OEIS"
    ref = seq.get("reference")
    if ref and 0 <= n - ref["from"] < len(ref["terms"]):
        return int(ref["terms"][n - ref["from"]]), "reference"
    return None, "-"


def expected(h: int, n: int) -> tuple[int | None, str]:
    if h == 5:
        return term("A174249", n)
    if n % 5:
        return 0, "OEIS"  # A233427: A(n, k) = 0 <=> n * k mod 5 > 0
    return term("A233430", n // 5)


def oblongs(n: int) -> dict:
    """Every a x b with a < b <= n at most once (1 x 2 when n = 1: a puzzle needs a piece)."""
    data = examples.distinct_rectangles(max(n, 2))
    data["board"] = examples.rect(n, n)
    data["pieces"] = [p for p in data["pieces"] if len(p["cells"]) != len(p["cells"][0])]
    data["comment"] = f"{n} x {n} square cut into oblongs of distinct dimensions (OEIS A360498)"
    return data


def polytile_count(path: Path, method: str, jobs: int, time_limit: float) -> tuple[dict, float, float]:
    """polytile's JSON answer, the process's wall time and its CPU time (every thread; on a
    machine shared with other work the CPU time is the steadier figure)."""
    cmd = [*POLYTILE, "count", str(path), "--json", "--jobs", str(jobs), "--method", method]
    cmd += ["--time-limit", str(time_limit)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=time_limit + 60)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        return {"error": (proc.stderr.strip().splitlines() or ["no output"])[-1]}, wall, cpu
    return json.loads(lines[-1]), wall, cpu


def verdict(got: int | None, want: int | None) -> str:
    if got is None:
        return "incomplete"
    if want is None:
        return "(no term)"
    return "ok" if got == want else "WRONG"


def pentominoes(tmp: Path, longest: int, time_limit: float) -> bool:
    ref: dict[int, list[int]] = {}
    ref_seconds: dict[int, float] = {}
    for h in (5, 6):
        data = examples.any_number(f"{h} x {longest}", h, longest, examples.PENTOMINOES)
        t = time.perf_counter()
        ref[h] = frontier_reference.prefix_counts(data)
        ref_seconds[h] = time.perf_counter() - t
    print(f"## 5 x n and 6 x n, the 12 pentominoes, any number of each (n = 1..{longest})\n")
    print("| n | 5 x n (A174249) | source | ref | polytile s | 6 x n (A233427, A233430) | source | ref | polytile s |")
    print("|---:|---:|---|---|---:|---:|---|---|---:|")
    ok, seconds, wall = True, {5: 0.0, 6: 0.0}, 0.0
    for n in range(1, longest + 1):
        cells = []
        for h in (5, 6):
            want, source = expected(h, n)
            path = tmp / f"pentominoes-{h}x{n}.json"
            path.write_text(json.dumps(examples.any_number(f"{h} x {n}", h, n, examples.PENTOMINOES)))
            r, w, _cpu = polytile_count(path, "frontier", 1, time_limit)
            wall += w
            got = r.get("solutions") if r.get("complete") else None
            seconds[h] += r.get("seconds", 0.0)
            mark = verdict(got, want) if "error" not in r else f"error: {r['error']}"
            ref_mark = verdict(ref[h][n - 1], want)
            ok &= mark == "ok" and ref_mark == "ok"
            shown = f"{want:,}" if want is not None else "-"
            cells += [shown, source, ref_mark, f"{r.get('seconds', float('nan')):.4f} {mark}"]
        print(f"| {n} | " + " | ".join(cells) + " |")
    print()
    for h in (5, 6):
        print(
            f"- {h} x 1..{longest}: reference, one sweep of {h} x {longest}: {ref_seconds[h]:.2f} s; "
            f"polytile, {longest} counts: {seconds[h]:.3f} s (sum of `seconds`)"
        )
    print(f"- polytile's {2 * longest} processes: {wall:.1f} s wall (interpreter start, imports, kernels)\n")
    return ok


def rectangles(tmp: Path, squares: int, oblong: int, jobs: int, time_limit: float) -> bool:
    print(
        f"## n x n, rectangles (A360499) and oblongs (A360498) of distinct dimensions, each at most once (--jobs {jobs})\n"
    )
    print("| sequence | n | published | polytile | seconds | wall s | CPU s | nodes |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    ok = True
    for name, top, build in (
        ("A360499", squares, examples.distinct_rectangles),
        ("A360498", oblong, oblongs),
    ):
        for n in range(1, top + 1):
            want, _source = term(name, n)
            path = tmp / f"{name}-{n}.json"
            path.write_text(json.dumps(build(n)))
            r, wall, cpu = polytile_count(path, "enumerate", jobs, time_limit)
            got = r.get("solutions") if r.get("complete") else None
            mark = verdict(got, want) if "error" not in r else f"error: {r['error']}"
            ok &= mark == "ok"
            shown = f"{got:,}" if got is not None else "-"
            published = f"{want:,}" if want is not None else "-"
            print(
                f"| {name} | {n} | {published} | {shown} {mark} | {r.get('seconds', float('nan')):.3f} | "
                f"{wall:.1f} | {cpu:.1f} | {r.get('nodes', 0):,} |",
                flush=True,
            )
    print()
    return ok


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--longest", type=int, default=40, help="n of the longest 5 x n and 6 x n. [default: 40]")
    ap.add_argument("--squares", type=int, default=8, help="A360499 to this n. [default: 8]")
    ap.add_argument("--oblongs", type=int, default=8, help="A360498 to this n. [default: 8]")
    ap.add_argument("--jobs", type=int, default=2, help="polytile's --jobs for the rectangles. [default: 2]")
    ap.add_argument("--time-limit", type=float, default=1800, help="Per polytile count. [default: 1800]")
    ap.add_argument("--skip-pentominoes", action="store_true")
    ap.add_argument("--skip-rectangles", action="store_true")
    args = ap.parse_args()
    print(f"bench_records: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at the start\n")
    ok = True
    with tempfile.TemporaryDirectory(prefix="polytile-records-") as tmp:
        if not args.skip_pentominoes:
            ok &= pentominoes(Path(tmp), args.longest, args.time_limit)
        if not args.skip_rectangles:
            ok &= rectangles(Path(tmp), args.squares, args.oblongs, args.jobs, args.time_limit)
    print("all counts equal the expected terms" if ok else "SOME COUNTS ARE WRONG OR MISSING")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
