"""The pieces the page offers by name: free polyominoes of order 1..6 (the pentominoes with
their Katamino colours), n-iamonds and n-hexes, from the same
enumerations as `polytile pieces`, so a piece chosen on the page is the CLI's piece."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from ..core.grids import Grid

JSON = dict[str, Any]

LIBRARY_ORDERS = range(1, 7)  # the page's piece library: monomino .. hexominoes


def rows_of(cells: Any) -> list[str]:
    """A flat shape as rows of 'X' (cell) and '.' (gap)."""
    cells = np.asarray(cells)
    lo = cells.min(axis=0)
    h, w = (int(x) + 1 for x in cells.max(axis=0) - lo)
    grid = [["."] * w for _ in range(h)]
    for r, c in (cells - lo).tolist():
        grid[r][c] = "X"
    return ["".join(row) for row in grid]


def library() -> list[JSON]:
    """Free polyominoes of order 1..6 by name, with the pentominoes' Katamino colours."""
    from ..core.library import COLOUR_OF, KATAMINO
    from ..core.polyforms import polyforms

    out = []
    number = {letter: i for i, (letter, _, _) in enumerate(KATAMINO, start=1)}
    colour_name = {letter: name for letter, name, _ in KATAMINO}
    for n in LIBRARY_ORDERS:
        for f in polyforms(n):
            entry = {"name": f.name, "order": n, "rows": rows_of(f.cells)}
            if f.name in COLOUR_OF:
                entry.update(colour=COLOUR_OF[f.name], katamino=number[f.name], colour_name=colour_name[f.name])
            out.append(entry)
    return out


def _library_rows() -> dict[str, list[str]]:
    """The square library by name: rows of a drawing, as polytile JSON takes pieces."""
    return {e["name"]: e["rows"] for e in library()}


@lru_cache(maxsize=None)
def lattice_library() -> dict[str, list[JSON]]:
    """Free forms by name of every grid with a page library (`Grid.library_orders`: n-iamonds,
    n-hexes), keyed by the grid's JSON spelling: cells in the grid's coordinates, points (row,
    column) where the page draws them (`Grid.drawing_points`)."""
    from ..core import grids
    from ..core.lattice_forms import polyforms

    out = {}
    for name in grids.names():
        grid = grids.grid(name)
        if grid.library_orders:
            out[name] = [
                {"name": f.name, "order": n, "cells": f.cells.tolist(), "points": grid.drawing_points(f.cells).tolist()}
                for n in grid.library_orders
                for f in polyforms(n, grid)
            ]
    return out


def library_cells(grid: Grid) -> dict[str, Any]:
    """The library of a grid by name: rows of a drawing (square) or cells (triangle, hex ...)."""
    if grid.rect_plane:
        return _library_rows()
    return {e["name"]: e["cells"] for e in lattice_library().get(grid.name, [])}


def library_hint(grid: Grid) -> str:
    """How the refusal of an unknown piece names the pieces the page has (examples by grid)."""
    if grid.rect_plane:
        return "(a pentomino letter FILNPTUVWXYZ, a Katamino colour, or a library name such as 4-2)"
    orders = grid.library_orders
    if not orders:
        return f"(the {grid.title} has no piece library: draw the pieces)"
    return (
        f"(a {grid.polyform} of the library, {orders[0]}..{orders[-1]} cells: a name such as {grid.library_examples})"
    )
