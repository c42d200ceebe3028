"""`polytile mesh`: a puzzle's pieces, or one of its solutions, as STL or OBJ to 3D-print."""

from __future__ import annotations

import math
import re
import sys
from argparse import ArgumentParser, ArgumentTypeError
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Optional

from ...errors import PuzzleError
from .args import Exit, bounded, flag, no_reflect

if TYPE_CHECKING:
    import numpy as np

    from ...core.grids import Grid
    from ...core.puzzle import Puzzle

MOST = 0.2  # gap / 2 + bevel, in cell edges: the sub-cells stay well formed
LARGEST_MM = 1000.0  # --unit, --gap and --bevel: a metre (STL's float32 keeps millimetres exact)
MAX_CELLS = 10_000  # cells printed, every copy counted (0.2 ms and 10 KB a cell to mesh: 10,000 in 2 s)
MAX_FINE_CELLS = 500  # with a gap or a bevel: each cell is cut in sub-cells (5-12 ms and 0.5 MB a cell)
MOST_SOLUTIONS = 10_000  # --solution N: the solutions before it are kept


def millimetres(low: float) -> Callable[[str], float]:
    """A type for add_argument: a finite length in millimetres, low..LARGEST_MM (nan and inf
    would write STL files of nan vertices; 1e308 overflows float32)."""
    convert = bounded(float, low, LARGEST_MM)

    def mm(text: str) -> float:
        if not text.isascii():  # float() reads '١٢' too
            raise ArgumentTypeError(f"{text[:40]!r} is not a number (ASCII digits)")
        value: float = convert(text)
        if not math.isfinite(value):
            raise ArgumentTypeError(f"{text[:40]!r} is not a finite number of millimetres")
        return value

    mm.__name__ = "float"
    return mm


def arguments(p: ArgumentParser) -> None:
    """Declare `mesh`'s options (called only when the verb is named)."""
    p.add_argument(
        "puzzle",
        type=Path,
        metavar="PUZZLE",
        help="Puzzle file: an ASCII drawing, polytile JSON or BurrTools .xmpuzzle (its first problem).",
    )
    p.add_argument(
        "-o",
        "--output",
        type=Path,
        required=True,
        metavar="FILE",
        help="FILE.stl (binary STL, one solid) or FILE.obj (a group per piece, colours in FILE.mtl).",
    )
    what = p.add_mutually_exclusive_group()
    flag(what, "--pieces", "Every piece (each copy) side by side on the plate: the default.")
    what.add_argument(
        "--solution",
        type=bounded(int, 1, MOST_SOLUTIONS),
        metavar="N",
        help="The Nth solution found, assembled: each piece a shell, in place.",
    )
    flag(p, "--apart", "With --solution: the solution's pieces side by side, laid out as --pieces.")
    p.add_argument(
        "--unit",
        type=millimetres(0.001),
        default=10.0,
        metavar="MM",
        help="Cell edge in millimetres (squares, cubes, triangles and hexagons alike).",
    )
    p.add_argument(
        "--gap",
        type=millimetres(0),
        default=0.0,
        metavar="MM",
        help="Clearance between pieces: each shrinks by half of it on its outer faces.",
    )
    p.add_argument("--bevel", type=millimetres(0), default=0.0, metavar="MM", help="Chamfer on the outer edges.")
    no_reflect(p)
    p.add_argument(
        "--time-limit",
        type=bounded(float, 0),
        metavar="SECONDS",
        help="With --solution: stop looking for it after this many seconds (exit status 124).",
    )
    p.set_defaults(run=mesh)


def _names(puzzle: Puzzle) -> dict[str, str]:
    """Each piece's name in the file; the pieces of a drawing (named t1, t2... by the reader)
    by their letters, as `solve` draws them (the pentomino letters when the set allows)."""
    from ...core.results import piece_letters

    return {
        p.name: letter if re.fullmatch(r"t[0-9]+", p.name) else p.name
        for p, letter in zip(puzzle.pieces, piece_letters(puzzle))
    }


def _named_cells(
    puzzle_path: Path, solution: Optional[int], no_reflect: bool, time_limit: Optional[float], most: int
) -> tuple[Grid, list[tuple[str, np.ndarray]], bool]:
    """(grid, [(name, cells)], placed): the pieces, or the pieces of the Nth solution (the
    stand-ins of a BurrTools file's variable voxels left empty are no pieces to print)."""
    from ...core.puzzle import VIRTUAL
    from ...formats import load

    puzzle = load(puzzle_path)
    grid = puzzle.board.grid
    pieces = [p for p in puzzle.pieces if p.name != VIRTUAL]
    cells = puzzle.board.area if solution is not None else sum(p.count * len(p.cells) for p in pieces)
    if cells > most:  # (before a list of every copy is made)
        what = "the board has" if solution is not None else "the pieces hold, copies counted,"
        fine = " with a gap or a bevel" if most == MAX_FINE_CELLS else ""
        raise PuzzleError(f"{what} {cells} cells: mesh prints at most {most}{fine}", str(puzzle_path))
    if solution is None:
        names = _names(puzzle)
        return grid, [(names[p.name], p.cells) for p in pieces for _ in range(p.count)], False
    from ...tiling.solver import Tiling

    tiling = Tiling(puzzle)
    for note in tiling.notes:
        print(note, file=sys.stderr)
    report = (tiling.no_reflect() if no_reflect else tiling).solve(limit=solution, time_limit=time_limit)
    if len(report.found) < solution:
        n = len(report.found)
        if report.timed_out:
            print(f"polytile: {puzzle_path}: time limit reached after {n} of {solution} solutions", file=sys.stderr)
            raise Exit(124)
        print(f"polytile: {puzzle_path}: {n} solution{'s' if n != 1 else ''}, no solution {solution}", file=sys.stderr)
        raise Exit(1)
    names = _names(tiling.model().puzzle)
    placements = [p for p in report.found[solution - 1].placements if p.piece != VIRTUAL]
    return grid, [(names.get(p.piece, p.piece), p.cells) for p in placements], True


def mesh(
    puzzle: Path,
    output: Path,
    pieces: bool,
    solution: Optional[int],
    apart: bool,
    unit: float,
    gap: float,
    bevel: float,
    no_reflect: bool,
    time_limit: Optional[float] = None,
) -> None:
    """Write the pieces (or a solution) as a closed mesh to 3D-print: STL or OBJ."""
    from ...draw.meshfile import SUFFIXES

    if output.suffix.lower() not in SUFFIXES:
        raise PuzzleError("the output must end in .stl or .obj", str(output))
    if apart and solution is None:
        raise PuzzleError("--apart lays out the pieces of a --solution", "--apart")
    if gap / 2 + bevel > MOST * unit:
        raise PuzzleError(f"--gap / 2 + --bevel must stay within {MOST:g} x --unit ({MOST * unit:g} mm)", "--gap")
    from ...atomic import check_target

    check_target(output)
    most = MAX_CELLS if gap == 0 and bevel == 0 else MAX_FINE_CELLS
    grid, named, placed = _named_cells(puzzle, solution, no_reflect, time_limit, most)
    from ...draw.mesh_scene import flat_down, lay_out, on_plate, shells
    from ...core.grids import fit
    from ...draw.mesh_solids import own

    shaped = fit(grid, len(named[0][1][0])) if named else grid
    if (gap or bevel) and own(shaped):
        what = "--gap" if gap else "--bevel"
        raise PuzzleError(f"the {shaped.title}'s pieces are printed as their cells are, with no gap or bevel", what)
    from ...draw.meshfile import triangles, write

    if placed and not apart:
        parts = on_plate(shells(grid, named, gap / 2 / unit, bevel / unit))
    else:
        parts = lay_out(
            shells(grid, [(n, flat_down(grid, c)) for n, c in named], gap / 2 / unit, bevel / unit), gap / unit
        )
    try:
        written = write(output, parts, unit, f"polytile mesh of {puzzle.name}")
    except OSError as e:
        raise PuzzleError(f"cannot write: {e.strerror}", str(output)) from None
    tris = triangles(parts, unit)
    size = tris.reshape(-1, 3).max(axis=0) - tris.reshape(-1, 3).min(axis=0)
    print(
        f"{', '.join(map(str, written))}: {len(parts)} pieces, {len(tris)} triangles, "
        f"{size[0]:.1f} x {size[1]:.1f} x {size[2]:.1f} mm"
    )
