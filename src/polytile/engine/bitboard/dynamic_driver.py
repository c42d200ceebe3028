"""The driver of the dynamic bitboard kernel (engine/bitboard/dynamic.py). Not chosen by
search.driver_class yet: on the Bedlam cube it takes 7.1x fewer nodes but costs ~9x a node
so far, 19.5 s against the lowest-item kernel's 15.3 s (docs/parts/bedlam9.md); it is here to
be made cheaper, run by tests/engine/test_dynamic.py and bench/dynamic_cells.py."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from ...core.cover import Cover
from .driver import BitboardDriver
from ..kernels import bind, kernel_module

if TYPE_CHECKING:
    from ...core.symmetry import Symmetry
    from ..driver import PlanFields

dynamic = kernel_module("bitboard.dynamic")  # compiled ahead of time, or numba's JIT

CELLS = 64  # a node with at most this many empty items fills its most constrained one
# (Bedlam, docs/parts/bedlam9.md: 20 -> 248.5M nodes, 44 s; 25 -> 133.1M, 30 s; 35 -> 111.1M,
# 22 s; 64 -> 110.3M, 21 s, counting covers to two; to four, 64 -> 87.1M, 19.5 s; the
# lowest-item kernel 621.7M, 15.3 s)

FEWEST = 0  # ... and more than this many (below: the lowest empty item, from the blocks)


class DynamicDriver(BitboardDriver):
    """BitboardDriver's tables and stack, run by dynamic.run with the live lists as
    arguments of their own."""

    kernel = dynamic

    def __init__(self, cover: Cover, sym: Symmetry | None, plan: PlanFields, *, cells: int | None = None, fewest: int | None = None, **kw: Any):
        kw["memo"] = False  # dynamic.run keeps no counts of sub-problems
        super().__init__(cover, sym, plan, flood=False, **kw)
        # the live placements: each node's below its parent's, one segment per piece bit
        per_bit = np.bincount(cover.opt_piece, minlength=len(cover.piece_count))[self.bit_piece]
        self.seg = np.zeros(len(per_bit) + 1, dtype=np.int64)  # a first list's offsets
        self.seg[1:] = np.cumsum(per_bit)
        size = max(1, cover.n_options) * self.depth + 1  # (+1: a copy's store past the end)
        self.lid = np.zeros(size, dtype=np.int64)  # places in the blocks
        self.lmask = np.zeros(size, dtype=np.uint64)  # ... and their masks, side by side
        self.segs = np.zeros((self.depth, 128), dtype=np.int64)  # [d, k], [d, k + 64]: a segment
        self.cell = np.zeros(self.depth, dtype=np.uint64)
        self.cells = CELLS if cells is None else cells
        self.fewest = FEWEST if fewest is None else fewest

    def bind(self) -> Callable[..., int]:
        """dynamic.run for this driver's argument types (kernels.bind), once per `begin`."""
        if self._run is None:
            self._run = bind(self.kernel.run, *self._args(0))
        return self._run

    def _args(self, budget: int) -> tuple[Any, ...]:
        """dynamic.run's arguments."""
        return (
            self.tables,
            self.rules,
            self.sym,
            self.work,
            self.lid,
            self.lmask,
            self.seg,
            self.segs,
            self.cell,
            self.cells,
            self.fewest,
            self.prefixes,
            budget,
        )

    def call(self, budget: int) -> int:
        """One call of dynamic.run (no memo table to grow)."""
        return int(self.bind()(*self._args(budget)))
