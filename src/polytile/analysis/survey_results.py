"""What a hole survey finds and where it keeps it: each class of boards with its tilings or
why it has none (`BoardResult`), the survey's figures and CSV (`Survey`), and the SQLite
file that holds finished tasks and the tally as the search goes (`Checkpoint`), so that a
killed survey resumes (analysis/survey.py runs the search)."""

from __future__ import annotations

import csv
import io
import os
import sqlite3
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ..engine.parallel.checkpoint import open_store
from ..errors import PuzzleError

STATUS = {0: "tiled", 1: "cut off", 2: "region size", 3: "search"}


@dataclass
class BoardResult:
    """One class of boards (hole sets equal under the board's symmetry): how many boards it
    holds, the tilings of each, or why there are none."""

    holes: list[tuple[int, ...]]  # hole cells (board coordinates), canonical class
    orbit: int  # boards in the class
    tilings: int  # tilings of one board of the class
    status: str  # tiled, cut off, region size, search


@dataclass
class Survey:
    """A survey's answer: every class of boards, and the search's figures (its tasks, those
    resumed from the file, nodes, seconds; `complete` False after Ctrl-C)."""

    width: int
    height: int
    holes: int
    pieces: str
    boards: list[BoardResult] = field(default_factory=list)
    hole_sets: int = 0  # placements before symmetry
    nodes: int = 0
    seconds: float = 0.0
    resumed_tasks: int = 0
    tasks: int = 0
    complete: bool = True

    def summary(self) -> dict[str, Any]:
        """The figures `survey holes` prints (and --json writes): tileable classes, the most
        and least tilings, the reasons boards have none."""
        by = {s: 0 for s in STATUS.values()}
        for b in self.boards:
            by[b.status] += 1
        tiled = [b for b in self.boards if b.tilings]
        most = max(tiled, key=lambda b: b.tilings, default=None)
        least = min(tiled, key=lambda b: b.tilings, default=None)
        return {
            "board": f"{self.width}x{self.height}",
            "holes": self.holes,
            "pieces": self.pieces,
            "hole_sets": self.hole_sets,
            "classes": len(self.boards),
            "tileable": by["tiled"],
            "not_tileable": {"cut off": by["cut off"], "region size": by["region size"], "search": by["search"]},
            "tilings_all_boards": sum(b.tilings * b.orbit for b in self.boards),
            "most": None if most is None else {"holes": most.holes, "tilings": most.tilings},
            "least": None if least is None else {"holes": least.holes, "tilings": least.tilings},
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
            "complete": self.complete,
        }

    def to_csv(self) -> str:
        """Every class of boards, one row each, for a spreadsheet (`--csv`)."""
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(["holes", "boards_in_class", "tilings", "status"])
        for b in self.boards:
            w.writerow([" ".join(",".join(map(str, c)) for c in b.holes), b.orbit, b.tilings, b.status])
        return out.getvalue()


class Checkpoint:
    """The survey's SQLite file: finished tasks and the tally of weighted tilings by hole
    set (one transaction per task), then the boards; signed with the survey's key, so a file
    of another board, holes or pieces is refused."""

    def __init__(self, path: str, key: str):
        self.path = path
        self.db = open_store(
            path,
            "CREATE TABLE IF NOT EXISTS done (task INTEGER PRIMARY KEY, nodes INTEGER, at REAL);"
            "CREATE TABLE IF NOT EXISTS tally (hole_key INTEGER PRIMARY KEY, weighted INTEGER);"
            "CREATE TABLE IF NOT EXISTS boards (holes TEXT PRIMARY KEY, boards_in_class INTEGER,"
            " tilings INTEGER, status TEXT);",
            "survey",
            key,
            "survey file",
            "another board, holes or pieces",
        )
        try:
            self.finished = {t: n for t, n in self.db.execute("SELECT task, nodes FROM done")}
        except sqlite3.DatabaseError as e:
            raise PuzzleError(f"not a usable survey file ({e})", path) from None

    def record(self, task: int, tally: dict[int, int], nodes: int) -> None:
        """A finished task's tally and the task itself, in one transaction: a kill never
        leaves a tally counted without its task marked done (or the reverse)."""
        try:
            self.db.execute("BEGIN")
            self.db.executemany(
                "INSERT INTO tally VALUES (?, ?) ON CONFLICT(hole_key) DO UPDATE "
                "SET weighted = weighted + excluded.weighted",
                tally.items(),
            )
            self.db.execute("INSERT INTO done VALUES (?, ?, ?)", (task, nodes, time.time()))
            self.db.execute("COMMIT")
        except sqlite3.DatabaseError as e:
            raise PuzzleError(f"cannot record in the survey file ({e})", self.path) from None

    def tally(self) -> dict[int, int]:
        """Weighted tilings by hole set (its key), over every finished task."""
        return dict(self.db.execute("SELECT hole_key, weighted FROM tally"))

    def save_boards(self, boards: list[BoardResult]) -> None:
        """The finished survey's boards, replacing any earlier ones, so the file holds the answer."""
        self.db.execute("BEGIN")
        self.db.execute("DELETE FROM boards")
        self.db.executemany(
            "INSERT INTO boards VALUES (?, ?, ?, ?)",
            [(" ".join(",".join(map(str, c)) for c in b.holes), b.orbit, b.tilings, b.status) for b in boards],
        )
        self.db.execute("COMMIT")


@contextmanager
def opened_checkpoint(db: str | None, key: str) -> Iterator[Checkpoint]:
    """The checkpoint in the SQLite file `db`, or in a scratch file removed afterwards."""
    if db is not None:
        yield Checkpoint(db, key)
        return
    with tempfile.NamedTemporaryFile(suffix=".sqlite", delete=False) as f:
        scratch = f.name
    checkpoint = Checkpoint(scratch, key)
    try:
        yield checkpoint
    finally:
        checkpoint.db.close()
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(scratch + suffix):
                os.unlink(scratch + suffix)
