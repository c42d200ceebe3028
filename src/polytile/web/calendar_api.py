"""The page's calendar tab: a calendar puzzle (DragonFjord's A-Puzzle-A-Day, `classic`, or
its `weekday` variant) and a date, as the CLI's `polytile calendar` reads them
(tiling.calendar, tiling.calendar_dates), and the jobs the page runs on them:

    {"kind": "calendar", "board": "classic" | "weekday", "date": "2026-11-25"}

and optionally "pieces": ["2x3", "L", ...] (names as a board file's `pieces:` line takes them,
each once): the board with another piece set (the Design tab's check of a set).

- solve: the date's number of solutions, its solutions listed for browsing;
- count: the date's number of solutions;
- tally: every date of the year at once (one search, Calendar.tally), its progress the
  parts of the tree done, for the year's heat map.

Parsing happens in the server (no search: the placements only); the jobs run in the job's
process like every other search."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import PuzzleError

if TYPE_CHECKING:
    from ..core.results import Solution
    from ..tiling.calendar import Calendar
    from .messages import Out

JSON = dict[str, Any]

BOARDS = ("classic", "weekday")
MAX_PIECES = 20  # pieces of a set the page asks about (the boards have 43 and 50 cells)
MAX_LIST = 1000  # solutions of one date listed for browsing
TICK = 0.25  # seconds between progress messages while the year is tallied


@dataclass
class CalendarPuzzle:
    """A calendar puzzle as the page asks it: the board, its Calendar (placements built once,
    in the server) and the date whose cells stay open."""

    board: str  # classic | weekday
    calendar: Calendar
    date: tuple[int, int, int | None]  # (month, day, weekday or None) as the board reads it
    iso: str  # the date as sent (YYYY-MM-DD)


def parse(spec: JSON) -> CalendarPuzzle:
    """The board and date of a request; one PuzzleError line for anything else."""
    from ..tiling.calendar_dates import parse_date
    from ..tiling.calendar_report import load_calendar

    board = spec.get("board", "classic")
    if board not in BOARDS:
        raise PuzzleError(f"unknown calendar board {str(board)[:30]!r} (classic or weekday)", "board")
    text = spec.get("date")
    if not isinstance(text, str) or len(text) > 40:
        raise PuzzleError('"date" must be a date such as 2026-11-25', "date")
    cal = load_calendar(board) if spec.get("pieces") is None else with_pieces(board, spec["pieces"])
    shows_weekday = "weekday" in cal.board.group_names()
    try:
        when = parse_date(text, shows_weekday)
    except PuzzleError as e:
        raise PuzzleError(e.message, "date") from None
    if not shows_weekday:
        when = (when[0], when[1], None)
    return CalendarPuzzle(board, cal, when, text.strip())


def with_pieces(board: str, names: Any) -> Calendar:
    """The built-in board with the pieces named instead of its own; one PuzzleError line for
    a name no board file takes, a piece named twice, or pieces that do not cover the board
    but one cell of each group (the board file's own check)."""
    from ..formats.calendar_board import BUILT_IN, parse, piece_rows
    from ..tiling.calendar import Calendar

    if (
        not isinstance(names, list)
        or not 1 <= len(names) <= MAX_PIECES
        or not all(isinstance(n, str) and 0 < len(n) <= 8 for n in names)
    ):
        raise PuzzleError(f'"pieces" must be a list of 1..{MAX_PIECES} piece names such as "L" or "2x3"', "pieces")
    seen: set[str] = set()
    for n in names:
        if piece_rows(n) is None:
            raise PuzzleError(f"unknown piece {n!r} (pentomino letters, I4 L4 O4 S4 T4, or AxB but 1x1)", "pieces")
        if n.upper() in seen:
            raise PuzzleError(f"piece {n!r} is named twice (each piece once)", "pieces")
        seen.add(n.upper())
    text = BUILT_IN[board].rsplit("pieces:", 1)[0] + "pieces: " + " ".join(names) + "\n"
    try:
        return Calendar(parse(text, board))
    except PuzzleError as e:
        raise PuzzleError(e.message, "pieces") from None


def summary(c: CalendarPuzzle) -> JSON:
    """The board as the page draws it: cells, their labels, the date's open cells."""
    from ..tiling.calendar_dates import date_label

    cells = c.calendar.cells
    return {
        "kind": "calendar",
        "dim": 2,
        "grid": "square",
        "board": c.board,
        "cells": cells.tolist(),
        "labels": list(c.calendar.board.labels),
        "area": int(len(cells)),
        "shape": [int(x) + 1 for x in cells.max(axis=0)],
        "open": c.calendar.open_cells(c.date),
        "date": c.iso,
        "date_label": date_label(c.date),
        "pieces": [piece_json(name, rows) for name, rows in c.calendar.board.pieces],
    }


def piece_json(name: str, rows: Iterable[str]) -> JSON:
    """A piece as the page's summaries give pieces (cells, size, one copy, may be flipped)."""
    from ..core.library import cells_from_rows

    cells = cells_from_rows(list(rows)).tolist()
    return {"name": name, "size": len(cells), "count": 1, "min": 1, "cells": cells, "rows": list(rows), "reflect": True}


def placements_json(sol: Solution, letters_colours: dict[str, str]) -> list[JSON]:
    """A solution's placements as the page draws them (letter, cells, colour)."""
    return [
        {
            "piece": p.piece,
            "letter": p.letter,
            "cells": p.cells.tolist(),
            "colour": letters_colours.get(p.letter, "#8fb3de"),
        }
        for p in sol.placements
    ]


def colours(cal: Calendar) -> dict[str, str]:
    """A colour per piece letter: the Katamino colours of the pentominoes, the palette's for
    the others (as the year's pictures and the CLI draw them)."""
    from ..core.library import COLOUR_OF

    palette = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f")
    out: dict[str, str] = {}
    k = 0
    for (name, _), letter in zip(cal.board.pieces, cal.letters):
        if name in COLOUR_OF:
            out[letter] = COLOUR_OF[name]
        else:
            out[letter] = palette[k % len(palette)]
            k += 1
    return out


def solve(c: CalendarPuzzle, opts: JSON, out: Out) -> JSON:
    """The date's count and its first solutions (up to opts["limit"], at most MAX_LIST)."""
    from ..tiling.calendar_dates import date_label

    limit = min(int(opts.get("limit") or MAX_LIST), MAX_LIST)
    out.progress(force=True, phase="solving")
    t0 = time.perf_counter()
    total, found = c.calendar.solve(c.date, limit)
    seconds = time.perf_counter() - t0
    palette = colours(c.calendar)
    for k in range(0, len(found), 200):
        out.send("solutions", start=k, solutions=[placements_json(s, palette) for s in found[k : k + 200]])
    return {
        "solutions": total,
        "unique": None,
        "listed": len(found),
        "complete": len(found) == total,
        "seconds": round(seconds, 6),
        "nodes": None,
        "reasons": [],
        "date_label": date_label(c.date),
    }


def count(c: CalendarPuzzle, opts: JSON, out: Out) -> JSON:
    """The date's number of solutions (no listing)."""
    out.progress(force=True, phase="counting")
    t0 = time.perf_counter()
    total = c.calendar.count(c.date)
    return {
        "solutions": total,
        "unique": None,
        "complete": True,
        "nodes": None,
        "reasons": [],
        "seconds": round(time.perf_counter() - t0, 6),
    }


def sample(c: CalendarPuzzle, seed: int, out: Out) -> JSON:
    """One of the date's solutions drawn uniformly (the page's Random when the listing was cut
    at MAX_LIST): every solution listed (a date has thousands at most), one picked by `seed`."""
    import random

    out.progress(force=True, phase="drawing")
    total = c.calendar.count(c.date)
    if total:
        _, found = c.calendar.solve(c.date, total)
        pick = found[random.Random(seed).randrange(total)]
        out.send("solutions", start=0, solutions=[placements_json(pick, colours(c.calendar))])
    return {"listed": min(total, 1), "uniform": True, "solutions": total}


def tally(c: CalendarPuzzle, opts: JSON, out: Out) -> JSON:
    """Every date of the year (one thread: the server runs other jobs too), progress as
    the parts of the tree done, sent every TICK seconds from the first moment on."""
    from ..tiling.calendar_report import summary as year_summary

    state = {"done": 0, "total": 0}
    stop = threading.Event()

    def tell(force: bool = False) -> None:
        fields: JSON = {"phase": "tallying the year"}
        if state["total"]:
            fields.update(done=state["done"], total=state["total"], share=state["done"] / state["total"])
        out.progress(force=force, **fields)

    def tick() -> None:
        while not stop.wait(TICK):
            tell(force=True)

    def step(done: int, total: int) -> None:
        state.update(done=done, total=total)

    tell(force=True)
    ticker = threading.Thread(target=tick, daemon=True)
    ticker.start()
    t0 = time.perf_counter()
    try:
        result = c.calendar.tally(1, progress=step)
    finally:
        stop.set()
        ticker.join()
    seconds = time.perf_counter() - t0
    info = year_summary(result, seconds)
    rows = [[m, d, w, n] for (m, d, w), n in zip(result.dates, result.counts)]
    return {**info, "dates": rows, "weekday": "weekday" in c.calendar.board.group_names()}
