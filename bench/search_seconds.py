"""One puzzle's count split into its phases, in one fresh process (for bench_native).

    python bench/search_seconds.py FILE

Prints {"solutions", "unique", "setup", "tables", "search", "nodes", "spans"}, counting
all and unique solutions with symmetry breaking on one thread, as `count --unique --jobs
1` does: setup is the model (the exact-cover reduction) and the symmetry analysis; tables
the search plan, the kernel's tables and the choice of its compiled variant (what a peer
builds or its compiler settles before its timer starts); search the kernel's runs to the
end, with the classification of the leaves. Their sum is what `count`'s `seconds`
measures. "spans" splits them: model, symmetry (setup); plan (the pieces fixed by
symmetry breaking), kernel_tables (the driver's tables and the compiled variant: tables);
search. Kernels are loaded and warmed before any clock starts, as `polytile count` does.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from polytile.core.results import Report
from polytile.engine.search import Pacer, plan, driver_class, choose_engine
from polytile.engine.warm import warm
from polytile.tiling.solver import load


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file")
    args = ap.parse_args()
    tiling = load(args.file)
    warm("auto", tiling.puzzle.board.area, dynamic=tiling.puzzle.board.dim == 3)
    t0 = time.perf_counter()
    cover = tiling.model().cover
    tm = time.perf_counter()
    sym = tiling.symmetry()
    t1 = time.perf_counter()
    p = plan(cover, sym, unique=True, store=False)
    tp = time.perf_counter()
    engine = choose_engine("auto", cover.n_items, len(cover.piece_count))
    driver = driver_class(engine, cover)(cover, sym, p, store=False, limit=0)
    driver.begin(p.prefixes)
    driver.bind()  # the compiled kernel for these argument types (else at its first call)
    t2 = time.perf_counter()
    pacer, res = Pacer(), Report(unique=0)
    while pacer.advance(driver) != "done":
        pass
    driver.collect(res, False)
    t3 = time.perf_counter()
    print(
        json.dumps(
            {
                "solutions": res.solutions,
                "unique": res.unique,
                "setup": t1 - t0,
                "tables": t2 - t1,
                "search": t3 - t2,
                "nodes": res.nodes,
                "spans": {
                    "model": tm - t0,
                    "symmetry": t1 - tm,
                    "plan": tp - t1,
                    "kernel_tables": t2 - tp,
                    "search": t3 - t2,
                },
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
