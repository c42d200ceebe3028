"""The triangular prism grid (BurrTools' grid 1): layers of the triangle grid stacked.

A cell is (a, b, c, z): (a, b, c) a triangle of the triangle grid (a + b + c = 2 points up,
1 down; see triangle.py) and z its layer. Neighbours: the triangle's three in its layer and
the prisms above and below. The 24 motions are the triangle grid's 12 with z kept or
reversed; the 12 rotations (BurrTools' tabs_1) turn the layers in their plane, or flip the
stack over while mirroring the plane. Translations: the triangle grid's (a + b + c = 0) and
any shift of layers; normalisation subtracts (min a, min b, -(min a + min b), min z).

BurrTools' voxel (x, y, z) (voxel_1.cpp): row y of triangles, x along the row, (x + y) even
points up (its base at the bottom, y upwards). In polytile's coordinates that triangle is
a = y, b = (x - y + s) / 2, c = (s - x - y) / 2 with s = 2 up, 1 down (so x = b - c):
neighbours along a row differ by one in c or b, across a base by one in a.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import GapRules, Grid, Motion, Point, Solid, Step3, axis_steps
from .triangle import Triangle

if TYPE_CHECKING:
    import numpy as np

# per step of disassembly_steps, per voxel type (up, down): the voxels one step crosses
_GAP_CHECKS: tuple[tuple[tuple[Step3, ...], ...], ...] = (
    (((0, 0, 1),), ((0, 0, 1),)),
    (((1, 0, 0), (2, 0, 0)), ((1, 0, 0), (2, 0, 0))),
    (((1, 0, 0), (1, 1, 0)), ((0, 1, 0), (1, 1, 0))),
    (((-1, 0, 0), (-1, 1, 0)), ((0, 1, 0), (-1, 1, 0))),
)


def _motions() -> tuple[Motion, ...]:
    """The triangle's motions with z kept (+1) or reversed (-1): proper ones first."""
    tri = Triangle()
    rots: list[Motion] = []
    refl: list[Motion] = []
    for k, (mat, off) in enumerate(tri.motions):
        for zs in (1, -1):
            rows = tuple(tuple(row) + (0,) for row in mat) + ((0, 0, 0, zs),)
            motion: Motion = (rows, tuple(off) + (0,))
            (rots if (k < tri.n_rotations) == (zs == 1) else refl).append(motion)
    return tuple(rots + refl)


class Prism(Grid):
    """Triangular prisms: cells (a, b, c, z), a + b + c in {1, 2}."""

    name = "prism"
    dim = 4
    burr_number = 1
    title = "triangular prism grid"
    polyform = "polyprism"
    n_forms = "n-prisms"
    every_shift = False
    origin_cell = (0, 0, 2, 0)
    not_a_cell = "a prism's first three coordinates sum to 1 or 2"
    cell_volume = 3**0.5 / 4  # a unit triangle, unit height (solids.PRISM_VOLUME)

    def build(self) -> tuple[tuple[Motion, ...], int, tuple[tuple[int, ...], ...]]:
        """The triangle's motions times z kept or reversed; its steps, and up and down."""
        steps = tuple(s + (0,) for s in axis_steps(3)) + ((0, 0, 0, 1), (0, 0, 0, -1))
        return _motions(), 12, steps

    def valid(self, cells: np.ndarray) -> np.ndarray:
        """(a, b, c) sums to 1 or 2."""
        import numpy as np

        s = cells[..., :3].sum(axis=-1)
        return np.asarray((s == 1) | (s == 2))

    def holds(self, point: tuple[int, ...]) -> bool:
        """(a, b, c) sums to 1 or 2."""
        return sum(point[:3]) in (1, 2)

    def is_translation(self, shift: np.ndarray) -> np.ndarray:
        """(a, b, c) shifted by a sum of 0, any z."""
        import numpy as np

        return np.asarray(shift[..., :3].sum(axis=-1) == 0)

    def origin_shift(self, cells: np.ndarray) -> np.ndarray:
        """(min a, min b, -(min a + min b), min z)."""
        import numpy as np

        lo = np.asarray(cells, dtype=np.int64).min(axis=0)
        return np.array([lo[0], lo[1], -(lo[0] + lo[1]), lo[3]], dtype=np.int64)

    def shift_to_origin(self, points: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
        """As `to_origin`, in plain Python."""
        a, b, z = (min(p[i] for p in points) for i in (0, 1, 3))
        return [(p[0] - a, p[1] - b, p[2] + a + b, p[3] - z) for p in points]

    def sweep_points(self, cells: np.ndarray) -> np.ndarray:
        """(row a, x = b - c along the row, layer z): rows of triangles, not the skewed
        (a, b, c) (Prisgon's count: 0.9 million nodes instead of 4.3)."""
        import numpy as np

        cells = np.asarray(cells, dtype=np.int64)
        return np.stack([cells[:, 0], cells[:, 1] - cells[:, 2], cells[:, 3]], axis=1)

    def from_burr(self, voxels: np.ndarray) -> np.ndarray:
        """(x, y, z) -> (a, b, c, z) (see the module's note)."""
        import numpy as np

        x, y, z = np.asarray(voxels, dtype=np.int64).reshape(-1, 3).T
        s = np.where((x + y) % 2 == 0, 2, 1)
        return np.stack([y, (x - y + s) // 2, (s - x - y) // 2, z], axis=1)

    def to_burr(self, cells: np.ndarray) -> np.ndarray:
        """(a, b, c, z) -> (x, y, z), the least x and y 0 (x 1 where the parity of x + y needs)."""
        import numpy as np

        cells = np.asarray(cells, dtype=np.int64)
        x, y, z = cells[:, 1] - cells[:, 2], cells[:, 0], cells[:, 3]
        dx, dy = int(x.min()), int(y.min())
        dx -= (dx + dy) % 2  # a shift with dx + dy even keeps up triangles up
        return np.stack([x - dx, y - dy, z - z.min()], axis=1)

    def disassembly_steps(self) -> tuple[Step3, ...] | None:
        """Up a layer, along a row (two triangles), and across a base either way
        (BurrTools' movementcache_1.cpp, its order)."""
        return ((0, 0, 1), (2, 0, 0), (1, 1, 0), (-1, 1, 0))

    def disassembly_checks(self) -> GapRules | None:
        """Two voxel types, (x + y) mod 2 (up, down); BurrTools' table of the voxels one
        step must find empty (movementcache_1.cpp, as it stands)."""
        return (2, 1, 1, 0), _GAP_CHECKS

    def solid(self, cell: tuple[int, ...]) -> Solid:
        """The triangle extruded from layer z to z + 1 (solids.prism)."""
        from .solids import prism

        return prism(cell)

    def flat_layers(self, cells: np.ndarray) -> tuple[np.ndarray, str, np.ndarray]:
        """Each cell's layer, the flat grid the layers are drawn on, the cells in it (layers.prism_layers)."""
        import numpy as np

        from .layers import prism_layers

        return prism_layers(np.asarray(cells, dtype=np.int64).reshape(-1, self.dim))

    def layer(self, cell: tuple[int, ...]) -> int:
        """The layer z of a prism (a, b, c, z)."""
        return int(cell[3])

    def footprint(self, cell: tuple[int, ...]) -> list[Point]:
        """The triangle (a, b, c) in its layer, as the triangle grid draws it."""
        return Triangle().corners(tuple(cell[:3]))
