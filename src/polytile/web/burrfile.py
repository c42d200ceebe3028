"""A BurrTools `.xmpuzzle` file opened on the page: the page reads the file (gzip or plain
XML) and sends its bytes in base64 inside the puzzle's JSON, so the server still never opens
files and the body's size limit (refusals.MAX_BODY) caps the upload. The CLI's reader
(formats.xmpuzzle) turns the bytes into a Puzzle; every fault is one PuzzleError line.

    {"kind": "tiling", "xmpuzzle": "<base64>", "name": "soma.xmpuzzle", "problem": 1}

`problem` counts from 1 (default 1); the summary lists every problem so that the page can
offer a chooser when the file has several."""

from __future__ import annotations

import base64
import binascii
from typing import TYPE_CHECKING, Any

from ..errors import PuzzleError

if TYPE_CHECKING:
    from ..core.puzzle import Puzzle

MAX_FILE = 700_000  # bytes of the file (its base64 fits in the 1 MB request body)
MAX_XML = 8 << 20  # bytes of XML once unzipped (the CLI allows 32 MB)
MAX_NAME = 120  # characters of the file's name kept for messages


def file_name(spec: dict[str, Any]) -> str:
    """The uploaded file's name for messages (no path; at most MAX_NAME characters)."""
    name = spec.get("name")
    if not isinstance(name, str) or not name.strip():
        return "<upload>.xmpuzzle"
    name = name.replace("\\", "/").rsplit("/", 1)[-1]
    return "".join(ch for ch in name if ch.isprintable())[:MAX_NAME] or "<upload>.xmpuzzle"


def file_bytes(spec: dict[str, Any], name: str) -> bytes:
    """The file's bytes from the spec's base64 text, size-checked."""
    data = spec.get("xmpuzzle")
    if not isinstance(data, str):
        raise PuzzleError('"xmpuzzle" must be the file\'s bytes in base64', name)
    if len(data) > (MAX_FILE + 2) // 3 * 4 + 4:
        raise PuzzleError(f"file too large (more than {MAX_FILE} bytes, the page's limit)", name)
    try:
        raw = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        raise PuzzleError("the file's bytes are not valid base64", name) from None
    if not raw:
        raise PuzzleError("the file is empty", name)
    if len(raw) > MAX_FILE:
        raise PuzzleError(f"file too large ({len(raw)} bytes; the page takes files up to {MAX_FILE} bytes)", name)
    return raw


def problem_number(spec: dict[str, Any], name: str) -> int:
    """The problem asked for, a number from 1 (default 1)."""
    problem = spec.get("problem", 1)
    if problem is None:
        return 1
    if isinstance(problem, bool) or not isinstance(problem, int) or problem < 1:
        raise PuzzleError('"problem" must be a problem\'s number, from 1', name)
    return problem


def uploaded_puzzle(spec: dict[str, Any]) -> tuple[Puzzle, list[dict[str, Any]]]:
    """(the chosen problem as a Puzzle, every problem as {number, name, line}) of the file."""
    from ..formats import xmpuzzle

    name = file_name(spec)
    burr = xmpuzzle.read_xml(xmpuzzle.unpack(file_bytes(spec, name), name, MAX_XML), name)
    problem = problem_number(spec, name)
    index = xmpuzzle.choose(burr, str(problem), name)
    problems = [
        {"number": i + 1, "name": line.split("\t")[1], "line": line.replace("\t", " · ")}
        for i, line in enumerate(xmpuzzle.listing(burr))
    ]
    return xmpuzzle.to_puzzle(burr, index, name), problems
