"""Writing solutions for the subcommands: text, JSON or pictures, to stdout or a file."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

from ..errors import PuzzleError


def show(found, board, fmt: str, output: Optional[Path]) -> None:
    """Solutions as text, JSON (a list of solutions) or a picture, to stdout or a file."""
    if fmt not in ("text", "json", "svg", "png"):
        raise PuzzleError(f"unknown format {fmt!r} (text, json, svg or png)", "--format")
    if fmt in ("svg", "png"):
        from ..pictures import draw, to_file
        data = draw(found, board, fmt)
        if output is None and fmt == "png":
            raise PuzzleError("--format png needs -o FILE", "--format")
        if output is None:
            sys.stdout.write(data.decode())
        else:
            to_file(output, data)
        return
    if fmt == "json":
        text = json.dumps([s.to_json() for s in found]) + "\n"
    else:
        from ..render import text_lines
        text = "\n\n".join("\n".join(text_lines(s, board)) for s in found) + "\n"
    if output is not None:
        from ..atomic import write_text
        write_text(output, text)
    else:
        sys.stdout.write(text)
