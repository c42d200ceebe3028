"""The triangle grid: polyiamonds.

A triangle is (a, b, c) with a + b + c = 2 (pointing up) or 1 (pointing down): the three
coordinates count the three families of grid lines. Neighbours differ by one in one
coordinate (up: a - 1, b - 1 or c - 1; down: + 1). Translations are the steps with
a + b + c = 0. The 12 motions are x -> P x and x -> (1, 1, 1) - P x for the 6 permutation
matrices P (the second kind swaps up and down triangles); the rotations are those with an
even P. Normalisation subtracts (min a, min b, -(min a + min b)).

Text drawing: one character per triangle; (row, column) points up when row + column is
even, so "XXX" over "XXX" is a hexagon and rows alternate up and down.
"""

from __future__ import annotations

from itertools import permutations
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

from .base import Form, Grid, Motion, Point, axis_steps

_H = 3**0.5 / 2

# The 12 hexiamonds as Polyform Puzzler (D. Goodger) draws them, with T. H. O'Beirne's names:
# triangles (x, y, z) of a 60-degree rhombus grid, z = 0 up, (0, 0, 0) implied; in these
# coordinates a triangle (x, y, z) is (y, x, 2 - z - x - y).
HEXIAMONDS = {
    "bar": ((0, 0, 1), (1, 0, 0), (1, 0, 1), (2, 0, 0), (2, 0, 1)),
    "sphinx": ((0, 0, 1), (1, 0, 0), (1, 0, 1), (2, 0, 0), (1, 1, 0)),
    "crook": ((0, 0, 1), (1, 0, 0), (1, 0, 1), (2, 0, 0), (0, -1, 1)),
    "crown": ((0, 0, 1), (1, 0, 0), (1, 0, 1), (2, 0, 0), (1, -1, 1)),
    "lobster": ((0, 0, 1), (1, 0, 0), (1, 0, 1), (0, 1, 0), (0, 1, 1)),
    "signpost": ((0, 0, 1), (1, 0, 0), (1, 0, 1), (1, -1, 1), (2, -1, 0)),
    "snake": ((0, 0, 1), (1, 0, 0), (1, 0, 1), (0, -1, 1), (1, 1, 0)),
    "butterfly": ((0, 0, 1), (1, 0, 0), (1, 0, 1), (0, 1, 0), (1, -1, 1)),
    "chevron": ((0, 0, 1), (1, 0, 0), (1, 0, 1), (1, 1, 0), (1, 1, 1)),
    "hook": ((0, 0, 1), (1, 0, 0), (1, 0, 1), (1, 1, 0), (0, 1, 1)),
    "yacht": ((0, 0, 1), (1, 0, 0), (1, 0, 1), (0, 1, 0), (1, 1, 0)),
    "hexagon": ((0, 0, 1), (1, 0, 0), (0, -1, 1), (1, -1, 0), (1, -1, 1)),
}


def _puzzler(x: int, y: int, z: int) -> tuple[int, int, int]:
    return (y, x, 2 - z - x - y)


def _motions() -> tuple[Motion, ...]:
    import numpy as np

    rots: list[Motion] = []
    refl: list[Motion] = []
    for perm in permutations(range(3)):
        p = np.eye(3, dtype=np.int64)[list(perm)]
        even = round(np.linalg.det(p)) == 1
        for m, t in ((p, (0, 0, 0)), (-p, (1, 1, 1))):
            (rots if even else refl).append((tuple(tuple(int(x) for x in row) for row in m), t))
    return tuple(rots + refl)


def _vertex(a: int, b: int, c: int) -> Point:
    """A grid vertex (a + b + c = 3) in the plane: the lines a = const are horizontal."""
    return (b - c) / 2, -a * _H


class Triangle(Grid):
    """The triangle grid: cells (a, b, c), a + b + c in {1, 2}."""

    name = "triangle"
    dim = 3
    title = "triangle grid"
    polyform = "polyiamond"
    n_forms = "n-iamonds"
    max_form_cells = 12
    library_orders = range(1, 8)  # moniamond .. heptiamonds
    library_examples = "bar, sphinx or 5-1"
    named_forms: dict[int, dict[str, Form]] = {
        6: {name: tuple(_puzzler(*c) for c in ((0, 0, 0),) + rest) for name, rest in HEXIAMONDS.items()}
    }
    every_shift = False
    flat = True
    cells_at_vertex = 6
    turn_degrees = 60
    frame_cells = ((0, 0, 2), (0, 1, 1), (1, 0, 1))
    origin_cell = (0, 0, 2)
    not_a_cell = "no triangle: a + b + c must be 1 (down) or 2 (up)"
    cell_volume = 3**0.5 / 4
    size_words = ("moniamond", "diamond", "triamond", "tetriamonds", "pentiamonds", "hexiamonds", "heptiamonds")
    library_first = 6
    editor_board = (6, 12)
    presets = (  # Polyform Puzzler's boards (tests/lattice-corpus)
        ("hexiamonds-6x6", "6 x 6 rhombus, 12 hexiamonds", 6, tuple("." * (6 - k) + "X" * 12 for k in range(6))),
        ("hexiamonds-4x9", "4 x 9 parallelogram, 12 hexiamonds", 6, tuple("." * (4 - k) + "X" * 18 for k in range(4))),
    )
    parity_words = ("pointing up", "pointing down")

    def build(self) -> tuple[tuple[Motion, ...], int, tuple[tuple[int, ...], ...]]:
        """x -> P x, x -> (1, 1, 1) - P x (rotations: P even); one step along each coordinate."""
        return _motions(), 6, axis_steps(3)

    def valid(self, cells: np.ndarray) -> np.ndarray:
        """Cells have coordinate sum 1 or 2."""
        import numpy as np

        s = cells.sum(axis=-1)
        return np.asarray((s == 1) | (s == 2))

    def holds(self, point: tuple[int, ...]) -> bool:
        """Coordinate sum 1 or 2."""
        return sum(point) in (1, 2)

    def is_translation(self, shift: np.ndarray) -> np.ndarray:
        """Shifts with coordinate sum 0."""
        import numpy as np

        return np.asarray(shift.sum(axis=-1) == 0)

    def origin_shift(self, cells: np.ndarray) -> np.ndarray:
        """(min a, min b, -(min a + min b)): a translation."""
        import numpy as np

        lo = np.asarray(cells, dtype=np.int64).min(axis=0)
        return np.array([lo[0], lo[1], -(lo[0] + lo[1])], dtype=np.int64)

    def shift_to_origin(self, points: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
        """As `to_origin`, in plain Python (the forms are grown with it)."""
        a, b = min(p[0] for p in points), min(p[1] for p in points)
        return [(p[0] - a, p[1] - b, p[2] + a + b) for p in points]

    def corners(self, cell: tuple[int, ...]) -> list[Point]:
        """The three grid vertices around the triangle."""
        a, b, c = cell
        if a + b + c == 2:
            pts = [(a + 1, b, c), (a, b + 1, c), (a, b, c + 1)]
        else:
            pts = [(a, b + 1, c + 1), (a + 1, b, c + 1), (a + 1, b + 1, c)]
        return [_vertex(*p) for p in pts]

    def centre(self, cell: tuple[int, ...]) -> Point:
        """The mean of the corners."""
        corners = self.corners(cell)
        return (sum(x for x, _ in corners) / 3, sum(y for _, y in corners) / 3)

    def from_drawing(self, points: np.ndarray) -> np.ndarray:
        """(row, column) points up when row + column is even."""
        import numpy as np

        rows, cols = points[:, 0], points[:, 1]
        s = np.where((rows + cols) % 2 == 0, 2, 1)
        return np.stack([-rows, (s + rows + cols) // 2, (s + rows - cols) // 2], axis=1)

    def drawing_points(self, cells: np.ndarray) -> np.ndarray:
        """row = -a, column = b - c, shifted keeping the parity of row + column."""
        import numpy as np

        cells = np.asarray(cells, dtype=np.int64)
        return _parity_shift(np.stack([-cells[:, 0], cells[:, 1] - cells[:, 2]], axis=1))

    def glyph(self, row: int, column: int) -> str:
        """▲ or ▼, so a piece's shape reads."""
        return "▲" if (row + column) % 2 == 0 else "▼"


def _parity_shift(pts: np.ndarray) -> np.ndarray:
    """Points moved to the least row and column 0 (or 1), keeping the parity of row + column."""
    import numpy as np

    lo = pts.min(axis=0)
    lo[1] -= (lo[1] - lo[0]) % 2
    return np.asarray(pts - lo)
