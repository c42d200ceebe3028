"""`polytile katamino`: pentominoes by letter, colour or number on h x w boards; slam lists."""

from __future__ import annotations

import json
import sys
from argparse import ArgumentParser
from pathlib import Path
from typing import Optional

from ...errors import PuzzleError
from .args import Exit, flag, no_reflect
from .output import show


def arguments(p: ArgumentParser) -> None:
    """Declare `katamino`'s options (called only when the verb is named)."""
    p.add_argument(
        "pieces",
        nargs="*",
        metavar="PIECES",
        help="Pieces: letters (F I L N P T U V W X Y Z), Katamino colours (red, orange, ...) or numbers 1..12.",
    )
    p.add_argument("--width", type=int, help="Board width (default: area / height).")
    p.add_argument("--height", type=int, default=5, help="Board height.")
    flag(p, "--all", "Show every solution.", dest="all_")
    flag(p, "--count", "Count solutions (and unique ones).")
    no_reflect(p, "--no-flip", dest="no_flip")
    p.add_argument("--slam", help="A challenge list, e.g. 2,3,6,11,8: solve every prefix of 3 or more pieces.")
    flag(p, "--json", "Print JSON.", dest="as_json")
    p.add_argument(
        "--format",
        dest="fmt",
        default="text",
        help="text, json, matrix (each cell its piece's Katamino number 1..12), svg or png.",
    )
    p.add_argument("-o", "--output", type=Path, metavar="FILE", help="Write to this file.")
    p.set_defaults(run=katamino)


def katamino(
    pieces: list[str],
    width: Optional[int],
    height: int,
    all_: bool,
    count: bool,
    no_flip: bool,
    slam: Optional[str],
    as_json: bool,
    fmt: str,
    output: Optional[Path],
) -> None:
    """Katamino: pentominoes on a board of HEIGHT rows (5 by default)."""
    from ...tiling import katamino as kt

    if slam is not None:
        if pieces:
            raise PuzzleError("give either PIECES or --slam LIST, not both", "katamino")
        _slam(kt.parse_pieces([slam], "--slam"), height, not no_flip, as_json)
        return
    letters = kt.parse_pieces(pieces or [], "katamino")
    t = kt.tiling(letters, height, width, not no_flip)
    if count:
        r = t.count(unique=True)
        if as_json:
            print(json.dumps(r.to_json()))
        else:
            print("\n".join(r.text_lines()))
        for reason in r.reasons:
            print(f"no solution: {reason}", file=sys.stderr)
        return
    r = t.solve(limit=None if all_ else 1)
    board = t.model().cells
    from ...core.library import KATAMINO

    numbers = {letter: i for i, (letter, _, _) in enumerate(KATAMINO, start=1)}
    show(r.found, board, "json" if as_json else fmt, None if as_json else output, numbers)
    n = len(r.found)
    print(f"{n} solution{'s' if n != 1 else ''} in {r.seconds:.4f} s, {r.nodes} nodes", file=sys.stderr)
    for reason in r.reasons:
        print(f"no solution: {reason}", file=sys.stderr)
    if n == 0:
        raise Exit(1)


def _slam(letters: list[str], height: int, flip: bool, as_json: bool) -> None:
    from ...tiling import katamino as kt

    if len(letters) < 3:
        raise PuzzleError("a slam list needs at least 3 pieces", "--slam")
    rows = kt.slam(letters, height, flip)
    if not rows:
        raise PuzzleError(f"no prefix of the list fills a board of height {height}", "--height")
    if as_json:
        print(json.dumps([r.to_json() for r in rows]))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"slam {','.join(letters)} (height {height}{'' if flip else ', no flip'})")
    for col in ("n", "board", "pieces", "solvable", "first solution", "solutions", "unique"):
        table.add_column(col, justify="right" if col not in ("pieces", "board") else "left")
    for r in rows:
        table.add_row(
            str(r.n),
            f"{r.height}x{r.width}",
            "".join(letters[: r.n]),
            "yes" if r.solvable else "no",
            f"{r.first_seconds * 1000:.1f} ms",
            str(r.solutions),
            str(r.unique),
        )
    Console(highlight=False).print(table)
