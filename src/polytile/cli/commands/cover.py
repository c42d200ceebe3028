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
from typing import TYPE_CHECKING, Any, Optional

from ...errors import PuzzleError
from .args import Exit, bounded, flag

if TYPE_CHECKING:
    import numpy as np

    from ...core.matrix import Matrix
    from ...core.results import Report

ENGINES = ("auto", "bitset", "links", "bitboard", "wide", "dlx")


def arguments(p: ArgumentParser) -> None:
    """Declare `cover`'s options (called only when the verb is named)."""
    p.add_argument("file", metavar="FILE", help="A DLX file (- reads stdin).")
    what = p.add_mutually_exclusive_group()
    flag(what, "--count", "Count the solutions (the default).")
    flag(what, "--all", "List every solution.", dest="list_all")
    what.add_argument("--limit", type=bounded(int, 1), metavar="N", help="List the first N solutions.")
    flag(
        p,
        "--json",
        'One object {"solutions", "seconds", "nodes", "complete", "engine"} (and "options" when listing).',
        dest="as_json",
    )
    p.add_argument(
        "--time-limit",
        type=bounded(float, 0),
        metavar="SECONDS",
        help="Stop after this many seconds (the count so far, incomplete).",
    )
    p.add_argument(
        "--engine",
        choices=ENGINES,
        default="auto",
        help="auto: the tiling kernels (bitboard, wide) when the matrix is a tiling "
        "(one piece item in every option) they suit (a board filled along a narrow "
        "front), else Algorithm X on bit sets (bitset) up to 16384 options, else "
        "dancing links with colours (links, Knuth's Algorithm C).",
    )
    p.add_argument(
        "--jobs",
        type=bounded(int, 0),
        default=0,
        metavar="N",
        help="Threads of a count on the bit-set kernel (0: every core; 1: one).",
    )
    p.set_defaults(run=cover)


def cover(
    file: str,
    count: bool,
    list_all: bool,
    limit: Optional[int],
    as_json: bool,
    time_limit: Optional[float],
    engine: str,
    jobs: int,
) -> None:
    """Count or list the solutions of an exact cover problem in Knuth's DLX format."""
    from ...formats.dlx import load

    matrix = load(file)
    store = list_all or limit is not None
    from ...engine.cover_search import search_matrix
    from ..progress import counting

    with counting() as progress:
        try:
            report = search_matrix(
                matrix, limit=limit, store=store, time_limit=time_limit, engine=engine, progress=progress, jobs=jobs
            )
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
        print(f"time limit reached: {report.solutions} solutions so far (incomplete)", file=sys.stderr)
        raise Exit(124)


def _as_json(report: Report[np.ndarray], store: bool) -> dict[str, Any]:
    """count's JSON (without "unique"), the kernel, and the solutions when listing."""
    out = report.to_json()
    del out["unique"]
    out["engine"] = report.engine
    if store:
        out["options"] = [[int(o) + 1 for o in found] for found in report.found]
    return out


def _print(matrix: Matrix, report: Report[np.ndarray], store: bool) -> None:
    """Each solution as dlx1 prints it (`k:`, then its options' lines), then the counts."""
    if store:
        lines = []
        for k, found in enumerate(report.found, 1):
            lines.append(f"{k}:")
            lines.extend(" " + matrix.option_text(int(o)) for o in found)
        if lines:
            print("\n".join(lines))
    print("\n".join(report.text_lines(unique=False)))
