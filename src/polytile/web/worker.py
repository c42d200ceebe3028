"""What one job runs, in its own process: the same library calls as the CLI (solve, count,
hint, stats, Katamino slams, random solutions, Shikaku), with messages to the server
through a pipe. The process leads its own process group, so Cancel kills it and any pool
it started, at once, wherever the search is."""

from __future__ import annotations

import os
import signal
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any

from ..errors import PuzzleError
from . import page_limits, puzzles, shikaku_api
from .messages import MAX_LISTED_CELLS, Out, big, ticking
from .puzzles import Parsed

if TYPE_CHECKING:
    import numpy as np

    from ..core.puzzle import Puzzle
    from ..core.results import Report, Solution
    from ..tiling.solver import Tiling

JSON = dict[str, Any]

MAX_LIST = 10_000  # solutions a solve job lists for browsing
BATCH = 200  # solutions per message
STATS_SOLUTIONS = 20_000  # per-piece statistics over at most this many solutions
STATS_PROBES = 2_000  # random paths of the tree estimate
SAMPLE_SECONDS = 60.0  # Random: the count before a uniform pick, and each randomised search


def solution_json(sol: Solution) -> list[JSON]:
    """Placements with their letter and colour (Katamino colours for pentominoes, the
    pictures' palette for other pieces, as the SVG/PNG downloads draw them)."""
    from ..core.puzzle import VIRTUAL
    from ..draw.pictures import colour_for, piece_colours

    colours = piece_colours([sol])
    return [
        {"piece": p.piece, "letter": p.letter, "cells": p.cells.tolist(), "colour": colour_for(p, colours)}
        for p in sol.placements
        if p.piece != VIRTUAL
    ]  # a BurrTools file's empty variable voxels


def _report(r: Report[Any], **extra: Any) -> JSON:
    return {
        "solutions": big(r.solutions),
        "unique": big(r.unique),
        "nodes": r.nodes,
        "seconds": round(r.seconds, 6),
        "complete": r.complete,
        "reasons": list(r.reasons),
        "engine": r.engine,
        **extra,
    }


# ---- the actions ---------------------------------------------------------------------------------


def solve(parsed: Parsed, opts: JSON, out: Out) -> JSON:
    """Solutions to browse: the first sent at once (the page shows it while the rest are
    found), then up to opts["limit"] (and MAX_LISTED_CELLS cells in all) in batches."""
    if parsed.kind == "shikaku":
        return shikaku_api.count(parsed, opts, out)
    if parsed.kind == "calendar":
        from . import calendar_api

        return calendar_api.solve(parsed.calendar, opts, out)
    if parsed.why_not:
        return {"solutions": 0, "listed": 0, "complete": True, "reasons": [parsed.why_not]}
    unique = bool(opts.get("unique"))
    t = parsed.tiling
    limit = min(int(opts.get("limit") or 1000), max(1, MAX_LISTED_CELLS // t.puzzle.board.area))
    first = t.solve(limit=1, unique=unique, progress=out.engine_progress)  # shown at once
    if not first.found:
        return _report(first, listed=0, solutions=0 if first.complete else None)
    out.send("solutions", start=0, solutions=[solution_json(first.found[0])])
    if limit == 1:
        return _report(first, listed=1, solutions=None, unique=None, complete=False)
    r = t.solve(limit=limit, unique=unique, progress=out.engine_progress)
    for k in range(1, len(r.found), BATCH):
        out.send("solutions", start=k, solutions=[solution_json(s) for s in r.found[k : k + BATCH]])
    n = len(r.found)
    listed = {
        "listed": n,
        "solutions": n if r.complete and not unique else None,
        "unique": n if r.complete and unique else None,
    }
    return _report(r, **listed)


def count(parsed: Parsed, opts: JSON, out: Out) -> JSON:
    """The number of solutions (and of classes with opts["unique"]), on opts["jobs"] workers."""
    if parsed.kind == "shikaku":
        return shikaku_api.count(parsed, opts, out)
    if parsed.kind == "calendar":
        from . import calendar_api

        return calendar_api.count(parsed.calendar, opts, out)
    unique = bool(opts.get("unique"))
    if parsed.why_not:
        return {
            "solutions": 0,
            "unique": 0 if unique else None,
            "complete": True,
            "reasons": [parsed.why_not],
            "nodes": 0,
            "seconds": 0.0,
        }
    jobs = int(opts.get("jobs") or 1)
    r = parsed.tiling.count(unique=unique, progress=out.engine_progress, jobs=jobs)
    return _report(r)


def _square_only(parsed: Parsed, action: str) -> None:
    grid = parsed.tiling.puzzle.board.grid
    if not grid.boxes:
        raise PuzzleError(f"{action} works on the square grid only, not on the {grid} grid", action)


def placed_cells(opts: JSON, action: str, sizes: tuple[int, ...] = (2, 3)) -> list[np.ndarray]:
    """opts["placed"]: pieces on the board, each a list of cells [row, column(, layer)]."""
    import numpy as np

    placed = opts.get("placed") or []
    most = page_limits.MAX_DRAWN_CELLS  # (no board the page takes has more cells)
    if not isinstance(placed, list) or len(placed) > most:
        raise PuzzleError(f'"placed" must be a list of at most {most} pieces (lists of cells)', action)
    out = []
    for i, cells in enumerate(placed):
        if (
            not isinstance(cells, list)
            or not cells
            or len(cells) > most
            or not all(
                isinstance(c, list)
                and len(c) in sizes
                and all(isinstance(x, int) and not isinstance(x, bool) and abs(x) < 1 << 31 for x in c)
                for c in cells
            )
        ):
            raise PuzzleError(f"placed[{i}] must be a list of cells [row, column]", action)
        out.append(np.array(cells, dtype=np.int64))
    return out


def play(parsed: Parsed, opts: JSON, out: Out) -> JSON:
    """Hand play on every grid: whether the position (opts["placed"]) can be finished and in
    how many ways (capped), or with opts["finish"] one way to finish it; with opts["tables"]
    also how each piece turns (`play_turns`: the page's keys on triangle, hex and cubes)."""
    from ..analysis import play as hand

    if parsed.kind == "shikaku":
        raise PuzzleError("hand play is for tiling puzzles, not Shikaku", "play")
    puzzle = parsed.tiling.puzzle
    placed = placed_cells(opts, "play", sizes=(puzzle.board.dim,))
    extra: JSON = {}
    if opts.get("tables"):
        from ..analysis.play_turns import turn_tables

        extra["tables"] = turn_tables(puzzle)
    if parsed.why_not:
        hand.position(puzzle, placed)  # bad cells are still refused
        return {
            "verdict": "dead end",
            "completions": 0,
            "capped": False,
            "reason": parsed.why_not,
            "nodes": 0,
            "seconds": 0.0,
            **extra,
        }
    if opts.get("finish"):
        v = hand.finish(puzzle, placed)
        from ..core.results import Solution

        found = solution_json(Solution(v.found, puzzle.board.cells, puzzle.board.grid)) if v.found else []
        return dict(v.to_json(), completions=big(v.completions), found=found, **extra)
    v = hand.completions(puzzle, placed)
    return dict(v.to_json(), completions=big(v.completions), **extra)


def hint(parsed: Parsed, opts: JSON, out: Out) -> JSON:
    """The next forced placement after the pieces on the board (or why it is a dead end), its
    piece named and coloured as the file and the solutions name and colour it."""
    import numpy as np
    from ..analysis.hint import hint as make_hint

    if parsed.kind == "shikaku":
        raise PuzzleError("hints are for tiling puzzles", "hint")
    _square_only(parsed, "hint")
    given = [(chr(ord("a") + i % 26), cells) for i, cells in enumerate(placed_cells(opts, "hint"))]
    if parsed.why_not:
        return {"verdict": "dead end", "reason": parsed.why_not, "piece": None, "cells": [], "nodes": 0}
    h = make_hint(parsed.tiling.puzzle, given, "placed").to_json()
    h["letter"] = h["piece"]
    if h["piece"]:
        h["colour"] = hint_colour(parsed.tiling.puzzle, h["piece"], np.array(h["cells"]))
    h["piece"], h["reason"] = file_names(parsed.tiling.puzzle, h["piece"], h["reason"])
    return h


def file_names(puzzle: Puzzle, letter: str | None, reason: str) -> tuple[str | None, str]:
    """The hint's piece and the pieces its reason lists ("... of 2 pieces (A, B)", "piece C
    fits nowhere", "pieces A, B are unused"), by the names the file gives them (the hint
    module letters them A, B, C... when they are not all pentominoes)."""
    import re
    from ..core.puzzle import merge_congruent
    from ..core.results import piece_letters

    merged = merge_congruent(puzzle)
    name = {ch: p.name for ch, p in zip(piece_letters(merged), merged.pieces)}

    def rename(m: re.Match[str]) -> str:
        letters = m.group(2).split(", ")
        if not all(x in name for x in letters):
            return m.group(0)
        return f"{m.group(1)}{', '.join(name[x] for x in letters)}{m.group(3)}"

    reason = re.sub(r"(\()([^()]+)(\))", rename, reason)
    reason = re.sub(r"(\bpieces? )(\S+(?:, \S+)*?)( (?:fits|are|is)\b)", rename, reason)
    return name.get(letter, letter) if letter else letter, reason


def hint_colour(puzzle: Puzzle, letter: str, cells: np.ndarray) -> str:
    """A hint's piece in the colour the solutions give it: its Katamino colour when it is a
    pentomino, else the pictures' palette by its letter's rank among the other pieces' letters
    (as piece_colours ranks a solution's placements)."""
    from ..core.library import COLOUR_OF, pentomino_name
    from ..core.puzzle import merge_congruent
    from ..core.results import piece_letters
    from ..draw.pictures import palette as draw_palette

    name = pentomino_name(cells)
    if name is not None:
        return COLOUR_OF[name]
    puzzle = merge_congruent(puzzle)  # the hint's letters are the merged puzzle's
    others = sorted({ch for ch, p in zip(piece_letters(puzzle), puzzle.pieces) if pentomino_name(p.cells) is None})
    palette = draw_palette()
    return palette[others.index(letter) % len(palette)] if letter in others else "#7f7f7f"


def stats(parsed: Parsed, opts: JSON, out: Out) -> JSON:
    """Figures for the puzzle (analysis.stats) under the page's caps on solutions and probes."""
    from ..analysis.stats import collect

    if parsed.kind == "shikaku":
        raise PuzzleError("statistics are for tiling puzzles", "stats")
    _square_only(parsed, "stats")
    with ticking(out, "stats"):
        st = collect(parsed.tiling, STATS_SOLUTIONS, STATS_PROBES, 0)
    return st.to_json()


def slam(parsed: Parsed, opts: JSON, out: Out) -> JSON:
    """Every prefix of the Katamino list (3 pieces on), one row at a time."""
    from ..tiling import katamino

    if parsed.kind != "katamino":
        raise PuzzleError("a slam is a list of Katamino pieces", "slam")
    letters = parsed.letters or []
    if len(letters) < 3:
        raise PuzzleError("a slam list needs at least 3 pieces", "slam")
    height = parsed.tiling.puzzle.board.cells[:, 0].max() + 1
    flip = parsed.tiling.puzzle.allow_reflection
    rows = []
    for n in range(3, len(letters) + 1):
        for row in katamino.slam(letters[:n], int(height), flip, start=n):
            rows.append(dict(row.to_json(), pieces=letters[:n]))
            out.send("row", row=rows[-1])
        out.progress(force=True, done=n - 2, total=len(letters) - 2)
    return {"rows": rows, "letters": letters, "height": int(height)}


def sample(parsed: Parsed, opts: JSON, out: Out) -> JSON:
    """One random solution, drawn uniformly when the solutions can be enumerated: the steps of
    tiling.boxing.sample, with the count's progress (its share of the tree and time left, on
    the count's pool) on the page's bar while it counts, so a long draw never looks stuck."""
    if parsed.kind == "shikaku":
        raise PuzzleError("random solutions are for tiling puzzles", "sample")
    seed = opts.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**62:
        raise PuzzleError('"seed" must be an integer 0..2^62', "sample")
    if parsed.why_not:
        return {"solutions": 0, "listed": 0, "reasons": [parsed.why_not]}
    if parsed.kind == "calendar":
        from . import calendar_api

        return calendar_api.sample(parsed.calendar, seed, out)
    r, uniform = draw_one(parsed.tiling, seed, int(opts.get("jobs") or 1), out)
    if r.found:
        out.send("solutions", start=0, solutions=[solution_json(r.found[0])])
    return {"listed": len(r.found), "uniform": uniform, "nodes": r.nodes}


def draw_one(tiling: Tiling, seed: int, jobs: int, out: Out) -> tuple[Report[Any], bool]:
    """(a report with one solution or none, drawn uniformly?): count (at most SAMPLE_SECONDS),
    then pick by index; a randomised search when the count is too large or unfinished."""
    import numpy as np
    from ..core.results import Report
    from ..tiling.boxing import ENUMERATE_AT_MOST

    total = tiling.count(time_limit=SAMPLE_SECONDS, progress=out.engine_progress, jobs=jobs)
    rng = np.random.default_rng(seed)
    if total.complete and total.solutions <= ENUMERATE_AT_MOST:
        if not total.solutions:
            return total, True
        with ticking(out, "picking"):
            return tiling.solve(limit=None, select=rng.choice(total.solutions, size=1, replace=False)), True
    nodes = total.nodes
    with ticking(out, "random search"):
        for _ in range(20):
            r = tiling.solve(limit=1, shuffle=int(rng.integers(1 << 62)), time_limit=SAMPLE_SECONDS)
            nodes += r.nodes
            if r.found:
                break
    return Report(solutions=len(r.found), nodes=nodes, found=r.found[:1], complete=False), False


def tally(parsed: Parsed, opts: JSON, out: Out) -> JSON:
    """A calendar's year: every date counted at once (web/calendar_api.py)."""
    from . import calendar_api

    if parsed.kind != "calendar":
        raise PuzzleError("the year's tally is for calendar puzzles", "tally")
    return calendar_api.tally(parsed.calendar, opts, out)


ACTIONS: dict[str, Callable[[Parsed, JSON, Out], JSON]] = {
    "solve": solve,
    "count": count,
    "hint": hint,
    "play": play,
    "stats": stats,
    "slam": slam,
    "sample": sample,
    "generate": shikaku_api.generate,
    "tally": tally,
}


def main(conn: Connection, action: str, spec: JSON, opts: JSON) -> None:
    """The job process: parse, run, send the result (or one error line), exit."""
    try:
        os.setpgrp()
    except OSError:
        pass
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C on the server is the server's
    out = Out(conn)
    try:
        parsed = puzzles.parse(spec)
        if action == "disassemble":  # the file's piece groups: read from the spec
            from .disassembly_api import take_apart

            result = take_apart(parsed, opts, spec, out)
        elif action in ("cards", "calendar_check"):  # the Design tab's
            from .design_jobs import ACTIONS as DESIGN

            result = DESIGN[action](parsed, opts, out)
        else:
            result = ACTIONS[action](parsed, opts, out)
        out.send("result", result=result)
    except PuzzleError as e:
        out.send("error", message=str(e))
    except MemoryError:
        out.send("error", message="out of memory: the puzzle is too large for this server")
    except Exception as e:  # a bug: the job fails, the server stays up
        out.send("error", message=f"internal error: {type(e).__name__}: {e}", trace=traceback.format_exc(limit=8))
    finally:
        conn.close()


def noop() -> None:
    """Started once at server start: brings up the fork server, which warms the kernels."""
