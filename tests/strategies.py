"""Hypothesis strategies and helpers shared by the property tests."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

FAST = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def neighbours(cell):
    for axis in range(len(cell)):
        for step in (1, -1):
            nb = list(cell)
            nb[axis] += step
            yield tuple(nb)


@st.composite
def polyforms(draw, dim: int, min_size: int = 1, max_size: int = 8):
    """A random connected set of cells (polyomino in 2D, polycube in 3D), normalised."""
    size = draw(st.integers(min_size, max_size))
    cells = {(0,) * dim}
    while len(cells) < size:
        frontier = sorted({nb for c in cells for nb in neighbours(c)} - cells)
        cells.add(draw(st.sampled_from(frontier)))
    arr = np.array(sorted(cells), dtype=np.int64)
    return arr - arr.min(axis=0)


@st.composite
def cell_sets(draw, dim: int, max_side: int = 5, max_size: int = 14):
    """A random, not necessarily connected, non-empty set of cells in a small box."""
    pts = draw(st.sets(st.tuples(*[st.integers(0, max_side - 1)] * dim), min_size=1, max_size=max_size))
    return np.array(sorted(pts), dtype=np.int64)


def as_set(cells) -> frozenset:
    return frozenset(map(tuple, np.asarray(cells).tolist()))


def translated_set(cells) -> frozenset:
    cells = np.asarray(cells)
    return as_set(cells - cells.min(axis=0))


def is_normalised(cells: np.ndarray) -> bool:
    rows = [tuple(r) for r in cells.tolist()]
    return (cells.min(axis=0) == 0).all() and rows == sorted(rows) and len(set(rows)) == len(rows)
