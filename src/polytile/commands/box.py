"""`polytile box`: fill a W x H box with n-ominoes, each shape at most K times."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer

from ..errors import PuzzleError
from .output import show


def box(order: int = typer.Option(..., "--order", help="Piece size n (n-ominoes)."),
        size: str = typer.Option(..., "--size", help="Box WxH, e.g. 10x6."),
        max_copies: int = typer.Option(..., "--max-copies", help="Each shape at most K times."),
        min_copies: int = typer.Option(0, "--min-copies", help="Each shape at least M times."),
        one_sided: bool = typer.Option(False, "--one-sided", help="Mirror images are different shapes."),
        count: bool = typer.Option(False, "--count", help="Count solutions (and unique ones)."),
        limit: int = typer.Option(1, "--limit", min=1, help="Show the first L solutions."),
        random: Optional[int] = typer.Option(None, "--random", min=1, help="Show R random distinct solutions."),
        seed: int = typer.Option(0, "--seed", help="Seed of --random."),
        fmt: str = typer.Option("text", "--format", help="text, json, svg or png."),
        output: Optional[Path] = typer.Option(None, "-o", "--output", help="Write to this file."),
        as_json: bool = typer.Option(False, "--json", help="With --count: one JSON object.")) -> None:
    """Boxing puzzles: a W x H box filled with n-ominoes, each free shape at most K times."""
    from .. import boxing
    from ..solver import Tiling
    if fmt not in ("text", "json", "svg", "png"):
        raise PuzzleError(f"unknown format {fmt!r} (text, json, svg or png)", "--format")
    w, h = boxing.parse_size(size)
    puzzle = boxing.box_puzzle(order, w, h, max_copies, min_copies, one_sided)
    why = boxing.impossible(puzzle, order)
    tiling = Tiling(puzzle)
    if count:
        if why:
            print(json.dumps({"solutions": 0, "unique": 0, "seconds": 0.0, "nodes": 0}) if as_json
                  else "solutions: 0\nunique: 0")
            print(f"no solution: {why}", file=sys.stderr)
            return
        from ..cli import _finish                     # interrupted / timed out: as `count`
        r = tiling.count(unique=True)
        print(json.dumps(r.to_json()) if as_json else
              f"solutions: {r.solutions}\nunique: {r.unique}\nseconds: {r.seconds:.4f}\nnodes: {r.nodes}")
        _finish(r, f"{r.solutions} solutions")
        return
    if why:
        print(f"no solution: {why}", file=sys.stderr)
        raise typer.Exit(1)
    if random is not None:
        r, uniform = boxing.sample(tiling, random, seed)
        note = "uniform over all solutions" if uniform else "randomised search (not uniform)"
    else:
        r, note = tiling.solve(limit=limit), "first solutions"
    show(r.found, tiling.model().cells, fmt, output)
    print(f"{len(r.found)} solution{'s' if len(r.found) != 1 else ''} ({note})", file=sys.stderr)
    if not r.found:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("box")(box)
