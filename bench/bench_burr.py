"""polytile vs BurrTools' burrTxt on BurrTools files, in one run, whole commands.

    python bench/bench_burr.py --burr BIN [--files DIR] [--limit SECONDS] [--repeat N] [--no-exported] [--long]
                               [--before CHECKOUT]
    python bench/bench_burr.py --burr BIN --disassemble [--files DIR] [--limit SECONDS]

BIN is burrTxt (or the environment variable POLYTILE_BURRTXT; an optional peer built from
BurrTools' public sources: bench/README.md, "Optional peers"). DIR holds BurrTools' examples/ (default
tests/xmpuzzle, copies of them: all 18 files, every grid). For every problem of every file:
`polytile count FILE --problem N --burr --unique --json --jobs 1` (polytile's own counts, all
solutions and unique under the result's symmetry, and the assemblies as BurrTools counts them)
and `burrTxt -q -o N FILE`, each run as a whole command (process start, file read, search)
--repeat times (default 3), the median wall time shown, and the ratio burrTxt / polytile.
Then polytile's examples/ are written as BurrTools files (the `convert` writer) and run
the same way. Each run gets --limit seconds. Prints a markdown table. --before CHECKOUT:
another polytile checkout's sources (CHECKOUT/src, e.g. main's) run beside this one's,
command by command in the same run (so under the same load): its time and before / after.

--disassemble: whole commands side by side, median wall time of 3 runs each, on every cube
problem: `burrTxt -d -q -o N FILE` (assemblies, and solutions: those that come apart) and
`polytile count FILE --problem N+1 --burr --disassemble --jobs 1 --json`.
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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from polytile.errors import PuzzleError  # noqa: E402
from polytile.formats import load  # noqa: E402
from polytile.formats.xmpuzzle import dump, read_file  # noqa: E402

OURS = [
    "soma-3x3x3.json",
    "pentomino-3x20.txt",
    "pentomino-4x15.txt",
    "pentomino-5x12.txt",
    "pentomino-6x10.txt",
    "pentomino-8x8-centre-hole.txt",
    "checkerboard-8x8-centre-hole.txt",
    "partial-x-triplication.txt",
    "lucky-thirteen.json",
    "bedlam-cube.json",
]
LONG = ["hexomino-cornucopia-6x17.json"]  # 11 minutes of polytile's count: with --long
GRID_NAMES = {0: "cube", 1: "prism", 2: "sphere", 3: "rhombic", 4: "tetra-octa"}  # BurrTools' grid types


BEFORE: list[Path] = []  # --before: the other checkout


def timed(command: list[str], limit: float, repeat: int, root: Path = ROOT) -> tuple[str | None, float]:
    """The command's output (None: stopped at `limit` seconds) and its median wall time
    (polytile's sources from `root`)."""
    env = dict(os.environ, PYTHONPATH=str(root / "src"))
    times, out = [], ""
    for _ in range(repeat):
        t0 = time.perf_counter()
        try:
            r = subprocess.run(command, capture_output=True, text=True, timeout=limit, env=env)
        except subprocess.TimeoutExpired:
            return None, limit
        times.append(time.perf_counter() - t0)
        out = r.stdout + r.stderr
    return out, statistics.median(times)


def burrtxt(binary: str, path: Path, problem: int, limit: float, repeat: int) -> tuple[str, float]:
    """burrTxt's assemblies (or what it said) and its median wall time."""
    out, seconds = timed([binary, "-q", "-o", str(problem), str(path)], limit, repeat)
    if out is None:
        return f"> {limit:.0f} s (stopped)", seconds
    m = re.search(r"(\d+) assemblies", out)
    if m:
        return m.group(1), seconds
    return ("0" if "can be place nowhere" in out else out.strip().splitlines()[-1][:40]), seconds


def ours(path: Path, problem: int, limit: float, repeat: int, root: Path = ROOT) -> tuple[str, str, str, float]:
    """(solutions, unique, BurrTools figure, median seconds) of polytile's whole command."""
    command = [sys.executable, "-m", "polytile", "count", str(path), "--problem", str(problem + 1)]
    out, seconds = timed(command + ["--burr", "--unique", "--json", "--jobs", "1"], limit, repeat, root)
    if out is None:
        return "-", "-", f"> {limit:.0f} s (stopped)", seconds
    try:
        found = json.loads(out.strip().splitlines()[0])
    except (ValueError, IndexError):
        return "-", "-", out.strip().splitlines()[-1][:60], seconds
    return str(found["solutions"]), str(found["unique"]), str(found["burrtools"]), seconds


def row(name: str, binary: str, path: Path, problem: int, limit: float, repeat: int) -> str:
    solutions, unique, burr, seconds = ours(path, problem, limit, repeat)
    theirs, their_seconds = burrtxt(binary, path, problem, limit, repeat)
    ratio = f"{their_seconds / seconds:.2f}" if burr.isdigit() and theirs.isdigit() else "-"
    agree = "yes" if burr == theirs else ("-" if not theirs.isdigit() else "**no**")
    before = ""
    if BEFORE:
        *_, then = ours(path, problem, limit, repeat, BEFORE[0])
        before = f" {then:.3f} | {then / seconds:.2f} |"
    return (
        f"| {name} | {solutions} | {unique} | {burr} | {seconds:.3f} | {theirs} | {their_seconds:.3f} | {ratio} | "
        f"{agree} |{before}"
    )


HEADER = (
    "| puzzle | solutions | unique | BurrTools count (polytile) | s (median) | burrTxt | s (median) | "
    "burrTxt / polytile | same |\n|---|---|---|---|---|---|---|---|---|"
)


def header() -> str:
    """The table's head (with --before: the other checkout's seconds and before / after)."""
    if not BEFORE:
        return HEADER
    top, rule = HEADER.split("\n")
    return f"{top} before: s (median) | before / after |\n{rule}---|---|"


def examples_table(binary: str, folder: Path, limit: float, repeat: int) -> list[str]:
    lines = []
    for path in sorted(folder.glob("*.xmpuzzle")):
        try:
            burr = read_file(path)
        except PuzzleError as e:
            lines.append(f"| {path.stem} | refused: {str(e).split(': ', 1)[1]} | | | | | | | |")
            continue
        grid = GRID_NAMES.get(burr.grid, str(burr.grid))
        for i, prob in enumerate(burr.problems):
            name = f"{path.stem} #{i + 1}" + (f" ({prob.name})" if prob.name else "") + f" [{grid}]"
            lines.append(row(name, binary, path, i, limit, repeat))
            print(lines[-1], file=sys.stderr)
    return lines


def exported_table(binary: str, limit: float, long: bool, repeat: int) -> list[str]:
    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in OURS + (LONG if long else []):
            puzzle = load(ROOT / "examples" / name)
            path = Path(tmp) / (Path(name).stem + ".xmpuzzle")
            path.write_bytes(dump(puzzle, None, name))
            lines.append(row(name, binary, path, 0, limit, repeat))
            print(lines[-1], file=sys.stderr)
    return lines


def _median_run(cmd: list[str], limit: float) -> tuple[str, float]:
    """The output of `cmd` and its median wall time over 3 runs."""
    times, out = [], ""
    for _ in range(3):
        t0 = time.perf_counter()
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=limit)
        except subprocess.TimeoutExpired:
            return "", limit
        times.append(time.perf_counter() - t0)
        out = r.stdout
    return out, sorted(times)[1]


def disassembly_table(binary: str, folder: Path, limit: float) -> list[str]:
    """burrTxt -d beside count --burr --disassemble, whole commands, on every cube problem."""
    lines = [
        "| puzzle | burrTxt -d assemblies / solutions | s | polytile assemblies / come apart | s | "
        "burrTxt / polytile | same |",
        "|---|---|---|---|---|---|---|",
    ]
    ours_cmd = [sys.executable, "-m", "polytile", "count"]
    for path in sorted(folder.glob("*.xmpuzzle")):
        try:
            problems = read_file(path).problems
        except PuzzleError:
            continue
        for i in range(len(problems)):
            theirs, t_s = _median_run([binary, "-d", "-q", "-o", str(i), str(path)], limit)
            m = re.search(r"(\d+) assemblies and (\d+) solutions", theirs)
            t_fig = f"{m.group(1)} / {m.group(2)}" if m else "stopped"
            out, o_s = _median_run(
                [*ours_cmd, str(path), "--problem", str(i + 1), "--burr", "--disassemble", "--jobs", "1", "--json"],
                limit,
            )
            try:
                got = json.loads(out)
                o_fig = f"{got['burrtools']} / {got['disassemblable']}"
            except (ValueError, KeyError):
                o_fig = "failed"
            lines.append(
                f"| {path.stem} #{i + 1} | {t_fig} | {t_s:.3f} | {o_fig} | {o_s:.3f} | {t_s / o_s:.2f} | "
                f"{'yes' if o_fig == t_fig else '**no**'} |"
            )
            print(lines[-1], file=sys.stderr)
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--burr", default=os.environ.get("POLYTILE_BURRTXT"), help="burrTxt binary")
    ap.add_argument("--files", type=Path, default=ROOT / "tests" / "xmpuzzle")
    ap.add_argument("--limit", type=float, default=150.0, help="seconds per run")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each command (the median is shown)")
    ap.add_argument("--no-exported", action="store_true")
    ap.add_argument("--long", action="store_true", help="also the hexomino Cornucopia (minutes)")
    ap.add_argument("--disassemble", action="store_true", help="burrTxt -d beside count --burr --disassemble")
    ap.add_argument("--before", type=Path, help="another polytile checkout, timed beside this one")
    args = ap.parse_args()
    if args.before:
        BEFORE.append(args.before.resolve())
    if not args.burr:
        sys.exit("bench_burr.py: give --burr BIN (or POLYTILE_BURRTXT)")
    if args.disassemble:
        os.environ["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")
        print("\n".join(disassembly_table(args.burr, args.files, args.limit)))
        return
    print("BurrTools' examples\n\n" + header())
    print("\n".join(examples_table(args.burr, args.files, args.limit, args.repeat)))
    if not args.no_exported:
        print("\npolytile's examples written as BurrTools files\n\n" + header())
        print("\n".join(exported_table(args.burr, args.limit, args.long, args.repeat)))


if __name__ == "__main__":
    main()
