"""The square grid (cells (row, column)) and the cube grid (cells (row, column, layer)).

Neighbours one step along an axis; the motions are the signed permutation matrices (8 in
2D, 48 in 3D), rotations first, each group in the order of the matrices' bytes.
Normalisation subtracts each coordinate's minimum. Drawn: a square (row, column) has
corners (column, row) .. (column + 1, row + 1) (x right, y down).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations, product
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

from .base import Grid, Motion, Point, Solid, Step3, axis_steps, matrix_motions


@lru_cache(maxsize=None)
def isometries(dim: int) -> tuple[np.ndarray, ...]:
    """All signed permutation matrices: 8 in 2D, 48 in 3D. Rotations first."""
    import numpy as np

    mats = []
    for perm in permutations(range(dim)):
        for signs in product((1, -1), repeat=dim):
            m = np.zeros((dim, dim), dtype=np.int64)
            for row, (col, s) in enumerate(zip(perm, signs)):
                m[row, col] = s
            mats.append(m)
    mats.sort(key=lambda m: (round(np.linalg.det(m)) < 0, m.tobytes()))
    return tuple(mats)


@lru_cache(maxsize=None)
def rotations(dim: int) -> tuple[np.ndarray, ...]:
    """Proper rotations (determinant +1): 4 in 2D, 24 in 3D."""
    import numpy as np

    return tuple(m for m in isometries(dim) if round(np.linalg.det(m)) == 1)


# the six faces of a box, corners as (i, j, k) in {0, 1}^3, counter-clockwise from outside
BOX_FACES = (
    ((0, 0, 0), (0, 0, 1), (0, 1, 1), (0, 1, 0)),
    ((1, 0, 0), (1, 1, 0), (1, 1, 1), (1, 0, 1)),
    ((0, 0, 0), (1, 0, 0), (1, 0, 1), (0, 0, 1)),
    ((0, 1, 0), (0, 1, 1), (1, 1, 1), (1, 1, 0)),
    ((0, 0, 0), (0, 1, 0), (1, 1, 0), (1, 0, 0)),
    ((0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1)),
)


class Square(Grid):
    """The square grid: polyominoes."""

    name = "square"
    dim = 2
    title = "square grid"
    polyform = "polyomino"
    n_forms = "n-ominoes"
    boxes = True
    flat = True
    cells_at_vertex = 4
    turn_degrees = 90
    frame_cells: tuple[tuple[int, ...], ...] = ((0, 0), (1, 0), (0, 1))
    origin_cell: tuple[int, ...] = (0, 0)
    size_words = ("monomino", "dominoes", "trominoes", "tetrominoes", "pentominoes", "hexominoes")
    library_first = 5
    editor_board = (8, 8)

    def build(self) -> tuple[tuple[Motion, ...], int, tuple[tuple[int, ...], ...]]:
        """The signed permutation matrices, rotations first; one step along each axis."""
        return matrix_motions(isometries(self.dim)), len(rotations(self.dim)), axis_steps(self.dim)

    def corners(self, cell: tuple[int, ...]) -> list[Point]:
        """The unit square of (row, column): x = column, y = row."""
        r, c = cell[:2]
        return [(c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1)]

    def centre(self, cell: tuple[int, ...]) -> Point:
        """The middle of the unit square."""
        return (cell[1] + 0.5, cell[0] + 0.5)

    def from_drawing(self, points: np.ndarray) -> np.ndarray:
        """One character per square: (row, column) is the cell."""
        return points

    def drawing_points(self, cells: np.ndarray) -> np.ndarray:
        """(row, column) shifted to start at 0."""
        import numpy as np

        cells = np.asarray(cells, dtype=np.int64)
        return np.asarray(cells[:, :2] - cells[:, :2].min(axis=0))


class Cube(Square):
    """The cube grid: polycubes, BurrTools' grid 0. Drawn as layers of squares."""

    dim = 3
    burr_number = 0
    title = "cube grid"
    polyform = "polycube"
    n_forms = "n-cubes"
    flat = False
    cells_at_vertex = 8
    frame_cells = ()
    origin_cell = (0, 0, 0)

    def disassembly_steps(self) -> tuple[Step3, ...] | None:
        """One step along each axis (BurrTools' movementcache_0.cpp)."""
        return ((1, 0, 0), (0, 1, 0), (0, 0, 1))

    def layer(self, cell: tuple[int, ...]) -> int:
        """The layer a cell is drawn in: its third coordinate."""
        return cell[2]

    def footprint(self, cell: tuple[int, ...]) -> list[Point]:
        """The square of (row, column) within the layer."""
        return Square.corners(self, cell)

    def solid(self, cell: tuple[int, ...]) -> Solid:
        """The unit cube of (row, column, layer) at x = column, y = -row - 1 .. -row, z = layer."""
        import numpy as np

        r, c, z = cell
        verts = np.array([(c + i, -r - 1 + j, z + k) for i in (0, 1) for j in (0, 1) for k in (0, 1)], dtype=float)
        at = {(i, j, k): 4 * i + 2 * j + k for i in (0, 1) for j in (0, 1) for k in (0, 1)}
        return verts, tuple(tuple(at[v] for v in f) for f in BOX_FACES)
