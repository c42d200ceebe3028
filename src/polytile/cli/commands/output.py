"""Writing solutions for the subcommands: coloured letters on a terminal, text, JSON
(`{"solutions": [...]}`), a matrix of piece numbers, SVG or PNG, to stdout or a file."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Optional

from ...errors import PuzzleError

if TYPE_CHECKING:  # json and pathlib load only when used: `polytile shikaku` starts without them
    from pathlib import Path

    import numpy as np

    from ...core.puzzle import Puzzle
    from ...core.results import Solution

FORMATS = ("text", "json", "matrix", "svg", "png")


def check_format(fmt: str, formats: tuple[str, ...] = FORMATS) -> None:
    """Refuse an unknown --format before any search runs, in one line naming the choices."""
    if fmt not in formats:
        raise PuzzleError(f"unknown format {fmt!r} ({', '.join(formats[:-1])} or {formats[-1]})", "--format")


def check_file(fmt: str, output: Optional[str | Path]) -> None:
    """PNG goes to a file, never to the terminal; a file that cannot be written (a folder, a
    missing folder) is refused before any search."""
    if fmt == "png" and output is None:
        raise PuzzleError("--format png needs -o FILE", "--format")
    if output is not None:
        from ...atomic import check_target

        check_target(output)


def show(
    found: list[Solution], board: np.ndarray, fmt: str, output: Optional[Path], ids: Optional[dict[str, int]] = None
) -> None:
    """The solutions as --format says, to stdout or to the file `output` (written atomically).
    `ids` numbers the pieces by name for --format matrix (default: 1, 2, ... by first use)."""
    check_format(fmt)
    check_file(fmt, output)
    if fmt == "text" and output is None and sys.stdout.isatty():
        _print_coloured(found, board)
        return
    if fmt in ("svg", "png"):
        from ...draw.layer_pictures import layered
        from ...draw.pictures import draw, to_file

        grid = found[0].grid if found else None
        if grid is not None and not (grid.boxes or grid.flat or layered(grid)):
            raise PuzzleError(
                f"--format {fmt} has no drawing of the {grid.title} (use text or json; in 3D: `polytile mesh`, or the page)",
                "--format",
            )

        picture = draw(found, board, fmt)
        if output is None:
            sys.stdout.write(picture.decode())
        else:
            to_file(output, picture)
        return
    if fmt == "json":
        import json

        text = json.dumps({"solutions": [s.to_json() for s in found]}) + "\n"
    elif fmt == "matrix":
        text = _matrices(found, board, ids)
    else:
        from ...draw.render import text_lines

        blocks = ["\n".join(text_lines(s, board)) for s in found]
        text = "\n\n".join(blocks) + ("\n" if blocks else "")
    if output is not None:
        from ...atomic import write_text

        write_text(output, text)
    else:
        sys.stdout.write(text)


def _matrices(found: list[Solution], board: np.ndarray, ids: Optional[dict[str, int]]) -> str:
    """Each solution as a matrix of piece numbers, a blank line between solutions."""
    from ...draw.render import matrix_lines

    if found and not found[0].grid.boxes:
        raise PuzzleError("--format matrix draws square and cube grids (use text or json)", "--format")
    if ids is None:
        ids = {}
        for s in found:
            for p in s.placements:
                ids.setdefault(p.piece, len(ids) + 1)
    blocks = ["\n".join(matrix_lines(s, board, ids)) for s in found]
    return "\n\n".join(blocks) + ("\n" if blocks else "")


def piece_ids(puzzle: Puzzle) -> dict[str, int]:
    """Piece name -> its number in the puzzle (1, 2, ... in the puzzle's order)."""
    return {p.name: i for i, p in enumerate(puzzle.pieces, start=1)}


def _print_coloured(found: list[Solution], board: np.ndarray) -> None:
    from rich.console import Console

    from ...draw.render import rich_text

    console = Console(highlight=False)
    for i, s in enumerate(found):
        if i:
            console.print()
        console.print(rich_text(s, board), end="")
