"""Tables and state for the dancing-links kernel."""
from __future__ import annotations

import numpy as np

from ..core.cover import Cover
from .kernels import load
from .status import CODES
from .runner import Runner

dlx = load("dlx")            # compiled ahead of time, or numba's JIT: see engine/kernels.py


def build_links(n_items: int, n_pieces: int, opt_ptr: np.ndarray, opt_items: np.ndarray,
                opt_piece: np.ndarray, keep: np.ndarray):
    """Arrays U, D, L, R, top, length, row_start, row_of, node_opt for the options in `keep`."""
    n_head = n_items + n_pieces
    root = n_head
    opts = np.nonzero(keep)[0]
    lens = np.diff(opt_ptr)[opts] + 1
    n_nodes = root + 1 + int(lens.sum())
    top = np.empty(n_nodes, dtype=np.int32)
    top[:root + 1] = np.arange(root + 1)
    row_start = np.empty(len(opts) + 1, dtype=np.int32)
    row_start[0] = root + 1
    row_start[1:] = root + 1 + np.cumsum(lens)
    node_opt = np.full(n_nodes, -1, dtype=np.int32)
    row_of = np.full(n_nodes, -1, dtype=np.int32)
    for k, o in enumerate(opts):
        a, b = row_start[k], row_start[k + 1]
        row_of[a:b] = k
        top[a:b - 1] = opt_items[opt_ptr[o]:opt_ptr[o + 1]]
        top[b - 1] = n_items + opt_piece[o]
        node_opt[a:b] = o
    U = np.arange(n_nodes, dtype=np.int32)
    D = np.arange(n_nodes, dtype=np.int32)
    last = np.arange(n_head, dtype=np.int32)             # last node of each column so far
    length = np.zeros(n_head, dtype=np.int32)
    for node in range(root + 1, n_nodes):                 # append in order: columns stay sorted
        c = top[node]
        U[node] = last[c]
        D[last[c]] = node
        last[c] = node
        length[c] += 1
    for c in range(n_head):
        D[last[c]] = c
        U[c] = last[c]
    L = np.arange(root + 1, dtype=np.int32)
    R = np.arange(root + 1, dtype=np.int32)
    ring = list(range(n_items)) + [root]
    for k, h in enumerate(ring):
        R[h] = ring[(k + 1) % len(ring)]
        L[h] = ring[k - 1]
    return U, D, L, R, top, length, row_start, row_of, node_opt


class DlxRun(Runner):
    def __init__(self, cover: Cover, sym, plan, *, store: bool, limit: int, **kw):
        super().__init__(cover, sym, plan, store=store, limit=limit, **kw)   # (keeps option order)
        self.pristine = build_links(cover.n_items, len(cover.piece_count), cover.opt_ptr,
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
