"""The pieces the page offers by name: free polyominoes of order 1..6 (the pentominoes with
their Katamino colours), n-iamonds and n-hexes, from the same
enumerations as `polytile pieces`, so a piece chosen on the page is the CLI's piece."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

JSON = dict[str, Any]

LIBRARY_ORDERS = range(1, 7)  # the page's piece library: monomino .. hexominoes
LATTICE_ORDERS = {"triangle": range(1, 8), "hex": range(1, 6)}  # moniamond .. heptiamonds, .. pentahexes


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
    """Free n-iamonds and n-hexes by name (see LATTICE_ORDERS): cells in the grid's coordinates,
    points (row, column) where the page draws them (the drawing convention of `lattice_draw`)."""
    from ..core.lattice_forms import polyforms
    from ..draw.lattice_draw import drawing_points

    return {
        grid: [
            {"name": f.name, "order": n, "cells": f.cells.tolist(), "points": drawing_points(grid, f.cells).tolist()}
            for n in orders
            for f in polyforms(n, grid)
        ]
        for grid, orders in LATTICE_ORDERS.items()
    }


def library_cells(grid: str) -> dict[str, Any]:
    """The library of a grid by name: rows of a drawing (square) or cells (triangle, hex)."""
    if grid == "square":
        return _library_rows()
    return {e["name"]: e["cells"] for e in lattice_library()[grid]}


def library_hint(grid: str) -> str:
    """How the refusal of an unknown piece names the pieces the page has (examples by grid)."""
    if grid == "square":
        return "(a pentomino letter FILNPTUVWXYZ, a Katamino colour, or a library name such as 4-2)"
    kind = {"triangle": "polyiamond", "hex": "polyhex"}[grid]
    orders = LATTICE_ORDERS[grid]
    return f"(a {kind} of the library, {orders[0]}..{orders[-1]} cells: a name such as " + (
        "bar, sphinx or 5-1)" if grid == "triangle" else "bee, propeller or 3-1)"
    )
