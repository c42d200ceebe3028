"""Readers and writers. Formats know nothing about search."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import PuzzleError
from .common import MAX_BOX, MAX_BYTES, check_box, describe, load_json, read_text

if TYPE_CHECKING:
    from ..core.puzzle import Puzzle

__all__ = ["MAX_BOX", "MAX_BYTES", "check_box", "describe", "load", "load_json", "read_text"]


def load(path: str | Path, fmt: str | None = None) -> Puzzle:
    """Read a puzzle: polytile JSON (`.json` or text starting with `{`) or an ASCII drawing."""
    text = read_text(path)                    # refused before the parsers (and numpy) load
    from . import ascii_art, polyjson
    if fmt is None:
        fmt = "json" if str(path).endswith(".json") or text.lstrip().startswith("{") else "ascii"
    if fmt == "json":
        return polyjson.parse(text, str(path))
    if fmt == "ascii":
        return ascii_art.parse(text, str(path))
    raise PuzzleError(f"unknown format {fmt!r} (ascii or json)", str(path))
