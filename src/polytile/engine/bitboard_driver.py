"""Tables and state for the bitboard kernel."""
from __future__ import annotations

import numpy as np

from ..cover import Cover
from . import bitboard as bb


def symmetry_arrays(sym, n_opt: int):
    """(opt_label, label_img, label_piece, g_exact, opt_stab) for the kernels."""
    if sym is None:
        return (np.zeros(n_opt, np.int32), np.zeros((1, 1), np.int32), np.zeros(1, np.int32),
                np.uint64(1), np.zeros(n_opt, np.uint64))
    return sym.opt_label, sym.label_img, sym.label_piece, np.uint64(sym.g_exact), sym.opt_stab


def _skips(piece: np.ndarray, start: np.ndarray) -> np.ndarray:
    """For each list position, the position after the run of the same piece in its item's list."""
    n = len(piece)
    boundary = np.ones(n + 1, dtype=bool)                 # a run starts at each True
    boundary[1:n] = piece[1:] != piece[:-1]
    boundary[start] = True
    starts = np.nonzero(boundary)[0]
    return starts[np.searchsorted(starts, np.arange(n), side="right")].astype(np.int64)


class BitboardRun:
    CODES = {bb.PAUSED: "paused", bb.DONE: "done", bb.BUFFER_FULL: "buffer", bb.LIMIT: "limit"}

    def __init__(self, cover: Cover, sym, plan, *, store: bool, limit: int, prune: bool = True,
                 cap_factor: float = 3):
        n = cover.n_items
        assert n <= 64
        lens = np.diff(cover.opt_ptr)
        owner = np.repeat(np.arange(cover.n_options), lens)
        bits = np.left_shift(np.uint64(1), cover.opt_items.astype(np.uint64))
        self.opt_mask = np.zeros(cover.n_options, dtype=np.uint64)
        np.bitwise_or.at(self.opt_mask, owner, bits)
        self.opt_piece = cover.opt_piece
        keep = np.nonzero(plan.keep)[0]
        first = cover.opt_items[cover.opt_ptr[keep]]
        self.cell_opts = keep[np.argsort(first, kind="stable")].astype(np.int32)
        self.cell_start = np.searchsorted(np.sort(first), np.arange(n + 1)).astype(np.int64)
        self.list_mask = self.opt_mask[self.cell_opts]
        self.list_piece = self.opt_piece[self.cell_opts]
        self.list_skip = _skips(self.list_piece, self.cell_start)
        sizes = cover.piece_size
        self.piece_size = sizes.astype(np.int64)
        self.piece_count = cover.piece_count
        self.piece_min = cover.piece_min
        self.left = cover.piece_count.copy()
        self.full = np.uint64((1 << n) - 1) if n < 64 else np.uint64(0xFFFFFFFFFFFFFFFF)
        nb = cover.neighbours
        nbm = np.zeros(n, dtype=np.uint64)
        for col in range(nb.shape[1]):
            has = nb[:, col] >= 0
            nbm[has] |= np.left_shift(np.uint64(1), nb[has, col].astype(np.uint64))
        self.nb_mask = nbm
        self.opt_border = np.zeros(cover.n_options, dtype=np.uint64)
        np.bitwise_or.at(self.opt_border, owner, nbm[cover.opt_items])
        self.opt_border &= ~self.opt_mask
        self.cap = int(cap_factor * max(1, int(sizes.max()) if len(sizes) else 1))
        used = np.unique(sizes[cover.piece_count > 0]) if len(sizes) else np.array([1])
        self.uniform = int(used[0]) if len(used) == 1 else 0
        self.prune = prune
        self.plan = plan
        (self.opt_label, self.label_img, self.label_piece, self.g_exact,
         self.opt_stab) = symmetry_arrays(sym, cover.n_options)
        self.tally = np.zeros(len(cover.piece_count), dtype=np.int64)
        depth = int(min(n, cover.piece_count.sum())) + 2
        self.state = np.zeros(3, dtype=np.int64)
        self.pos = np.zeros(depth, dtype=np.int64)
        self.end = np.zeros(depth, dtype=np.int64)
        self.chosen = np.zeros(depth, dtype=np.int32)
        self.cov = np.zeros(depth, dtype=np.uint64)
        self.stats = np.zeros(5, dtype=np.int64)
        self.out = np.zeros((1024 if store else 0, depth), dtype=np.int32)
        self.limit = limit
        self.base = np.zeros(depth, dtype=np.int64)
        self.img = np.zeros(depth, dtype=np.int64)

    def start(self, prefix: np.ndarray) -> bool:
        """Fix the options of `prefix`; False when they overlap or exceed a piece's copies."""
        self.left[:] = self.piece_count
        covered = np.uint64(0)
        for o in prefix:
            if self.opt_mask[o] & covered or self.left[self.opt_piece[o]] == 0:
                return False
            covered |= self.opt_mask[o]
            self.left[self.opt_piece[o]] -= 1
        k = len(prefix)
        self.chosen[:k] = prefix
        self.cov[k] = covered
        self.state[:] = (k, 0, k)
        return True

    def step(self, budget: int) -> str:
        p = self.plan
        code = bb.run(self.cell_start, self.cell_opts, self.list_mask, self.list_piece, self.list_skip,
                      self.opt_mask, self.opt_piece, self.piece_size,
                      self.piece_count, self.piece_min, self.left, self.full, self.nb_mask,
                      self.opt_border, self.uniform, self.prune, self.cap, p.sym_mode, p.sym_piece, self.opt_label,
                      self.label_img, self.label_piece, self.g_exact, self.opt_stab,
                      p.canonical_only, self.state, self.pos, self.end, self.chosen, self.cov,
                      self.stats, self.out, budget, self.limit, self.base, self.img, self.tally)
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
