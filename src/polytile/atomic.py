"""Atomic writes: a reader sees the old file or the new one, never half of one. A new file
gets the mode the user's umask gives (0666 less the umask), an existing one keeps its own."""

from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path


def write_bytes(path: str | Path, data: bytes) -> None:
    """Write through a temporary file in the same directory, then rename: a crash leaves
    the old file whole."""
    path = Path(path)
    try:
        st: os.stat_result | None = os.stat(path)
    except FileNotFoundError:
        st = None
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)  # less the umask
    try:
        with os.fdopen(fd, "wb") as f:
            if st is not None:
                os.fchmod(f.fileno(), stat.S_IMODE(st.st_mode))
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.lexists(tmp):
            os.unlink(tmp)
        raise


def write_text(path: str | Path, text: str) -> None:
    """`write_bytes` of the text as UTF-8, whatever the locale."""
    write_bytes(path, text.encode("utf-8"))
