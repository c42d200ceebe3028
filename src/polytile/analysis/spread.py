"""How evenly a piece set serves the dates of a calendar: the spread of per-date solution
counts (fewest, most, mean, the dates with none, and the Gini coefficient: 0 when every date
has as many solutions, towards 1 when a few dates have them all)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Spread:
    """The spread of a list of counts."""

    least: int
    most: int
    mean: float
    zero: int  # how many counts are 0
    gini: float

    @property
    def every(self) -> bool:
        """True when every count is positive (every date solvable)."""
        return self.zero == 0

    def as_dict(self) -> dict[str, object]:
        """The JSON form: min, max, mean, unsolvable, gini."""
        return {
            "min": self.least,
            "max": self.most,
            "mean": round(self.mean, 3),
            "unsolvable": self.zero,
            "gini": round(self.gini, 4),
        }


def gini(counts: Sequence[int]) -> float:
    """Gini coefficient of non-negative counts: sum |x_i - x_j| / (2 n^2 mean); 0.0 for an
    empty list or all zeros."""
    n = len(counts)
    total = sum(counts)
    if n == 0 or total == 0:
        return 0.0
    ordered = sorted(counts)
    weighted = sum(i * x for i, x in enumerate(ordered, start=1))
    return (2 * weighted) / (n * total) - (n + 1) / n


def spread(counts: Sequence[int]) -> Spread:
    """The spread of `counts` (one per date)."""
    if not counts:
        return Spread(0, 0, 0.0, 0, 0.0)
    return Spread(
        least=min(counts),
        most=max(counts),
        mean=sum(counts) / len(counts),
        zero=sum(1 for c in counts if c == 0),
        gini=gini(counts),
    )
