"""`polytile hint PUZZLE [--given FILE]`: the next move that still leads to a solution."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer


def hint(puzzle: Path = typer.Argument(..., help="Puzzle file.", show_default=False),
         given: Optional[Path] = typer.Option(None, "--given", help="The position: a drawing of the "
                                              "board, '.' for empty cells, letters for placed pieces."),
         no_reflect: bool = typer.Option(False, "--no-reflect", help="Pieces may not be flipped."),
         as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """A hint: the most forced next placement that leads to a solution, or why it is a dead end."""
    from ..formats import load
    from ..hint import hint as make_hint, read_given
    p = load(puzzle)
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


def register(app: typer.Typer) -> None:
    app.command("hint")(hint)
