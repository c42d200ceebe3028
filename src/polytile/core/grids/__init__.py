"""The grids polytile tiles, one object each (see `base.Grid`), found by name or BurrTools number.

    grid("square")        the square grid; grid("square", 3) the cube grid
    grid("triangle")      the triangle grid (cells (a, b, c))
    grid("hex")           the hex grid (cells (q, r))
    by_burr(0)            the cube grid (BurrTools' grid numbers; None when not registered)
    burr_numbers()        the BurrTools grid numbers registered
    registered()          every grid, in registration order

A grid is found by (name, dim); a name with one grid only answers for any dim asked (the
triangle grid's cells have 3 coordinates but it is asked for as a 2D grid). `register` adds a
grid (a module of this package, or a test's). The built-in grids (`BUILT_IN`) are made when
first asked for, their modules imported then: `names()` and `burr_numbers()` import none.
"""

from __future__ import annotations

from importlib import import_module

from .base import Form, Grid, Motion

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
    "unregister",
]

# The built-in grids: (name, dim, BurrTools' number, module, class). Each module is imported
# when its grid is first asked for (a count on the cube grid loads none of the others).
BUILT_IN: tuple[tuple[str, int, int | None, str, str], ...] = (
    ("square", 2, None, "square", "Square"),
    ("square", 3, 0, "square", "Cube"),
    ("triangle", 3, None, "triangle", "Triangle"),
    ("hex", 2, None, "hex", "Hex"),
    ("prism", 4, 1, "prism", "Prism"),
    ("sphere", 3, 2, "sphere", "Sphere"),
    ("rhombic", 3, 3, "rhombic", "Rhombic"),
    ("tetra-octa", 3, 4, "tetra_octa", "TetraOcta"),
)
_NUMBERS: dict[tuple[str, int], int | None] = {}  # every registered grid's BurrTools number, in registration order
_GRIDS: dict[tuple[str, int], Grid] = {}  # the grids made so far
_LAZY: dict[tuple[str, int], tuple[str, str]] = {}  # (module, class) of the built-in grids not made yet


def register(g: Grid) -> Grid:
    """Add a grid (replacing one of the same name and dim); returns it."""
    key = (g.name, g.dim)
    _NUMBERS[key], _GRIDS[key] = g.burr_number, g
    _LAZY.pop(key, None)
    return g


def unregister(g: Grid) -> None:
    """Remove a registered grid (a test's, when it is done)."""
    key = (g.name, g.dim)
    _NUMBERS.pop(key, None)
    _GRIDS.pop(key, None)
    _LAZY.pop(key, None)


def _made(key: tuple[str, int]) -> Grid:
    """The registered grid of (name, dim), its module imported on first use."""
    found = _GRIDS.get(key)
    if found is None:
        module, cls = _LAZY.pop(key)
        found = _GRIDS[key] = getattr(import_module(f"{__name__}.{module}"), cls)()
    return found


for _name, _dim, _number, _module, _cls in BUILT_IN:
    _NUMBERS[(_name, _dim)] = _number
    _LAZY[(_name, _dim)] = (_module, _cls)


SQUARE = _made(("square", 2))  # the default grid of boards and solutions


def coerce(g: Grid | str, coordinates: int | None = None) -> Grid:
    """A board's grid from a Grid or its JSON spelling, fitted to cells of `coordinates`
    coordinates when given (see `fit`)."""
    found = grid(g) if isinstance(g, str) else g
    return found if coordinates is None else fit(found, coordinates)


def names() -> tuple[str, ...]:
    """The JSON spellings of the registered grids, in registration order."""
    return tuple(dict.fromkeys(name for name, _ in _NUMBERS))


def registered() -> tuple[Grid, ...]:
    """Every registered grid, in registration order."""
    return tuple(_made(key) for key in _NUMBERS)


def grid(name: str = "square", dim: int = 2) -> Grid:
    """The grid called `name` with `dim` coordinates per cell (ValueError, one line: none)."""
    if (name, dim) in _NUMBERS:
        return _made((name, dim))
    same = [key for key in _NUMBERS if key[0] == name]
    if len(same) == 1:
        return _made(same[0])
    if same:
        raise ValueError(f"the {name} grid has no cells of {dim} coordinates")
    raise ValueError(f"unknown grid {name!r} (expected one of {', '.join(names())})")


def fit(g: Grid, coordinates: int) -> Grid:
    """The grid of g's name whose cells have `coordinates` coordinates (the square grid's cells
    in 3D are the cube grid's), else g itself."""
    return _made((g.name, coordinates)) if (g.name, coordinates) in _NUMBERS else g


def burr_numbers() -> tuple[int, ...]:
    """BurrTools' grid numbers polytile has a grid for, in order."""
    return tuple(sorted({n for n in _NUMBERS.values() if n is not None}))


def by_burr(number: int) -> Grid | None:
    """The grid BurrTools numbers `number` (gridtype.cpp), None when polytile has none."""
    return next((_made(key) for key, n in _NUMBERS.items() if n == number), None)
