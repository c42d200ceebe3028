"""The 3D grids drawn as layers of a flat grid: each cell's layer and its cell in that layer.

prism   layer z, the triangle (a, b, c) of the triangle grid: the layers are triangle boards.
sphere  layer z, and in it the square (row, column) = ((x - y - z mod 2) / 2, (x + y - z mod 2) / 2)
        of the square grid: a layer of balls is a square packing whose touching balls
        (x +- 1, y +- 1) are the squares' edge neighbours (the plane turned by 45 degrees, not
        mirrored). The odd layers sit in the hollows of the even ones: drawn on the same squares,
        they show half a square up and left of where they are.

`flat_layers(cells)` answers (layer per cell, the flat grid's name, the flat cells).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np


def prism_layers(cells: np.ndarray) -> tuple[np.ndarray, str, np.ndarray]:
    """Prism cells (a, b, c, z) as triangle-grid layers."""
    return cells[:, 3], "triangle", cells[:, :3]


def sphere_layers(cells: np.ndarray) -> tuple[np.ndarray, str, np.ndarray]:
    """Sphere cells (x, y, z) as square-grid layers."""
    import numpy as np

    x, y, z = cells[:, 0], cells[:, 1], cells[:, 2]
    odd = z % 2
    return z, "square", np.stack([(x - y - odd) // 2, (x + y - odd) // 2], axis=1)
