"""`polytile hint PUZZLE [--given FILE]`: the next move that still leads to a solution."""

from __future__ import annotations

import json
from argparse import ArgumentParser
from pathlib import Path
from typing import Optional

from ...errors import PuzzleError
from .args import flag, no_reflect


def arguments(p: ArgumentParser) -> None:
    """Declare `hint`'s options (called only when the verb is named)."""
    p.add_argument("puzzle", type=Path, metavar="PUZZLE", help="Puzzle file.")
    p.add_argument(
        "--given",
        type=Path,
        help="The position: a drawing of the board, '.' for empty cells, letters for placed pieces.",
    )
    no_reflect(p)
    flag(p, "--json", "Print JSON.", dest="as_json")
    p.set_defaults(run=hint)


def hint(puzzle: Path, given: Optional[Path], no_reflect: bool, as_json: bool) -> None:
    """A hint: the most forced next placement that leads to a solution, or why it is a dead end."""
    from ...formats import load
    from ...analysis.hint import hint as make_hint, read_given

    p = load(puzzle)
    if not p.board.grid.boxes:
        raise PuzzleError(f"hint works on the square grid only, not on the {p.board.grid} grid", str(puzzle))
    if no_reflect:
        p = p.without_reflection()
    placed = read_given(str(given), p) if given is not None else []
    h = make_hint(p, placed, str(given) if given is not None else "--given")
    if as_json:
        print(json.dumps(h.to_json()))
        return
    if h.verdict == "place":
        print(f"place {h.piece} on {' '.join(str(tuple(c)) for c in h.cells)}")
        print(f"why: {h.reason}")
    else:
        print(f"{h.verdict}: {h.reason}")
