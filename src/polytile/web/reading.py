"""Uploads read in a process of their own: a puzzle file the page sends (pasted text, a BurrTools
file's bytes) is parsed and summarised (or, for a download, written back as a BurrTools file) in
a child of the jobs' fork server, its address space capped at its size at the start plus the
page's budget (RLIMIT_AS), within READ_SECONDS, at most READERS at a time. Whatever the reader meets (20,000 colours in a 2 KB gzip, shapes of millions
of voxels, a piece count of 10^9, a digit int() does not take), the server answers with one line
(400; 429 while every reader is busy) and its own memory stays as it was: no 500, no traceback
sent or logged. Drawn boards, Katamino, boxing, Shikaku grids and calendars are checked field by
field and stay in the server (puzzles.py)."""

from __future__ import annotations

import logging
import os
import resource
import signal
import threading
import time
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any

from ..budget import PAGE_BYTES, show
from ..errors import PuzzleError, one_line

if TYPE_CHECKING:
    from .jobs import Job

READ_SECONDS = 30.0  # one file's reading, at most
READERS = 2  # files read at once (each may take the whole budget)
SLACK = 64 << 20  # bytes beyond the budget: the interpreter's own, while a reader fails
LOG = logging.getLogger("polytile.web")


class Refused(Exception):
    """An upload the server will not take: `message` is the answer's one line, `status` its code."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.message, self.status = message, status


def is_upload(spec: Any) -> bool:
    """Whether a request's puzzle carries a file's text or bytes (read by reading.Reader)."""
    return isinstance(spec, dict) and (spec.get("text") is not None or spec.get("xmpuzzle") is not None)


def upload_name(spec: dict[str, Any]) -> str:
    """The upload as messages name it."""
    name = spec.get("name")
    if isinstance(name, str) and name.strip():
        return one_line(name.replace("\\", "/").rsplit("/", 1)[-1])[:120]
    return "<upload>.xmpuzzle" if spec.get("xmpuzzle") is not None else "<text>"


class Reader:
    """Reads uploads in children of `ctx` (the jobs' fork server), one line on any fault.
    `reads` counts the children started; `grew` is the most memory one of them took."""

    def __init__(self, ctx: Any, budget: int = PAGE_BYTES, seconds: float = READ_SECONDS, readers: int = READERS):
        self.ctx, self.budget, self.seconds = ctx, budget, seconds
        self.slots = threading.BoundedSemaphore(readers)
        self.reads = 0
        self.grew = 0

    def summary(self, spec: dict[str, Any]) -> dict[str, Any]:
        """The page's summary of the upload's puzzle (puzzles.summary), or Refused."""
        summary: dict[str, Any] = self._ask("summary", spec, None)
        return summary

    def xmpuzzle(self, job: Job, k: int) -> bytes:
        """Solution k of a job on an upload, stored in the puzzle as a BurrTools file
        (downloads.xmpuzzle_bytes), or Refused."""
        data: bytes = self._ask("xmpuzzle", job.spec, (job.summary, job.solutions[k]))
        return data

    def _ask(self, task: str, spec: dict[str, Any], more: Any) -> Any:
        if not self.slots.acquire(timeout=self.seconds):
            raise Refused("the server is reading other files; try again in a moment", 429)
        try:
            answer = self._read(task, spec, more)
        finally:
            self.slots.release()
        self.grew = max(self.grew, int(answer.get("grew", 0)))
        if "bug" in answer:
            LOG.warning("an upload's reader failed: %s", answer["bug"])
        if "error" in answer:
            raise Refused(answer["error"])
        return answer["value"]

    def _read(self, task: str, spec: dict[str, Any], more: Any) -> dict[str, Any]:
        name = upload_name(spec)
        here, there = self.ctx.Pipe(duplex=False)
        p = self.ctx.Process(
            target=read, args=(there, task, spec, more, self.budget), daemon=True, name="polytile-read"
        )
        try:
            p.start()
        except Exception as e:  # the fork server could not start a process
            raise Refused(f"{name}: could not read it ({type(e).__name__}); try again in a moment", 503) from None
        finally:
            there.close()
        self.reads += 1
        deadline = time.monotonic() + self.seconds
        try:
            if not here.poll(max(0.0, deadline - time.monotonic())):
                return {"error": f"{name}: reading it took more than {self.seconds:.0f} s, the page's limit"}
            answer: dict[str, Any] = here.recv()
            return answer
        except (EOFError, OSError):  # killed (out of memory beyond the cap), or a crash
            return {
                "error": f"{name}: reading it stopped (exit code {p.exitcode}): more than the page's memory "
                f"budget of {show(self.budget)}?"
            }
        finally:
            here.close()
            if p.is_alive():
                p.kill()
            p.join(5)


def _vm_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")


def _rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def read(conn: Connection, task: str, spec: dict[str, Any], more: Any, budget: int) -> None:
    """The reading process: cap the address space, run the task, send the answer ({"value"} or
    {"error": one line}, with "grew": the bytes of memory it took), exit."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C on the server is the server's
    start = _rss_bytes()
    try:
        cap = _vm_bytes() + budget + SLACK
        resource.setrlimit(resource.RLIMIT_AS, (cap, resource.getrlimit(resource.RLIMIT_AS)[1]))
    except (OSError, ValueError):  # a lower hard limit: keep it
        pass
    answer = answer_for(task, spec, more, budget)
    answer["grew"] = max(0, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - start)
    try:
        conn.send(answer)
    finally:
        conn.close()


def answer_for(task: str, spec: dict[str, Any], more: Any, budget: int) -> dict[str, Any]:
    """{"value": the task's answer}, or {"error": one line} (and "bug" when the reader failed in
    a way it should have said better)."""
    name = upload_name(spec)
    try:
        return {"value": TASKS[task](spec, more)}
    except PuzzleError as e:
        return {"error": str(e)}
    except MemoryError:
        return {"error": f"{name}: reading it needs more than the page's memory budget of {show(budget)}"}
    except RecursionError:
        return {"error": f"{name}: nested too deeply to read"}
    except Exception as e:  # a reader's bug: one line for the page, one for the log
        line = one_line(f"{type(e).__name__}: {e}")[:200]
        return {"error": f"{name}: could not read it ({line})", "bug": f"{name}: {line}"}


def _summary(spec: dict[str, Any], more: Any) -> dict[str, Any]:
    from . import puzzles

    return puzzles.summary(puzzles.parse(spec))


def _xmpuzzle(spec: dict[str, Any], more: Any) -> bytes:
    from .downloads import xmpuzzle_bytes
    from .jobs import Job

    summary, solution = more
    return xmpuzzle_bytes(Job("", "", "solve", spec, {}, summary, solutions=[solution]), 0)


TASKS = {"summary": _summary, "xmpuzzle": _xmpuzzle}
