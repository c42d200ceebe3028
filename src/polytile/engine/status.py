"""The kernels' status codes, declared once.

The numba kernels return and compare plain integers (module constants, frozen at
compile time), taken from these enums; the drivers turn a `Status` into its word."""

from __future__ import annotations

from enum import IntEnum


class Status(IntEnum):
    """What one call of a kernel ends with."""

    PAUSED = 0  # the node budget is spent: call again to resume
    DONE = 1  # every prefix is searched
    BUFFER = 2  # the solution buffer is full: drain it, then call again
    LIMIT = 3  # the solution limit is reached

    @property
    def word(self) -> str:
        """'paused', 'done', 'buffer' or 'limit', as Driver.advance reports it."""
        return self.name.lower()


class LeafAction(IntEnum):
    """What leaf.on_leaf tells the kernel to do after a solution."""

    CONTINUE = 0
    STOP_LIMIT = 1
    STOP_BUFFER = 2


# plain integers for the kernels
PAUSED, DONE, BUFFER_FULL, LIMIT = (int(s) for s in Status)
CONTINUE, STOP_LIMIT, STOP_BUFFER = (int(a) for a in LeafAction)
CODES = {int(s): s.word for s in Status}
