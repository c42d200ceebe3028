"""The tetrahedron-octahedron grid (BurrTools' grid 4), as voxels of 3x3x3 blocks.

A cell is BurrTools' own voxel (x, y, z) (voxel_4.cpp's validCoordinate): in a block (each
coordinate div 3) the middle voxel (1, 1, 1) is an octahedron, and four corners are
tetrahedra: those with an odd number of 2s in a block of even coordinate sum ((2, 0, 0),
(0, 2, 0), (0, 0, 2), (2, 2, 2)), an even number in an odd block. Neighbours: `getNeighbor`'s
face table. BurrTools turns these shapes with the cube's tables on spaces of whole 6s, so
the motions are the cube's 48 signed permutations with the offset 5 on a reversed axis
(block k -> 1 - k, corner 0 <-> 2: the block's parity and the corners' swap together), 24
of them rotations. Translations: whole blocks (multiples of 3) of even block sum;
normalisation subtracts each coordinate's minimum rounded down to a multiple of 3, x three
less when those blocks' sum is odd (`minimizePiece`, `onGrid`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import Grid, Motion, Solid
from .rhombic import block_motions
from .square import rotations

if TYPE_CHECKING:
    import numpy as np

# getNeighbor's faceNeighbors: (position in the block, block parity) -> the 4 offsets
_FACES: dict[tuple[tuple[int, ...], int], tuple[tuple[int, ...], ...]] = {
    ((1, 1, 1), 0): ((1, -1, -1), (-1, 1, -1), (-1, -1, 1), (1, 1, 1)),
    ((1, 1, 1), 1): ((-1, -1, -1), (1, 1, -1), (1, -1, 1), (-1, 1, 1)),
    ((2, 0, 0), 0): ((-1, 1, 1), (0, 0, -1), (1, 0, 0), (0, -1, 0)),
    ((0, 0, 0), 1): ((1, 1, 1), (0, 0, -1), (0, -1, 0), (-1, 0, 0)),
    ((0, 2, 0), 0): ((1, -1, 1), (0, 0, -1), (0, 1, 0), (-1, 0, 0)),
    ((2, 2, 0), 1): ((-1, -1, 1), (0, 0, -1), (1, 0, 0), (0, 1, 0)),
    ((0, 0, 2), 0): ((0, -1, 0), (-1, 0, 0), (1, 1, -1), (0, 0, 1)),
    ((2, 0, 2), 1): ((0, -1, 0), (1, 0, 0), (-1, 1, -1), (0, 0, 1)),
    ((2, 2, 2), 0): ((1, 0, 0), (0, 1, 0), (-1, -1, -1), (0, 0, 1)),
    ((0, 2, 2), 1): ((-1, 0, 0), (0, 1, 0), (1, -1, -1), (0, 0, 1)),
}


def _split(cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(position in the block (..., 3), block parity (...))."""
    import numpy as np

    cells = np.asarray(cells, dtype=np.int64)
    return cells % 3, (cells // 3).sum(axis=-1) % 2


class TetraOcta(Grid):
    """Tetrahedra and octahedra: cells of 3x3x3 blocks of voxels."""

    name = "tetra-octa"
    dim = 3
    burr_number = 4
    title = "tetrahedron-octahedron grid"
    polyform = "tetra-octa polyform"
    n_forms = "n-cell tetra-octa forms"
    every_shift = False
    origin_cell = (1, 1, 1)
    not_a_cell = "a tetra-octa cell is the middle of its 3x3x3 block or one of its block's four corners"
    cell_volume = 1 / 3  # the origin cell's, the tetrahedron in its unit cube; a corner holds 1/6 (cell_volume_of)

    def build(self) -> tuple[tuple[Motion, ...], int, tuple[tuple[int, ...], ...]]:
        """The cube's signed permutations on blocks of 3 (offset 5: block k -> 1 - k); no fixed steps."""
        return block_motions(5), len(rotations(3)), ()

    def valid(self, cells: np.ndarray) -> np.ndarray:
        """The block's middle, or a corner whose count of 2s has the other parity than the block."""
        import numpy as np

        pos, parity = _split(cells)
        middle = (pos == 1).all(axis=-1)
        corner = ((pos == 0) | (pos == 2)).all(axis=-1)
        twos = (pos == 2).sum(axis=-1) % 2
        return np.asarray(middle | (corner & (twos != parity)))

    def holds(self, point: tuple[int, ...]) -> bool:
        """As `valid`, for one point (plain Python)."""
        pos = [v % 3 for v in point]
        if pos == [1, 1, 1]:
            return True
        parity = sum(v // 3 for v in point) % 2
        return all(v != 1 for v in pos) and pos.count(2) % 2 != parity

    def is_translation(self, shift: np.ndarray) -> np.ndarray:
        """Whole blocks, of even block sum."""
        import numpy as np

        shift = np.asarray(shift, dtype=np.int64)
        return np.asarray((shift % 3 == 0).all(axis=-1) & ((shift // 3).sum(axis=-1) % 2 == 0))

    def origin_shift(self, cells: np.ndarray) -> np.ndarray:
        """Each coordinate's minimum down to a multiple of 3; x three less for an odd block sum."""
        import numpy as np

        lo = np.asarray(cells, dtype=np.int64).min(axis=0)
        lo = lo - lo % 3
        lo[0] -= 3 * (int(lo.sum() // 3) % 2)
        return np.asarray(lo)

    def shift_to_origin(self, points: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
        """As `to_origin`, in plain Python."""
        lo = [min(p[i] for p in points) // 3 * 3 for i in range(3)]
        lo[0] -= 3 * (sum(lo) // 3 % 2)
        return [(p[0] - lo[0], p[1] - lo[1], p[2] - lo[2]) for p in points]

    def neighbours(self, cell: tuple[int, ...]) -> list[tuple[int, ...]]:
        """The cells sharing a face (getNeighbor, type 0)."""
        pos = tuple(v % 3 for v in cell)
        steps = _FACES.get((pos, sum(v // 3 for v in cell) % 2), ())
        return [tuple(int(v) + d for v, d in zip(cell, step)) for step in steps]

    def cell_volume_of(self, cell: tuple[int, ...]) -> float:
        """1/3 for a block's middle (the tetrahedron of its unit cube), 1/6 for a corner cut off it."""
        return 1 / 3 if all(v % 3 == 1 for v in cell) else 1 / 6

    def solid(self, cell: tuple[int, ...]) -> Solid:
        """Its unit cube's tetrahedron or a corner cut off it (solids.tetra_octa; volumes 1/3, 1/6)."""
        from .solids import tetra_octa

        return tetra_octa(cell)
