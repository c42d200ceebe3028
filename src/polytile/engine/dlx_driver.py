"""Tables and state for the dancing-links kernel."""
from __future__ import annotations

import numpy as np

from ..core.cover import Cover
from .kernels import load
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
    kernel = dlx

    def __init__(self, cover: Cover, sym, plan, *, store: bool, limit: int, **kw):
        super().__init__(cover, sym, plan, store=store, limit=limit, **kw)   # (keeps option order)
        self.pristine = build_links(cover.n_items, len(cover.piece_count), cover.opt_ptr,
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

