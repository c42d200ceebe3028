"""Start-up: whole `polytile` processes against their peers, side by side in one run.

    python bench/bench_startup.py [--runs 7] [--nanakin DIR] [--before DIR] [--no-cold]

Every figure is a whole process (interpreter start, imports, kernel loading, the answer),
timed from outside with warm caches: the commands run in turn, A B A B ..., after one
warm-up each, and the median wall time is printed, with the median CPU seconds (user +
system) in brackets, which a loaded machine inflates far less. With --before DIR (the root of another
checkout, e.g. `git worktree add /tmp/polytile-before main`), its polytile runs in the same
turns (the same interpreter and packages, its `src` first on PYTHONPATH), a "before" column
beside "after" (this checkout). Peers:

- xcover: `bench/xcover_count.py` (pip install xcover, the `bench` extra) on the same file;
- nanakin's pure-Python Shikaku solver, when a checkout is at --nanakin (default
  /tmp/shikaku-solver; `git clone https://github.com/nanakin/shikaku-solver` there first).
  Its `colorama` is only for colours; a stub stands in when it is not installed.

Then `seconds` of `count --json` on 3x20 (the time from the parsed puzzle to the answer),
the first run with an empty kernel cache (NUMBA_CACHE_DIR pointing at an empty folder,
as after `pip install`), and the import-time top 10 (`python -X importtime`) of a few
commands, by each module's own time.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHIKAKU = ROOT / "tests" / "corpus" / "shikaku"
EXAMPLES = ROOT / "examples"
COLORAMA_STUB = (
    "class _Any:\n    def __getattr__(self, name):\n        return ''\n"
    "Fore = Back = Style = _Any()\ndef init(*a, **k):\n    pass\n"
)


def polytile_command() -> list[str]:
    script = Path(sys.executable).parent / "polytile"
    return [str(script)] if script.exists() else [sys.executable, "-m", "polytile"]


def wall(argv: list[str], env: dict | None = None, cwd: Path | None = None) -> float:
    t0 = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=cwd, timeout=600)
    return time.perf_counter() - t0


def side_by_side(runners: list[Peer | None], runs: int) -> list[float | None]:
    """Median wall seconds of each runner (None: absent), run in turn after one warm-up each."""
    present = [r for r in runners if r is not None]
    for r in present:
        r.run()
    times: dict[int, list[float]] = {id(r): [] for r in present}
    for _ in range(runs):
        for r in present:
            times[id(r)].append(r.run())
    return [None if r is None else statistics.median(times[id(r)]) for r in runners]


class Peer:
    """A command to time; `cpu` keeps the CPU seconds (user + system) of each run."""

    def __init__(self, name: str, argv: list[str], env: dict | None = None, cwd: Path | None = None):
        self.name, self.argv, self.env, self.cwd = name, argv, env, cwd
        self.cpu: list[float] = []

    def run(self) -> float:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        seconds = wall(self.argv, self.env, self.cwd)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        return seconds

    def median_cpu(self) -> float:
        return statistics.median(self.cpu[1:])  # the warm-up left out


def nanakin_peer(checkout: Path, puzzle: Path, stubs: Path) -> Peer | None:
    src = checkout / "src"
    if not (src / "main.py").exists():
        return None
    env = dict(os.environ)
    try:
        import colorama  # noqa: F401
    except ImportError:
        (stubs / "colorama.py").write_text(COLORAMA_STUB)
        env["PYTHONPATH"] = str(stubs)
    return Peer("nanakin", [sys.executable, "main.py", "-f", str(puzzle)], env, src)


def xcover_peer(puzzle: Path) -> Peer | None:
    try:
        import xcover  # noqa: F401
    except ImportError:
        return None
    return Peer("xcover", [sys.executable, str(ROOT / "bench" / "xcover_count.py"), str(puzzle)])


def rows(args, stubs: Path) -> list[tuple[str, list[str], Peer | None, float]]:
    """(label, polytile arguments, peer or None, goal in seconds)."""
    bad, bad_json, bad_shikaku = stubs / "bad.txt", stubs / "bad.json", stubs / "bad-shikaku.txt"
    bad.write_text("XXX\n\tX\n")
    bad_json.write_text('{"board": [[0, 0], [0, 0]], "pieces": "pentominoes"}')
    bad_shikaku.write_text("3 3\n1 2\n")
    t10, t30 = SHIKAKU / "tatham-10x10.txt", SHIKAKU / "tatham-30x30.txt"
    p3x20, p6x10 = EXAMPLES / "pentomino-3x20.txt", EXAMPLES / "pentomino-6x10.txt"
    return [
        ("shikaku 10x10 (Tatham)", ["shikaku", str(t10)], nanakin_peer(args.nanakin, t10, stubs), 0.15),
        ("shikaku 30x30 (Tatham)", ["shikaku", str(t30)], nanakin_peer(args.nanakin, t30, stubs), 0.15),
        ("--help", ["--help"], None, 0.15),
        ("count: malformed drawing", ["count", str(bad)], None, 0.15),
        ("count: malformed JSON puzzle", ["count", str(bad_json)], None, 0.15),
        ("shikaku: malformed puzzle", ["shikaku", str(bad_shikaku)], None, 0.15),
        ("count: missing file", ["count", str(stubs / "missing.txt")], None, 0.15),
        ("count: bad option", ["count", str(bad), "--engine", "nope"], None, 0.15),
        ("solve --limit many", ["solve", str(p3x20), "--limit", "many"], None, 0.15),
        ("count pentomino 3x20", ["count", str(p3x20)], xcover_peer(p3x20), 0.35),
        ("katamino L Y P W --count (5x4)", ["katamino", "L", "Y", "P", "W", "--count"], None, 0.35),
        ("count --unique pentomino 6x10", ["count", str(p6x10), "--unique"], xcover_peer(p6x10), 0.5),
    ]


def polytile_runner(argv: list[str], source: Path) -> Peer:
    """`polytile ARGV` from the checkout at `source` (its `src` first on PYTHONPATH)."""
    path = [str(source / "src"), *filter(None, [os.environ.get("PYTHONPATH")])]
    return Peer("polytile", polytile_command() + argv, dict(os.environ, PYTHONPATH=os.pathsep.join(path)))


def table(args, stubs: Path) -> None:
    floor_runner = Peer("python", [sys.executable, "-c", "pass"])
    (floor,) = side_by_side([floor_runner], args.runs)
    print(
        f"the floor: `python -c pass` takes {floor:.3f} s ({floor_runner.median_cpu():.3f} s of CPU) "
        "on this machine now: the load inflates every wall time alike; CPU seconds much less\n"
    )
    before = "before s (cpu)" if args.before else ""
    print(f"{'command':<34}{before:>16}{'after s (cpu)':>16}{'goal s':>8}  peer")
    for label, argv, peer, goal in rows(args, stubs):
        if args.only and args.only not in label:
            continue
        old = polytile_runner(argv, args.before) if args.before else None
        new = polytile_runner(argv, ROOT)
        t_old, t, tp = side_by_side([old, new, peer], args.runs)
        vs = (
            ""
            if peer is None
            else (f"{peer.name} {tp:.3f} s ({peer.median_cpu():.3f}) ({tp / t:.1f}x polytile's time)")
        )
        was = f"{t_old:>8.3f} ({old.median_cpu():.3f})" if old is not None else f"{'':>16}"
        print(f"{label:<34}{was}{t:>8.3f} ({new.median_cpu():.3f}){goal:>8.2f}  {vs}", flush=True)


def search_seconds(runs: int) -> None:
    cmd = polytile_command() + ["count", str(EXAMPLES / "pentomino-3x20.txt"), "--json"]
    seconds = [json.loads(subprocess.run(cmd, capture_output=True, text=True).stdout)["seconds"] for _ in range(runs)]
    print(f"\n3x20 `seconds` (count --json), median of {runs}: {statistics.median(seconds) * 1000:.2f} ms (goal 3 ms)")


def cold(stubs: Path) -> None:
    """The first run after pip install: no cached kernel (an empty NUMBA_CACHE_DIR)."""
    cmd = polytile_command()
    for label, argv in (
        ("count pentomino 3x20", ["count", str(EXAMPLES / "pentomino-3x20.txt")]),
        ("shikaku 30x30", ["shikaku", str(SHIKAKU / "tatham-30x30.txt")]),
    ):
        cache = stubs / f"numba-cache-{len(label)}"
        shutil.rmtree(cache, ignore_errors=True)
        cache.mkdir()
        env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
        print(f"first run, empty kernel cache, {label}: {wall(cmd + argv, env):.2f} s (goal 10 s)")


def import_top(argv: list[str], runs: int, n: int = 10) -> None:
    """The n modules with the largest own import time while running `polytile ARGV`: the
    least of `runs` runs for each module (a loaded machine only ever adds time)."""
    own: dict[str, int] = {}
    cumulative: dict[str, int] = {}
    for _ in range(runs):
        p = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "polytile", *argv], capture_output=True, text=True
        )
        for line in p.stderr.splitlines():
            if line.startswith("import time:") and "|" in line and "self [us]" not in line:
                mine, total, name = (x.strip() for x in line[len("import time:") :].split("|"))
                own[name] = min(own.get(name, 1 << 62), int(mine))
                cumulative[name] = min(cumulative.get(name, 1 << 62), int(total))
    print(
        f"\nimports of `polytile {' '.join(Path(a).name for a in argv)}`: {len(own)} modules, "
        f"{sum(own.values()) / 1e6:.3f} s (least of {runs} runs for each module)"
    )
    for name in sorted(own, key=own.__getitem__, reverse=True)[:n]:
        print(f"  {own[name] / 1e3:8.1f} ms own {cumulative[name] / 1e3:8.1f} ms with its imports  {name}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7, help="counted runs of each command")
    ap.add_argument(
        "--nanakin",
        type=Path,
        default=Path("/tmp/shikaku-solver"),
        help="checkout of nanakin/shikaku-solver (skipped when absent)",
    )
    ap.add_argument(
        "--before",
        type=Path,
        metavar="DIR",
        help="root of another checkout to time in the same turns (a before column)",
    )
    ap.add_argument("--no-cold", action="store_true", help="skip the empty-cache runs")
    ap.add_argument("--only", metavar="TEXT", help="only the table rows whose label holds TEXT")
    args = ap.parse_args()
    stubs = Path(tempfile.mkdtemp(prefix="polytile-startup-"))
    try:
        table(args, stubs)
        search_seconds(args.runs)
        if not args.no_cold:
            cold(stubs)
        for argv in (
            ["--help"],
            ["shikaku", str(SHIKAKU / "tatham-30x30.txt")],
            ["count", str(EXAMPLES / "pentomino-3x20.txt")],
        ):
            import_top(argv, args.runs)
    finally:
        shutil.rmtree(stubs, ignore_errors=True)


if __name__ == "__main__":
    main()
