"""Set-up spans of two source trees side by side, alternating run by run (fresh processes):
`count --unique --json --jobs 1`'s seconds and bench/search_seconds.py's spans, medians.

    python bench/setup_spans.py BEFORE/src AFTER/src FILE... [--repeat 15]

Each tree is a copy of src/ (e.g. `git archive COMMIT src bench | tar -x -C DIR`) with its
own ahead-of-time extension (`PYTHONPATH=DIR/src python -m polytile.engine.aot`), so each
side runs its own compiled kernels; search_seconds.py is run from each tree's bench/ when
it has one, else from this one's. The machine's other load moves both sides alike.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SPANS = ("model", "symmetry", "plan", "kernel_tables", "search")


def run(src: str, argv: list[str]) -> dict:
    """One fresh process under the tree `src`, its JSON line."""
    env = dict(os.environ, PYTHONPATH=src)
    out = subprocess.run([sys.executable, *argv], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def measure(src: str, file: str) -> tuple[float, dict]:
    """(count's seconds, search_seconds' spans) of one run each."""
    count = run(src, ["-m", "polytile", "count", file, "--unique", "--json", "--jobs", "1"])
    script = Path(src).parent / "bench" / "search_seconds.py"
    spans = run(src, [str(script if script.exists() else HERE / "search_seconds.py"), file])
    return count["seconds"], spans["spans"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("files", nargs="+")
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args()
    print("| case | side | seconds | " + " | ".join(SPANS) + " |")
    print("|---|---|" + "---:|" * (len(SPANS) + 1))
    for file in args.files:
        got: dict[str, list[tuple[float, dict]]] = {"before": [], "after": []}
        for _ in range(args.repeat):
            for side in ("before", "after"):
                got[side].append(measure(getattr(args, side), file))
        for side, runs in got.items():
            seconds = statistics.median(s for s, _ in runs)
            spans = [statistics.median(sp[k] for _, sp in runs) for k in SPANS]
            print(
                f"| {Path(file).stem} | {side} | {1e3 * seconds:.3f} | "
                + " | ".join(f"{1e3 * x:.3f}" for x in spans)
                + " |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
