"""What the model covers, in one compiled pass (tiling.solver.infeasible's tests before any
search): how many options each piece has and the first item no option covers. numpy's
two bincounts (the reference, engine/modelling_driver.coverage's fallback, which the
tests compare with) cost ~30 us of a small count's set-up in a fresh process."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .bits import njit


@njit(cache=True)
def coverage(
    opt_piece: np.ndarray, opt_items: np.ndarray, n_pieces: int, n_items: int
) -> tuple[npt.NDArray[np.int64], int]:
    """(placed, uncovered): the number of options of each piece, and the lowest item no
    option covers (-1: every item is covered)."""
    placed = np.zeros(n_pieces, dtype=np.int64)
    for o in range(len(opt_piece)):
        if 0 <= opt_piece[o] < n_pieces:  # (always, in a Model: no bounds checks here)
            placed[opt_piece[o]] += 1
    covered = np.zeros(n_items, dtype=np.bool_)
    for q in range(len(opt_items)):
        if 0 <= opt_items[q] < n_items:
            covered[opt_items[q]] = True
    for i in range(n_items):
        if not covered[i]:
            return placed, i
    return placed, -1
