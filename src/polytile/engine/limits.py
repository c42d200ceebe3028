"""What a count may spend (a deadline, bytes of memo) and how it says it stopped: shared by
the memoised counter (memo.py), the frontier programme (frontier.py) and Shikaku's Pfaffian."""

from __future__ import annotations

from typing import NamedTuple


class Stopped(Exception):
    """A count given up: `reason` is "time limit" or "memory budget". A memoised count has
    no partial figure (a sub-count is only known when it is complete)."""

    def __init__(self, reason: str, entries: int, need: int = 0):
        super().__init__(reason)
        self.reason = reason
        self.entries = entries  # memoised states when it stopped
        self.need = need  # bytes the memo held then (an estimate)
        self.method = "memo"  # "frontier" when a frontier count stopped


class Outgrown(Exception):
    """A part's memo passed its `switch`: the frontier programme counts it instead."""


class Limits(NamedTuple):
    """What a count may spend: a perf_counter deadline and bytes of memo (None: no bound)."""

    deadline: float | None = None
    memory: int | None = None

    def entry_bytes(self, bits: int) -> int:
        """What one memoised state costs, measured on CPython 3.11: a dict slot and its hash
        (~100 bytes with the table's growth), the key (an int of `bits` bits) and the count
        (an int that may grow to as many bits)."""
        return 100 + 2 * (28 + 4 * (bits // 30 + 1))


NO_LIMITS = Limits()
CHECK_EVERY = 1 << 10  # memoised states between two looks at the clock and the memo
