"""The search tree's size, and the tree in parts for parallel counts.

Knuth's estimate (1975) of the first-empty-item tree: a node is one placement, of an
option whose lowest item is the lowest uncovered item, that overlaps nothing and has a
copy of its piece left. A random path from a node down to a leaf, with branching d1, d2,
..., dk, says the tree below has about d1 + d1*d2 + ... + d1*...*dk nodes; the mean over
many paths is unbiased (the figures are heavy-tailed: few paths can be far off).
`estimate_tree` gives it for a whole cover (with its standard error), `subtree_sizes` for
the part under each prefix (the options placed first); `split` grows prefixes level by
level. Parallel counts hand out the biggest parts first and turn parts done into an ETA.
The kernels prune more (dead regions), so the figures are high in scale; their ratios are
what matters there."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from .kernels import njit  # numba imported only when its JIT is needed (see kernels.py)

from ..core.cover import Cover
from .driver import lists_by_first_item


@njit(cache=True, inline="always")
def _place(
    o: int, opt_ptr: np.ndarray, opt_items: np.ndarray, opt_piece: np.ndarray, covered: np.ndarray, left: np.ndarray
) -> None:
    """Place option o: its items covered, a copy of its piece used."""
    for t in range(opt_ptr[o], opt_ptr[o + 1]):
        covered[opt_items[t]] = True
    left[opt_piece[o]] -= 1


@njit(cache=True, inline="always")
def _start(
    k: int,
    prefixes: np.ndarray,
    lengths: np.ndarray,
    piece_count: np.ndarray,
    opt_ptr: np.ndarray,
    opt_items: np.ndarray,
    opt_piece: np.ndarray,
    covered: np.ndarray,
    left: np.ndarray,
) -> int:
    """Cover the items of prefix k; the first item it leaves uncovered (or n_items)."""
    covered[:] = False
    left[:] = piece_count
    for j in range(lengths[k]):
        _place(prefixes[k, j], opt_ptr, opt_items, opt_piece, covered, left)
    return _next_empty(0, covered)  # type: ignore[no-any-return]  # a kernels.njit kernel's call is typed Any (a Deferred)


@njit(cache=True, inline="always")
def _next_empty(first: int, covered: np.ndarray) -> int:
    while first < len(covered) and covered[first]:
        first += 1
    return first


@njit(cache=True, inline="always")
def _fitting(
    first: int,
    opt_ptr: np.ndarray,
    opt_items: np.ndarray,
    opt_piece: np.ndarray,
    list_opts: np.ndarray,
    list_start: np.ndarray,
    covered: np.ndarray,
    left: np.ndarray,
    fit: np.ndarray,
) -> int:
    """The options whose first item is `first` that fit (into `fit`); how many."""
    d = 0
    for t in range(list_start[first], list_start[first + 1]):
        o = list_opts[t]
        if left[opt_piece[o]] <= 0:
            continue
        clash = False
        for u in range(opt_ptr[o], opt_ptr[o + 1]):
            if covered[opt_items[u]]:
                clash = True
                break
        if not clash:
            fit[d] = o
            d += 1
    return d


@njit(cache=True, inline="always")
def _path(
    first: int,
    opt_ptr: np.ndarray,
    opt_items: np.ndarray,
    opt_piece: np.ndarray,
    list_opts: np.ndarray,
    list_start: np.ndarray,
    covered: np.ndarray,
    left: np.ndarray,
    fit: np.ndarray,
) -> float:
    """One random path down from the state `covered`/`left` (first uncovered item `first`)
    to a leaf: 1 + d1 + d1*d2 + ... + d1*...*dk, its start counted."""
    weight = 1.0
    nodes = 1.0
    while first < len(covered):
        d = _fitting(first, opt_ptr, opt_items, opt_piece, list_opts, list_start, covered, left, fit)
        if d == 0:
            break
        weight *= d
        nodes += weight
        _place(fit[np.random.randint(d)], opt_ptr, opt_items, opt_piece, covered, left)
        first = _next_empty(first, covered)
    return nodes


@njit(cache=True, nogil=True)
def _probe_all(
    opt_ptr: np.ndarray,
    opt_items: np.ndarray,
    opt_piece: np.ndarray,
    piece_count: np.ndarray,
    list_opts: np.ndarray,
    list_start: np.ndarray,
    n_items: int,
    prefixes: np.ndarray,
    lengths: np.ndarray,
    probes: int,
    seed: int,
) -> np.ndarray:
    """Per prefix, the nodes of each of `probes` random paths (the prefix's node counted):
    (len(lengths), probes)."""
    np.random.seed(seed)
    out = np.zeros((len(lengths), probes))
    covered = np.zeros(n_items, np.bool_)
    left = np.empty_like(piece_count)
    fit = np.empty(len(list_opts) + 1, np.int64)
    for k in range(len(lengths)):
        for j in range(probes):
            first = _start(k, prefixes, lengths, piece_count, opt_ptr, opt_items, opt_piece, covered, left)
            out[k, j] = _path(first, opt_ptr, opt_items, opt_piece, list_opts, list_start, covered, left, fit)
    return out


@njit(cache=True, nogil=True)
def _grow(
    opt_ptr: np.ndarray,
    opt_items: np.ndarray,
    opt_piece: np.ndarray,
    piece_count: np.ndarray,
    list_opts: np.ndarray,
    list_start: np.ndarray,
    n_items: int,
    prefixes: np.ndarray,
    lengths: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Each prefix extended by every option that fits the first item it leaves uncovered
    (a prefix that covers everything stays as it is)."""
    width = prefixes.shape[1] + 1
    covered = np.zeros(n_items, np.bool_)
    left = np.empty_like(piece_count)
    fit = np.empty(len(list_opts) + 1, np.int64)
    out = np.full((4 * len(lengths) + 16, width), -1, np.int32)
    out_len = np.zeros(len(out), np.int64)
    n = 0
    for k in range(len(lengths)):
        first = _start(k, prefixes, lengths, piece_count, opt_ptr, opt_items, opt_piece, covered, left)
        d = 0
        if first < n_items:
            d = _fitting(first, opt_ptr, opt_items, opt_piece, list_opts, list_start, covered, left, fit)
        need = n + max(1, d)
        if need > len(out):
            bigger = np.full((2 * need, width), -1, np.int32)
            bigger[:n] = out[:n]
            out = bigger
            longer = np.zeros(2 * need, np.int64)
            longer[:n] = out_len[:n]
            out_len = longer
        if first == n_items:
            out[n, : lengths[k]] = prefixes[k, : lengths[k]]
            out_len[n] = lengths[k]
            n += 1
        for i in range(d):
            out[n, : lengths[k]] = prefixes[k, : lengths[k]]
            out[n, lengths[k]] = fit[i]
            out_len[n] = lengths[k] + 1
            n += 1
    return out[:n], out_len[:n]


def _table(prefixes: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    width = max(1, max(len(p) for p in prefixes))
    table = np.full((len(prefixes), width), -1, dtype=np.int32)
    lengths = np.zeros(len(prefixes), dtype=np.int64)
    for i, p in enumerate(prefixes):
        table[i, : len(p)] = p
        lengths[i] = len(p)
    return table, lengths


def split(
    cover: Cover, keep: np.ndarray, prefixes: list[np.ndarray], want: int, max_depth: int = 6
) -> list[np.ndarray]:
    """Extend the prefixes by the options that fill the first uncovered item, level by
    level, until there are at least `want` of them (kept options only below the given
    prefixes; dead ends dropped). Together they cover the same tree."""
    opts, start = lists_by_first_item(cover, keep)
    table, lengths = _table(prefixes)
    count = cover.piece_count.astype(np.int64)
    for _ in range(max_depth):
        if len(lengths) >= want or len(lengths) == 0:
            break
        table, lengths = _grow(
            cover.opt_ptr, cover.opt_items, cover.opt_piece, count, opts, start, cover.n_items, table, lengths
        )
    return [table[i, : lengths[i]].copy() for i in range(len(lengths))]


def _paths(cover: Cover, keep: np.ndarray, prefixes: list[np.ndarray], probes: int, seed: int) -> np.ndarray:
    """The nodes of `probes` random paths under each prefix: (len(prefixes), probes)."""
    opts, start = lists_by_first_item(cover, keep)
    table, lengths = _table(prefixes)
    nodes: np.ndarray = _probe_all(
        cover.opt_ptr,
        cover.opt_items,
        cover.opt_piece,
        cover.piece_count.astype(np.int64),
        opts,
        start,
        cover.n_items,
        table,
        lengths,
        probes,
        seed,
    )
    return nodes


def subtree_sizes(
    cover: Cover, keep: np.ndarray, prefixes: list[np.ndarray], probes: int = 4, seed: int = 0
) -> np.ndarray:
    """Estimated nodes under each prefix, its own counted (options in `keep` only below
    the prefixes)."""
    if not prefixes:
        return np.zeros(0)
    sizes: np.ndarray = _paths(cover, keep, prefixes, probes, seed).mean(axis=1)
    return sizes


@dataclass
class TreeEstimate:
    """Knuth's estimate of a tree's nodes, with what it was drawn from (to print and reproduce)."""

    nodes: float  # mean over the probes of d1 + d1*d2 + ...
    stderr: float  # standard error of that mean
    probes: int
    seed: int

    def to_json(self) -> dict[str, float | int]:
        """The estimate as a JSON object (the CLI's --json shape)."""
        return {"nodes": self.nodes, "stderr": self.stderr, "probes": self.probes, "seed": self.seed}


def estimate_tree(cover: Cover, probes: int, seed: int = 0) -> TreeEstimate:
    """Knuth's estimate of the whole first-empty-item tree, the root (the empty board)
    not counted, from `probes` random paths."""
    keep = np.ones(cover.n_options, dtype=bool)
    nodes = (_paths(cover, keep, [np.zeros(0, dtype=np.int32)], probes, seed)[0] - 1.0).tolist()
    mean = math.fsum(nodes) / probes
    var = math.fsum((x - mean) ** 2 for x in nodes) / (probes - 1) if probes > 1 else 0.0
    return TreeEstimate(mean, math.sqrt(var / probes), probes, seed)
