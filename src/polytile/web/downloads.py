"""The shown solution as a file made on the server: BurrTools `.xmpuzzle` (the puzzle with
the solution stored as an assembly: formats.xmpuzzle_out), and STL or OBJ meshes of the
solution assembled, each piece a closed shell (draw.mesh_scene, draw.meshfile; square,
cube, triangle and hex boards alike). The same writers as `polytile convert` and
`polytile mesh`; what a format cannot say is one PuzzleError line (a 400)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import numpy as np

from ..errors import PuzzleError

if TYPE_CHECKING:
    from ..core.results import Solution
    from ..draw.mesh_scene import Shell
    from .jobs import Job

# suffix: MIME type (STL and OBJ are IANA's model/ types; an .xmpuzzle is gzip-compressed XML)
FORMATS = {"xmpuzzle": "application/gzip", "stl": "model/stl", "obj": "model/obj"}
UNIT = 10.0  # millimetres per cell edge, as `polytile mesh` writes by default


def solution(job: Job, k: int) -> Solution:
    """Solution k of a job as placed pieces on its board (core.results.Solution)."""
    from ..core.results import Placement, Solution

    board = np.array(job.summary["cells"], dtype=np.int64)
    placed = [
        Placement(p["piece"], p.get("letter") or p["piece"], np.array(p["cells"], dtype=np.int64))
        for p in job.solutions[k]
    ]
    return Solution(placed, board, job.summary.get("grid", "square"))  # the JSON spelling: Solution takes it


def file_stem(job: Job) -> str:
    """What the downloads of a job are called before `-solution-K.svg`: the opened file's name
    without its suffix (and the problem chosen, when the file has several), else what the puzzle
    is (`katamino-LYPW-5x4`, `box-5-ominoes-10x6`, `shikaku-7x7`, `tiling-6x10`); only letters,
    digits, `.`, `_` and `-`, so no name can reach outside the download folder or the header."""
    spec, s = job.spec, job.summary
    kind = s["kind"]
    name = spec.get("name")
    if isinstance(name, str) and name.strip():
        stem = name.replace("\\", "/").rsplit("/", 1)[-1]
        stem = stem.rsplit(".", 1)[0] if "." in stem.strip(".") else stem
        if spec.get("xmpuzzle") is not None and len(s.get("problems") or ()) > 1:
            stem += f"-problem-{spec.get('problem') or 1}"
    elif kind == "katamino":
        stem = f"katamino-{''.join(s.get('letters') or ())}-" + "x".join(map(str, s["shape"]))
    elif kind == "box":
        stem = f"box-{spec.get('order')}-ominoes-{spec.get('width')}x{spec.get('height')}"
    elif kind == "shikaku":
        stem = f"shikaku-{s['width']}x{s['height']}"
    elif kind == "calendar":
        stem = f"calendar-{s['board']}-{s['date']}"
    else:
        from ..core.grids import grid

        stem = grid(s.get("grid", "square")).file_prefix + "tiling-" + "x".join(map(str, s["shape"]))
    return re.sub(r"[^A-Za-z0-9._-]+", "-", stem).strip("-._")[:80].strip("-._") or "polytile"


def source_name(job: Job) -> str:
    """The puzzle's name in a written file: the opened file's, else the page's."""
    if job.spec.get("xmpuzzle") is not None:
        from .burrfile import file_name

        return file_name(job.spec)
    return f"polytile page ({job.summary['kind']})"


def xmpuzzle_bytes(job: Job, k: int) -> bytes:
    """The puzzle as the job saw it, solution k stored in it."""
    from ..formats.xmpuzzle_out import dump
    from . import puzzles

    kind = job.summary["kind"]
    if kind in ("shikaku", "calendar"):
        raise PuzzleError(f"a {kind} solution cannot be written as a BurrTools file", "xmpuzzle")
    parsed = puzzles.parse(job.spec)
    return dump(parsed.tiling.puzzle, [solution(job, k)], source_name(job))


def mesh_parts(job: Job, k: int) -> list[Shell]:
    """The solution's pieces in place, each a closed shell, standing on z = 0."""
    from ..draw.mesh_scene import on_plate, shells

    if job.summary["kind"] == "shikaku":
        raise PuzzleError("a Shikaku solution has no pieces to mesh", "mesh")
    named = [(p.get("letter") or p["piece"], np.array(p["cells"], dtype=np.int64)) for p in job.solutions[k]]
    if not named:
        raise PuzzleError("this solution places no piece", "mesh")
    from ..core.grids import grid

    return on_plate(shells(grid(job.summary.get("grid", "square")), named, 0.0, 0.0))


def file_bytes(job: Job, k: int, fmt: str) -> bytes:
    """The bytes of solution k in `fmt` (one of FORMATS)."""
    if fmt == "xmpuzzle":
        return xmpuzzle_bytes(job, k)
    from ..draw.meshfile import obj_text, stl_bytes

    parts = mesh_parts(job, k)
    if fmt == "stl":
        return stl_bytes(parts, UNIT, f"polytile: solution {k + 1}")
    return obj_text(parts, UNIT).encode()
