"""Tables and state for the several-word bitboard kernel (65 to 256 items)."""
from __future__ import annotations

import numpy as np

from ..core.cover import Cover
from .kernels import load
from .runner import Runner, pieces_connected, distinct, item_masks, lists_by_first_item, uniform_sizes

wide = load("wide")          # compiled ahead of time, or numba's JIT: see engine/kernels.py


def _borders(cover: Cover, masks: np.ndarray) -> np.ndarray:
    """(n_opt, k) items next to each option and not in it, -1 padded."""
    lens = np.diff(cover.opt_ptr)
    owner = np.repeat(np.arange(cover.n_options), lens)
    nb = cover.neighbours[cover.opt_items]                          # (total, deg)
    own = np.repeat(owner, nb.shape[1])
    cell = nb.ravel().astype(np.int64)
    ok = cell >= 0
    own, cell = own[ok], cell[ok]
    inside = (masks[own, cell >> 6] >> (cell & 63).astype(np.uint64)) & np.uint64(1)
    own, cell = own[inside == 0], cell[inside == 0]
    pairs = distinct(own * (cover.n_items + 1) + cell)
    own, cell = np.divmod(pairs, cover.n_items + 1)
    counts = np.bincount(own, minlength=cover.n_options)
    out = np.full((cover.n_options, max(1, int(counts.max(initial=0)))), -1, dtype=np.int64)
    col = np.arange(len(own)) - np.repeat(np.cumsum(counts) - counts, counts)
    out[own, col] = cell
    return out


class WideRun(Runner):
    kernel = wide

    def __init__(self, cover: Cover, sym, plan, *, store: bool, limit: int, prune: bool = True,
                 cap_factor: float = 3, **kw):
        super().__init__(cover, sym, plan, store=store, limit=limit, **kw)
        n = cover.n_items
        words = (n + 63) // 64
        prune = prune and pieces_connected(cover)     # dead ends assume connected pieces
        self.opt_mask = item_masks(cover, words)
        self.cell_opts, self.cell_start = lists_by_first_item(cover, plan.keep, self.shuffle)
        self.list_mask = np.ascontiguousarray(self.opt_mask[self.cell_opts])
        self.list_piece = cover.opt_piece[self.cell_opts]
        self.full = item_masks_of(np.arange(n), words)
        self.neighbours = cover.neighbours.astype(np.int64)
        self.opt_border = _borders(cover, self.opt_mask)
        self.cap = int(cap_factor * max(1, int(self.piece_size.max(initial=1))))
        self.prune = prune
        self.pos = np.zeros(self.depth, dtype=np.int64)
        self.end = np.zeros(self.depth, dtype=np.int64)
        self.cov = np.zeros((self.depth, words), dtype=np.uint64)
        self.marks = np.zeros((2, words), dtype=np.uint64)   # _regions_ok scratch
        self.stack = np.zeros(n + 1, dtype=np.int64)
        self.tables = (self.cell_start, self.cell_opts, self.list_mask, self.list_piece,
                       self.opt_mask, self.piece_size, self.full,
                       self.neighbours, self.opt_border, bool(prune), self.cap, self.uniform > 0,
                       uniform_sizes(self.uniform))
        self.begin([np.zeros(0, dtype=np.int32)])

    def begin(self, prefixes: list[np.ndarray]) -> None:
        super().begin(prefixes)
        self.work = (self.state, self.pos, self.end, self.chosen, self.cov, self.left, self.sink,
                     self.marks, self.stack)



def item_masks_of(items: np.ndarray, words: int) -> np.ndarray:
    out = np.zeros(words, dtype=np.uint64)
    items = np.asarray(items, dtype=np.int64)
    np.bitwise_or.at(out, items >> 6, np.left_shift(np.uint64(1), (items & 63).astype(np.uint64)))
    return out
