"""Jobs in the background: each search runs in its own process (forked from a warm fork
server), a thread per job reads its messages, and the page polls the job's state. Cancel
kills the job's process group, so the work really stops. Limits: active jobs (starting or
running) per client and in all, seconds per job, solutions kept, finished jobs remembered."""

from __future__ import annotations

import multiprocessing
import os
import secrets
import signal
import threading
import time
from dataclasses import dataclass, field
from multiprocessing.process import BaseProcess
from typing import Any

from . import worker
from .eta import Eta

ACTIVE = ("starting", "running")


class Busy(Exception):
    """Too many jobs: the client should wait or cancel one (HTTP 429)."""


class Duplicate(Exception):
    """The tab already has a job running (a double click): HTTP 409."""


@dataclass
class Job:
    """One search the page started, as the server keeps it between polls: what was asked, its
    state and progress, the solutions listed so far, and the process to kill on Cancel."""

    id: str
    client: str
    action: str
    spec: dict[str, Any]
    opts: dict[str, Any]
    summary: dict[str, Any]
    state: str = "starting"  # starting, running, done, failed, cancelled
    created: float = field(default_factory=time.time)
    started: float | None = None
    finished: float | None = None
    progress: dict[str, Any] = field(default_factory=dict)
    solutions: list[Any] = field(default_factory=list)
    rows: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    error: str | None = None
    process: BaseProcess | None = None
    seen: float = field(default_factory=time.time)  # the last time a client asked for its state
    tab: str = ""  # the page (tab) that started it: one active job per tab
    eta: Eta = field(default_factory=Eta)

    def touch(self) -> None:
        """A client asked for the job: it is not abandoned (see `abandoned`)."""
        self.seen = time.time()

    @property
    def abandoned(self) -> bool:
        """A job started with a heartbeat (the page's) whose client stopped asking for it."""
        beat = self.opts.get("heartbeat")
        return beat is not None and bool(beat) and time.time() - self.seen > float(beat)

    @property
    def active(self) -> bool:
        """Starting or running: it holds one of its client's job slots and the server's."""
        return self.state in ACTIVE

    def view(self, since: int = 0, most: int = 500) -> dict[str, Any]:
        """The state the page polls: progress, and solutions from index `since` on."""
        now = self.finished or time.time()
        progress = dict(self.progress)
        out = {
            "id": self.id,
            "action": self.action,
            "state": self.state,
            "elapsed": round(now - (self.started or self.created), 3),
            "progress": progress,
            "listed": len(self.solutions),
            "since": since,
            "solutions": self.solutions[since : since + most],
            "rows": list(self.rows),
            "result": self.result,
            "error": self.error,
            "summary": self.summary if since == 0 else None,
        }
        share = self.progress.get("share")
        if self.active and share:
            progress["fraction"] = self.eta.fraction(share)  # never backwards
            progress.update(self.eta.left(time.time() - (self.started or self.created)))
        return out


class Manager:
    """The server's jobs: started within the limits (`per_client` and `max_active` jobs
    starting or running, `seconds` each), watched from a thread each, cancelled by process
    group, the last `keep` finished ones remembered for the page's downloads. A count runs
    with `count_workers` workers (its `--jobs`): a pool gives the progress bar a gauge."""

    def __init__(
        self,
        *,
        per_client: int = 2,
        max_active: int = 4,
        seconds: float = 600.0,
        keep: int = 64,
        count_workers: int = 1,
    ):
        self.per_client = per_client
        self.max_active = max_active
        self.seconds = seconds
        self.keep = keep
        self.count_workers = count_workers
        self.jobs: dict[str, Job] = {}
        self.lock = threading.Lock()
        self.ctx = multiprocessing.get_context("forkserver")
        self.ctx.set_forkserver_preload(["polytile.web.preload"])
        self.warm = threading.Event()
        self.closed = False

    def start_warming(self) -> None:
        """Bring up the fork server (and its warm-up) now, not at the first job."""

        def run() -> None:
            try:
                p = self.ctx.Process(target=worker.noop, daemon=True)
                p.start()
                p.join()
            finally:
                self.warm.set()

        threading.Thread(target=run, name="polytile-warm", daemon=True).start()

    # ---- the API -----------------------------------------------------------------------------

    def submit(
        self,
        client: str,
        action: str,
        spec: dict[str, Any],
        opts: dict[str, Any],
        summary: dict[str, Any],
        tab: str = "",
    ) -> Job:
        """Start a job, or refuse it (Busy: over a limit; Duplicate: the tab's job is active)."""
        with self.lock:
            if self.closed:
                raise Busy("the server is shutting down")
            twin = next(
                (j for j in self.jobs.values() if tab and j.tab == tab and j.client == client and j.active), None
            )
            if twin is not None:
                raise Duplicate(
                    f"this tab already has a job running ({twin.action} {twin.id}); cancel it or wait for it"
                )
            mine = [j for j in self.jobs.values() if j.client == client and j.active]
            if len(mine) >= self.per_client:
                raise Busy(
                    f"{len(mine)} jobs are already running for you (limit {self.per_client}); wait for one or cancel it"
                )
            if sum(j.active for j in self.jobs.values()) >= self.max_active:
                raise Busy(f"the server is busy ({self.max_active} jobs running); try again shortly")
            if action in ("count", "sample"):  # a random draw counts first
                opts = dict(opts, jobs=self.count_workers)
            job = Job(secrets.token_urlsafe(9), client, action, spec, opts, summary, tab=tab)
            self.jobs[job.id] = job
            self._forget_old()
        threading.Thread(target=self._run, args=(job,), name=f"job-{job.id}", daemon=True).start()
        return job

    def forget(self, job: Job) -> None:
        """Drop a finished job (the page's quick ones: they must not push out its listings)."""
        with self.lock:
            if not job.active:
                self.jobs.pop(job.id, None)

    def get(self, job_id: str) -> Job | None:
        """The job of that id, or None once forgotten (or never started)."""
        return self.jobs.get(job_id)

    def cancel(self, job: Job) -> None:
        """Stop an active job now: its process group is killed (a finished job stays as it is)."""
        with self.lock:
            if not job.active:
                return
            job.state = "cancelled"
            job.finished = time.time()
        self._kill(job)

    def shutdown(self) -> None:
        """Refuse new jobs and cancel the active ones (the server is stopping)."""
        with self.lock:
            self.closed = True
            active = [j for j in self.jobs.values() if j.active]
        for j in active:
            self.cancel(j)

    def stats(self) -> dict[str, Any]:
        """The server's load for /api/info: active jobs, jobs kept, the fork server warm."""
        active = [j for j in self.jobs.values() if j.active]
        return {"running": len(active), "kept": len(self.jobs), "warm": self.warm.is_set()}

    # ---- inside ------------------------------------------------------------------------------

    def _forget_old(self) -> None:
        done = sorted((j for j in self.jobs.values() if not j.active), key=lambda j: j.created)
        for j in done[: max(0, len(self.jobs) - self.keep)]:
            del self.jobs[j.id]

    def _kill(self, job: Job) -> None:
        p = job.process
        if p is None or p.pid is None:
            return
        try:
            os.killpg(p.pid, signal.SIGKILL)  # the job and any pool it started
        except (ProcessLookupError, PermissionError):
            pass
        try:
            p.kill()
        except (OSError, ValueError, AttributeError):
            pass

    def _run(self, job: Job) -> None:
        here, there = self.ctx.Pipe(duplex=False)
        p = self.ctx.Process(
            target=worker.main, args=(there, job.action, job.spec, job.opts), daemon=True, name=f"polytile-job-{job.id}"
        )
        try:
            p.start()
        except Exception as e:  # the fork server could not start a process
            there.close()
            self._end(job, "failed", error=f"could not start the job: {e}")
            return
        there.close()
        job.process = p
        with self.lock:
            if job.state == "cancelled":  # cancelled while starting
                self._kill(job)
            else:
                job.state = "running"
                job.started = time.time()
        deadline = time.time() + self.seconds
        try:
            while True:
                if job.state == "cancelled":
                    break
                if job.abandoned:
                    self.cancel(job)
                    break
                if time.time() > deadline:
                    self._kill(job)
                    self._end(
                        job,
                        "failed",
                        error=f"time limit: the job ran longer than {self.seconds:.0f} seconds and was stopped",
                    )
                    break
                if not here.poll(0.2):
                    continue
                msg = here.recv()
                self._apply(job, msg)
                if msg["type"] in ("result", "error"):
                    break
        except (EOFError, OSError):
            if job.active:
                self._end(job, "failed", error=f"the job stopped unexpectedly (exit code {p.exitcode})")
        finally:
            here.close()
            p.join(timeout=5)
            if p.is_alive():
                self._kill(job)
                p.join(timeout=5)

    def _apply(self, job: Job, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if job.state == "cancelled":
            return
        if kind == "progress":
            job.progress = {k: v for k, v in msg.items() if k != "type"}
            if msg.get("share"):  # every figure of the gauge, polled or not
                when = msg.get("elapsed", 0.0)  # the worker's clock, at that message
                job.eta.add(when, msg.get("seconds", when), min(1.0, msg["share"]))
        elif kind == "solutions":
            start = msg["start"]
            job.solutions[start : start + len(msg["solutions"])] = msg["solutions"]
        elif kind == "row":
            job.rows.append(msg["row"])
        elif kind == "result":
            self._end(job, "done", result=msg["result"])
        elif kind == "error":
            self._end(job, "failed", error=msg["message"])

    def _end(self, job: Job, state: str, *, result: dict[str, Any] | None = None, error: str | None = None) -> None:
        with self.lock:
            if not job.active:
                return
            job.state, job.result, job.error = state, result, error
            job.finished = time.time()
