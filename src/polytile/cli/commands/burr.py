"""What `count` and `solve` add for BurrTools files: listing a file's problems
(`--problem list`) and the assembly count as BurrTools counts it (`count --burr`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .args import Exit

if TYPE_CHECKING:
    from ...core.puzzle import Puzzle


def list_problems(path: Path) -> None:
    """Print one line per problem of a BurrTools file, then stop (exit 0)."""
    from ...formats.xmpuzzle import listing, read_file

    for line in listing(read_file(path)):
        print(line)
    raise Exit(0)


def burr_figure(puzzle: Puzzle, unique: int | None = None) -> int:
    """The number of assemblies burrTxt reports for this puzzle (see tiling.burr);
    `unique`: polytile's unique count when the command has it."""
    from ...tiling.burr import burr_count

    return burr_count(puzzle, unique=unique)
