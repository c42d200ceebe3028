"""Dates as users write them, for calendar puzzles: `2026-11-25`, `Nov 25`, `25 Nov`,
`Wed Nov 25`, `November 25`, `today` (the default). A full date gives its weekday; on a
weekday board a date without a year needs its weekday named."""

from __future__ import annotations

import datetime
import re

from ..errors import PuzzleError
from ..formats.calendar_board import MONTHS, WEEKDAYS, classify
from ..formats.common import clip

LENGTHS = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)  # a leap year: Feb 29 is a date


def parse_date(text: str | None, needs_weekday: bool) -> tuple[int, int, int | None]:
    """(month, day, weekday or None) of a date as written; PuzzleError naming `--date`."""
    text = (text or "today").strip()
    if text.lower() == "today":
        today = datetime.date.today()
        return today.month, today.day, today.weekday()
    m = re.fullmatch(r"([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})", text)  # ASCII digits: not '²' nor '١'
    if m:
        try:
            full = datetime.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        except ValueError as e:
            raise PuzzleError(f"{clip(text)!r} is not a date ({e})", "--date") from None
        return full.month, full.day, full.weekday()
    return _month_day(text, needs_weekday)


def _month_day(text: str, needs_weekday: bool) -> tuple[int, int, int | None]:
    month = day = weekday = None
    for word in re.split(r"[\s,./]+", text):
        if not word:
            continue
        group, label = classify(word)
        if group == "month" and month is None:
            month = MONTHS.index(label) + 1
        elif group == "weekday" and weekday is None:
            weekday = WEEKDAYS.index(label)
        elif (number := re.fullmatch(r"([0-9]{1,2})(st|nd|rd|th)?", word.lower())) and day is None:
            day = int(number.group(1))
        else:
            raise PuzzleError(
                f"cannot read {clip(text)!r} as a date (e.g. 2026-11-25, 'Nov 25', 'Wed Nov 25', today)", "--date"
            )
    if month is None or day is None:
        raise PuzzleError(f"{clip(text)!r} needs a month and a day (e.g. 'Nov 25' or 2026-11-25)", "--date")
    if not 1 <= day <= LENGTHS[month - 1]:
        raise PuzzleError(f"{MONTHS[month - 1]} has no day {day}", "--date")
    if needs_weekday and weekday is None:
        raise PuzzleError(
            f"{clip(text)!r}: this board shows the weekday too: give a full date (2026-11-25) or name it ('Wed Nov 25')",
            "--date",
        )
    return month, day, weekday


def date_label(date: tuple[int, int, int | None]) -> str:
    """'Nov 25' or 'Wed Nov 25'."""
    month, day, weekday = date
    text = f"{MONTHS[month - 1]} {day}"
    return text if weekday is None else f"{WEEKDAYS[weekday]} {text}"
