"""Names of n-iamonds and n-hexes: the field's names where it has them (T. H. O'Beirne's
names of the 12 hexiamonds; the 7 tetrahexes' names from Martin Gardner's column, as
Wikipedia's "Polyhex (mathematics)" lists them: bar, worm, pistol, propeller, arch, bee,
wave), else f"{n}-{i}" in the order of `lattice_forms` (which names its forms here).

Each grid holds its named forms (`Grid.named_forms`: core/grids/triangle.py, hex.py).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from .grids import Form, Grid
from .grids.moves import canonical


@lru_cache(maxsize=None)
def _named(grid: Grid, n: int) -> dict[Form, str]:
    return {canonical(grid, cells): name for name, cells in grid.named_forms.get(n, {}).items()}


def free_names(grid: Grid, forms: Sequence[Form]) -> list[str]:
    """Names of the free forms (canonical, in order)."""
    n = len(forms[0]) if forms else 0
    named = _named(grid, n)
    return [named.get(f, f"{n}-{i}") for i, f in enumerate(forms, start=1)]
