"""The one error type the user sees: what went wrong and where."""

from __future__ import annotations


def one_line(text: str) -> str:
    """`text` with every line break and other unprintable character escaped (`\\n`, `\\x0b`,
    `\\u2028`), so that user text echoed in a message cannot split it over several lines."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


LONGEST_NAME = 120  # a file name or argument echoed in a message beyond this is shortened


def short(name: str) -> str:
    """A name as a message shows it: whole when short, else its ends and its length (an id
    of 100,000 characters given in place of a file must not become a 100 KB message)."""
    if len(name) <= LONGEST_NAME:
        return name
    return f"{name[:60]}...{name[-20:]} ({len(name)} characters)"


class PuzzleError(Exception):
    """Bad input. Printed as one line `file:line:col: message`, exit status 2."""

    def __init__(self, message: str, file: str | None = None, line: int | None = None, col: int | None = None):
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.col = col

    def __str__(self) -> str:
        where = [short(str(x)) for x in (self.file, self.line, self.col) if x is not None]
        return one_line(f"{':'.join(where)}: {self.message}" if where else self.message)
