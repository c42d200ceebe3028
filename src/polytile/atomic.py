"""Atomic writes: a reader sees the old file or the new one, never half of one.

A new file gets the mode the user's umask gives (0666 less the umask), an existing one keeps
its own. A symbolic link is followed: its target is replaced, the link stays. What is not a
regular file (a device such as /dev/null, a FIFO, /dev/stdout) is written through, not
replaced; a folder, a missing folder, a block device or a FIFO no one reads is refused in
one line (PuzzleError)."""

from __future__ import annotations

import errno
import os
import secrets
import stat
from pathlib import Path

from .errors import PuzzleError

# names that stand for an open file of this process (/dev/stdout, /proc/self/fd/1): written
# through, for replacing what they point to would leave the process's own file unchanged
_THROUGH = ("/dev/", "/proc/")


def check_target(path: str | Path) -> None:
    """Refuse, before any work, a path that cannot be written: a folder, a file in a folder
    that does not exist, a block device or socket."""
    _kind(Path(path))


def write_bytes(path: str | Path, data: bytes) -> None:
    """Write through a temporary file in the same directory, then rename: a crash leaves
    the old file whole. Devices and FIFOs are written through."""
    path = Path(path)
    st, target = _kind(path)
    if st is not None and (not stat.S_ISREG(st.st_mode) or os.path.abspath(path).startswith(_THROUGH)):
        _write_through(path, data, st)
        return
    _replace(target, data, st, str(path))


def write_text(path: str | Path, text: str) -> None:
    """`write_bytes` of the text as UTF-8, whatever the locale."""
    write_bytes(path, text.encode("utf-8"))


def _kind(path: Path) -> tuple[os.stat_result | None, Path]:
    """What `path` names (its stat through links, None when nothing is there yet) and the
    file a replacement goes to (a link's target); PuzzleError when it cannot be written."""
    try:
        st: os.stat_result | None = os.stat(path)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise PuzzleError(f"cannot write: {e.strerror}", str(path)) from None
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            raise PuzzleError("cannot write: it is a folder (give a file name)", str(path))
        if stat.S_ISBLK(st.st_mode) or stat.S_ISSOCK(st.st_mode):
            what = "a block device" if stat.S_ISBLK(st.st_mode) else "a socket"
            raise PuzzleError(f"cannot write: it is {what}", str(path))
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    folder = target.parent
    if st is None and not folder.is_dir():
        where = "" if folder == path.parent else f" {str(folder)!r}"
        raise PuzzleError(f"cannot write: no such folder{where}", str(path))
    return st, target


def _write_through(path: Path, data: bytes, st: os.stat_result) -> None:
    """Write into a device or FIFO as it is (a FIFO must have a reader already)."""
    flags = os.O_WRONLY | getattr(os, "O_CLOEXEC", 0)
    if stat.S_ISREG(st.st_mode):
        flags |= os.O_TRUNC
    try:
        if stat.S_ISFIFO(st.st_mode):
            try:
                fd = os.open(path, flags | os.O_NONBLOCK)
            except OSError as e:
                if e.errno == errno.ENXIO:  # no process has the FIFO open for reading
                    raise PuzzleError("cannot write: it is a FIFO that no process reads", str(path)) from None
                raise
            os.set_blocking(fd, True)
        else:
            fd = os.open(path, flags)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
    except OSError as e:
        raise PuzzleError(f"cannot write: {e.strerror}", str(path)) from None


def _replace(target: Path, data: bytes, st: os.stat_result | None, shown: str) -> None:
    """Write a temporary file beside `target`, then rename it over `target`."""
    tmp = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)  # less the umask
    except OSError as e:
        raise PuzzleError(f"cannot write: {e.strerror}", shown) from None
    try:
        with os.fdopen(fd, "wb") as f:
            if st is not None:
                os.fchmod(f.fileno(), stat.S_IMODE(st.st_mode))
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException as e:
        if os.path.lexists(tmp):
            os.unlink(tmp)
        if isinstance(e, OSError):
            raise PuzzleError(f"cannot write: {e.strerror}", shown) from None
        raise
