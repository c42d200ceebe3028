"""Tables and state for the dancing-links kernel."""
from __future__ import annotations

import numpy as np

from ..cover import Cover
from . import dlx
from .bitboard_driver import symmetry_arrays


class DlxRun:
    CODES = {dlx.PAUSED: "paused", dlx.DONE: "done", dlx.BUFFER_FULL: "buffer", dlx.LIMIT: "limit"}

    def __init__(self, cover: Cover, sym, plan, *, store: bool, limit: int):
        self.cover = cover
        self.plan = plan
        self.n_items = cover.n_items
        n_pieces = len(cover.piece_count)
        self.pristine = dlx.build_links(cover.n_items, n_pieces, cover.opt_ptr, cover.opt_items,
                                        cover.opt_piece, plan.keep)
        (self.opt_label, self.label_img, self.label_piece, self.g_exact,
         self.opt_stab) = symmetry_arrays(sym, cover.n_options)
        depth = int(min(cover.n_items, cover.piece_count.sum())) + 2
        self.item = np.zeros(depth, dtype=np.int32)
        self.x = np.zeros(depth, dtype=np.int32)
        self.chosen = np.zeros(depth, dtype=np.int32)
        self.state = np.zeros(3, dtype=np.int64)
        self.stats = np.zeros(5, dtype=np.int64)
        self.out = np.zeros((1024 if store else 0, depth), dtype=np.int32)
        self.limit = limit
        self.base = np.zeros(depth, dtype=np.int64)
        self.img = np.zeros(depth, dtype=np.int64)
        self.tally = np.zeros(n_pieces, dtype=np.int64)
        self.left = cover.piece_count.copy()

    def start(self, prefix: np.ndarray) -> bool:
        """Fresh links with the options of `prefix` placed; False if they clash."""
        U, D, L, R, top, length, row_start, row_of, node_opt = (a.copy() for a in self.pristine)
        self.links = (U, D, L, R, top, length, row_start, row_of, node_opt)
        self.left[:] = self.cover.piece_count
        covered: set[int] = set()
        for o in prefix:
            cells = self.cover.option_items(int(o)).tolist()
            piece = int(self.cover.opt_piece[o])
            if covered.intersection(cells) or self.left[piece] == 0:
                return False
            for c in cells:
                dlx._cover(c, U, D, L, R, top, length, row_start, row_of, True)
            covered.update(cells)
            self.left[piece] -= 1
            if self.left[piece] == 0:
                dlx._cover(self.n_items + piece, U, D, L, R, top, length, row_start, row_of, False)
        k = len(prefix)
        self.chosen[:k] = prefix
        self.state[:] = (k, dlx.ENTER, k)
        return True

    def step(self, budget: int) -> str:
        U, D, L, R, top, length, row_start, row_of, node_opt = self.links
        p = self.plan
        code = dlx.run(self.n_items, U, D, L, R, top, length, row_start, row_of, node_opt,
                       self.cover.piece_count, self.cover.piece_min, self.left, self.cover.opt_piece,
                       p.sym_mode, p.sym_piece, self.opt_label, self.label_img, self.label_piece,
                       self.g_exact, self.opt_stab, p.canonical_only, self.state, self.item, self.x,
                       self.chosen, self.stats, self.out, budget, self.limit, self.base, self.img,
                       self.tally)
        return self.CODES[code]

    def collect(self, res, store: bool) -> None:
        res.nodes = int(self.stats[0])
        res.solutions = int(self.stats[1])
        if res.unique is not None:
            res.unique = int(self.stats[2])
        k = int(self.stats[3])
        for row in self.out[:k]:
            res.found.append(row[row >= 0].copy())
        self.stats[3] = 0
