"""Tables and state for the dancing-links kernel."""
from __future__ import annotations

import numpy as np

from ..core.cover import Cover
from .kernels import load
from .status import CODES
from .runner import Runner

dlx = load("dlx")            # compiled ahead of time, or numba's JIT: see engine/kernels.py


class DlxRun(Runner):
    def __init__(self, cover: Cover, sym, plan, *, store: bool, limit: int, **kw):
        super().__init__(cover, sym, plan, store=store, limit=limit, **kw)   # (keeps option order)
        self.pristine = dlx.build_links(cover.n_items, len(cover.piece_count), cover.opt_ptr,
                                        cover.opt_items, cover.opt_piece, plan.keep)
        self.item = np.zeros(self.depth, dtype=np.int32)
        self.x = np.zeros(self.depth, dtype=np.int32)

    def start(self, prefix: np.ndarray) -> bool:
        """Fresh links with the options of `prefix` placed; False if they clash."""
        items = self.place_prefix(prefix)
        if items is None:
            return False
        self.links = tuple(a.copy() for a in self.pristine)
        U, D, L, R, top, length, row_start, row_of, _ = self.links
        for c in items:
            dlx._cover(int(c), U, D, L, R, top, length, row_start, row_of, True)
        n = self.cover.n_items
        for piece in np.nonzero(self.left == 0)[0]:
            dlx._cover(n + int(piece), U, D, L, R, top, length, row_start, row_of, False)
        k = len(prefix)
        self.state[:] = (k, dlx.ENTER, k)
        return True

    def step(self, budget: int) -> str:
        code = dlx.run(self.cover.n_items, *self.links, self.cover.piece_count, self.cover.piece_min,
                       self.left, self.cover.opt_piece, *self.symmetry_args(), self.state, self.item,
                       self.x, self.chosen, self.stats, self.out, budget, self.limit, self.base,
                       self.img, self.tally)
        return CODES[code]
