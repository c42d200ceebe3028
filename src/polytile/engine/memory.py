"""Keep freed memory mapped for reuse (glibc's malloc), set once per process before any
puzzle's work.

A page the process touches for the first time costs a fault on this machine (1.5-8 us;
docs/parts/setup8b.md), and glibc gives arrays of 128 KB or more their own mapping,
unmapped again when freed, and trims the heap's top once 128 KB of it are free: so the
model's large temporaries go back to the kernel, and the search's memo table growing to
256 KB (bitboard/driver.py) then faults in 0 to 64 fresh pages, depending on what the
set-up happened to allocate before it (a few bytes more or less anywhere flipped 4x15's
count between 2 and 64 faults, ~0.1 ms: docs/parts/tables10.md). With larger thresholds
freed arrays stay in the heap and the next ones reuse their pages."""

from __future__ import annotations

import sys

MMAP_THRESHOLD = 4 << 20  # arrays below 4 MB come from the heap (glibc's default: 128 KB, adapting)
TRIM_THRESHOLD = 64 << 20  # the heap's top is given back only past 64 MB free (default: 128 KB)
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # mallopt's parameters (glibc's malloc.h)
_done: list[bool] = []


def keep_freed_memory() -> bool:
    """Raise glibc's mmap and trim thresholds (mallopt), once; whether they were set (not
    on other C libraries or systems, where nothing changes)."""
    if _done:
        return _done[0]
    ok = False
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None)
            ok = bool(libc.mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(
                libc.mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD)
            )
        except (OSError, AttributeError):  # no C library to ask, or one without mallopt
            ok = False
    _done.append(ok)
    return ok
