"""What `polytile calendar` reports: a board by name or file, and a year's tally as a
summary (hardest and easiest dates, whether every date works), a table and a picture's
values."""

from __future__ import annotations

from typing import Any

from ..formats.calendar_board import BUILT_IN, MONTHS, WEEKDAYS, parse
from .calendar import Calendar, Tally
from .calendar_dates import date_label


def load_calendar(spec: str) -> Calendar:
    """`classic`, `weekday`, or the path of a board file (formats.calendar_board)."""
    if spec in BUILT_IN:
        return Calendar(parse(BUILT_IN[spec], spec))
    from ..formats.common import read_text

    return Calendar(parse(read_text(spec), spec))


def summary(tally: Tally, seconds: float) -> dict[str, Any]:
    """The figures of a year: totals, the hardest and easiest dates (all ties)."""
    counts = tally.counts
    low, high = min(counts), max(counts)
    return {
        "board": tally.board.name,
        "number_of_dates": len(counts),
        "solutions": sum(counts),
        "packings": tally.packings,
        "every_date_solvable": low > 0,
        "hardest": {"solutions": low, "dates": _dates_with(tally, low)},
        "easiest": {"solutions": high, "dates": _dates_with(tally, high)},
        "unsolvable": _dates_with(tally, 0),
        "nodes": tally.nodes,
        "seconds": round(seconds, 6),
    }


def _dates_with(tally: Tally, value: int) -> list[str]:
    return [date_label(d) for d, n in zip(tally.dates, tally.counts) if n == value]


def table_rows(tally: Tally) -> list[tuple[str, int, str, int]]:
    """(month, day, weekday or '', solutions) per date."""
    return [(MONTHS[m - 1], d, "" if w is None else WEEKDAYS[w], n) for (m, d, w), n in zip(tally.dates, tally.counts)]


def text_table(tally: Tally, info: dict[str, Any]) -> str:
    """The summary, then a month x day table (a row per date, a column per weekday on a
    weekday board)."""
    lines = [
        f"{info['board']}: {info['number_of_dates']} dates, {info['solutions']} solutions "
        f"({info['packings']} packings of the pieces with one cell of each group open)",
        "every date has a solution" if info["every_date_solvable"] else f"no solution: {', '.join(info['unsolvable'])}",
        f"hardest: {', '.join(info['hardest']['dates'])} ({info['hardest']['solutions']})",
        f"easiest: {', '.join(info['easiest']['dates'])} ({info['easiest']['solutions']})",
        "",
    ]
    if all(w is None for _, _, w in tally.dates):
        by_date = {(m, d): n for (m, d, _), n in zip(tally.dates, tally.counts)}
        days = range(1, max(d for _, d in by_date) + 1)
        lines.append("     " + "".join(f"{d:>5}" for d in days))
        for m in sorted({m for m, _ in by_date}):
            lines.append(
                (
                    f"{MONTHS[m - 1]:<5}"
                    + "".join(f"{by_date[(m, d)]:>5}" if (m, d) in by_date else "     " for d in days)
                ).rstrip()
            )
    else:
        by_day: dict[tuple[int, int], dict[int | None, int]] = {}
        for (m, d, w), n in zip(tally.dates, tally.counts):
            by_day.setdefault((m, d), {})[w] = n
        lines.append("date    " + "".join(f"{w:>7}" for w in WEEKDAYS))
        for (m, d), row in by_day.items():
            lines.append(
                f"{MONTHS[m - 1]} {d:>2}  " + "".join(f"{row[w]:>7}" if w in row else "       " for w in range(7))
            )
    return "\n".join(lines) + "\n"


def year_values(tally: Tally) -> tuple[dict[tuple[int, int], int], str]:
    """One value per (month, day) for the year's picture, and what it is."""
    values: dict[tuple[int, int], int] = {}
    weekday = any(w is not None for _, _, w in tally.dates)
    for (m, d, _), n in zip(tally.dates, tally.counts):
        values[(m, d)] = min(values.get((m, d), n), n)
    return values, ("fewest solutions over the seven weekdays" if weekday else "solutions per date")
