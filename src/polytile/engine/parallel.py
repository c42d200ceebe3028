"""Count on several processes. The tree is split into prefixes (the same prefixes the
kernels take: options placed first), deep enough for several tasks per worker; each task
runs its prefixes on the same kernel and the counts add up. With a checkpoint (SQLite),
every finished task is committed at once, so a killed run resumes where it stopped."""
from __future__ import annotations

import hashlib
import multiprocessing
import os
import sqlite3
import time
from pathlib import Path

import numpy as np

from ..cover import Cover
from ..errors import PuzzleError
from .runner import lists_by_first_item
from .search import Plan, Result, choose_engine, plan, runner_class

_JOB: tuple | None = None          # (cover, sym, plan, engine), inherited by forked workers


def split(cover: Cover, p: Plan, want: int, max_depth: int = 6) -> list[np.ndarray]:
    """Extend the plan's prefixes by the options that fill the first uncovered item, level
    by level, until there are at least `want` of them. Together they cover the same tree."""
    opts, start = lists_by_first_item(cover, p.keep)
    masks = [sum(1 << int(i) for i in cover.option_items(o)) for o in range(cover.n_options)]
    full = (1 << cover.n_items) - 1
    prefixes = [list(map(int, pre)) for pre in p.prefixes]
    for _ in range(max_depth):
        if len(prefixes) >= want:
            break
        grown = []
        for pre in prefixes:
            covered = 0
            left = cover.piece_count.astype(np.int64).copy()
            for o in pre:
                covered |= masks[o]
                left[cover.opt_piece[o]] -= 1
            if covered == full or (left < 0).any():
                grown.append(pre)
                continue
            item = ((~covered) & (covered + 1)).bit_length() - 1      # lowest uncovered item
            for o in opts[start[item]:start[item + 1]].tolist():
                if not masks[o] & covered and left[cover.opt_piece[o]] > 0:
                    grown.append(pre + [o])
        prefixes = grown
    return [np.array(pre, dtype=np.int32) for pre in prefixes]


def _run(chunk: list[np.ndarray]) -> tuple[int, int, int]:
    cover, sym, p, engine = _JOB
    runner = runner_class(engine)(cover, sym, p, store=False, limit=0)
    runner.begin(chunk)
    while runner.advance(1 << 22) != "done":
        pass
    s = runner.stats
    return int(s[1]), int(s[2]), int(s[0])


def fingerprint(cover: Cover, p: Plan) -> str:
    h = hashlib.sha256()
    for a in (cover.opt_ptr, cover.opt_items, cover.opt_piece, cover.piece_count, cover.piece_min,
              p.keep.astype(np.uint8)):
        h.update(np.ascontiguousarray(a).tobytes())
    h.update(f"{p.sym_mode}:{p.sym_piece}".encode())
    return h.hexdigest()


class Checkpoint:
    """Finished tasks in SQLite: (task, solutions, unique, nodes), one commit each."""

    def __init__(self, path: str | Path, key: str, tasks: int):
        self.path = str(path)
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT)")
            self.db.execute("CREATE TABLE IF NOT EXISTS done (task INTEGER PRIMARY KEY, "
                            "solutions TEXT, uniq TEXT, nodes INTEGER)")
            row = self.db.execute("SELECT v FROM meta WHERE k='job'").fetchone()
        except sqlite3.DatabaseError as e:
            raise PuzzleError(f"not a usable checkpoint ({e})", self.path) from None
        job = f"{key}:{tasks}"
        if row is None:
            self.db.execute("INSERT INTO meta VALUES ('job', ?)", (job,))
        elif row[0] != job:
            raise PuzzleError("this checkpoint was made for another puzzle or other options",
                              self.path)

    def finished(self) -> dict[int, tuple[int, int, int]]:
        rows = self.db.execute("SELECT task, solutions, uniq, nodes FROM done").fetchall()
        return {t: (int(s), int(u), int(n)) for t, s, u, n in rows}

    def record(self, task: int, counts: tuple[int, int, int]) -> None:
        self.db.execute("INSERT OR REPLACE INTO done VALUES (?, ?, ?, ?)",
                        (task, str(counts[0]), str(counts[1]), counts[2]))


def count(cover: Cover, sym=None, *, unique: bool = False, jobs: int = 0, engine: str = "auto",
          checkpoint: str | None = None, progress=None, tasks_per_job: int = 16) -> Result:
    """Count all solutions on `jobs` processes (0: every core)."""
    global _JOB
    t0 = time.perf_counter()
    jobs = jobs or os.cpu_count() or 1
    p = plan(cover, sym, unique=unique, store=False)
    engine = choose_engine(engine, cover.n_items)
    prefixes = split(cover, p, tasks_per_job * jobs)
    tasks = [prefixes[i::tasks_per_job * jobs] for i in range(min(len(prefixes), tasks_per_job * jobs))]
    book = Checkpoint(checkpoint, fingerprint(cover, p), len(tasks)) if checkpoint else None
    done = book.finished() if book else {}
    res = Result(unique=0, engine=f"{engine} x{jobs}")
    for c in done.values():
        res.solutions += c[0]
        res.unique += c[1]
        res.nodes += c[2]
    todo = [i for i in range(len(tasks)) if i not in done]
    _JOB = (cover, sym, p, engine)
    pool = multiprocessing.get_context("fork").Pool(jobs)
    try:
        for i, counts in zip(todo, pool.imap(_run, [tasks[i] for i in todo])):
            res.solutions += counts[0]
            res.unique += counts[1]
            res.nodes += counts[2]
            if book:
                book.record(i, counts)
            if progress is not None:
                res.seconds = time.perf_counter() - t0
                progress(res, len(done) + todo.index(i) + 1, len(tasks))
        pool.close()
    except KeyboardInterrupt:
        res.complete, res.interrupted = False, True
        pool.terminate()
    finally:
        pool.join()
        _JOB = None
    if not unique:
        res.unique = None
    res.seconds = time.perf_counter() - t0
    return res
