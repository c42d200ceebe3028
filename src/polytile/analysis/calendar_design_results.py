"""What a calendar design study keeps and reports: the SQLite file of finished sets (each
set's per-date counts, one transaction per batch, so a killed study resumes), and the sets
ranked by how evenly they serve the dates (spread.py), as text, JSON or CSV
(analysis/calendar_design.py runs the study)."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from dataclasses import dataclass
from typing import Any

from ..engine.parallel.checkpoint import open_store
from ..errors import PuzzleError
from .spread import Spread, spread


class Checkpoint:
    """The study's SQLite file: a row per finished set (its id, pieces, per-date counts),
    made for one study (board, pool, sizes): a file of another study is refused."""

    def __init__(self, path: str, key: str):
        self.path = path
        self.db = open_store(
            path,
            "CREATE TABLE IF NOT EXISTS sets (id INTEGER PRIMARY KEY, pieces TEXT, counts TEXT);",
            "calendar design",
            key,
            "calendar design checkpoint",
            "another board, pool or sizes",
        )

    def finished(self) -> set[int]:
        """The ids of the sets done."""
        try:
            return {i for (i,) in self.db.execute("SELECT id FROM sets")}
        except sqlite3.DatabaseError as e:
            raise PuzzleError(f"not a usable calendar design checkpoint ({e})", self.path) from None

    def record(self, rows: list[tuple[int, tuple[tuple[str, Any], ...], list[int]]]) -> None:
        """Finished sets (id, pieces, counts), in one transaction."""
        if not rows:
            return
        try:
            self.db.execute("BEGIN")
            self.db.executemany(
                "INSERT OR REPLACE INTO sets VALUES (?, ?, ?)",
                [(i, " ".join(name for name, _ in pieces), ",".join(map(str, c))) for i, pieces, c in rows],
            )
            self.db.execute("COMMIT")
        except sqlite3.DatabaseError as e:
            raise PuzzleError(f"cannot record in the calendar design checkpoint ({e})", self.path) from None

    def rows(self, dates: int) -> list[tuple[int, str, list[int]]]:
        """Every finished set: (id, pieces, counts), by id; a row not of `dates` plain counts
        is refused."""
        out = []
        for i, pieces, counts in self.db.execute("SELECT id, pieces, counts FROM sets ORDER BY id"):
            values = str(counts).split(",")
            if len(values) != dates or not all(v.isdigit() for v in values):
                raise PuzzleError(f"not a usable calendar design checkpoint (set {i}'s counts)", self.path)
            out.append((int(i), str(pieces), [int(v) for v in values]))
        return out

    def close(self) -> None:
        """Close the file."""
        self.db.close()


@dataclass
class Ranked:
    """One set: its id, pieces, spread, and rank among the every-date sets (None if not one)."""

    id: int
    pieces: str
    spread: Spread
    rank: int | None = None

    def as_dict(self) -> dict[str, Any]:
        """The JSON form: id, pieces, rank, then min, max, mean, unsolvable, gini."""
        return {"id": self.id, "pieces": self.pieces, "rank": self.rank, **self.spread.as_dict()}


def ranked(rows: list[tuple[int, str, list[int]]]) -> list[Ranked]:
    """Every set with its spread; the every-date sets ranked by lowest Gini, then highest
    min, then id (the order listed: ranked ones first)."""
    sets = [Ranked(i, pieces, spread(counts)) for i, pieces, counts in rows]
    good = sorted((s for s in sets if s.spread.every), key=lambda s: (s.spread.gini, -s.spread.least, s.id))
    for rank, s in enumerate(good, start=1):
        s.rank = rank
    return good + [s for s in sets if not s.spread.every]


def figures(sets: list[Ranked], head: dict[str, Any], top: int) -> dict[str, Any]:
    """The JSON report: the study (`head`: board, pool, sizes, dates, sets, complete), how
    many sets were done and solve every date, and the `top` most even."""
    every = [s for s in sets if s.rank is not None]
    return {**head, "done": len(sets), "every_date": len(every), "top": [s.as_dict() for s in every[:top]]}


def as_json(info: dict[str, Any]) -> str:
    """The report as JSON, a line per top set."""
    rows = ",\n".join("  " + json.dumps(r) for r in info["top"])
    head = json.dumps({k: v for k, v in info.items() if k != "top"})[:-1]
    return f'{head}, "top": [{chr(10) + rows + chr(10) if rows else ""}]}}\n'


def as_text(info: dict[str, Any]) -> str:
    """The report as text: the totals, then a table of the most even sets."""
    lines = [
        f"board {info['board']}, pool {info['pool']}, sizes {info['sizes']}: {info['sets']:,} sets, "
        f"{info['dates']} dates each",
        f"every date solvable: {info['every_date']:,} of {info['done']:,} sets"
        + ("" if info["complete"] else f" (stopped early: {info['done']:,} of {info['sets']:,} sets done)"),
    ]
    if info["top"]:
        width = max(len("pieces"), *(len(r["pieces"]) for r in info["top"]))
        lines += [f"the {len(info['top'])} most even (lowest Gini, then highest min):"]
        lines += [f"{'rank':>4}  {'pieces':<{width}}  {'min':>5}  {'max':>6}  {'mean':>8}  {'gini':>6}"]
        for r in info["top"]:
            lines.append(
                f"{r['rank']:>4}  {r['pieces']:<{width}}  {r['min']:>5}  {r['max']:>6}  {r['mean']:>8.1f}  {r['gini']:.4f}"
            )
    return "\n".join(lines) + "\n"


def as_csv(sets: list[Ranked]) -> str:
    """Every set done, a row each (ranked ones first, by rank; then by id)."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["rank", "id", "pieces", "every_date", "min", "max", "mean", "unsolvable", "gini"])
    for s in sets:
        d = s.spread.as_dict()
        w.writerow(["" if s.rank is None else s.rank, s.id, s.pieces, int(s.spread.every), *d.values()])
    return out.getvalue()
