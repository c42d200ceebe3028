"""--time-limit on a large board: a 25x25x25 box of 3,125 copies of one pentacube. Every
step before the search (the model, the symmetry analysis, the search's plan and tables, the
quick try on one thread) looks at the deadline, and the count stops with the usual partial
report (complete: false, reason time limit, exit 124) near the limit: it took 4.1 s of a 2 s
limit (the quick try's 100,000 nodes at 40 us each, then a parallel count begun after the
time was spent), and 33 s with --max-memory 20G (a symmetry analysis that never looked at
the clock)."""

from __future__ import annotations

import json
import subprocess
import time

import pytest

from cli_helpers import command

SIDE = 25
PENTACUBE = [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0]]
SLACK = 1.0  # seconds past the limit: one step that cannot be cut (a numpy call, a table's build)


@pytest.fixture(scope="module")
def box(tmp_path_factory):
    cells = [[x, y, z] for x in range(SIDE) for y in range(SIDE) for z in range(SIDE)]
    path = tmp_path_factory.mktemp("box") / "box25.json"
    path.write_text(json.dumps({"board": cells, "pieces": [{"name": "A", "cells": PENTACUBE, "count": SIDE**3 // 5}]}))
    return path


@pytest.mark.parametrize(
    "extra",
    [
        [],  # the quick try and the parallel count
        ["--jobs", "1"],  # one thread
        ["--max-memory", "20G"],  # the symmetry analysis within the budget
        ["--max-memory", "20G", "--unique"],
    ],
)
def test_a_large_box_stops_at_the_time_limit(box, extra):
    limit = 0.5
    t0 = time.perf_counter()
    res = subprocess.run(
        command("count", box, "--time-limit", limit, "--json", *extra), capture_output=True, text=True, timeout=300
    )
    took = time.perf_counter() - t0
    assert res.returncode == 124, res.stderr
    out = json.loads(res.stdout)
    assert out["complete"] is False and out["reason"] == "time limit"
    assert out["seconds"] < limit + SLACK, out
    assert took < limit + SLACK + 10, took  # and start-up, imports and the kernels' loading


def test_a_node_budget_keeps_the_deadline(box):
    """The quick try's node budget is spent in slices, the deadline looked at between them."""
    from polytile.engine.search import search
    from polytile.formats import load
    from polytile.tiling.solver import Tiling

    model = Tiling(load(box)).model()
    search(model.cover, engine="dlx", node_budget=1)  # the kernel loaded
    t0 = time.perf_counter()
    res = search(model.cover, engine="dlx", node_budget=100_000, time_limit=0.5)
    assert time.perf_counter() - t0 < 0.5 + SLACK
    assert res.timed_out and not res.complete


def test_the_symmetry_analysis_keeps_the_deadline(box):
    from polytile.core.cover import TimeUp
    from polytile.core.symmetry import analyse
    from polytile.formats import load
    from polytile.tiling.solver import Tiling

    model = Tiling(load(box)).model()
    t0 = time.perf_counter()
    with pytest.raises(TimeUp):
        analyse(model, deadline=t0 + 0.5)
    assert time.perf_counter() - t0 < 0.5 + SLACK
