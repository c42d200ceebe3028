"""Tables and state for the dancing-links kernel."""
from __future__ import annotations

import numpy as np

from ..core.cover import Cover
from . import dlx
from .runner import Runner


class DlxRun(Runner):
    def __init__(self, cover: Cover, sym, plan, *, store: bool, limit: int, **kw):
        super().__init__(cover, sym, plan, store=store, limit=limit, **kw)   # (keeps option order)
        self.pristine = dlx.build_links(cover.n_items, len(cover.piece_count), cover.opt_ptr,
                                        cover.opt_items, cover.opt_piece, plan.keep)
        self.item = np.zeros(self.depth, dtype=np.int32)
        self.x = np.zeros(self.depth, dtype=np.int32)
        self.hit = np.zeros(cover.n_items, dtype=np.bool_)
        self.undo = np.zeros(cover.n_items + len(cover.piece_count), dtype=np.int64)
        self.tables = (int(cover.n_items), cover.opt_ptr, cover.opt_items)
        self.begin([np.zeros(0, dtype=np.int32)])

    def begin(self, prefixes: list[np.ndarray]) -> None:
        """Fresh links (a search stopped part way leaves some columns covered)."""
        super().begin(prefixes)
        links = tuple(a.copy() for a in self.pristine)
        self.work = (self.state, self.item, self.x, self.chosen, self.left, self.sink, links,
                     self.hit, self.undo)

    def call(self, budget: int) -> int:
        return dlx.run(self.tables, self.rules, self.sym, self.work, self.prefixes, budget)
