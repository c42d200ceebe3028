"""The driver of the dynamic bitboard kernel (engine/bitboard/dynamic.py), which
search.driver_class gives covers whose options span many items (the 4x4x4 cube: not
bitboard.driver.narrow_frontier). On the Bedlam cube it takes 19x fewer nodes than the
lowest-item kernel at ~7x the cost a node (docs/history/parts/bedlam10.md)."""

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
# (Bedlam, docs/history/parts/bedlam9.md, counting covers to four: 20 -> 248.5M nodes, 44 s; 64 ->
# 87.1M, 19.5 s: below the threshold, every node's first list is built from the blocks)
FEWEST = 0  # ... and more than this many (below: the lowest empty item, from the blocks;
# Bedlam, bedlam10.md: 5, 10, 15 -> 32.6M, 34.7M, 53.0M nodes, the same time as 0)


class DynamicDriver(BitboardDriver):
    """BitboardDriver's tables and stack, run by dynamic.run with the live lists as
    arguments of their own."""

    kernel = dynamic

    def __init__(
        self,
        cover: Cover,
        sym: Symmetry | None,
        plan: PlanFields,
        *,
        cells: int | None = None,
        fewest: int | None = None,
        **kw: Any,
    ):
        kw["memo"] = False  # dynamic.run keeps no counts of sub-problems
        super().__init__(cover, sym, plan, flood=False, **kw)
        # the live placements: each node's below its parent's, one segment per piece bit
        per_bit = np.bincount(cover.opt_piece, minlength=len(cover.piece_count))[self.bit_piece]
        self.seg = np.zeros(len(per_bit) + 1, dtype=np.int64)  # a first list's offsets
        self.seg[1:] = np.cumsum(per_bit)
        size = max(1, cover.n_options) * self.depth + 1  # (+1: a copy's store past the end)
        self.lid = np.zeros(size, dtype=np.int32)  # places in the blocks
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
