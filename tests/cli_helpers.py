"""Running the `polytile` command in tests, two ways with one answer (a CompletedProcess with
text stdout and stderr):

- `call_cli`: `polytile.cli.main(argv)` in this process, its standard streams replaced by
  buffers: no interpreter start-up and no numba import per call, so most CLI contract
  tests use it;
- `run_cli`: a real `python -m polytile` process, where the process itself is under test:
  signals, start-up imports, the exit through `os._exit`, a memory cap, a time bound that
  includes start-up."""

from __future__ import annotations

import contextlib
import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterator


def argv(args: tuple[Any, ...]) -> list[str]:
    return [str(a) for a in args]


def command(*args: Any) -> list[str]:
    """The argument vector of `python -m polytile ARGS` (this interpreter)."""
    return [sys.executable, "-m", "polytile", *argv(args)]


def run_cli(
    *args: Any, cwd: str | Path | None = None, input: str | None = None, timeout: float = 120, **popen: Any
) -> subprocess.CompletedProcess:
    """`python -m polytile ARGS` in a process of its own, to its end."""
    return subprocess.run(
        command(*args), cwd=cwd, input=input, capture_output=True, text=True, timeout=timeout, **popen
    )


def start_cli(*args: Any, **popen: Any) -> subprocess.Popen:
    """`python -m polytile ARGS` started (for signals): subprocess.Popen's keywords. The
    process gets Ctrl-C's default action, as from a terminal, even when the tests run where
    SIGINT is ignored (a shell's background job without job control ignores SIGINT, and
    a child inherits that: its Ctrl-C would never arrive)."""
    popen.setdefault("preexec_fn", _default_sigint)
    return subprocess.Popen(command(*args), **popen)


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of a running process, all its threads (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_busy(proc: subprocess.Popen, cpu: float, timeout: float = 300.0) -> bool:
    """Wait until the process has run `cpu` seconds of CPU (past its start-up, into the
    search: a state, whatever the machine's load) or has ended: True while it runs."""
    end = time.monotonic() + timeout
    while proc.poll() is None and time.monotonic() < end:
        try:
            if cpu_seconds(proc.pid) >= cpu:
                return True
        except (OSError, ValueError, IndexError):  # ended meanwhile
            break
        time.sleep(0.05)
    return proc.poll() is None


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def call_cli(*args: Any, cwd: str | Path | None = None, input: str = "") -> subprocess.CompletedProcess:
    """`polytile ARGS` through `polytile.cli.main` in this process (stdin `input`, the
    working directory `cwd` while it runs)."""
    from polytile.cli import main

    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="")  # .buffer for PNG output
    err = io.StringIO()
    with contextlib.ExitStack() as stack:
        if cwd is not None:
            stack.enter_context(contextlib.chdir(cwd))
        stack.enter_context(_stdin(input))
        stack.enter_context(contextlib.redirect_stdout(out))
        stack.enter_context(contextlib.redirect_stderr(err))
        status = main(argv(args))
    out.flush()
    text = out.buffer.getvalue().decode("utf-8", errors="replace")  # type: ignore[attr-defined]
    return subprocess.CompletedProcess(["polytile", *argv(args)], status, text, err.getvalue())


@contextlib.contextmanager
def _stdin(text: str):
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8")
    try:
        yield
    finally:
        sys.stdin = saved


@contextlib.contextmanager
def child_cpu() -> Iterator[list[float]]:
    """CPU seconds (user + system) of the child processes waited for inside the block, in
    the list's one element: how much work a command did, whatever the machine's load
    (a loaded machine stretches the wall clock; a deadline not kept shows as work past it)."""
    import resource

    box = [0.0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    yield box
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    box[0] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
