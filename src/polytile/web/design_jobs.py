"""The Design tab's jobs, in the job's process (web/worker.py runs them; design_api.py starts
them): challenge cards of the page's puzzle (analysis/design.py, as `polytile design cards`
makes them, within the page's time: opts["seconds"]), and a calendar piece set checked over
every date (calendar_api.tally, and the spread of the per-date counts: analysis/spread.py)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import PuzzleError

if TYPE_CHECKING:
    from .messages import Out
    from .puzzles import Parsed

JSON = dict[str, Any]

CARD_KINDS = ("tiling", "katamino", "box")


def make_cards(parsed: Parsed, opts: JSON, out: Out) -> JSON:
    """Cards of the puzzle: opts["cards"] over levels 1..opts["levels"], within opts["seconds"]."""
    from ..analysis.design import cards
    from ..draw.cards import sheet
    from ..draw.pictures import colour_for, piece_colours

    if parsed.kind not in CARD_KINDS:
        raise PuzzleError("cards are made of tiling puzzles", "cards")
    n, levels = int(opts.get("cards") or 8), int(opts.get("levels") or 4)

    tried = [0]

    def step(made: int, judged: int) -> None:
        tried[0] = judged
        out.progress(phase="making cards", done=made, wanted=n, judged=judged)

    out.progress(force=True, phase="making cards", done=0, wanted=n, judged=0)
    made, complete = cards(
        parsed.tiling.puzzle, n, levels, seed=int(opts.get("seed") or 0), time_limit=opts.get("seconds"), progress=step
    )
    # the steps are sent at most a few times a second: the last one, whatever its moment
    out.progress(force=True, phase="making cards", done=len(made), wanted=n, judged=tried[0])
    colours: dict[str, str] = {}
    for c in made:
        palette = piece_colours([c.solution])
        colours.update({p.letter: colour_for(p, palette) for p in c.solution.placements})
    found = [c.to_json() for c in made]
    board = parsed.tiling.puzzle.board
    pages = len(sheet(found)) if found and board.grid.boxes and board.dim == 2 else 0  # as the CLI's --format svg
    by_level = {str(lv): sum(1 for c in made if c.level == lv) for lv in range(1, levels + 1)}
    return {"complete": complete, "cards": found, "colours": colours, "pages": pages, "levels": by_level}


def check_calendar(parsed: Parsed, opts: JSON, out: Out) -> JSON:
    """Every date of the calendar board with the piece set asked: the year's tally, whether
    every date has a solution, and the spread of the per-date counts."""
    from ..analysis.spread import spread
    from .calendar_api import tally

    if parsed.kind != "calendar":
        raise PuzzleError("the check of a piece set is for calendar puzzles", "calendar")
    result = tally(parsed.calendar, opts, out)
    result["spread"] = spread([row[3] for row in result["dates"]]).as_dict()
    result["pieces"] = [
        re.sub(r"^([0-9])X([0-9])$", r"\1x\2", name) for name, _ in parsed.calendar.calendar.board.pieces
    ]
    return result


ACTIONS: dict[str, Callable[[Parsed, JSON, Out], JSON]] = {"cards": make_cards, "calendar_check": check_calendar}
