"""The one error type the user sees: what went wrong and where."""
from __future__ import annotations


class PuzzleError(Exception):
    """Bad input. Printed as one line `file:line:col: message`, exit status 2."""

    def __init__(self, message: str, file: str | None = None,
                 line: int | None = None, col: int | None = None):
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.col = col

    def __str__(self) -> str:
        where = [str(x) for x in (self.file, self.line, self.col) if x is not None]
        return f"{':'.join(where)}: {self.message}" if where else self.message
