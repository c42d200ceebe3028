"""Writing solutions for the subcommands: coloured letters on a terminal, text, JSON
(`{"solutions": [...]}`), SVG or PNG, to stdout or a file."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

from ...errors import PuzzleError

FORMATS = ("text", "json", "svg", "png")


def check_format(fmt: str) -> None:
    if fmt not in FORMATS:
        raise PuzzleError(f"unknown format {fmt!r} (text, json, svg or png)", "--format")


def check_file(fmt: str, output: Optional[Path]) -> None:
    """PNG goes to a file, never to the terminal."""
    if fmt == "png" and output is None:
        raise PuzzleError("--format png needs -o FILE", "--format")


def show(found, board, fmt: str, output: Optional[Path]) -> None:
    """The solutions as --format says, to stdout or to the file `output` (written atomically)."""
    check_format(fmt)
    check_file(fmt, output)
    if fmt == "text" and output is None and sys.stdout.isatty():
        _print_coloured(found, board)
        return
    if fmt in ("svg", "png"):
        from ...draw.pictures import draw, to_file
        picture = draw(found, board, fmt)
        if output is None:
            sys.stdout.write(picture.decode())
        else:
            to_file(output, picture)
        return
    if fmt == "json":
        text = json.dumps({"solutions": [s.to_json() for s in found]}) + "\n"
    else:
        from ...draw.render import text_lines
        blocks = ["\n".join(text_lines(s, board)) for s in found]
        text = "\n\n".join(blocks) + ("\n" if blocks else "")
    if output is not None:
        from ...atomic import write_text
        write_text(output, text)
    else:
        sys.stdout.write(text)


def _print_coloured(found, board) -> None:
    from rich.console import Console

    from ...draw.render import rich_text
    console = Console(highlight=False)
    for i, s in enumerate(found):
        if i:
            console.print()
        console.print(rich_text(s, board), end="")
