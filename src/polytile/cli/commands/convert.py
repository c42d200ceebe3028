"""`polytile convert`: a puzzle from any format polytile reads, written in the format the
output file's suffix names (BurrTools .xmpuzzle, Knuth's .dlx matrix, polytile .json).

Each writer is `dump(puzzle, solutions, source) -> bytes` in the formats layer; it raises a
PuzzleError (one line) for what its format cannot express. Solutions are found here, in the
command, because formats know nothing about search."""

from __future__ import annotations

import sys
from argparse import ArgumentParser
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Optional

from ...errors import PuzzleError
from .args import bounded, no_reflect

if TYPE_CHECKING:
    from ...core.puzzle import Puzzle
    from ...core.results import Solution

# suffix: "module in polytile.formats:function"
WRITERS = {
    ".xmpuzzle": "xmpuzzle:dump",
    ".dlx": "dlx:dump",
    ".json": "polyjson:dump",
}


def arguments(p: ArgumentParser) -> None:
    """Declare `convert`'s options (called only when the verb is named)."""
    p.add_argument("puzzle", type=Path, metavar="PUZZLE", help="Puzzle file polytile reads.")
    p.add_argument(
        "output",
        type=Path,
        metavar="OUTPUT",
        help=f"File to write; its suffix picks the format ({', '.join(WRITERS)}).",
    )
    p.add_argument("--problem", metavar="N|NAME", help="Which problem of a BurrTools file.")
    p.add_argument(
        "--solutions",
        type=bounded(int, 0, 10_000),
        default=0,
        metavar="N",
        help="Store up to N solutions in the file (formats that hold them).",
    )
    no_reflect(p)
    p.set_defaults(run=convert)


def writer(output: Path) -> Callable[[Puzzle, list[Solution] | None, str], bytes]:
    """The dump function for the output's suffix."""
    spec = WRITERS.get(output.suffix.lower())
    if spec is None:
        raise PuzzleError(
            f"unknown output format {output.suffix or '(no suffix)'!r} (one of {', '.join(WRITERS)})", str(output)
        )
    module, function = spec.split(":")
    dump: Callable[[Puzzle, list[Solution] | None, str], bytes] = getattr(
        import_module(f"...formats.{module}", __package__), function
    )
    return dump


def convert(puzzle: Path, output: Path, problem: Optional[str], solutions: int, no_reflect: bool) -> None:
    """Write a puzzle in another format (BurrTools .xmpuzzle, DLX matrix, polytile JSON)."""
    dump = writer(output)
    from ...atomic import check_target, write_bytes

    check_target(output)
    from ...formats import load

    loaded = load(puzzle) if problem is None else load(puzzle, problem=problem)
    if no_reflect:
        loaded = loaded.without_reflection()
    found = None
    if solutions:
        from ...tiling.solver import Tiling

        found = Tiling(loaded).solve(limit=solutions).found
    data = dump(loaded, found, str(puzzle))
    write_bytes(output, data)
    stored = f", {len(found)} solution{'s' if len(found) != 1 else ''}" if found is not None else ""
    from ...core.puzzle import VIRTUAL

    pieces = sum(1 for p in loaded.pieces if p.name != VIRTUAL)  # not the empty cells' stand-in
    print(f"{output}: {pieces} pieces, {loaded.board.area} cells{stored}", file=sys.stderr)
