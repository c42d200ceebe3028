"""The lowest-item bitboard kernel against the dynamic one (engine/bitboard/dynamic.py) on
one puzzle: nodes (exact), counts and search seconds, one count each, in this process.

    python bench/dynamic_cells.py FILE [CELLS ...]

CELLS: the thresholds of empty items below which the dynamic kernel fills the most
constrained item (default 15 20 25). Counts all and unique solutions with symmetry
breaking on one thread, as `count --unique --jobs 1` does; the kernels are compiled (and
the first call made) before the clock starts.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from polytile.core.results import Report
from polytile.engine.bitboard.driver import BitboardDriver
from polytile.engine.bitboard.dynamic_driver import DynamicDriver
from polytile.engine.search import Pacer, plan
from polytile.tiling.solver import load


def one(file: str, cells: int | None) -> dict[str, object]:
    """One count: the lowest-item kernel (cells None) or the dynamic one."""
    tiling = load(file)
    cover, sym = tiling.model().cover, tiling.symmetry()
    p = plan(cover, sym, unique=True, store=False)
    if cells is None:
        driver: BitboardDriver = BitboardDriver(cover, sym, p, store=False, limit=0)
    else:
        driver = DynamicDriver(cover, sym, p, store=False, limit=0, cells=cells)
    driver.begin(p.prefixes)
    driver.bind()
    t = time.perf_counter()
    pacer, res = Pacer(), Report[np.ndarray](unique=0)
    while pacer.advance(driver) != "done":
        pass
    driver.collect(res, False)
    took = time.perf_counter() - t
    return {"cells": cells, "nodes": res.nodes, "solutions": res.solutions, "unique": res.unique, "search": took}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file")
    ap.add_argument("cells", nargs="*", type=int, default=[15, 20, 25])
    args = ap.parse_args()
    base = one(args.file, None)
    print(json.dumps(base))
    for cells in args.cells:
        row = one(args.file, cells)
        row["nodes_ratio"] = round(float(str(base["nodes"])) / max(1.0, float(str(row["nodes"]))), 3)
        row["time_ratio"] = round(float(str(base["search"])) / float(str(row["search"])), 3)
        print(json.dumps(row))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
