"""Memory budgets: how much a command or a page job may build, spelled and shown in bytes.

The default budget of the command line is 1 GB, of a page job 512 MB: models beyond that
are rare and take hours to search. A job that would need more is refused with one line that
states the estimate and the budget and says how to raise it (`--max-memory`)."""

from __future__ import annotations

import re

from .errors import PuzzleError

CLI_BYTES = 1 << 30  # --max-memory's default
PAGE_BYTES = 512 << 20  # a page job's
UNITS = {"": 1, "B": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def parse_bytes(text: str, where: str = "--max-memory") -> int:
    """`512M`, `2G`, `1.5G`, `100000000` (bytes; K, M, G, T are powers of 1024)."""
    m = re.fullmatch(r"\s*([0-9]{1,12}(?:\.[0-9]{1,6})?)\s*([KMGT]?)i?B?\s*", text, re.IGNORECASE)
    if not m:
        raise PuzzleError(f"{text[:40]!r} is no size (e.g. 512M, 2G)", where)
    n = int(float(m.group(1)) * UNITS[m.group(2).upper()])
    if n < 1 << 20:
        raise PuzzleError(f"{text!r} is below 1 MB", where)
    return n


def show(n: int) -> str:
    """Bytes as people read them: 1.0 GB, 512 MB, 3.4 KB."""
    for unit, size in (("TB", 1 << 40), ("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n} bytes"


def over(what: str, need: int, budget: int, source: str, *, at_least: bool = False) -> PuzzleError:
    """The one line of a job beyond its budget."""
    need_text = f"more than {show(need)}" if at_least else f"about {show(need)}"
    return PuzzleError(
        f"{what} needs {need_text}, over the memory budget of {show(budget)} "
        f"(--max-memory {show_flag(max(need, budget) * 2)} raises it)",
        source,
    )


def show_flag(n: int) -> str:
    """A size as --max-memory takes it, rounded up to a whole number of MB or GB."""
    if n >= 1 << 30:
        return f"{-(-n // (1 << 30))}G"
    return f"{-(-n // (1 << 20))}M"
