"""`polytile box`: fill a W x H box with n-ominoes, each shape at most K times."""

from __future__ import annotations

import json
import sys
from argparse import ArgumentParser
from pathlib import Path
from typing import Optional

from .args import Exit, bounded, flag, max_memory, no_reflect, parse_size
from .output import check_file, check_format, piece_ids, show


def arguments(p: ArgumentParser) -> None:
    """Declare `box`'s options (COMMANDS calls this when the verb is named, so argparse sees only
    one command's options)."""
    p.add_argument("--order", type=int, required=True, help="Piece size n (n-ominoes).")
    p.add_argument("--size", required=True, metavar="WxH", help="Box WxH, e.g. 10x6.")
    p.add_argument("--max-copies", type=int, required=True, help="Each shape at most K times.")
    p.add_argument("--min-copies", type=int, default=0, help="Each shape at least M times.")
    no_reflect(p, "--one-sided", dest="one_sided")  # mirror images are different shapes
    flag(p, "--count", "Count solutions (and unique ones).")
    p.add_argument("--limit", type=bounded(int, 1), default=1, help="Show the first L solutions.")
    p.add_argument("--random", type=bounded(int, 1), help="Show R random distinct solutions.")
    p.add_argument("--seed", type=int, default=0, help="Seed of --random.")
    p.add_argument(
        "--format",
        dest="fmt",
        default="text",
        help="text, json, matrix (each cell the number of its piece), svg or png.",
    )
    p.add_argument("-o", "--output", type=Path, metavar="FILE", help="Write to this file.")
    flag(p, "--json", "With --count: one JSON object.", dest="as_json")
    p.add_argument(
        "--time-limit",
        type=bounded(float, 0),
        metavar="SECONDS",
        help="Stop after this many seconds (a count is then a lower bound).",
    )
    max_memory(p)
    p.set_defaults(run=box)


def box(
    order: int,
    size: str,
    max_copies: int,
    min_copies: int,
    one_sided: bool,
    count: bool,
    limit: int,
    random: Optional[int],
    seed: int,
    fmt: str,
    output: Optional[Path],
    as_json: bool,
    time_limit: Optional[float] = None,
    max_memory: Optional[int] = None,
) -> None:
    """Boxing puzzles: a W x H box filled with n-ominoes, each free shape at most K times."""
    from ...tiling import boxing
    from ...tiling.solver import Tiling

    check_format(fmt)
    check_file(fmt, output)
    w, h = parse_size(size, "--size", boxing.MAX_CELLS, "box")
    puzzle = boxing.box_puzzle(order, w, h, max_copies, min_copies, one_sided)
    why = boxing.impossible(puzzle, order)
    tiling = Tiling(puzzle, max_memory)
    if count:
        if why:
            print(
                json.dumps({"solutions": 0, "unique": 0, "seconds": 0.0, "nodes": 0, "complete": True})
                if as_json
                else "solutions: 0\nunique: 0"
            )
            print(f"no solution: {why}", file=sys.stderr)
            return
        from .tiling import _finish  # interrupted / timed out: as `count`

        r = tiling.count(unique=True, time_limit=time_limit)
        print(json.dumps(r.to_json()) if as_json else "\n".join(r.text_lines()))
        _finish(r, f"{r.solutions} solutions")
        return
    if why:
        print(f"no solution: {why}", file=sys.stderr)
        raise Exit(1)
    if random is not None:
        r, uniform = boxing.sample(tiling, random, seed)
        note = "uniform over all solutions" if uniform else "randomised search (not uniform)"
    else:
        r, note = tiling.solve(limit=limit, time_limit=time_limit), "first solutions"
    show(r.found, tiling.model().cells, fmt, output, piece_ids(tiling.model().puzzle) if r.found else None)
    print(f"{len(r.found)} solution{'s' if len(r.found) != 1 else ''} ({note})", file=sys.stderr)
    if not r.found:
        raise Exit(1)
