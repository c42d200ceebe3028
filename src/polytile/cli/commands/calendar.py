"""`polytile calendar`: calendar puzzles (DragonFjord's A-Puzzle-A-Day and its weekday
variant built in, or a board drawn in a file): solutions of a date, or every date of the
year counted at once (`--all-dates`) as a table or a picture."""

from __future__ import annotations

import csv
import io
import json
import sys
import time
from argparse import ArgumentParser
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from ...errors import PuzzleError
from .args import bounded, flag
from .output import check_file, check_format

if TYPE_CHECKING:
    from ...tiling.calendar import Calendar

FORMATS = ("text", "csv", "json", "svg", "png")
MOST_SHOWN = 10_000  # --solve N: a row of N is kept for each (a date has a few hundred at most on the built-in boards)


def arguments(p: ArgumentParser) -> None:
    """Declare `calendar`'s options (called only when the verb is named)."""
    p.add_argument(
        "--board",
        default="classic",
        metavar="classic|weekday|FILE",
        help="The built-in A-Puzzle-A-Day (classic), its weekday variant, or a board file.",
    )
    p.add_argument("--date", metavar="DATE", help="2026-11-25, 'Nov 25', 'Wed Nov 25' [default: today].")
    flag(p, "--count", "Print only the date's number of solutions.")
    p.add_argument("--solve", type=bounded(int, 0, MOST_SHOWN), metavar="N", help="Show N solutions [default: 1].")
    flag(p, "--all-dates", "Count every date of the year in one search: a table or a picture.", dest="all_dates")
    p.add_argument(
        "--jobs",
        type=bounded(int, 0, 64),
        default=0,
        metavar="N",
        help="--all-dates: threads, each searching parts of the tree with a memo of its own "
        "(0: every core for a tally of more than 1,000 instances, else one).",
    )
    p.add_argument("--format", dest="fmt", default="text", help="text, csv, json, svg or png.")
    p.add_argument("-o", "--output", type=Path, metavar="FILE", help="Write here (a picture needs it for png).")
    p.set_defaults(run=calendar)


def calendar(
    board: str,
    date: Optional[str],
    count: bool,
    solve: Optional[int],
    all_dates: bool,
    jobs: int,
    fmt: str,
    output: Optional[Path],
) -> None:
    """Calendar puzzles: how many ways today (or any date) can be left open, and every date at once."""
    check_format(fmt, FORMATS)
    check_file(fmt, output)
    from ...tiling.calendar_report import load_calendar

    cal = load_calendar(board)
    if all_dates:
        if date is not None or count or solve is not None:
            raise PuzzleError("--all-dates counts every date: leave out --date, --count and --solve", "--all-dates")
        _all_dates(cal, fmt, output, jobs)
    else:
        _one_date(cal, date, count, 1 if solve is None else solve, fmt, output)


def _one_date(cal: Calendar, date: Optional[str], count: bool, limit: int, fmt: str, output: Optional[Path]) -> None:
    from ...tiling.calendar_dates import date_label, parse_date

    shows_weekday = "weekday" in cal.board.group_names()
    when = parse_date(date, shows_weekday)
    if not shows_weekday:
        when = (when[0], when[1], None)
    try:
        cal.open_cells(when)
    except KeyError as e:
        raise PuzzleError(f"the board has no cell {e.args[0]!r} for {date_label(when)}", "--date") from None
    t0 = time.perf_counter()
    total, found = cal.solve(when, 0 if count else limit)
    seconds = time.perf_counter() - t0
    if fmt == "json":
        _write(
            json.dumps(
                {
                    "date": date_label(when),
                    "solutions": total,
                    "seconds": round(seconds, 6),
                    "shown": [s.to_json() for s in found],
                }
            )
            + "\n",
            output,
        )
    elif fmt in ("svg", "png"):
        from ...draw.calendar_pictures import solution_pictures

        _write(solution_pictures(found, cal.cells, cal.board.labels, fmt), output)
    elif fmt == "csv":
        raise PuzzleError("--format csv is the table of --all-dates", "--format")
    elif count:
        _write(f"{total}\n", output)
    else:
        from ...draw.calendar_pictures import text_solution

        blocks = [f"{date_label(when)}: {total} solution{'s' * (total != 1)}"]
        blocks += ["\n".join(text_solution(s, cal.cells, cal.board.labels)) for s in found]
        _write("\n\n".join(blocks) + "\n", output)


BIG_TALLY = 1000  # instances (month x day x weekday) from which threads pay


def auto_jobs(cal: Calendar) -> int:
    """Threads for a tally: each has its own memo, so together they search about half as
    much again as one; that pays on a long tally (the weekday board's 2,562 instances:
    2.4 s on one core, 1.8 s on two) and not on a short one (the classic year: 0.04 s)."""
    import os
    from math import prod

    instances = prod(len(m) for m in cal.groups[2])
    return (os.cpu_count() or 1) if instances > BIG_TALLY else 1


def _all_dates(cal: Calendar, fmt: str, output: Optional[Path], jobs: int) -> None:
    from ...tiling.calendar_report import summary, table_rows, year_values

    t0 = time.perf_counter()
    tally = cal.tally(jobs or auto_jobs(cal))
    seconds = time.perf_counter() - t0
    if fmt in ("svg", "png"):
        from ...draw.calendar_pictures import year_picture

        values, what = year_values(tally)
        _write(year_picture(values, f"{cal.board.name}: {what}", fmt), output)
        return
    info = summary(tally, seconds)
    if fmt == "json":
        rows = [{"month": m, "day": d, "weekday": w, "solutions": n} for (m, d, w), n in zip(tally.dates, tally.counts)]
        _write(json.dumps({**info, "dates": rows}) + "\n", output)
    elif fmt == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(["month", "day", "weekday", "solutions"])
        writer.writerows(table_rows(tally))
        _write(buf.getvalue(), output)
    else:
        from ...tiling.calendar_report import text_table

        _write(text_table(tally, info), output)


def _write(data: str | bytes, output: Optional[Path]) -> None:
    if output is None:
        if isinstance(data, bytes):
            sys.stdout.write(data.decode())
        else:
            sys.stdout.write(data)
        return
    from ...atomic import write_bytes, write_text

    if isinstance(data, bytes):
        write_bytes(output, data)
    else:
        write_text(output, data)
