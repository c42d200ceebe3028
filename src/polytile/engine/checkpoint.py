"""The checkpoint of a parallel count: finished tasks in SQLite, one commit each, every
row checked against the plan's tasks when read back."""
from __future__ import annotations

import re
import sqlite3
import time
from pathlib import Path

from ..errors import PuzzleError

Counts = tuple[int, int, int]                # solutions, unique, nodes


_COUNT = re.compile(r"[0-9]{1,40}")            # a recorded count: a plain non-negative integer


def _row_counts(row: tuple, tasks: int) -> Counts | None:
    """A checkpoint row (task, solutions, uniq, nodes) as counts, or None when it cannot
    come from this plan: a task number out of range, a count that is no plain
    non-negative integer."""
    task, solutions, uniq, nodes = row
    if type(task) is not int or not 0 <= task < tasks:
        return None
    if not all(type(c) is str and _COUNT.fullmatch(c) for c in (solutions, uniq)):
        return None
    if type(nodes) is not int or nodes < 0:
        return None
    return int(solutions), int(uniq), nodes


class Checkpoint:
    """Finished tasks in SQLite: (task, solutions, unique, nodes, when), one commit each."""

    def __init__(self, path: str | Path, key: str, tasks: int):
        self.path = str(path)
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT)")
            self.db.execute("CREATE TABLE IF NOT EXISTS done (task INTEGER PRIMARY KEY, "
                            "solutions TEXT, uniq TEXT, nodes INTEGER, at REAL)")
            row = self.db.execute("SELECT v FROM meta WHERE k='job'").fetchone()
        except sqlite3.DatabaseError as e:
            raise PuzzleError(f"not a usable checkpoint ({e})", self.path) from None
        self.tasks = tasks
        job = f"{key}:{tasks}"
        if row is None:
            self.db.execute("INSERT INTO meta VALUES ('job', ?)", (job,))
        elif row[0] != job:
            raise PuzzleError("this checkpoint was made for another puzzle or other options",
                              self.path)

    def finished(self) -> dict[int, Counts]:
        """The recorded tasks, every row checked against the plan's tasks."""
        try:
            rows = self.db.execute("SELECT task, solutions, uniq, nodes FROM done").fetchall()
        except sqlite3.DatabaseError as e:
            raise PuzzleError(f"not a usable checkpoint ({e})", self.path) from None
        out = {}
        for row in rows:
            counts = _row_counts(row, self.tasks)
            if counts is None:
                shown = ", ".join(repr(x)[:40] for x in row)
                raise PuzzleError(f"not a usable checkpoint (row ({shown}) does not fit the "
                                  f"{self.tasks} tasks of this count)", self.path)
            out[row[0]] = counts
        return out

    def record(self, task: int, counts: Counts) -> None:
        try:
            self.db.execute("INSERT OR REPLACE INTO done VALUES (?, ?, ?, ?, ?)",
                            (task, str(counts[0]), str(counts[1]), counts[2], time.time()))
        except sqlite3.DatabaseError as e:
            raise PuzzleError(f"cannot record in the checkpoint ({e})", self.path) from None
