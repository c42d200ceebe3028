"""polytile vs xcover (a numba exact-cover solver) on the same puzzles, in one run.

    python bench/bench_peers.py [--cases NAME...] [--repeat N] [--json OUT] [--no-cold]

Task: count ALL solutions.  Per case:
  search   polytile: median `seconds` of `polytile count FILE --json` (model build + symmetry +
           search; excludes imports and kernel loading).  xcover: median `seconds` printed by
           bench/xcover_count.py, i.e. its own option builder (independent of polytile) +
           covers() enumeration, timed after imports and after warming the kernel on a tiny
           problem.  Both figures come from the same process runs as the `process` column.
  process  median wall time of the whole process (interpreter start, imports, cache loading,
           file parsing, search, output) with warm numba caches.
  first    time to the first solution, in this process: polytile.load(p).solve(limit=1).seconds
           vs xcover build + next(covers(...)).
  no-sym   polytile count with breaking=False (every solution visited, like xcover); context
           for how much of the search ratio is symmetry breaking.
Then cold starts: one 6x10 process each after deleting the tool's numba cache files.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
EXAMPLES = ROOT / "examples"
XC_SCRIPT = HERE / "xcover_count.py"
sys.path.insert(0, str(HERE))

CASES = {  # name -> (file, expected number of solutions)
    "pentomino-6x10": ("pentomino-6x10.txt", 9356),
    "pentomino-5x12": ("pentomino-5x12.txt", 4040),
    "pentomino-4x15": ("pentomino-4x15.txt", 1472),
    "pentomino-3x20": ("pentomino-3x20.txt", 8),
    "pentomino-8x8-centre-hole": ("pentomino-8x8-centre-hole.txt", 520),
    "soma-3x3x3": ("soma-3x3x3.json", 11520),
    # Polyform Puzzler: 156 up to the rhombus's 4 symmetries (tests/lattice-corpus/manifest.json)
    "hexiamonds-6x6": ("hexiamonds-6x6.json", 156 * 4),
}
COLD_CASE = "pentomino-6x10"
PROBLEMS: list[str] = []


def polytile_cmd(path: Path) -> list[str]:
    script = Path(sys.executable).parent / "polytile"
    base = [str(script)] if script.exists() else [sys.executable, "-m", "polytile"]
    return base + ["count", str(path), "--json"]


def xcover_cmd(path: Path) -> list[str]:
    return [sys.executable, str(XC_SCRIPT), str(path)]


def run(cmd: list[str]) -> tuple[float, dict]:
    """Wall time of one process and the JSON object on the last line of its output."""
    t0 = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    wall = time.perf_counter() - t0
    if out.returncode != 0:
        raise SystemExit(f"failed ({out.returncode}): {' '.join(cmd)}\n{out.stderr}")
    return wall, json.loads(out.stdout.strip().splitlines()[-1])


def check(case: str, who: str, got: int, want: int) -> None:
    if got != want:
        msg = f"!!! MISMATCH {case}: {who} counted {got} solutions, expected {want} !!!"
        print(msg, flush=True)
        print(msg, file=sys.stderr, flush=True)
        PROBLEMS.append(msg)


def processes(case: str, cmd: list[str], who: str, want: int, repeat: int) -> dict:
    walls, secs = [], []
    for _ in range(repeat):
        wall, js = run(cmd)
        check(case, f"{who} process", js["solutions"], want)
        walls.append(wall)
        secs.append(js["seconds"])
    return {
        "process": statistics.median(walls),
        "search": statistics.median(secs),
        "solutions": js["solutions"],
        "nodes": js.get("nodes"),
        "options": js.get("options"),
        "build": js.get("build_seconds"),
    }


def in_process(case: str, path: Path, want: int, repeat: int) -> dict:
    import polytile
    import xcover_count as xc

    first_pt, first_xc, nosym = [], [], []
    board, pieces = xc.read_puzzle(str(path))
    for _ in range(repeat + 1):  # the first round is untimed: loads every kernel variant
        r = polytile.load(path).solve(limit=1)
        check(case, "polytile solve(limit=1)", r.solutions, min(1, want))
        first_pt.append(r.seconds)
        r = xc.count(board, pieces, first=True)
        check(case, "xcover first", r["solutions"], min(1, want))
        first_xc.append(r["seconds"])
        r = polytile.load(path).count(breaking=False)
        check(case, "polytile count(breaking=False)", r.solutions, want)
        nosym.append(r.seconds)
    med = lambda xs: statistics.median(xs[1:])
    return {"first_polytile": med(first_pt), "first_xcover": med(first_xc), "nosym_polytile": med(nosym)}


def cache_files(package: str) -> list[Path]:
    origin = importlib.util.find_spec(package).origin
    return [p for p in Path(origin).parent.rglob("*") if p.suffix in (".nbi", ".nbc")]


def cold_start() -> dict:
    """One process each right after deleting that tool's numba cache files."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        print("NUMBA_CACHE_DIR is set: cold start not measured")
        return {}
    path = EXAMPLES / CASES[COLD_CASE][0]
    res = {}
    for who, pkg, cmd in (("polytile", "polytile", polytile_cmd(path)), ("xcover", "xcover", xcover_cmd(path))):
        files = cache_files(pkg)
        for f in files:
            f.unlink()
        wall, js = run(cmd)
        check(COLD_CASE, f"{who} cold process", js["solutions"], CASES[COLD_CASE][1])
        res[who] = {
            "process": wall,
            "search": js["seconds"],
            "cache_files_removed": len(files),
            "cache_files_after": len(cache_files(pkg)),
        }
    return res


def git_state() -> str:
    """HEAD, marked +dirty when src/ has uncommitted changes (the timings depend on them)."""
    git = lambda *a: subprocess.run(["git", *a], capture_output=True, text=True, cwd=ROOT).stdout
    head = git("rev-parse", "--short", "HEAD").strip() or "?"
    return head + ("+dirty" if git("status", "--porcelain", "--", "src").strip() else "")


def fmt(s: float | None) -> str:
    if s is None:
        return "-"
    return f"{s * 1e3:.1f}ms" if s < 1 else f"{s:.2f}s"


def ratio(a: float, b: float) -> str:
    return f"{a / b:.1f}x" if b > 0 else "-"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", nargs="+", metavar="NAME", help=f"any of: {' '.join(CASES)}")
    ap.add_argument("--repeat", type=int, default=3, help="runs per median (default 3)")
    ap.add_argument("--json", metavar="OUT", help="also write the figures as JSON")
    ap.add_argument("--no-cold", action="store_true", help="skip the cold-start measurement")
    a = ap.parse_args()
    names = list(CASES)
    if a.cases:
        names = [n for n in CASES if any(c.removesuffix(".txt").removesuffix(".json") in n for c in a.cases)]
        if not names:
            ap.error(f"no case matches {a.cases}; cases: {' '.join(CASES)}")

    import numba
    import polytile
    import xcover_count
    from importlib.metadata import version

    info = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "numba": numba.__version__,
        "polytile": polytile.__version__,
        "xcover": version("xcover"),
        "repeat": a.repeat,
        "load": "%.2f" % os.getloadavg()[0],
        "git": git_state(),
    }
    print(" ".join(f"{k}={v}" for k, v in info.items()), flush=True)

    cold = {} if a.no_cold else cold_start()
    warm_case = EXAMPLES / CASES["pentomino-3x20"][0]  # make sure both caches are populated
    run(polytile_cmd(warm_case))
    run(xcover_cmd(warm_case))
    xcover_count.warm()  # kernel loaded in this process too

    rows = {}
    for n in names:
        file, want = CASES[n]
        path = EXAMPLES / file
        print(f"  {n} ...", end="", flush=True)
        t0 = time.perf_counter()
        pt = processes(n, polytile_cmd(path), "polytile", want, a.repeat)
        xc = processes(n, xcover_cmd(path), "xcover", want, a.repeat)
        rows[n] = {"expected": want, "polytile": pt, "xcover": xc, **in_process(n, path, want, a.repeat)}
        print(f" {time.perf_counter() - t0:.1f}s", flush=True)

    head = (
        f"{'case':<26}{'solutions':>9} |{'pt search':>10}{'xc search':>10}{'xc/pt':>7} |"
        f"{'pt proc':>9}{'xc proc':>9}{'xc/pt':>7} |{'pt first':>9}{'xc first':>9}{'xc/pt':>7}"
        f" |{'pt no-sym':>10}{'xc/no-sym':>10}{'xc build':>9}"
    )
    print("\n" + head + "\n" + "-" * len(head))
    for n, r in rows.items():
        pt, xc = r["polytile"], r["xcover"]
        sols = (
            str(pt["solutions"])
            if pt["solutions"] == xc["solutions"] == r["expected"]
            else f"{pt['solutions']}/{xc['solutions']}!"
        )
        print(
            f"{n:<26}{sols:>9} |{fmt(pt['search']):>10}{fmt(xc['search']):>10}"
            f"{ratio(xc['search'], pt['search']):>7} |{fmt(pt['process']):>9}"
            f"{fmt(xc['process']):>9}{ratio(xc['process'], pt['process']):>7} |"
            f"{fmt(r['first_polytile']):>9}{fmt(r['first_xcover']):>9}"
            f"{ratio(r['first_xcover'], r['first_polytile']):>7} |"
            f"{fmt(r['nosym_polytile']):>10}{ratio(xc['search'], r['nosym_polytile']):>10}"
            f"{fmt(xc['build']):>9}"
        )
    print(
        f"medians of {a.repeat}; xc/pt > 1 means polytile is faster.  pt no-sym = polytile "
        f"visiting every solution (no symmetry breaking); xc build = xcover's option "
        f"construction, included in xc search."
    )

    if cold:
        print(f"\ncold start ({COLD_CASE}, one process right after deleting the numba cache):")
        for who, c in cold.items():
            warm = rows.get(COLD_CASE, {}).get(who, {}).get("process")
            extra = f", warm process {fmt(warm)}, difference {fmt(c['process'] - warm)}" if warm else ""
            print(
                f"  {who:<9} process {fmt(c['process'])} (search {fmt(c['search'])}; "
                f"{c['cache_files_removed']} cache files removed, {c['cache_files_after']} "
                f"written back{extra})"
            )
        if cold["xcover"]["cache_files_after"]:
            print(
                "  xcover caches its kernels too (numba cache=True, compiled at import): "
                "only its first process after install is cold."
            )
        print(f"  cold ratio xc/pt: {ratio(cold['xcover']['process'], cold['polytile']['process'])}")

    end = git_state()
    if end != info["git"]:
        print(f"\nnote: the polytile tree changed during the run ({info['git']} -> {end})")
        info["git_end"] = end
    if a.json:
        Path(a.json).parent.mkdir(parents=True, exist_ok=True)
        Path(a.json).write_text(json.dumps({"info": info, "cases": rows, "cold": cold, "problems": PROBLEMS}, indent=1))
    for p in PROBLEMS:
        print(p, file=sys.stderr)
    return 1 if PROBLEMS else 0


if __name__ == "__main__":
    sys.exit(main())
