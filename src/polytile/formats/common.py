"""What every reader shares: reading a file as text, JSON with positions in its errors,
short excerpts of values for messages, and the size limit of a board."""

from __future__ import annotations

import re
import sys
from typing import TYPE_CHECKING, Any

from ..errors import PuzzleError

if TYPE_CHECKING:  # json and pathlib load only when used: `polytile shikaku` starts without them
    from pathlib import Path

MAX_BYTES = 4_000_000
MAX_BOX = 1_000_000  # cells in the board's bounding box (the reduction builds a dense grid)


# names of a file this process was handed open (`<(cmd)`, /dev/stdin): read even when a pipe
_HANDED = ("/dev/stdin", "/dev/fd/", "/proc/self/fd/")


def read_bytes(path: str | Path) -> bytes:
    """A puzzle file's bytes (`-`: stdin), at most MAX_BYTES (no more than one byte past it is
    read); what cannot be read is one line, and so is what is no regular file (a FIFO would
    wait for a writer past any time limit, /dev/zero never ends)."""
    name = str(path)
    try:
        data = open_head(path, MAX_BYTES + 1) if name != "-" else sys.stdin.buffer.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise PuzzleError("no such file", name) from None
    except IsADirectoryError:
        raise PuzzleError("is a directory, not a puzzle file", name) from None
    except OSError as e:
        raise PuzzleError(f"cannot read: {e.strerror}", name) from None
    except ValueError:  # a NUL byte in the name
        raise PuzzleError("not a file name (it holds a NUL character)", name) from None
    if len(data) > MAX_BYTES:
        raise PuzzleError(f"file too large (limit {MAX_BYTES} bytes)", name)
    return data


def open_head(path: str | Path, most: int) -> bytes:
    """The first `most` bytes of a regular file (fewer when it is shorter). Opened without
    waiting (a FIFO with no writer would block the open), and refused (PuzzleError) unless
    it is a regular file or a name of one handed to this process (/dev/stdin, /dev/fd/N)."""
    import os
    import stat

    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb") as f:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError
        if not stat.S_ISREG(mode) and not str(path).startswith(_HANDED):
            what = (
                "a FIFO"
                if stat.S_ISFIFO(mode)
                else "a device"
                if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
                else "a socket"
            )
            raise PuzzleError(
                f"not a regular file ({what}): give a puzzle file, or - to read standard input", str(path)
            )
        os.set_blocking(fd, True)
        return f.read(most)


_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")  # but tab, newline and carriage return


def read_text(path: str | Path) -> str:
    """Read a puzzle file as UTF-8 text, refusing binary data with a position."""
    name = str(path)
    data = read_bytes(path)
    if data.startswith(b"\xef\xbb\xbf"):  # a UTF-8 byte-order mark is not a cell
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise PuzzleError("not a text file (invalid UTF-8 byte)", name, line, col) from None
    bad = _CONTROL.search(text)  # one C-speed scan: a loop over the characters took 0.8 ms per 20 KB
    if bad is not None:
        i, ch = bad.start(), bad.group()
        line = text.count("\n", 0, i) + 1
        col = i - (text.rfind("\n", 0, i) + 1) + 1
        raise PuzzleError(f"not a text file (control character {ord(ch):#04x})", name, line, col)
    if not text.strip():
        raise PuzzleError("empty puzzle file" if not text else "puzzle file has only blanks", name)
    return text


def _too_long(text: str, name: str) -> PuzzleError:
    limit = sys.get_int_max_str_digits() or 4300
    m = re.search(r"[0-9]{%d,}" % (limit + 1), text)
    if m is None:
        return PuzzleError("malformed JSON: a number is too long", name)
    line = text.count("\n", 0, m.start()) + 1
    col = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
    return PuzzleError(f"malformed JSON: a number has more than {limit} digits", name, line, col)


def load_json(text: str, name: str) -> Any:
    """json.loads, every failure (syntax, nesting too deep, a number beyond Python's digit
    limit) a PuzzleError naming the file and, where known, the line and column."""
    import json

    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise PuzzleError(f"malformed JSON: {e.msg}", name, e.lineno, e.colno) from None
    except RecursionError:
        raise PuzzleError("malformed JSON: nested too deeply", name) from None
    except ValueError:  # an integer literal beyond Python's digit limit
        raise _too_long(text, name) from None


def describe(value: Any, limit: int = 30) -> str:
    """A JSON value as a short one-line excerpt for an error message."""
    import json

    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[:limit] + "..."


def clip(text: str, limit: int = 40) -> str:
    """`text` cut to `limit` characters and "…" for a message (a name may be megabytes long)."""
    return text if len(text) <= limit else text[:limit] + "\u2026"


def check_box(cells: list[tuple[int, ...]], name: str) -> None:
    """Refuse a board whose bounding box is too large to lay out as a grid."""
    sides = [max(axis) - min(axis) + 1 for axis in zip(*cells)]
    box = 1
    for s in sides:
        box *= s
    if box > MAX_BOX:
        size = "x".join(map(str, sides))
        raise PuzzleError(f"board spans {size} cells (bounding box limit {MAX_BOX} cells)", name)
