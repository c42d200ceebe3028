"""The sphere grid (BurrTools' grid 2): balls in face-centred cubic packing.

A cell is BurrTools' own voxel (x, y, z) with x + y + z even (voxel_2.cpp's
validCoordinate); its 12 neighbours are the steps with two coordinates +-1 and one 0 (the
balls touching it). The motions are the cube's 48 signed permutations of the axes (24
rotations): the symmetries of the packing. Translations: the shifts of even coordinate sum;
normalisation subtracts each coordinate's minimum, x one less when that shift's sum is odd
(BurrTools' minimizePiece moves the same way).

BurrTools turns a sphere shape by 120 rotations (tabs_2/rotmatrix.inc): the cube's 24 and,
for each of the four axes through opposite corners, the 24 after a sixth of a turn about it
(matrices of thirds). Those 96 keep a shape on the packing only when its balls lie in one
plane across that axis (a triangular layer): `more_images` gives the images they make, so
such flat pieces have the orientations BurrTools gives them (mirrored: the 96 negated).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations, product
from typing import TYPE_CHECKING

from .base import Grid, Motion, Point, Solid, matrix_motions
from .square import isometries, rotations

if TYPE_CHECKING:
    import numpy as np

SIXTH = ((2, -1, 2), (2, 2, -1), (-1, 2, 2))  # 3 x a sixth of a turn about (1, 1, 1)
CORNERS = ((1, 1, 1), (1, 1, -1), (1, -1, 1), (-1, 1, 1))  # the four axes through opposite corners


@lru_cache(maxsize=None)
def layer_turns() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The 96 rotations BurrTools adds for flat layers, times 3 (integer rows): each cube
    rotation after a sixth of a turn about each corner axis."""
    out = []
    for axis in CORNERS:
        # the sixth of a turn about `axis`: SIXTH conjugated by the diagonal sign matrix
        turn = [[axis[i] * SIXTH[i][j] * axis[j] for j in range(3)] for i in range(3)]
        for g in rotations(3):
            rows = tuple(
                tuple(int(sum(int(g[i][k]) * turn[k][j] for k in range(3))) for j in range(3)) for i in range(3)
            )
            out.append(rows)
    return tuple(out)


def _steps() -> tuple[tuple[int, ...], ...]:
    out = set()
    for perm in permutations((1, 1, 0)):
        for signs in product((1, -1), repeat=3):
            out.add(tuple(p * s for p, s in zip(perm, signs)))
    return tuple(sorted(out))


class Sphere(Grid):
    """Spheres: cells (x, y, z) with x + y + z even."""

    name = "sphere"
    dim = 3
    burr_number = 2
    title = "sphere grid"
    polyform = "polysphere"
    n_forms = "n-spheres"
    every_shift = False
    origin_cell = (0, 0, 0)
    not_a_cell = "a sphere's coordinates have an even sum"
    cell_volume = 3.141592653589793 / 6  # a ball of diameter 1, centred at the cell / sqrt(2) (solids.py)

    def build(self) -> tuple[tuple[Motion, ...], int, tuple[tuple[int, ...], ...]]:
        """The cube's signed permutations; the 12 touching balls."""
        return matrix_motions(isometries(3)), len(rotations(3)), _steps()

    def valid(self, cells: np.ndarray) -> np.ndarray:
        """x + y + z even."""
        import numpy as np

        return np.asarray(cells.sum(axis=-1) % 2 == 0)

    def holds(self, point: tuple[int, ...]) -> bool:
        """x + y + z even."""
        return sum(point) % 2 == 0

    def is_translation(self, shift: np.ndarray) -> np.ndarray:
        """Shifts of even coordinate sum."""
        import numpy as np

        return np.asarray(shift.sum(axis=-1) % 2 == 0)

    def origin_shift(self, cells: np.ndarray) -> np.ndarray:
        """Each coordinate's minimum, x one less when their sum is odd."""
        import numpy as np

        lo = np.asarray(cells, dtype=np.int64).min(axis=0).copy()
        lo[0] -= int(lo.sum()) % 2
        return np.asarray(lo)

    def shift_to_origin(self, points: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
        """As `to_origin`, in plain Python."""
        lo = [min(p[i] for p in points) for i in range(3)]
        lo[0] -= sum(lo) % 2
        return [(p[0] - lo[0], p[1] - lo[1], p[2] - lo[2]) for p in points]

    def more_images(self, points: list[tuple[int, ...]], reflect: bool) -> list[list[tuple[int, ...]]]:
        """The images by BurrTools' 96 layer turns (and their mirror images when `reflect`)
        that land on the packing, each taken about the first ball (voxel_2.cpp's transform)."""
        first = points[0]
        rel = [tuple(v - f for v, f in zip(p, first)) for p in points]
        out = []
        for rows in layer_turns():
            for sign in (1, -1) if reflect else (1,):
                img = [tuple(sign * sum(r * v for r, v in zip(row, p)) for row in rows) for p in rel]
                if all(v % 3 == 0 for p in img for v in p):
                    img = [tuple(v // 3 for v in p) for p in img]
                    if all(sum(p) % 2 == 0 for p in img):
                        out.append(img)
        return out

    def solid(self, cell: tuple[int, ...]) -> Solid:
        """The cell's ball alone, a polyhedron with its vertices on the sphere (balls.ball)."""
        from .balls import ball

        return ball(cell)

    def piece_surface(self, cells: list[tuple[int, ...]]) -> tuple[np.ndarray, np.ndarray]:
        """A piece's balls joined by necks where two touch: one closed surface (balls.surface)."""
        from .balls import surface

        return surface(cells)

    def flat_layers(self, cells: np.ndarray) -> tuple[np.ndarray, str, np.ndarray]:
        """Each cell's layer, the flat grid the layers are drawn on, the cells in it (layers.sphere_layers)."""
        import numpy as np

        from .layers import sphere_layers

        return sphere_layers(np.asarray(cells, dtype=np.int64).reshape(-1, self.dim))

    def layer(self, cell: tuple[int, ...]) -> int:
        """The layer z of a ball (x, y, z)."""
        return int(cell[2])

    def footprint(self, cell: tuple[int, ...]) -> list[Point]:
        """The ball's square in its layer's square packing (layers.sphere_layers), y down."""
        x, y, z = cell
        r, c = (x - y - z % 2) // 2, (x + y - z % 2) // 2
        return [(c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1)]
