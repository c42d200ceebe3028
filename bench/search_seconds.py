"""One puzzle's count split into set-up and search, in one fresh process (for bench_native).

    python bench/search_seconds.py FILE [--jobs N]

Prints {"solutions", "unique", "setup", "search", "nodes"}: setup is the model (exact-cover
reduction) and the symmetry analysis; search is engine.search.search, counting all and
unique solutions with symmetry breaking (its plan, the kernel's tables, the kernel, the
classification of the leaves). Kernels are loaded and warmed before either clock starts,
as `polytile count` does; the same figures `count --unique --json --jobs 1` adds up.
"""
from __future__ import annotations

import argparse
import json
import sys
import time

from polytile.engine.search import search
from polytile.engine.warm import warm
from polytile.tiling.solver import load


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file")
    args = ap.parse_args()
    tiling = load(args.file)
    warm("auto", tiling.puzzle.board.area)
    t0 = time.perf_counter()
    cover = tiling.model().cover
    sym = tiling.symmetry()
    t1 = time.perf_counter()
    res = search(cover, sym, unique=True)
    t2 = time.perf_counter()
    print(json.dumps({"solutions": res.solutions, "unique": res.unique, "setup": t1 - t0,
                      "search": t2 - t1, "nodes": res.nodes}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
