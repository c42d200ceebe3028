"""What the page knows of each registered grid, from its Grid object (sent once in /api/info):
the page's scripts read these facts (static/grids.js) and never compare a grid's name, so a
grid registered in core/grids appears in the board editor's chooser with no edit here or there.

A flat grid's drawing (its text drawing's (row, column) points, `Grid.from_drawing`) is sent as
the polygons of the four points (0..1, 0..1) and the shifts of two rows and of two columns: the
polygon of (row, column) is tiles[row mod 2][column mod 2] moved by row div 2 and column div 2
of those shifts (the grids' text drawings repeat every two rows and columns;
tests/web/test_web_grids.py checks it for every flat grid)."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..core.grids import Grid

JSON = dict[str, Any]
Point = tuple[float, float]


def _corners(grid: Grid, row: int, column: int) -> list[Point]:
    import numpy as np

    cell = grid.from_drawing(np.array([[row, column]], dtype=np.int64))[0]
    return grid.corners(tuple(int(x) for x in cell))


def _centre(poly: list[Point]) -> Point:
    return (sum(x for x, _ in poly) / len(poly), sum(y for _, y in poly) / len(poly))


def _accepts(grid: Grid, points: list[tuple[int, int]]) -> bool:
    """Whether the grid's text drawing takes these points together."""
    import numpy as np

    try:
        grid.from_drawing(np.array(points, dtype=np.int64))
    except ValueError:
        return False
    return True


def _moves_by_even(grid: Grid) -> bool:
    """Whether a translation moves a drawing point by an even row + column: one column over is no
    translation (the triangle's next triangle points the other way; the hex drawing's odd
    columns are not taken with its even ones)."""
    import numpy as np

    if not _accepts(grid, [(0, 0), (0, 1)]):
        return True
    a, b = grid.from_drawing(np.array([[0, 0], [0, 1]], dtype=np.int64))
    return not bool(grid.is_translation(b - a))


def drawing(grid: Grid) -> JSON:
    """How the page draws and edits a flat grid (see the module's docstring)."""
    tiles = [[_corners(grid, r, c) for c in (0, 1)] for r in (0, 1)]
    origin = _centre(tiles[0][0])
    rows2, cols2 = (_centre(_corners(grid, *p)) for p in ((2, 0), (0, 2)))
    step = next(k for k in range(1, 5) if grid.drawing_column(k) == 1)  # drawing columns per cell of a row
    stagger = next(s for s in range(step) if _accepts(grid, [(0, 0), (1, s)]))  # odd rows start further
    return {
        "tiles": tiles,
        "rows2": [rows2[0] - origin[0], rows2[1] - origin[1]],
        "columns2": [cols2[0] - origin[0], cols2[1] - origin[1]],
        "step": step,
        "stagger": stagger,
        "even_moves": _moves_by_even(grid),
        "parity_words": list(grid.parity_words),
    }


def facts(grid: Grid) -> JSON:
    """One grid as the page reads it."""
    out: JSON = {
        "name": grid.name,
        "dim": grid.dim,
        "title": grid.title,
        "polyform": grid.polyform,
        "flat": grid.flat,
        "squares": grid.rect_plane,  # the page's own square editor and library of drawn rows
        "layers": grid.cubic,  # drawn as layers of squares, played with Page Up / Page Down
        "boxes": grid.boxes,  # hints and statistics (worker.py asks the same)
        "burrtools": grid.boxes or grid.burr_number is not None,  # a BurrTools file holds it
        "turn_degrees": grid.turn_degrees,
        "size_words": list(grid.size_words),
        "library_first": grid.library_first,
        "editor_board": list(grid.editor_board),
        "presets": [{"key": k, "label": label, "order": n, "rows": list(rows)} for k, label, n, rows in grid.presets],
    }
    if grid.flat:
        out["drawing"] = drawing(grid)
    return out


@lru_cache(maxsize=None)
def _cached(key: tuple[tuple[str, int], ...]) -> list[JSON]:
    from ..core import grids

    return [facts(grids.grid(name, dim)) for name, dim in key]


def all_facts() -> list[JSON]:
    """Every registered grid's facts, in registration order (computed once per registry)."""
    from ..core import grids

    return _cached(tuple((g.name, g.dim) for g in grids.registered()))
