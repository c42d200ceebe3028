"""`polytile design cards|unique PUZZLE`, `polytile design calendar`: design puzzles: graded
challenge cards with one completion, the fewest fixed pieces that make a solution the only
one, the piece sets that make every date of a calendar board solvable."""

from __future__ import annotations

import json
import sys
from argparse import ArgumentParser
from pathlib import Path
from typing import Any, Optional

from ...errors import PuzzleError
from .args import Exit, Parser, bounded
from .output import check_file, check_format


def arguments(p: ArgumentParser) -> None:
    """Declare `design`'s sub-commands and their options (called only when the verb is named)."""
    p.set_defaults(run=designs)
    kinds = p.add_subparsers(title="designs", metavar="DESIGN", required=True, parser_class=Parser)
    c = kinds.add_parser("cards", help=cards.__doc__, description=cards.__doc__)
    c.add_argument("puzzle", type=Path, metavar="PUZZLE", help="Puzzle file.")
    c.add_argument("--cards", dest="n", type=bounded(int, 1, 1000), default=20, metavar="N", help="Cards to make.")
    c.add_argument("--levels", type=bounded(int, 1, 4), default=4, metavar="L", help="Levels 1..L, evenly.")
    c.add_argument("--placed", type=bounded(int, 0), metavar="K", help="Pieces placed on every card (default: varied).")
    c.add_argument("--seed", type=bounded(int, 0), default=0, metavar="S", help="Seed of the random choices.")
    c.add_argument("--format", dest="fmt", choices=("json", "svg"), default="json", help="Output format.")
    c.add_argument("--paper", choices=("a4", "letter"), default="a4", help="Page size of the SVG sheet.")
    c.add_argument("-o", "--output", type=Path, metavar="FILE", help="Write to FILE (SVG: FILE-1.svg, FILE-2.svg...).")
    c.add_argument("--time-limit", type=bounded(float, 0), metavar="SECONDS", help="Stop after this many seconds.")
    c.add_argument("--jobs", type=bounded(int, 0), default=1, metavar="N", help="Workers (0: every core).")
    c.set_defaults(run=cards)
    u = kinds.add_parser("unique", help=unique.__doc__, description=unique.__doc__)
    u.add_argument("puzzle", type=Path, metavar="PUZZLE", help="Puzzle file.")
    u.add_argument("--solution", type=bounded(int, 1), default=1, metavar="N", help="The N-th solution `solve` lists.")
    u.add_argument("--json", action="store_true", dest="as_json", help="Print JSON.")
    u.add_argument("--time-limit", type=bounded(float, 0), metavar="SECONDS", help="Stop after this many seconds.")
    u.set_defaults(run=unique)
    k = kinds.add_parser("calendar", help=calendar.__doc__, description=calendar.__doc__)
    k.add_argument("--board", default="classic", metavar="classic|weekday|FILE", help="The calendar board.")
    k.add_argument(
        "--pool", default="pentominoes,hexominoes", metavar="SETS", help="Pieces: sets and names, by commas."
    )
    k.add_argument("--sizes", default="5x7,6x1", metavar="CELLSxN,...", help="N distinct pieces of each size.")
    k.add_argument("--jobs", type=bounded(int, 0, 64), default=0, metavar="N", help="Threads (0: every core).")
    k.add_argument("--scheduler", metavar="ADDRESS", help="Tally on a Dask cluster (tcp://HOST:PORT).")
    k.add_argument("--checkpoint", type=Path, metavar="FILE", help="SQLite file of finished sets: a rerun resumes.")
    k.add_argument("--top", type=bounded(int, 0), default=10, metavar="K", help="Show the K most even sets.")
    k.add_argument("--format", dest="fmt", default="text", help="text, json (totals, top K) or csv (every set).")
    k.add_argument("-o", "--output", type=Path, metavar="FILE", help="Write here.")
    k.add_argument("--time-limit", type=bounded(float, 0), metavar="SECONDS", help="Stop after this many seconds.")
    k.set_defaults(run=calendar)


def designs() -> None:
    """Design puzzles: graded challenge cards, the fewest fixed pieces for one solution."""


def cards(
    puzzle: Path,
    n: int,
    levels: int,
    placed: Optional[int],
    seed: int,
    fmt: str,
    paper: str,
    output: Optional[Path],
    time_limit: Optional[float],
    jobs: int,
) -> int:
    """Challenge cards: positions with pieces placed whose completion is unique, graded 1..4."""
    from ...analysis.design import cards as make
    from ...atomic import write_bytes
    from ...formats import load

    p = load(puzzle)
    if fmt == "svg" and not (p.board.grid.boxes and p.dim == 2):
        raise PuzzleError("the SVG sheet draws flat square boards only (use --format json)", str(puzzle))
    made, complete = make(p, n, levels, placed, seed, time_limit, jobs)
    if fmt == "json":
        rows = ",\n".join("  " + json.dumps(c.to_json()) for c in made)
        rows = f"\n{rows}\n" if rows else ""
        data = f'{{"complete": {json.dumps(complete)}, "cards": [{rows}]}}\n'.encode()
        if output is None:
            sys.stdout.write(data.decode())
        else:
            write_bytes(output, data)
    else:
        from ...draw.cards import sheet

        if output is None:
            raise PuzzleError("--format svg writes pages: name them with -o FILE", str(puzzle))
        pages = sheet([c.to_json() for c in made], paper)
        stem = output.with_suffix("")
        for i, page in enumerate(pages, 1):
            write_bytes(Path(f"{stem}-{i}.svg"), page.encode())
        print(f"{len(pages)} pages: {stem}-1.svg .. {stem}-{len(pages)}.svg (odd: cards, even: their solutions)")
    counts = {lv: sum(1 for c in made if c.level == lv) for lv in range(1, levels + 1)}
    by = ", ".join(f"level {lv}: {k}" for lv, k in counts.items())
    print(
        f"{len(made)} cards ({by}){'' if complete else '; stopped early: the time limit, or no more positions with one completion'}",
        file=sys.stderr,
    )
    return 0 if complete else 1


def unique(puzzle: Path, solution: int, as_json: bool, time_limit: Optional[float]) -> int:
    """The fewest fixed pieces that leave the N-th solution the only one, proven minimal."""
    from ...analysis.unificator import fewest
    from ...formats import load

    found = fewest(load(puzzle), solution, time_limit)
    if as_json:
        print(json.dumps(found.to_json()))
    else:
        print(found.text())
    return 0 if found.proven else 1


def calendar(
    board: str,
    pool: str,
    sizes: str,
    jobs: int,
    scheduler: Optional[str],
    checkpoint: Optional[Path],
    top: int,
    fmt: str,
    output: Optional[Path],
    time_limit: Optional[float],
) -> None:
    """Every set of distinct pieces of the sizes wanted, tallied over every date of a calendar
    board: how many solve every date, and the most even (lowest Gini of the dates' counts)."""
    from ...analysis import calendar_design as cd
    from ...analysis import calendar_design_results as cr
    from ...tiling.calendar_report import load_calendar

    check_format(fmt, ("text", "json", "csv"))
    check_file(fmt, output)
    if scheduler is not None:
        from ...engine.parallel.scheduler_probe import parse_address

        parse_address(scheduler)
    study = cd.Study(load_calendar(board).board, cd.pool(pool), cd.sizes(sizes))
    store = cr.Checkpoint(":memory:" if checkpoint is None else str(checkpoint), study.key())
    complete = _study(study, store, jobs, scheduler, time_limit)
    sets = cr.ranked(store.rows(len(study.dates)))
    store.close()
    head = {"board": board, "pool": pool, "sizes": sizes, "dates": len(study.dates), "sets": study.total}
    info = cr.figures(sets, {**head, "complete": complete}, top)
    text = {"text": cr.as_text, "json": cr.as_json}[fmt](info) if fmt != "csv" else cr.as_csv(sets)
    if output is None:
        sys.stdout.write(text)
    else:
        from ...atomic import write_text

        write_text(output, text)
    if not complete:
        print(
            f"stopped after {len(sets):,} of {study.total:,} sets"
            + (f"; run the same command to resume ({checkpoint})" if checkpoint else ""),
            file=sys.stderr,
        )
        raise Exit(124 if time_limit is not None else 130)


def _study(study: Any, store: Any, jobs: int, scheduler: Optional[str], time_limit: Optional[float]) -> bool:
    """Run the study with progress shown, on threads or on the Dask cluster at `scheduler`."""
    import os
    import time
    from contextlib import ExitStack

    from ...analysis.calendar_design import run
    from ..progress import counting

    with counting() as bar, ExitStack() as stack:

        def progress(done: int, total: int, new: int, seconds: float) -> None:
            if bar is not None:
                bar(_Pace(new, seconds), done, total, new / max(1, new + total - done))

        client = None
        if scheduler is not None:
            from ...engine.parallel.dask_backend import dask_client

            deadline = None if time_limit is None else time.perf_counter() + time_limit
            client, _ = stack.enter_context(dask_client(scheduler, jobs, deadline))
        return run(study, store, jobs or os.cpu_count() or 1, progress, time_limit, client)


class _Pace:
    """What the progress line shows of a study: its rate of sets."""

    def __init__(self, new: int, seconds: float):
        self.seconds = seconds
        self.info = f"{new / seconds if seconds > 0 else 0.0:.1f} sets/s"
