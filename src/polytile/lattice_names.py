"""Names of n-iamonds and n-hexes: f"{n}-{i}" in the order of `lattice_forms`."""
from __future__ import annotations

from typing import Sequence


def free_names(grid: str, forms: Sequence[tuple]) -> list[str]:
    n = len(forms[0]) if forms else 0
    return [f"{n}-{i}" for i in range(1, len(forms) + 1)]
