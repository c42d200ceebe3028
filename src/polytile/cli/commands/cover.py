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
from .args import Exit, bounded, flag, max_memory

if TYPE_CHECKING:
    import numpy as np

    from ...core.matrix import Matrix
    from ...core.results import Report

ENGINES = ("auto", "bitset", "links", "bitboard", "wide", "dlx")
MOST = 1 << 62  # --limit: the kernels count in int64
MOST_JOBS = 256  # --jobs: a thread each


def arguments(p: ArgumentParser) -> None:
    """Declare `cover`'s options (called only when the verb is named)."""
    p.add_argument("file", metavar="FILE", help="A DLX file (- reads stdin).")
    what = p.add_mutually_exclusive_group()
    flag(what, "--count", "Count the solutions (the default).")
    flag(what, "--all", "List every solution.", dest="list_all")
    what.add_argument("--limit", type=bounded(int, 1, MOST), metavar="N", help="List the first N solutions.")
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
        "--method",
        choices=("auto", "frontier", "memo", "enumerate"),
        default="auto",
        help="How to count: frontier (a sweep along the items in the file's order), memo (memoised "
        "sub-problems), enumerate (the search, on --engine's kernel); auto: the frontier when the "
        "options span few items, else enumerate. Listing always enumerates.",
    )
    p.add_argument(
        "--jobs",
        type=bounded(int, 0, MOST_JOBS),
        default=0,
        metavar="N",
        help="Threads of a count on the bit-set kernel (0: every core; 1: one).",
    )
    max_memory(p)
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
    method: str = "auto",
    max_memory: int = 1 << 30,
) -> None:
    """Count or list the solutions of an exact cover problem in Knuth's DLX format."""
    import time

    from ...formats.dlx import load

    matrix = load(file)
    store = list_all or limit is not None
    if method not in ("auto", "enumerate") and (store or engine != "auto"):
        raise PuzzleError(f"--method {method} counts without listing: not with --all, --limit or --engine", "--method")
    attempt = not (store or engine != "auto" or method == "enumerate")
    import polytile.engine.bitset.driver  # noqa: F401 (before the clock starts: start-up, not the count)
    import polytile.engine.cover_search  # noqa: F401

    if attempt:
        import polytile.core.results  # noqa: F401
        import polytile.engine.counting.frontier  # noqa: F401
        import polytile.engine.limits  # noqa: F401
    t0 = time.perf_counter()  # one clock for the method's attempt and the search
    counted = _count_by_method(matrix, method, time_limit, max_memory, t0) if attempt else None
    if counted is not None:
        print(json.dumps(_as_json(counted, False)) if as_json else "\n".join(counted.text_lines(False)))
        if counted.timed_out:
            print("time limit reached: no count (the frontier method)", file=sys.stderr)
            raise Exit(124)
        if counted.interrupted:
            raise Exit(130)
        return
    report = _search(matrix, file, limit, store, time_limit, engine, jobs, max_memory, t0)
    if as_json:
        print(json.dumps(_as_json(report, store)))
    else:
        _print(matrix, report, store)
    for why in report.reasons:
        print(f"no solution: {why}", file=sys.stderr)
    if report.interrupted:
        print(f"interrupted: {report.solutions} solutions so far (incomplete)", file=sys.stderr)
        raise Exit(130)
    if report.timed_out:
        print(f"time limit reached: {report.solutions} solutions so far (incomplete)", file=sys.stderr)
        raise Exit(124)


def _search(
    matrix: Matrix,
    file: str,
    limit: Optional[int],
    store: bool,
    time_limit: Optional[float],
    engine: str,
    jobs: int,
    memory: int,
    t0: float,
) -> Report[np.ndarray]:
    """The search (engine.cover_search) with a progress line; its refusals as one line."""
    from ...budget import over
    from ...core.cover import OverBudget
    from ...engine.cover_search import search_matrix
    from ..progress import counting

    with counting() as progress:
        try:
            return search_matrix(
                matrix,
                limit=limit,
                store=store,
                time_limit=time_limit,
                engine=engine,
                progress=progress,
                jobs=jobs,
                memory=memory,
                deadline_from=t0,
            )
        except ValueError as e:
            raise PuzzleError(str(e), "--engine") from None
        except OverBudget as e:
            raise over(e.what, e.need, memory, file) from None


def _count_by_method(
    matrix: Matrix, method: str, time_limit: Optional[float], memory: int, t0: float
) -> Optional[Report[np.ndarray]]:
    """A count that lists nothing (engine.counting), or None when auto chooses the search
    (the clock started at t0, perf_counter)."""
    import time

    from ...core.matrix import counting_cover
    from ...core.results import Report
    from ...engine.counting import Refused, choose
    from ...engine.counting import count as count_by
    from ...engine.limits import Stopped

    form = counting_cover(matrix, None if time_limit is None else t0 + time_limit)
    if form is None:
        if method == "auto":
            return None
        raise PuzzleError(f"--method {method}: the matrix has colours (the search counts it)", "--method")
    cover, factor = form
    try:
        chosen = choose(cover, method)
        if chosen in ("enumerate", "pfaffian"):
            return None
        got = count_by(cover, chosen, deadline=None if time_limit is None else t0 + time_limit, memory=memory)
    except Refused as e:
        if method == "auto":
            return None
        raise PuzzleError(str(e), "--method") from None
    except Stopped as stop:
        if stop.reason == "memory budget":
            if method == "auto":
                return None
            from ...budget import over

            raise over(f"counting by the {method} method", stop.need, memory, "--method") from None
        return Report(0, None, time.perf_counter() - t0, complete=False, timed_out=True, method=method, counted=False)
    except KeyboardInterrupt:
        return Report(0, None, time.perf_counter() - t0, complete=False, interrupted=True, method=method, counted=False)
    return Report(got.solutions * factor, None, time.perf_counter() - t0, nodes=got.states, method=chosen)


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
