"""A360499(n) (n x n cut into rectangles of distinct dimensions, each at most once, a x b and
b x a the same) and A360498(n) (oblongs only, --oblongs): estimate the work, or count by prefixes.

    .venv/bin/python bench/distinct_rectangles.py estimate [--n 9] [--depth 3] [--samples 1500]
        [--seed 0] [--probes 1000000] [--rate-seconds 120] [--oblongs]
    .venv/bin/python bench/distinct_rectangles.py count [--n 9] [--depth 3] [--jobs 2]
        [--checkpoint FILE] [--time-budget SECONDS] [--shard I/K] [--oblongs]

Prefixes: every way to place the first --depth rectangles, each at the first empty cell (row
by row; the rectangle covering that cell has it as its top-left corner), listed here
independently of polytile. Every tiling has exactly one: its first --depth pieces in that order.
Tilings finished within --depth pieces are counted here; each other prefix is a puzzle of its
own for polytile (the cells left, the rectangles not yet used, each at most once), counted by
`count(method="enumerate")` on one thread; a(n) is their sum.

estimate: three figures.
1. Knuth's estimate (polytile.engine.tree.estimate_tree: random paths down the first-empty-cell
   tree, no pruning) of the whole tree's nodes, over five seeds.
2. --samples prefixes drawn uniformly (with replacement) and counted: the number of prefixes
   times the mean gives unbiased estimates of a(n), of polytile's nodes and of its CPU seconds
   (time.process_time: the figure holds on a loaded machine), with standard errors. --n 8
   can be held against the published a(8) = 118,897,973.
3. The kernel's speed on the whole board: `polytile count FILE --json --jobs 1 --method
   enumerate --time-limit --rate-seconds`, nodes per CPU second on the n x n model (which
   `polytile count --jobs N --checkpoint` uses), to turn the estimated nodes into CPU hours.

count: every prefix, on --jobs processes. With --checkpoint FILE each finished prefix is
appended to FILE (one JSON line: index, solutions, nodes, CPU seconds) and a later run with the
same FILE, n, depth and piece set skips it; --time-budget stops handing out prefixes after that
many seconds; --shard I/K counts only the prefixes whose index is I mod K (one shard per machine
of a cluster; add the shards' totals and the finished tilings once). The total is printed when
every prefix of the shard is done.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import make_counting_examples as examples  # noqa: E402

Prefix = tuple[int, tuple[int, ...]]  # (covered cells as bits r * n + c, the pieces used)


def dimensions(n: int, oblongs: bool) -> list[tuple[int, int]]:
    return [(a, b) for a in range(1, n + 1) for b in range(a, n + 1) if not (oblongs and a == b)]


def prefixes(n: int, depth: int, oblongs: bool) -> tuple[int, list[Prefix]]:
    """(tilings finished within `depth` pieces, every way to place `depth` pieces), the pieces
    by their index in dimensions(n), in a fixed order."""
    dims = dimensions(n, oblongs)
    full = (1 << (n * n)) - 1
    finished, out = 0, []

    def place(covered: int, used: tuple[int, ...]) -> None:
        nonlocal finished
        if covered == full:
            finished += 1
            return
        if len(used) == depth:
            out.append((covered, used))
            return
        first = (~covered & (covered + 1)).bit_length() - 1  # the lowest empty cell
        r, c = divmod(first, n)
        for k, (a, b) in enumerate(dims):
            if k in used:
                continue
            for h, w in sorted({(a, b), (b, a)}):
                if r + h > n or c + w > n:
                    continue
                row = ((1 << w) - 1) << c
                mask = sum(row << (n * (r + i)) for i in range(h))
                if not covered & mask:
                    place(covered | mask, (*used, k))

    place(0, ())
    return finished, out


def sub_puzzle(n: int, covered: int, used: tuple[int, ...], oblongs: bool) -> dict:
    cells = [[c, r] for r in range(n) for c in range(n) if not covered >> (r * n + c) & 1]
    pieces = [
        {"name": f"{a}x{b}", "cells": examples.rect(a, b), "count": 1, "min": 0}
        for k, (a, b) in enumerate(dimensions(n, oblongs))
        if k not in used
    ]
    return {"board": cells, "pieces": pieces}


def count_prefix(n: int, prefix: Prefix, oblongs: bool, path: Path) -> tuple[int, int, float]:
    """(solutions, polytile's nodes, CPU seconds) of one prefix's puzzle."""
    import polytile

    data = sub_puzzle(n, *prefix, oblongs)
    if sum(len(p["cells"]) * len(p["cells"][0]) for p in data["pieces"]) < len(data["board"]):
        return 0, 0, 0.0  # the rectangles left cannot cover the cells left
    path.write_text(json.dumps(data))
    cpu = time.process_time()  # one thread: its CPU time, whatever else the machine runs
    r = polytile.load(path).count(method="enumerate")
    if not r.complete:
        raise RuntimeError(f"prefix {prefix}: count incomplete")
    return r.solutions, r.nodes, time.process_time() - cpu


def mean_and_error(xs: list[float]) -> tuple[float, float]:
    m = math.fsum(xs) / len(xs)
    var = math.fsum((x - m) ** 2 for x in xs) / (len(xs) - 1) if len(xs) > 1 else 0.0
    return m, math.sqrt(var / len(xs))


# ---- estimate -----------------------------------------------------------------------------


def knuth(n: int, oblongs: bool, probes: int, tmp: Path) -> None:
    import polytile
    from polytile.engine.tree import estimate_tree

    path = tmp / "whole.json"
    path.write_text(json.dumps(sub_puzzle(n, 0, (), oblongs)))
    cover = polytile.load(path).model().cover
    t = time.perf_counter()
    ests = [estimate_tree(cover, probes, seed) for seed in range(5)]
    m = math.fsum(e.nodes for e in ests) / len(ests)
    se = math.sqrt(math.fsum(e.stderr**2 for e in ests)) / len(ests)
    each = ", ".join(f"{e.nodes:.3g}" for e in ests)
    print(f"1. Knuth's estimate, {len(ests)} x {probes:,} probes ({time.perf_counter() - t:.0f} s):")
    print(f"   {m:.3g} nodes ± {se / m:.1%} (seeds 0-4: {each})")


def sampled(n: int, depth: int, samples: int, seed: int, oblongs: bool, tmp: Path) -> tuple[float, float]:
    t = time.perf_counter()
    finished, todo = prefixes(n, depth, oblongs)
    listed = time.perf_counter() - t
    rng = random.Random(seed)
    picks = [rng.randrange(len(todo)) for _ in range(samples)]
    sols, nodes, secs = [], [], []
    t = time.perf_counter()
    for i in picks:
        s, nd, sec = count_prefix(n, todo[i], oblongs, tmp / "prefix.json")
        sols.append(float(s))
        nodes.append(float(nd))
        secs.append(sec)
    spent = time.perf_counter() - t
    scale = len(todo)
    (s, se), (nd, nde), (sc, sce) = (mean_and_error(x) for x in (sols, nodes, secs))
    print(
        f"2. Prefixes of depth {depth}: {len(todo):,} (listed in {listed:.1f} s), {finished} tilings finished "
        f"sooner; {samples} drawn (seed {seed}), counted in {spent:.0f} s:"
    )
    print(f"   solutions {finished + scale * s:,.0f} ± {scale * se / (finished + scale * s):.1%}")
    print(f"   polytile's nodes {scale * nd:.3g} ± {nde / nd:.1%}")
    print(f"   polytile's CPU seconds {scale * sc:,.0f} ± {sce / sc:.1%} (the prefixes' puzzles, loading included)")
    return scale * nd, scale * sc


def rate(n: int, oblongs: bool, seconds: float, tmp: Path) -> float:
    path = tmp / "whole.json"
    path.write_text(json.dumps(sub_puzzle(n, 0, (), oblongs)))
    cmd = [sys.executable, "-m", "polytile", "count", str(path), "--json", "--jobs", "1", "--method", "enumerate"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([*cmd, "--time-limit", str(seconds)], capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    r = json.loads(proc.stdout.strip().splitlines()[-1])
    speed = r["nodes"] / cpu
    print(
        f"3. The whole {n} x {n} model, one thread, {r['seconds']:.0f} s ({cpu:.0f} s CPU, the process's): "
        f"{r['nodes']:,} nodes ({speed / 1e6:.1f} M nodes per CPU second), {r['solutions']:,} solutions so far, "
        f"complete: {r['complete']}"
    )
    return speed


def estimate(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="polytile-estimate-") as d:
        tmp = Path(d)
        knuth(args.n, args.oblongs, args.probes, tmp)
        nodes, seconds = sampled(args.n, args.depth, args.samples, args.seed, args.oblongs, tmp)
        speed = rate(args.n, args.oblongs, args.rate_seconds, tmp) if args.rate_seconds > 0 else 0.0
    print()
    print(f"CPU hours, by the sampled prefixes: {seconds / 3600:.2f}")
    if speed:
        print(f"CPU hours, the sampled nodes at the whole model's speed: {nodes / speed / 3600:.2f}")


# ---- count --------------------------------------------------------------------------------

_WORK: dict = {}


def _init(n: int, oblongs: bool, todo: list[Prefix], tmp: str) -> None:
    _WORK.update(n=n, oblongs=oblongs, todo=todo, path=Path(tmp) / f"prefix-{os.getpid()}.json")


def _count(i: int) -> tuple[int, int, int, float]:
    s, nodes, cpu = count_prefix(_WORK["n"], _WORK["todo"][i], _WORK["oblongs"], _WORK["path"])
    return i, s, nodes, cpu


def count(args: argparse.Namespace) -> None:
    t0 = time.perf_counter()
    finished, todo = prefixes(args.n, args.depth, args.oblongs)
    shard, shards = (int(x) for x in args.shard.split("/"))
    mine = [i for i in range(len(todo)) if i % shards == shard]
    done: dict[int, tuple[int, int, float]] = {}
    key = {"n": args.n, "depth": args.depth, "oblongs": args.oblongs, "prefixes": len(todo)}
    if args.checkpoint and Path(args.checkpoint).exists():
        lines = Path(args.checkpoint).read_text().splitlines()
        if json.loads(lines[0]) != key:
            sys.exit(f"{args.checkpoint}: written for {lines[0]}, not {json.dumps(key)}")
        for line in lines[1:]:
            i, s, nodes, cpu = json.loads(line)
            done[i] = (s, nodes, cpu)
    elif args.checkpoint:
        Path(args.checkpoint).write_text(json.dumps(key) + "\n")
    left = [i for i in mine if i not in done]
    print(
        f"{len(todo):,} prefixes of depth {args.depth}, {finished} tilings finished sooner; shard {args.shard}: "
        f"{len(mine):,}, {len(mine) - len(left):,} done before",
        flush=True,
    )
    out = open(args.checkpoint, "a") if args.checkpoint else None  # noqa: SIM115 (held for the run)
    stopped = False
    with tempfile.TemporaryDirectory(prefix="polytile-prefixes-") as tmp:
        ctx = multiprocessing.get_context("forkserver")
        with ctx.Pool(args.jobs, _init, (args.n, args.oblongs, todo, tmp)) as pool:
            for k, (i, s, nodes, cpu) in enumerate(pool.imap_unordered(_count, left)):
                done[i] = (s, nodes, cpu)
                if out:
                    out.write(json.dumps([i, s, nodes, round(cpu, 4)]) + "\n")
                    out.flush()
                if k % 1000 == 999:
                    print(f"  {len(done):,} done, {time.perf_counter() - t0:.0f} s", flush=True)
                if args.time_budget and time.perf_counter() - t0 > args.time_budget:
                    stopped = True
                    pool.terminate()
                    break
    if out:
        out.close()
    have = [i for i in mine if i in done]
    total = sum(done[i][0] for i in have)
    cpu = sum(done[i][2] for i in have)
    nodes = sum(done[i][1] for i in have)
    wall = time.perf_counter() - t0
    print(
        f"{len(have):,} of {len(mine):,} prefixes: {total:,} solutions, {nodes:,} nodes, {cpu:.0f} CPU s, {wall:.0f} s"
    )
    if len(have) < len(mine):
        print(f"incomplete ({'time budget' if stopped else 'stopped'}): run again with the same --checkpoint")
    elif shards == 1:
        print(f"{'A360498' if args.oblongs else 'A360499'}({args.n}) = {finished + total:,}")
    else:
        print(f"shard {args.shard} total {total:,}; a(n) = the shards' totals + {finished}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="verb", required=True)
    for name in ("estimate", "count"):
        p = sub.add_parser(name)
        p.add_argument("--n", type=int, default=9)
        p.add_argument("--depth", type=int, default=3)
        p.add_argument("--oblongs", action="store_true", help="A360498: a x b with a < b only.")
    est = sub.choices["estimate"]
    est.add_argument("--samples", type=int, default=1500)
    est.add_argument("--seed", type=int, default=0)
    est.add_argument("--probes", type=int, default=1_000_000)
    est.add_argument("--rate-seconds", type=float, default=120)
    cnt = sub.choices["count"]
    cnt.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    cnt.add_argument("--checkpoint", help="JSON lines of the finished prefixes; resumed from.")
    cnt.add_argument("--time-budget", type=float, default=0, help="Stop after this many seconds (0: none).")
    cnt.add_argument("--shard", default="0/1", help="I/K: the prefixes whose index is I mod K.")
    args = ap.parse_args()
    name = "A360498" if args.oblongs else "A360499"
    print(f"{name}({args.n}): {args.n} x {args.n}, {len(dimensions(args.n, args.oblongs))} rectangles\n")
    (estimate if args.verb == "estimate" else count)(args)


if __name__ == "__main__":
    main()
