"""Tables and stack for the bit-set Algorithm X kernel (engine/bitset.py)."""
from __future__ import annotations

import numpy as np

from ..core.matrix import Matrix
from .status import CODES

MAX_OPTIONS = 1 << 14          # 256 words a set: beyond, dancing links (exact.py) do better
MAX_WORDS = 1 << 23            # words of the kill rows (64 MB)
BUFFER_ROWS = 1024


def fits(matrix: Matrix) -> bool:
    """Whether the bit-set kernel takes the matrix (a few thousand options at most)."""
    words = (matrix.n_options + 63) // 64
    return matrix.n_options <= MAX_OPTIONS and (matrix.n_items + len(matrix.opt_items)) * words <= MAX_WORDS


def _bits(rows: np.ndarray, cols: np.ndarray, n_rows: int, n_cols: int) -> np.ndarray:
    """(n_rows, words) uint64 with bit col of row set for each (row, col) pair."""
    out = np.zeros((n_rows, max(1, (n_cols + 63) // 64)), dtype=np.uint64)
    np.bitwise_or.at(out, (rows, cols >> 6), np.left_shift(np.uint64(1), (cols & 63).astype(np.uint64)))
    return out


def _spans(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row's first word with a bit and one past its last (0, 0 when empty)."""
    nz = rows != 0
    any_bit = nz.any(axis=1)
    lo = np.where(any_bit, nz.argmax(axis=1), 0).astype(np.int64)
    hi = np.where(any_bit, rows.shape[1] - nz[:, ::-1].argmax(axis=1), 0).astype(np.int64)
    return lo, hi


def bitset_tables(matrix: Matrix) -> tuple[tuple[np.ndarray, ...], np.ndarray]:
    """(tables, full) for bitset.run: kill rows (one per item: the options holding it;
    one per (secondary item, colour) used: the options holding the item in another
    colour or none), their spans, the primary items' rows, each entry's kill row, each
    option's primary items; full: the bits of all primary items."""
    n, n_opt = matrix.n_items, matrix.n_options
    option = np.repeat(np.arange(n_opt), np.diff(matrix.opt_ptr))
    items = matrix.opt_items.astype(np.int64)
    kill = _bits(items, option, n, n_opt)
    colours = matrix.opt_colour.astype(np.int64)
    pair_key = items * (len(matrix.colour_names) + 1) + colours
    coloured = colours > 0
    keys, pair_of = np.unique(pair_key[coloured], return_inverse=True)
    entry_kill = items.copy()
    entry_kill[coloured] = n + pair_of
    same = _bits(pair_of.astype(np.int64), option[coloured], len(keys), n_opt)
    pair_item = keys // (len(matrix.colour_names) + 1)
    kill = np.concatenate([kill, kill[pair_item] & ~same])
    lo, hi = _spans(kill)
    primary = items < matrix.n_primary
    opt_prim = _bits(option[primary], items[primary], n_opt, matrix.n_primary)
    full = _bits(np.zeros(matrix.n_primary, np.int64), np.arange(matrix.n_primary), 1,
                 matrix.n_primary)[0]
    p = matrix.n_primary
    tables = (kill, lo, hi, np.ascontiguousarray(kill[:p]), lo[:p].copy(), hi[:p].copy(),
              matrix.opt_ptr.astype(np.int64), entry_kill.astype(np.int32), opt_prim)
    return tables, full


def _counting(matrix: Matrix) -> tuple[np.ndarray, np.ndarray]:
    """(prim_ptr, prim_items): each option's primary items."""
    primary = matrix.opt_items < matrix.n_primary
    option = np.repeat(np.arange(matrix.n_options), np.diff(matrix.opt_ptr))
    ptr = np.zeros(matrix.n_options + 1, dtype=np.int64)
    np.cumsum(np.bincount(option[primary], minlength=matrix.n_options), out=ptr[1:])
    return ptr, matrix.opt_items[primary].astype(np.int32)


class BitsetRun:
    """The bit-set kernel's tables and stack; `advance(budget)` and `collect(report)`.
    `counted`: keep each item's number of active options up to date (see bitset.run)."""

    def __init__(self, matrix: Matrix, *, store: bool, limit: int, counted: bool):
        from .kernels import bind
        from . import bitset
        self.tables, self.full = bitset_tables(matrix)
        self.counted = counted
        depth = matrix.n_primary + 2
        words = self.tables[0].shape[1]
        self.state = np.zeros(2, dtype=np.int64)
        self.work = (self.state, np.zeros((depth + 1, words), np.uint64),
                     np.zeros((depth + 1, len(self.full)), np.uint64),
                     np.zeros((depth, words), np.uint64), np.zeros(depth, np.int64),
                     np.zeros(depth, np.int64), np.zeros(depth, np.int32),
                     np.zeros((depth + 1, matrix.n_primary if counted else 0), np.int32))
        self.work[1][0] = _bits(np.zeros(matrix.n_options, np.int64), np.arange(matrix.n_options),
                                1, matrix.n_options)[0]
        self.counting = _counting(matrix)
        if counted:
            self.work[7][0] = np.bincount(self.counting[1], minlength=matrix.n_primary)
        self.stats = np.zeros(3, dtype=np.int64)
        self.out = np.zeros((BUFFER_ROWS if store else 0, depth), dtype=np.int32)
        self.sink = (self.stats, self.out)
        self.limit = limit
        self.run = bind(bitset.run, self.tables, self.counting, self.full, self.work, self.sink, limit, 0)

    def advance(self, budget: int) -> str:
        return CODES[self.run(self.tables, self.counting, self.full, self.work, self.sink, self.limit, budget)]

    def collect(self, res) -> None:
        res.nodes, res.solutions = int(self.stats[0]), int(self.stats[1])
        for row in self.out[:int(self.stats[2])]:
            res.found.append(row[row >= 0].copy())
        self.stats[2] = 0


TRIAL_NODES = 1 << 15          # nodes each way of choosing runs before one is kept


def pick(matrix: Matrix, *, store: bool, limit: int) -> tuple[BitsetRun, str]:
    """A runner that has run its first TRIAL_NODES nodes, and its status. Counting bits
    for the choice costs the number of items a node; keeping counts costs the number of
    options each choice removes: which is cheaper depends on the matrix, so both run
    the same first nodes (the same tree) and the faster one goes on."""
    import time
    timed = []
    for counted in (False, True):
        runner = BitsetRun(matrix, store=store, limit=limit, counted=counted)
        t = time.perf_counter()
        code = runner.advance(TRIAL_NODES)
        if code != "paused":
            return runner, code
        timed.append((time.perf_counter() - t, counted, runner, code))
    _, _, runner, code = min(timed, key=lambda x: x[0])
    return runner, code
