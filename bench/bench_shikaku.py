"""polytile shikaku against the reference Python solver of the same text form
(nanakin/shikaku-solver), in one run, on the corpus's Tatham puzzles.

The reference is not part of polytile: clone it anywhere outside the repository, e.g.
    git clone https://github.com/nanakin/shikaku-solver /tmp/shikaku-solver
and run
    python bench/bench_shikaku.py --reference /tmp/shikaku-solver

With --dense: the dense grids (a checkerboard of 2s, a lattice of 3s), polytile's chosen
method against its plain memo counter (no reference can enumerate their solutions).

Both sides are timed the same way: the solve call alone, in its own warm process, from a
parsed grid to the count and one solution (no interpreter start-up or imports), median of
`--repeat` runs. The reference needs colorama only to print; a stub is supplied when absent.

With --whole (default case: tatham-100x100): whole processes as a user runs them, start to
exit -- `polytile shikaku FILE` against `python -m main -f FILE` in the reference's src/,
both printing the count and one solution: interpreter start, imports, reading, counting,
printing. The same interpreter and environment for both, bytecode caches on (in a
temporary PYTHONPYCACHEPREFIX, written by one warm-up run of each side, as an installed
package has them), the two run in turn A B A B ...; medians of `--repeat` (at least 5)
wall-clock runs, CPU seconds (user + system) in brackets, and the ratio of the medians.
With --before DIR, an older checkout's polytile (launched as the `polytile` script does) runs
in the same turns (its DIR/src first on PYTHONPATH), and the ratio before/now.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus" / "shikaku"
DEFAULT = [
    "tatham-10x10",
    "tatham-20x20",
    "tatham-30x30",
    "tatham-50x50",
    "tatham-50x50a",
    "tatham-100x100",
    "tatham-150x150",
]

REFERENCE_DRIVER = r"""
import json, sys, time, importlib
sys.setrecursionlimit(100000)
path, repeat = sys.argv[1], int(sys.argv[2])
import main as ref_main, solver
times, count = [], None
for _ in range(repeat):
    solver.cache.clear()
    with open(path) as f:
        grid = ref_main.read_grid(f.readline)
    t0 = time.perf_counter()
    results = solver.shikaku_solve(grid)
    times.append(time.perf_counter() - t0)
    count = 0 if results is None else len(results)
print(json.dumps({"solutions": count, "times": times}))
"""

STUB = (
    "class _A:\n    def __getattr__(self, n):\n        return ''\nFore = Style = _A()\ndef init(*a, **k):\n    pass\n"
)


def reference(ref: Path, path: Path, repeat: int, stubs: Path) -> tuple[int, float]:
    env_path = f"{ref / 'src'}:{stubs}"
    p = subprocess.run(
        [sys.executable, "-c", REFERENCE_DRIVER, str(path), str(repeat)],
        capture_output=True,
        text=True,
        cwd=ref / "src",
        env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"},
        timeout=3600,
    )
    if p.returncode:
        raise SystemExit(f"reference failed on {path.name}: {p.stderr.strip().splitlines()[-1]}")
    out = json.loads(p.stdout)
    return out["solutions"], statistics.median(out["times"])


def polytile(path: Path, repeat: int) -> tuple[int, float]:
    from polytile.shikaku.formats import load
    from polytile.shikaku.model import solve, verify

    p = load(path)
    solve(p)  # warm: numba cache, numpy first calls
    times, ans = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        ans = solve(p)
        times.append(time.perf_counter() - t0)
    assert ans.solutions == 0 or verify(p, ans.rectangles) is None
    return ans.solutions, statistics.median(times)


DENSE = [
    ("checker-24x24 (2s)", "tests/repro/shikaku-24x24-checker-2s.txt"),
    ("checker-40x40 (2s)", ("checker", 40)),
    ("lattice-15x15 (3s)", ("lattice", 15)),
    ("lattice-18x18 (3s)", ("lattice", 18)),
]


def dense_puzzle(spec):
    """A dense grid: a file, k x k 2s on a checkerboard, or 3s on row + col = 0 mod 3."""
    from polytile.shikaku.formats import load
    from polytile.shikaku.model import Shikaku

    if isinstance(spec, str):
        return load(ROOT / spec)
    kind, n = spec
    k = 2 if kind == "checker" else 3
    return Shikaku.from_rows([[k if (r + c) % k == 0 else 0 for c in range(n)] for r in range(n)])


def dense(repeat: int, budget: int = 1 << 30) -> None:
    """The dense grids (no reference can enumerate 10**70 solutions): the method polytile
    chooses against the plain memo counter alone, both counting only, in one process, with
    the CLI's default 1 GB budget; "stopped" when the memo runs out of it."""
    from polytile.shikaku.model import solve

    print(f"{'case':<20}{'method':>10}{'seconds':>10}{'memo alone s':>14}{'speed-up':>10}  digits")
    for name, spec in DENSE:
        p = dense_puzzle(spec)
        times, ans = [], None
        for _ in range(repeat):
            t0 = time.perf_counter()
            ans = solve(p, solution=False, max_memory=budget)
            times.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        plain = solve(p, solution=False, max_memory=budget, method="memo", time_limit=120)
        t_m = time.perf_counter() - t0
        assert plain.solutions in (None, ans.solutions)
        t = statistics.median(times)
        memo_s = f"{t_m:.3f}" if plain.solutions is not None else f"stopped {t_m:.1f}"
        ratio = f"{t_m / t:.1f}x" if plain.solutions is not None else f">{t_m / t:.0f}x"
        print(f"{name:<20}{ans.method:>10}{t:>10.3f}{memo_s:>14}{ratio:>10}  {len(str(ans.solutions))}", flush=True)
    whole_process(DENSE[0][1], repeat)


def whole_process(path: str, repeat: int) -> None:
    """`polytile shikaku --count FILE` as a user runs it: interpreter, imports, parse, count."""
    exe = Path(sys.executable).parent / "polytile"
    times = []
    for _ in range(max(repeat, 5)):
        t0 = time.perf_counter()
        out = subprocess.run(
            [str(exe), "shikaku", "--count", str(ROOT / path)], capture_output=True, text=True, check=True
        ).stdout
        times.append(time.perf_counter() - t0)
    print(
        f"whole process `polytile shikaku --count {path}`: {statistics.median(times):.3f} s "
        f"(median of {len(times)}), {len(out.strip())} digits"
    )


def timed(argv: list[str], env: dict, cwd: Path | None = None) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the child, its stdout) of one whole process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=cwd, timeout=3600)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode:
        raise SystemExit(f"{argv[:3]} failed: {p.stderr.strip()[-300:]}")
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, p.stdout


def _sides(ref: Path, path: Path, stubs: Path, before: Path | None) -> list[tuple[list[str], dict, Path | None]]:
    """(argv, environment, working directory) of each side: polytile, the reference, and
    with `before` an older checkout's polytile (its src/ first on PYTHONPATH). Bytecode
    caches on for all, in one temporary PYTHONPYCACHEPREFIX."""
    exe = Path(sys.executable).parent / "polytile"
    ours = [str(exe)] if exe.exists() else [sys.executable, "-m", "polytile"]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")}
    env["PYTHONPYCACHEPREFIX"] = _PYCACHE
    sides = [
        (ours + ["shikaku", str(path)], env, None),
        ([sys.executable, "-m", "main", "-f", str(path)], dict(env, PYTHONPATH=str(stubs)), ref / "src"),
    ]
    if before is not None:
        launch = "from polytile.cli import entry; entry()"  # what the `polytile` script runs
        sides.append(
            ([sys.executable, "-c", launch, "shikaku", str(path)], dict(env, PYTHONPATH=str(before / "src")), None)
        )
    return sides


_PYCACHE = tempfile.mkdtemp(prefix="shikaku-pycache-")


def whole_processes(ref: Path, cases: list[str], repeat: int, stubs: Path, before: Path | None) -> None:
    """`polytile shikaku FILE` against the reference's `python -m main -f FILE` (and an
    older polytile), whole processes in turn (see the module doc); all must print the
    expected count."""
    manifest = {c["id"]: c for c in json.loads((CORPUS / "manifest.json").read_text())}
    runs = max(repeat, 5)
    env = dict(os.environ, PYTHONPYCACHEPREFIX=_PYCACHE)
    start = statistics.median(timed([sys.executable, "-c", "pass"], env)[0] for _ in range(5))
    print(f"whole processes, medians of {runs} (CPU seconds in brackets); python -c pass: {start:.4f} s")
    print(
        f"{'case':<16}{'solutions':>10}{'polytile s':>20}{'reference s':>20}{'speed-up':>16}"
        + (f"{'before s':>20}{'before/now':>16}" if before else "")
    )
    for cid in cases:
        path, expected = CORPUS / manifest[cid]["file"], manifest[cid]["solutions"]
        sides = _sides(ref, path, stubs, before)
        results: list[list[tuple[float, float, str]]] = [[] for _ in sides]
        for argv, e, cwd in sides:
            timed(argv, e, cwd)  # warm-up: bytecode caches
        for _ in range(runs):
            for k, (argv, e, cwd) in enumerate(sides):
                results[k].append(timed(argv, e, cwd))
        counts = [int(side[0][2].split()[0]) for side in results]
        assert counts[0] == expected and counts[2:] in ([], [expected]), (cid, counts)
        flag = "" if counts[1] == expected else f"  (reference counted {counts[1]})"
        wall = [statistics.median(r[0] for r in side) for side in results]
        cpu = [statistics.median(r[1] for r in side) for side in results]
        line = (
            f"{cid:<16}{expected:>10}{wall[0]:>11.4f} ({cpu[0]:.4f}){wall[1]:>11.4f} ({cpu[1]:.4f})"
            f"{wall[1] / wall[0]:>7.1f}x ({cpu[1] / cpu[0]:.1f}x)"
        )
        if before:
            line += f"{wall[2]:>11.4f} ({cpu[2]:.4f}){wall[2] / wall[0]:>7.1f}x ({cpu[2] / cpu[0]:.1f}x)"
        print(line + flag, flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reference", type=Path, default=Path("/tmp/shikaku-solver"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument(
        "--dense", action="store_true", help="the dense grids: chosen method against the plain memo counter"
    )
    ap.add_argument(
        "--whole", action="store_true", help="whole processes, start to exit (default case: tatham-100x100)"
    )
    ap.add_argument(
        "--before",
        type=Path,
        metavar="DIR",
        help="with --whole: also an older checkout's polytile (DIR/src), e.g. from "
        "`git archive COMMIT src | tar -x -C DIR`",
    )
    ap.add_argument("cases", nargs="*")
    args = ap.parse_args()
    if args.dense:
        dense(args.repeat)
        return
    if not (args.reference / "src" / "solver.py").exists():
        raise SystemExit(f"no reference solver at {args.reference} (see the docstring)")
    manifest = {c["id"]: c for c in json.loads((CORPUS / "manifest.json").read_text())}
    stubs = Path(tempfile.mkdtemp(prefix="shikaku-stubs-"))
    try:
        import colorama  # noqa: F401
    except ImportError:
        (stubs / "colorama.py").write_text(STUB)
    if args.whole:
        whole_processes(args.reference, args.cases or ["tatham-100x100"], args.repeat, stubs, args.before)
        return
    print(f"{'case':<18}{'expected':>10}{'polytile s':>12}{'reference s':>13}{'speed-up':>10}")
    for cid in args.cases or DEFAULT:
        case = manifest[cid]
        path = CORPUS / case["file"]
        n_p, t_p = polytile(path, args.repeat)
        n_r, t_r = reference(args.reference, path, args.repeat, stubs)
        assert n_p == case["solutions"], (cid, n_p)
        flag = "" if n_r == case["solutions"] else f"  (reference counted {n_r})"
        print(f"{cid:<18}{case['solutions']:>10}{t_p:>12.4f}{t_r:>13.4f}{t_r / t_p:>9.1f}x{flag}", flush=True)


if __name__ == "__main__":
    main()
