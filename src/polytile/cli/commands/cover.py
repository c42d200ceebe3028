"""`polytile cover FILE`: count or list the solutions of any exact cover problem written in
Knuth's DLX format (primary and secondary items, dlx2's colours).

A solution is printed as dlx1 prints it with `m1`: its number and a colon, then one line per
option, the option as written in the file (items in its order), indented by one blank;
options in the order of the file. With --json, solutions are lists of option numbers: the
k-th option line of the file is option k (from 1)."""
from __future__ import annotations

import json
import sys
from argparse import ArgumentParser
from typing import Optional

from ...errors import PuzzleError
from .args import Exit, bounded, flag

ENGINES = ("auto", "bitset", "links", "bitboard", "wide", "dlx")


def arguments(p: ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE", help="A DLX file (- reads stdin).")
    what = p.add_mutually_exclusive_group()
    flag(what, "--count", "Count the solutions (the default).")
    flag(what, "--all", "List every solution.", dest="list_all")
    what.add_argument("--limit", type=bounded(int, 1), metavar="N", help="List the first N solutions.")
    flag(p, "--json", 'One object {"solutions", "seconds", "nodes", "complete", "engine"} '
         '(and "options" when listing).', dest="as_json")
    p.add_argument("--time-limit", type=bounded(float, 0), metavar="SECONDS",
                   help="Stop after this many seconds (the count so far, incomplete).")
    p.add_argument("--engine", choices=ENGINES, default="auto",
                   help="auto: the tiling kernels (bitboard, wide) when the matrix is a tiling "
                   "(one piece item in every option), else Algorithm X on bit sets (bitset) up to "
                   "16384 options, else dancing links with colours (links, Knuth's Algorithm C).")
    p.set_defaults(run=cover)


def cover(file: str, count: bool, list_all: bool, limit: Optional[int], as_json: bool,
          time_limit: Optional[float], engine: str) -> None:
    """Count or list the solutions of an exact cover problem in Knuth's DLX format."""
    from ...formats.dlx import load
    matrix = load(file)
    store = list_all or limit is not None
    from ...engine.exact_driver import search_matrix
    from ..progress import counting
    with counting() as progress:
        try:
            report = search_matrix(matrix, limit=limit, store=store, time_limit=time_limit,
                                   engine=engine, progress=progress)
        except ValueError as e:
            raise PuzzleError(str(e), "--engine") from None
    if as_json:
        print(json.dumps(_as_json(report, store)))
    else:
        _print(matrix, report, store)
    if report.interrupted:
        print(f"interrupted: {report.solutions} solutions so far (incomplete)", file=sys.stderr)
        raise Exit(130)
    if report.timed_out:
        print(f"time limit reached: {report.solutions} solutions so far (incomplete)",
              file=sys.stderr)
        raise Exit(124)


def _as_json(report, store: bool) -> dict:
    out = {"solutions": report.solutions, "seconds": round(report.seconds, 6),
           "nodes": report.nodes, "complete": report.complete, "engine": report.engine}
    if not report.complete:
        out["reason"] = ("interrupted" if report.interrupted else
                         "time limit" if report.timed_out else "solution limit")
    if store:
        out["options"] = [[int(o) + 1 for o in found] for found in report.found]
    return out


def _print(matrix, report, store: bool) -> None:
    if store:
        lines = []
        for k, found in enumerate(report.found, 1):
            lines.append(f"{k}:")
            lines.extend(" " + matrix.option_text(int(o)) for o in found)
        if lines:
            print("\n".join(lines))
    print(f"solutions: {report.solutions}")
    print(f"seconds: {report.seconds:.4f}")
    print(f"nodes: {report.nodes}")
