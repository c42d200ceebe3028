"""Names of n-iamonds and n-hexes: the field's names where it has them (T. H. O'Beirne's
names of the 12 hexiamonds; the 7 tetrahexes' names from Martin Gardner's column, as
Wikipedia's "Polyhex (mathematics)" lists them: bar, worm, pistol, propeller, arch, bee,
wave), else f"{n}-{i}" in the order of `lattice_forms` (which names its forms here).

The hexiamonds are given as Polyform Puzzler (D. Goodger) draws them: triangles (x, y, z)
of a 60-degree rhombus grid, z = 0 up, (0, 0, 0) implied; in polytile's triangle
coordinates a triangle (x, y, z) is (y, x, 2 - z - x - y).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from .lattice import Form, canonical, lattice

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


# The tetrahexes as Polyform Puzzler (tetrahexes.py) gives them, hexes (x, y) with (0, 0)
# implied, which are polytile's axial (q, r); Puzzler's letter beside each name.
TETRAHEXES = {
    "bar": ((1, 0), (2, 0), (3, 0)),  # I4: four in a line
    "worm": ((1, 0), (2, 0), (2, 1)),  # J4: a line of three, bent at one end
    "pistol": ((1, 0), (2, 0), (1, 1)),  # P4: a line of three, the fourth against two
    "propeller": ((1, 0), (2, -1), (1, 1)),  # Y4: three blades round a hex
    "arch": ((-1, 1), (1, 0), (1, 1)),  # U4: four round a hole
    "bee": ((1, 0), (0, 1), (1, 1)),  # O4: the compact rhombus
    "wave": ((1, 0), (1, 1), (2, 1)),  # S4: two dihexes side by side, staggered
}


def _triangle(x: int, y: int, z: int) -> tuple[int, int, int]:
    return (y, x, 2 - z - x - y)


@lru_cache(maxsize=None)
def _named(grid: str, n: int) -> dict[Form, str]:
    lat = lattice(grid)
    if grid == "triangle" and n == 6:
        return {
            canonical(lat, tuple(_triangle(*c) for c in ((0, 0, 0),) + rest)): name for name, rest in HEXIAMONDS.items()
        }
    if grid == "hex" and n == 4:
        return {canonical(lat, ((0, 0),) + rest): name for name, rest in TETRAHEXES.items()}
    return {}


def free_names(grid: str, forms: Sequence[Form]) -> list[str]:
    """Names of the free forms (canonical, in order)."""
    n = len(forms[0]) if forms else 0
    named = _named(grid, n)
    return [named.get(f, f"{n}-{i}") for i, f in enumerate(forms, start=1)]
