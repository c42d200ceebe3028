"""Resumable work in SQLite: a file made for one job (its key in a `meta` table, checked on
reopening), written in WAL mode with one commit per finished part, so that a count or a
survey killed at any moment resumes from the parts it had finished.

A count's rows are signed: each carries an HMAC-SHA256 of (the file's own random salt, the
job, the task, its counts) under a secret key kept outside the file (`signing_key`: a
per-user key file). A row whose count or task was edited by hand, or that was copied from
another checkpoint, no longer matches its signature and the file is refused; a plain
checksum would not do, since whoever edits the row could recompute it. What this does not
protect against: someone who can read the key file (the same user) forging rows, or rows
deleted (those parts are simply counted again). Rows without a signature (a checkpoint of a
polytile before signing, or a row whose signature was blanked) are counted again."""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
import sqlite3
import time
from pathlib import Path
from typing import Any

from ...errors import PuzzleError

KEY_ENV = "POLYTILE_CHECKPOINT_KEY"  # a key file other than the per-user default

Counts = tuple[int, int, int]  # solutions, unique, nodes


def open_store(path: str, schema: str, key_name: str, key: str, what: str, made_for: str) -> sqlite3.Connection:
    """The SQLite file `path` with the tables of `schema`, made for `key` (recorded under
    `key_name` when new). A file that is no database, or one made for another job, is a
    PuzzleError naming it: "not a usable {what}", "this {what} was made for {made_for}"."""
    try:
        db = sqlite3.connect(path, isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.executescript("CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT);" + schema)
        row = db.execute("SELECT v FROM meta WHERE k=?", (key_name,)).fetchone()
        if row is None:
            db.execute("INSERT INTO meta VALUES (?, ?)", (key_name, key))
        elif row[0] != key:
            raise PuzzleError(f"this {what} was made for {made_for}", path)
    except sqlite3.DatabaseError as e:
        raise PuzzleError(f"not a usable {what} ({e})", path) from None
    return db


_COUNT = re.compile(r"0|[1-9][0-9]{0,39}")  # a recorded count: a plain non-negative integer, as str() writes it


def key_path() -> Path:
    """The per-user key file: $POLYTILE_CHECKPOINT_KEY, else polytile/checkpoint.key in
    $XDG_CONFIG_HOME (default ~/.config)."""
    if os.environ.get(KEY_ENV):
        return Path(os.environ[KEY_ENV])
    config = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(config) / "polytile" / "checkpoint.key"


def signing_key() -> bytes:
    """The secret that signs checkpoint rows: read from key_path(), made (32 random bytes,
    readable by the user alone, written atomically) the first time."""
    path = key_path()
    try:
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w") as f:
                f.write(secrets.token_hex(32) + "\n")
            os.replace(tmp, path)
        key = path.read_text().strip()
    except OSError as e:
        raise PuzzleError(
            f"cannot use the checkpoint key file ({e.strerror}; set {KEY_ENV} to a file of your own)", str(path)
        ) from None
    if not re.fullmatch(r"[0-9a-f]{64}", key):
        raise PuzzleError(
            "the checkpoint key file is damaged (delete it: checkpoints made with it will then be refused)", str(path)
        )
    return bytes.fromhex(key)


def sign(key: bytes, salt: str, job: str, task: int, solutions: str, uniq: str, nodes: int) -> str:
    """A row's signature: its fields, the job and the file's salt under the user's key."""
    message = "\x1f".join([salt, job, str(task), solutions, uniq, str(nodes)]).encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def _row_counts(row: tuple[Any, ...], tasks: int) -> Counts | None:
    """A checkpoint row (task, solutions, uniq, nodes, ...) as counts, or None when it
    cannot come from this plan: a task number out of range, a count that is no plain
    non-negative integer."""
    task, solutions, uniq, nodes = row[:4]
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
        self.job = f"{key}:{tasks}"
        self.db = open_store(
            self.path,
            "CREATE TABLE IF NOT EXISTS done (task INTEGER PRIMARY KEY, "
            "solutions TEXT, uniq TEXT, nodes INTEGER, at REAL, mac TEXT);",
            "job",
            self.job,
            "checkpoint",
            "another puzzle or other options",
        )
        self.tasks = tasks
        self.key = signing_key()
        self.salt = self._salt()

    def _salt(self) -> str:
        """The file's own random salt (so rows copied from another file do not verify); a
        checkpoint of an earlier polytile, whose rows were not signed, gains the column."""
        try:
            columns = [c[1] for c in self.db.execute("PRAGMA table_info(done)")]
            if "mac" not in columns:
                self.db.execute("ALTER TABLE done ADD COLUMN mac TEXT")
            row = self.db.execute("SELECT v FROM meta WHERE k='salt'").fetchone()
            if row is None:
                self.db.execute("INSERT INTO meta VALUES ('salt', ?)", (secrets.token_hex(16),))
                row = self.db.execute("SELECT v FROM meta WHERE k='salt'").fetchone()
        except sqlite3.DatabaseError as e:
            raise PuzzleError(f"not a usable checkpoint ({e})", self.path) from None
        return str(row[0])

    def finished(self) -> dict[int, Counts]:
        """The recorded tasks, every row checked against the plan's tasks and its signature."""
        try:
            rows = self.db.execute("SELECT task, solutions, uniq, nodes, mac FROM done").fetchall()
        except sqlite3.DatabaseError as e:
            raise PuzzleError(f"not a usable checkpoint ({e})", self.path) from None
        out = {}
        for row in rows:
            counts = _row_counts(row, self.tasks)
            shown = ", ".join(repr(x)[:40] for x in row[:4])
            if counts is None:
                raise PuzzleError(
                    f"not a usable checkpoint (row ({shown}) does not fit the {self.tasks} tasks of this count)",
                    self.path,
                )
            if row[4] is None:  # unsigned: written before rows were signed; counted again
                continue
            mac = sign(self.key, self.salt, self.job, *row[:4])
            if not (isinstance(row[4], str) and hmac.compare_digest(mac, row[4])):
                raise PuzzleError(
                    f"not a usable checkpoint (row ({shown}) was not written by this "
                    f"count: edited, copied from another file, or signed with another "
                    f"key than {key_path()}; delete the file to count afresh)",
                    self.path,
                )
            out[row[0]] = counts
        return out

    def record(self, task: int, counts: Counts) -> None:
        """Store a finished task's counts, signed, so a resumed run adds each task once
        and trusts no row it did not write."""
        solutions, uniq = str(counts[0]), str(counts[1])
        mac = sign(self.key, self.salt, self.job, task, solutions, uniq, counts[2])
        try:
            self.db.execute(
                "INSERT OR REPLACE INTO done VALUES (?, ?, ?, ?, ?, ?)",
                (task, solutions, uniq, counts[2], time.time(), mac),
            )
        except sqlite3.DatabaseError as e:
            raise PuzzleError(f"cannot record in the checkpoint ({e})", self.path) from None
