"""The model's share of `polytile count FILE --unique --json --jobs 1`, timed inside the
command itself, in fresh processes, two source trees alternating: perf_counter_ns
wrappers (installed after the warm-up) around what runs between `seconds`' t0 and
search.plan (the model, its compiled call and the Python around it, `infeasible`, the
symmetry, the search's checks before the plan) and the whole of it (`before_plan`: from the
warm-up's return to search.plan's call); medians in microseconds.

    python bench/model_spans.py BEFORE/src AFTER/src FILE... [--repeat 15]

Each tree runs its own compiled kernels (build each tree's extension first, e.g.
`PYTHONPATH=DIR/src python -m polytile.engine.aot`).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

from setup_wrapped_spans import run  # (one fresh process, its spans)

SPANS = (
    "seconds",
    "before_plan",
    "model",
    "build_compiled",
    "modeller",
    "compiled_call",
    "infeasible",
    "symmetry",
    "search_to_plan",
    "plan",
)

CHILD = r"""
import contextlib, io, json, sys, time
from collections import defaultdict
from polytile.engine import search as S, warm as W
from polytile.engine.kernels import kernel_module
try:
    from polytile.engine.geometry import modelling_driver as MD
except ImportError:  # (a tree from before the regroup)
    from polytile.engine import modelling_driver as MD
spent, on, marks = defaultdict(float), [False], {}
def timed(inner, label):
    def call(*a, **k):
        t = time.perf_counter_ns()
        out = inner(*a, **k)
        if on[0]:
            spent[label] += (time.perf_counter_ns() - t) / 1000
        return out
    return call
def wrap(owner, name, label):
    setattr(owner, name, timed(getattr(owner, name), label))
import polytile.tiling.solver as TS
try:
    import polytile.engine.model as EM  # (the one entry point, where the tree has it)
except ImportError:
    EM = TS
search, plan = S.search, S.plan
def searching(*a, **k):
    marks["search"] = time.perf_counter_ns()
    return search(*a, **k)
def planning(*a, **k):
    t = time.perf_counter_ns()
    if on[0] and "plan" not in marks:
        marks["plan"] = t
        spent["search_to_plan"] += (t - marks["search"]) / 1000
        spent["before_plan"] += (t - marks["warm"]) / 1000
    out = plan(*a, **k)
    if on[0]:
        spent["plan"] += (time.perf_counter_ns() - t) / 1000
    return out
S.plan, TS.search = planning, searching
for owner, name, label in (
    (TS.Tiling, "model", "model"), (EM, "build_compiled", "build_compiled"), (EM, "modeller", "modeller"),
    (TS, "infeasible", "infeasible"), (TS.Tiling, "_symmetry_within_budget", "symmetry"),
):
    wrap(owner, name, label)
modelling = kernel_module(MD.__name__.removeprefix("polytile.engine.").removesuffix("_driver")).model
warm = TS.warm
def warmed(*a, **k):
    out = warm(*a, **k)
    variants = modelling.variants or {}
    for key in list(variants):
        variants[key] = timed(variants[key], "compiled_call")
    cached = getattr(MD, "_VARIANT", None)  # (a tree whose driver keeps the variant it found)
    if cached and cached[0] is not None:
        cached[0] = timed(cached[0], "compiled_call")
    on[0] = True
    marks["warm"] = time.perf_counter_ns()
    return out
TS.warm = warmed
from polytile.cli.main import main
text = io.StringIO()
with contextlib.redirect_stdout(text):
    main(["count", sys.argv[1], "--unique", "--json", "--jobs", "1"])
spent["seconds"] = json.loads(text.getvalue())["seconds"] * 1e6
print(json.dumps(spent))
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("files", nargs="+")
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args()
    print("| case | span (us, median) | before | after |")
    print("|---|---|---:|---:|")
    for file in args.files:
        got: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
        for _ in range(args.repeat):
            for side in ("before", "after"):
                got[side].append(run(getattr(args, side), file, CHILD))
        for name in SPANS:
            cells = [statistics.median(r.get(name, 0.0) for r in got[side]) for side in ("before", "after")]
            print(f"| {Path(file).stem} | {name} | {cells[0]:.1f} | {cells[1]:.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
