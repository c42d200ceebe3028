"""Records what the page's progress bar is fed during a real parallel count: the count's
progress callback as the job process sees it (the job's clock, the search's own seconds, the
gauge's share), at most ten figures a second as worker.Out sends them, and the count's end.
test_web_eta.py replays such a trace through web/eta.py and compares each time left shown
with the time the count really had left.

    .venv/bin/python tests/web_eta_trace.py PUZZLE JOBS OUT.json
    .venv/bin/python tests/web_eta_trace.py --replay TRACE.json...    # the ETA's accuracy, a table
(PUZZLE: a puzzle file, or the page's puzzle as JSON, e.g. '{"kind": "box", ...}')
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path


def record(path: str, jobs: int) -> dict:
    from polytile.web import puzzles

    t0 = time.perf_counter()
    spec = json.loads(path) if path.startswith("{") else {"kind": "tiling", "text": Path(path).read_text()}
    parsed = puzzles.parse(spec)
    figures: list[list] = []
    last = [0.0]

    def progress(res, done=None, total=None, share=None):
        now = time.perf_counter() - t0
        if share is not None and now - last[0] >= 0.1:
            last[0] = now
            figures.append([round(now, 3), round(res.seconds, 3), share])

    r = parsed.tiling.count(progress=progress, jobs=jobs)
    return {
        "puzzle": path if path.startswith("{") else Path(path).name,
        "jobs": jobs,
        "solutions": r.solutions,
        "end": round(time.perf_counter() - t0, 3),
        "figures": figures,
        "command": f"python tests/web_eta_trace.py {path} {jobs} OUT.json",
    }


def replay(path: str) -> str:
    """One table row: when the page first shows a time left, and the worst ratio (shown / true
    or true / shown, where at least 1 s was left) of the page's ETA and of the plain one."""
    from polytile.web.eta import Eta

    trace = json.loads(Path(path).read_text())
    end, eta, first, page, plain, back, last = trace["end"], Eta(), None, 1.0, 1.0, 0, 0.0
    for when, spent, share in trace["figures"]:
        back += share < last
        last = share
        eta.add(when, spent, share)
        told, true = eta.left(when), end - when
        if true < 1.0:
            continue
        naive = spent * (1 - share) / share
        plain = max(plain, naive / true, true / naive)
        if "eta" in told:
            first = first if first is not None else when
            page = max(page, told["eta"] / true, true / told["eta"])
    shown = f"{first:.1f} s" if first is not None else "never"
    return f"| {Path(path).stem} | {end:.1f} s | {back} | {plain:.2f}x | {shown} | {page:.2f}x |"


if __name__ == "__main__":
    if sys.argv[1] == "--replay":
        print("| trace | count's time | share fell back | plain ETA, worst | page: first shown | page: worst |")
        print("| --- | --- | --- | --- | --- | --- |")
        for arg in sys.argv[2:]:
            print(replay(arg))
        sys.exit(0)
    trace = record(sys.argv[1], int(sys.argv[2]))
    Path(sys.argv[3]).write_text(json.dumps(trace))
    print(f"{trace['puzzle']}: {trace['solutions']} solutions, {trace['end']} s, {len(trace['figures'])} figures")
