"""The grids polytile tiles, one object each (see `base.Grid`), found by name or BurrTools number.

    grid("square")        the square grid; grid("square", 3) the cube grid
    grid("triangle")      the triangle grid (cells (a, b, c))
    grid("hex")           the hex grid (cells (q, r))
    by_burr(0)            the cube grid (BurrTools' grid numbers; None when not registered)
    burr_numbers()        the BurrTools grid numbers registered
    registered()          every grid, in registration order

A grid is found by (name, dim); a name with one grid only answers for any dim asked (the
triangle grid's cells have 3 coordinates but it is asked for as a 2D grid). `register` adds a
grid (a module of this package, or a test's).
"""

from __future__ import annotations

from .base import Form, Grid, Motion
from .hex import Hex
from .prism import Prism
from .rhombic import Rhombic
from .sphere import Sphere
from .square import Cube, Square
from .tetra_octa import TetraOcta
from .triangle import Triangle

__all__ = [
    "SQUARE",
    "Form",
    "Grid",
    "Motion",
    "burr_numbers",
    "by_burr",
    "coerce",
    "fit",
    "grid",
    "names",
    "register",
    "registered",
]

_GRIDS: dict[tuple[str, int], Grid] = {}


def register(g: Grid) -> Grid:
    """Add a grid (replacing one of the same name and dim); returns it."""
    _GRIDS[(g.name, g.dim)] = g
    return g


for _g in (Square(), Cube(), Triangle(), Hex(), Prism(), Sphere(), Rhombic(), TetraOcta()):
    register(_g)


SQUARE = _GRIDS[("square", 2)]  # the default grid of boards and solutions


def coerce(g: Grid | str, coordinates: int | None = None) -> Grid:
    """A board's grid from a Grid or its JSON spelling, fitted to cells of `coordinates`
    coordinates when given (see `fit`)."""
    found = grid(g) if isinstance(g, str) else g
    return found if coordinates is None else fit(found, coordinates)


def names() -> tuple[str, ...]:
    """The JSON spellings of the registered grids, in registration order."""
    return tuple(dict.fromkeys(name for name, _ in _GRIDS))


def registered() -> tuple[Grid, ...]:
    """Every registered grid, in registration order."""
    return tuple(_GRIDS.values())


def grid(name: str = "square", dim: int = 2) -> Grid:
    """The grid called `name` with `dim` coordinates per cell (ValueError, one line: none)."""
    found = _GRIDS.get((name, dim))
    if found is not None:
        return found
    same = [g for (n, _), g in _GRIDS.items() if n == name]
    if len(same) == 1:
        return same[0]
    if same:
        raise ValueError(f"the {name} grid has no cells of {dim} coordinates")
    raise ValueError(f"unknown grid {name!r} (expected one of {', '.join(names())})")


def fit(g: Grid, coordinates: int) -> Grid:
    """The grid of g's name whose cells have `coordinates` coordinates (the square grid's cells
    in 3D are the cube grid's), else g itself."""
    return _GRIDS.get((g.name, coordinates), g)


def burr_numbers() -> tuple[int, ...]:
    """BurrTools' grid numbers polytile has a grid for, in order."""
    return tuple(sorted({g.burr_number for g in _GRIDS.values() if g.burr_number is not None}))


def by_burr(number: int) -> Grid | None:
    """The grid BurrTools numbers `number` (gridtype.cpp), None when polytile has none."""
    return next((g for g in _GRIDS.values() if g.burr_number == number), None)
