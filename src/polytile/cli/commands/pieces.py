"""`polytile pieces N`: list (or count) every free, one-sided or fixed n-omino, n-cube,
n-iamond or n-hex."""

from __future__ import annotations

import json
import sys
from argparse import ArgumentParser
from typing import TYPE_CHECKING

from ...errors import PuzzleError
from .args import flag

if TYPE_CHECKING:
    from ...core.grids import Grid
    import numpy as np


def arguments(p: ArgumentParser) -> None:
    """Declare `pieces`' options (called only when the verb is named)."""
    p.add_argument("n", type=int, metavar="N", help="Cells per piece.")
    flag(p, "--one-sided", "Rotations only: mirror images differ.")
    flag(p, "--fixed", "Translations only: every orientation differs.")
    p.add_argument("--dim", type=int, default=2, help="2 for polyominoes, 3 for polycubes.")
    from ...core import grids

    enumerated = [name for name in grids.names() if grids.grid(name).boxes or grids.grid(name).max_form_cells]
    p.add_argument(
        "--grid",
        choices=enumerated,
        default="square",
        help=", ".join(f"{name} ({grids.grid(name).n_forms})" for name in enumerated)
        + "; square with --dim 3: n-cubes.",
    )
    flag(p, "--count", "Print only how many there are.")
    p.add_argument("--format", dest="fmt", choices=("text", "json"), default="text", help="text or json.")
    p.set_defaults(run=pieces)


def pieces(n: int, one_sided: bool, fixed: bool, dim: int, grid: str, count: bool, fmt: str) -> None:
    """All n-ominoes, n-cubes, n-iamonds or n-hexes: free, one-sided or fixed.

    n-cubes with --dim 3, n-iamonds with --grid triangle, n-hexes with --grid hex; free
    unless --one-sided or --fixed."""
    from ...core import polyforms

    from ...core.grids import grid as grid_named

    kind = _kind(one_sided, fixed)
    if not grid_named(grid).boxes:
        _lattice_pieces(n, grid_named(grid), dim, kind, count, fmt)
        return
    _check(n, dim, polyforms.MAX_N)
    if count:
        print(polyforms.count(n, dim, kind))
        return
    forms = polyforms.polyforms(n, dim, kind)
    if fmt == "json":
        sys.stdout.write(json.dumps([{"name": f.name, "cells": f.cells.tolist()} for f in forms]) + "\n")
    else:
        sys.stdout.write("\n\n".join("\n".join([f.name, *drawing(f.cells)]) for f in forms) + "\n")


def _lattice_pieces(n: int, grid: Grid, dim: int, kind: str, count: bool, fmt: str) -> None:
    from ...core import lattice_forms
    from ...draw.lattice_draw import piece_rows

    if dim != 2:
        raise PuzzleError(f"--dim {dim} is for the square grid only", "pieces")
    what = grid.n_forms
    top = grid.max_form_cells
    if not 1 <= n <= top:
        raise PuzzleError(f"N must be between 1 and {top} for {what}, not {n}", "pieces")
    if count:
        print(lattice_forms.count(n, grid, kind))
        return
    forms = lattice_forms.polyforms(n, grid, kind)
    if fmt == "json":
        sys.stdout.write(
            json.dumps([{"name": f.name, "grid": grid.name, "cells": f.cells.tolist()} for f in forms]) + "\n"
        )
    else:
        sys.stdout.write("\n\n".join("\n".join([f.name, *piece_rows(grid, f.cells)]) for f in forms) + "\n")


def _kind(one_sided: bool, fixed: bool) -> str:
    if one_sided and fixed:
        raise PuzzleError("give at most one of --one-sided and --fixed", "pieces")
    return "one-sided" if one_sided else "fixed" if fixed else "free"


def _check(n: int, dim: int, max_n: dict[int, int]) -> None:
    if dim not in max_n:
        raise PuzzleError(f"--dim must be 2 or 3, not {dim}", "pieces")
    if not 1 <= n <= max_n[dim]:
        what = "n-ominoes" if dim == 2 else "n-cubes"
        raise PuzzleError(f"N must be between 1 and {max_n[dim]} for {what}, not {n}", "pieces")


def drawing(cells: np.ndarray) -> list[str]:
    """Rows of '#' (cell) and '.' (gap); a 3D piece's layers side by side, 3 spaces apart.
    Plain Python on the cell list: it runs once per piece, up to half a million times."""
    points = [(*p, 0)[:3] for p in cells.tolist()]
    rows, cols, layers = (1 + max(p[axis] for p in points) for axis in range(3))
    grid = [[["."] * cols for _ in range(rows)] for _ in range(layers)]
    for r, c, z in points:
        grid[z][r][c] = "#"
    return ["   ".join("".join(layer[r]) for layer in grid) for r in range(rows)]
