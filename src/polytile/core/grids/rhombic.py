"""The rhombic grid (BurrTools' grid 3): each cube cut into 24 pieces, as voxels of a 5x5x5 block.

A cell is BurrTools' own voxel (x, y, z) (voxel_3.cpp): in its block (each coordinate mod
5, folded so 3 -> 1 and 4 -> 0) the three coordinates are 0, 1 and 2 in some order: 24
cells per block, 4 neighbours each (`getNeighbor`, faces). BurrTools turns these shapes
with the cube's tables on blocks of whole 5s, so the motions are the cube's 48 signed
permutations with the offset 4 on a reversed axis (x -> 4 - x keeps a block a block), 24 of
them rotations; translations are shifts by multiples of 5, and normalisation subtracts each
coordinate's minimum rounded down to a multiple of 5 (`minimizePiece`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import Grid, Motion, Solid
from .square import isometries, rotations

if TYPE_CHECKING:
    import numpy as np

PERIOD = 5


def block_motions(offset: int) -> tuple[Motion, ...]:
    """The cube's 48 signed permutation matrices (rotations first), a reversed axis shifted by
    `offset` (so that a grid of blocks maps onto itself)."""
    out: list[Motion] = []
    for m in isometries(3):
        rows = tuple(tuple(int(v) for v in row) for row in m)
        out.append((rows, tuple(offset if min(row) < 0 else 0 for row in rows)))
    return tuple(out)


def _folded(cells: np.ndarray) -> np.ndarray:
    import numpy as np

    r = np.asarray(cells, dtype=np.int64) % PERIOD
    return np.minimum(r, 4 - r)


def _toggle(a: int, b: int, at: int, bt: int) -> tuple[int, int]:
    """voxel_3.cpp's coordinateToggling: the neighbour across the face on a block's middle plane."""
    if a == 0:
        return at + 1, bt - 1 if b == 1 else bt + 1
    if a == 1:
        return at - 1, bt + 1 if b == 0 else bt - 1
    if a == 3:
        return at + 1, bt + 1 if b == 0 else bt - 1
    return at - 1, bt - 1 if b == 1 else bt + 1


def _across(p: list[int], s: list[int], c: list[int], sign: int) -> tuple[int, ...]:
    """Neighbours 0 and 1 of `getNeighbor`: through the face towards the block's centre line."""
    q = list(p)
    edge = next((i for i in range(3) if s[i] in (0, 4)), 2)
    for i in range(3):
        if i != edge:
            q[i] = p[i] + sign if s[i] == 2 else PERIOD * c[i] + 2
    return tuple(q)


class Rhombic(Grid):
    """The rhombic grid: 24 cells per 5x5x5 block of voxels."""

    name = "rhombic"
    dim = 3
    burr_number = 3
    title = "rhombic grid"
    polyform = "rhombic polyform"
    n_forms = "n-cell rhombic forms"
    every_shift = False
    origin_cell = (0, 1, 2)
    not_a_cell = "a rhombic cell's coordinates mod 5 (4 -> 0, 3 -> 1) are 0, 1 and 2 in some order"
    cell_volume = 1 / 3  # a 24th of the cube of edge 2 a block is drawn as (solids.rhombic)

    def build(self) -> tuple[tuple[Motion, ...], int, tuple[tuple[int, ...], ...]]:
        """The cube's signed permutations on blocks of 5; neighbours by `neighbours` (no fixed steps)."""
        return block_motions(PERIOD - 1), len(rotations(3)), ()

    def valid(self, cells: np.ndarray) -> np.ndarray:
        """Folded block coordinates 0, 1 and 2 in some order."""
        import numpy as np

        return np.asarray((np.sort(_folded(cells), axis=-1) == np.array([0, 1, 2])).all(axis=-1))

    def holds(self, point: tuple[int, ...]) -> bool:
        """Folded block coordinates 0, 1 and 2 in some order."""
        return sorted(min(v % PERIOD, 4 - v % PERIOD) for v in point) == [0, 1, 2]

    def is_translation(self, shift: np.ndarray) -> np.ndarray:
        """Shifts by whole blocks."""
        import numpy as np

        return np.asarray((np.asarray(shift) % PERIOD == 0).all(axis=-1))

    def origin_shift(self, cells: np.ndarray) -> np.ndarray:
        """Each coordinate's minimum rounded down to a multiple of 5."""
        import numpy as np

        lo = np.asarray(cells, dtype=np.int64).min(axis=0)
        return np.asarray(lo - lo % PERIOD)

    def shift_to_origin(self, points: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
        """As `to_origin`, in plain Python."""
        lo = [min(p[i] for p in points) // PERIOD * PERIOD for i in range(3)]
        return [(p[0] - lo[0], p[1] - lo[1], p[2] - lo[2]) for p in points]

    def neighbours(self, cell: tuple[int, ...]) -> list[tuple[int, ...]]:
        """The four cells sharing a face (voxel_3.cpp's getNeighbor, type 0)."""
        p = [int(v) for v in cell]
        c = [v // PERIOD for v in p]
        s = [v - PERIOD * k for v, k in zip(p, c)]
        out = [_across(p, s, c, -1), _across(p, s, c, 1)]
        out.append(tuple(v - 1 if r == 0 else v + 1 if r == 4 else v for v, r in zip(p, s)))
        q = list(p)
        for i, (j, k) in ((0, (1, 2)), (1, (0, 2)), (2, (0, 1))):
            if s[i] == 2:
                q[j], q[k] = _toggle(s[j], s[k], p[j], p[k])
        out.append(tuple(q))
        return out

    def solid(self, cell: tuple[int, ...]) -> Solid:
        """One of the 24 tetrahedra of its block's cube (solids.rhombic)."""
        from .solids import rhombic

        return rhombic(cell)
