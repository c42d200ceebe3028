"""The set-up's steps timed inside `polytile count FILE --unique --json --jobs 1` itself, in
fresh processes, two source trees alternating: perf_counter_ns wrappers (installed after
the warm-up) around search.plan, chained.breaking, the bitboard driver's __init__,
Driver.__init__, chained.build, _kernel_tables, _memo_tables, begin, bind, the search
(search._drive), the kernel's calls in it (Driver.call: with the bind at the first) and
search.piece_never_placed, with the page faults (ru_minflt) of each; medians in
microseconds.

    python bench/setup_wrapped_spans.py BEFORE/src AFTER/src FILE [--repeat 15]

Each tree runs its own compiled kernels (build each tree's extension first). A span's
page faults say when the memo table landed on fresh pages (docs/history/parts/setup8b.md): that
moves `_memo_tables` and `search` by 0.1-0.5 ms from run to run, whatever the set-up does.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

SPANS = (
    "seconds",
    "plan",
    "breaking",
    "driver_init",
    "Driver.__init__",
    "chained.build",
    "_kernel_tables",
    "_memo_tables",
    "begin",
    "bind",
    "search",
    "kernel",
    "never_placed",
    "search_total",
    "faults:_memo_tables",
    "faults:search",
)

CHILD = r"""
import contextlib, io, json, resource, sys, time
from collections import defaultdict
from polytile.engine import search as S, warm as W
from polytile.engine import driver as D
from polytile.engine.bitboard import driver as BD
from polytile.engine.kernels import kernel_module
spent, on = defaultdict(float), [False]
def wrap(owner, name, label):
    inner = getattr(owner, name)
    def timed(*a, **k):
        faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        t = time.perf_counter_ns()
        out = inner(*a, **k)
        if on[0]:
            spent[label] += (time.perf_counter_ns() - t) / 1000
            spent["faults:" + label] += resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults
        return out
    setattr(owner, name, timed)
chained = kernel_module("bitboard.chained")
for owner, name, label in (
    (S, "plan", "plan"), (chained, "breaking", "breaking"), (chained, "build", "chained.build"),
    (BD.BitboardDriver, "__init__", "driver_init"), (BD.BitboardDriver, "_kernel_tables", "_kernel_tables"),
    (BD.BitboardDriver, "_memo_tables", "_memo_tables"), (BD.BitboardDriver, "begin", "begin"),
    (D.Driver, "__init__", "Driver.__init__"), (D.Driver, "bind", "bind"), (S, "_drive", "search"),
    (S, "search", "search_total"), (D.Driver, "call", "kernel"), (S, "piece_never_placed", "never_placed"),
):
    wrap(owner, name, label)
import polytile.tiling.solver as TS  # (after the wrappers: it imports search by name)
warm = W.warm
def warmed(*a, **k):
    out = warm(*a, **k)
    on[0] = True
    return out
TS.warm = warmed
from polytile.cli.main import main
text = io.StringIO()
with contextlib.redirect_stdout(text):
    main(["count", sys.argv[1], "--unique", "--json", "--jobs", "1"])
spent["seconds"] = json.loads(text.getvalue())["seconds"] * 1e6
print(json.dumps(spent))
"""


def run(src: str, file: str, child: str = CHILD) -> dict[str, float]:
    """One fresh process of `count` under the tree `src`: the spans `child` (a script that
    times them and prints them as JSON) measured."""
    env = dict(os.environ, PYTHONPATH=src)
    out = subprocess.run([sys.executable, "-c", child, file], env=env, capture_output=True, text=True, check=True)
    spans: dict[str, float] = json.loads(out.stdout)
    return spans


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("file")
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args()
    got: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
    for _ in range(args.repeat):
        for side in ("before", "after"):
            got[side].append(run(getattr(args, side), args.file))
    print("| span (us, median) | before | after |")
    print("|---|---:|---:|")
    for name in SPANS:
        cells = [statistics.median(r.get(name, 0.0) for r in got[side]) for side in ("before", "after")]
        print(f"| {name} | {cells[0]:.1f} | {cells[1]:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
