"""Readers and writers. Formats know nothing about search."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from ..errors import PuzzleError
from .common import MAX_BOX, MAX_BYTES, check_box, describe, load_json, open_head, read_text

if TYPE_CHECKING:  # pathlib only in annotations: `polytile shikaku` starts without it
    from pathlib import Path

    from ..core.puzzle import Puzzle

__all__ = ["MAX_BOX", "MAX_BYTES", "check_box", "describe", "load", "load_json", "read_text"]


def load(path: str | Path, fmt: str | None = None, problem: str | None = None) -> Puzzle:
    """Read a puzzle: polytile JSON (`.json` or text starting with `{`), an ASCII drawing,
    or a BurrTools .xmpuzzle (`problem`: which of its problems, a number from 1 or a name)."""
    if fmt == "xmpuzzle" or (fmt is None and _burr(path)):
        from . import xmpuzzle

        return xmpuzzle.load(path, problem)
    if problem is not None:
        raise PuzzleError("--problem applies to BurrTools .xmpuzzle files only", str(path))
    text = read_text(path)  # refused before the parsers (and numpy) load
    from . import ascii_art, polyjson

    if fmt is None:
        fmt = "json" if str(path).endswith(".json") or text.lstrip().startswith("{") else "ascii"
    if fmt == "json":
        return polyjson.parse(text, str(path))
    if fmt == "ascii":
        return ascii_art.parse(text, str(path))
    raise PuzzleError(f"unknown format {fmt!r} (ascii, json or xmpuzzle)", str(path))


def _burr(path: str | Path) -> bool:
    """Whether the file is a BurrTools one (suffix, gzip magic or `<puzzle` XML)."""
    if str(path) == "-":
        return False
    if str(path).lower().endswith(".xmpuzzle"):
        return True
    try:  # a pipe (/dev/stdin) is not read here: what this read took, read_text would miss
        head = open_head(path, 256) if os.path.isfile(path) else b""
    except (OSError, ValueError, PuzzleError):
        return False  # read_text names the fault
    if head.startswith(b"\x1f\x8b"):  # gzip
        return True
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if text.startswith(b"<?xml") and b"?>" in text:
        text = text[text.find(b"?>") + 2 :].lstrip()
    return text.startswith(b"<puzzle")
