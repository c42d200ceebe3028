"""Tables and stack for Knuth's Algorithm C (engine/exact/kernel.py): dancing links on any exact
cover matrix (core.matrix.Matrix), colours included. engine/cover_search.py decides when
it runs."""

from __future__ import annotations

import numpy as np

from ...core.matrix import Matrix
from ...core.results import Report
from ..records import N_STATS, NODES, SOLUTIONS, STORED, no_leaf_scratch
from ..status import CODES
from .records import ExactStack, Links

BUFFER_ROWS = 1024  # solutions kept between two drains of the buffer


def build_links(matrix: Matrix) -> Links:
    """The `Links` (records.py) for engine/exact/kernel.py: headers
    1..N, then a spacer before each option and one after the last. Options without a
    primary item are left out (Algorithm C never chooses them; dlx1 ignores them too)."""
    n = matrix.n_items
    lengths = np.diff(matrix.opt_ptr)
    row = np.repeat(np.arange(matrix.n_options), lengths)
    has_primary = np.zeros(matrix.n_options, dtype=bool)
    has_primary[row[matrix.opt_items < matrix.n_primary]] = True
    opts = np.nonzero(has_primary)[0]
    entry = np.repeat(has_primary, lengths)
    items = matrix.opt_items[entry].astype(np.int64) + 1
    colours = matrix.opt_colour[entry]
    size = lengths[opts]
    # node of an entry: n + 1 (first spacer) + its index + 1 per spacer before it
    rank = np.repeat(np.arange(len(opts)), size)
    node = n + 2 + np.arange(len(items)) + rank
    total = n + 2 + len(items) + len(opts)
    top = np.zeros(total, dtype=np.int32)
    top[1 : n + 1] = np.arange(1, n + 1)
    top[node] = items
    colour = np.zeros(total, dtype=np.int32)
    colour[node] = colours
    opt_of = np.full(total, -1, dtype=np.int32)
    opt_of[node] = opts[rank]
    up, down = np.arange(total, dtype=np.int32), np.arange(total, dtype=np.int32)
    _spacers(up, down, top, n, size)
    length = _columns(up, down, items, node, n)
    left, right = _rings(n, matrix.n_primary)
    return Links(top, up, down, colour, length, left, right, opt_of)


def _spacers(up: np.ndarray, down: np.ndarray, top: np.ndarray, n: int, size: np.ndarray) -> None:
    """Spacer k (before option k, and one after the last): top -k, up the first node of
    the option before, down the last node of the option after."""
    starts = n + 2 + np.concatenate([[0], np.cumsum(size + 1)])[:-1]  # first node of each
    spacers = np.concatenate([[n + 1], starts + size])
    top[spacers] = -np.arange(len(spacers))
    up[spacers[1:]] = starts
    down[spacers[:-1]] = starts + size - 1


def _columns(up: np.ndarray, down: np.ndarray, items: np.ndarray, node: np.ndarray, n: int) -> np.ndarray:
    """Link each item's nodes in file order, circularly through its header; the lengths."""
    order = np.lexsort((node, items))
    item_s, node_s = items[order], node[order]
    length = np.zeros(n + 2, dtype=np.int32)
    np.add.at(length, item_s, 1)
    same = item_s[1:] == item_s[:-1]
    down[node_s[:-1][same]] = node_s[1:][same]
    up[node_s[1:][same]] = node_s[:-1][same]
    if len(node_s):
        first = np.concatenate([[True], ~same])
        last = np.concatenate([~same, [True]])
        down[item_s[first]] = node_s[first]
        up[node_s[first]] = item_s[first]
        up[item_s[last]] = node_s[last]
        down[node_s[last]] = item_s[last]
    return length


def _rings(n: int, n_primary: int) -> tuple[np.ndarray, np.ndarray]:
    """The primary items around root 0; the secondary ones around head n + 1."""
    left = np.arange(n + 2, dtype=np.int32)
    right = np.arange(n + 2, dtype=np.int32)
    for ring in ([0, *range(1, n_primary + 1)], [n + 1, *range(n_primary + 1, n + 1)]):
        ids = np.array(ring, dtype=np.int32)
        right[ids] = np.roll(ids, -1)
        left[ids] = np.roll(ids, 1)
    return left, right


class ExactDriver:
    """Algorithm C's tables and stack; `advance(budget)` as the tiling drivers'."""

    def __init__(self, matrix: Matrix, *, store: bool, limit: int):
        from ..kernels import bind
        from . import kernel

        self.links = build_links(matrix)
        depth = min(matrix.n_primary, matrix.n_options) + 2  # each level chooses an option (700,000 items, 1 option: 3)
        self.state = np.zeros(2, dtype=np.int64)
        self.work = ExactStack(self.state, np.zeros(depth, dtype=np.int32), np.zeros(depth, dtype=np.int32))
        self.stats = np.zeros(N_STATS, dtype=np.int64)
        self.out = np.zeros((BUFFER_ROWS if store else 0, depth), dtype=np.int32)
        self.sink = no_leaf_scratch(self.stats, self.out)
        self.limit = limit
        self.run = bind(kernel.run, self.links, self.work, self.sink, limit, 0)

    def advance(self, budget: int) -> str:
        """Run the kernel for at most `budget` nodes; its status as a word ('done', ...)."""
        return CODES[self.run(self.links, self.work, self.sink, self.limit, budget)]

    def collect(self, res: Report[np.ndarray]) -> None:
        """Move the counts and the stored rows into `res` (the buffer is then empty again)."""
        res.nodes, res.solutions = int(self.stats[NODES]), int(self.stats[SOLUTIONS])
        for row in self.out[: int(self.stats[STORED])]:
            res.found.append(row[row >= 0].copy())
        self.stats[STORED] = 0
