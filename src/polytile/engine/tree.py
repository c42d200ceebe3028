"""The search tree in parts, for parallel counts: `split` grows prefixes (the options
placed first) level by level along the first-empty-item tree; `subtree_sizes` is Knuth's
estimate of the nodes under each prefix (random paths down, each giving d1 + d1*d2 + ...,
unbiased). The estimates hand out the biggest parts first and turn parts done into an
ETA. The kernels prune more (dead regions), so the figures are high in scale; their
ratios are what matters here."""
from __future__ import annotations

import numpy as np
from .kernels import njit     # numba imported only when its JIT is needed (see kernels.py)

from ..core.cover import Cover
from .runner import lists_by_first_item


@njit(cache=True, inline="always")
def _place(o, opt_ptr, opt_items, opt_piece, covered, left):
    for t in range(opt_ptr[o], opt_ptr[o + 1]):
        covered[opt_items[t]] = True
    left[opt_piece[o]] -= 1


@njit(cache=True, inline="always")
def _start(k, prefixes, lengths, piece_count, opt_ptr, opt_items, opt_piece, covered, left):
    """Cover the items of prefix k; the first item it leaves uncovered (or n_items)."""
    covered[:] = False
    left[:] = piece_count
    for j in range(lengths[k]):
        _place(prefixes[k, j], opt_ptr, opt_items, opt_piece, covered, left)
    return _next_empty(0, covered)


@njit(cache=True, inline="always")
def _next_empty(first, covered):
    while first < len(covered) and covered[first]:
        first += 1
    return first


@njit(cache=True, inline="always")
def _fitting(first, opt_ptr, opt_items, opt_piece, list_opts, list_start, covered, left, fit):
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


@njit(cache=True, nogil=True)
def _probe_all(opt_ptr, opt_items, opt_piece, piece_count, list_opts, list_start, n_items,
               prefixes, lengths, probes, seed):
    np.random.seed(seed)
    out = np.zeros(len(lengths))
    covered = np.zeros(n_items, np.bool_)
    left = np.empty_like(piece_count)
    fit = np.empty(len(list_opts) + 1, np.int64)
    for k in range(len(lengths)):
        total = 0.0
        for _ in range(probes):
            first = _start(k, prefixes, lengths, piece_count, opt_ptr, opt_items, opt_piece,
                           covered, left)
            weight = 1.0
            nodes = 1.0
            while first < n_items:
                d = _fitting(first, opt_ptr, opt_items, opt_piece, list_opts, list_start,
                             covered, left, fit)
                if d == 0:
                    break
                weight *= d
                nodes += weight
                _place(fit[np.random.randint(d)], opt_ptr, opt_items, opt_piece, covered, left)
                first = _next_empty(first, covered)
            total += nodes
        out[k] = total / probes
    return out


@njit(cache=True, nogil=True)
def _grow(opt_ptr, opt_items, opt_piece, piece_count, list_opts, list_start, n_items,
          prefixes, lengths):
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
        first = _start(k, prefixes, lengths, piece_count, opt_ptr, opt_items, opt_piece,
                       covered, left)
        d = 0
        if first < n_items:
            d = _fitting(first, opt_ptr, opt_items, opt_piece, list_opts, list_start,
                         covered, left, fit)
        need = n + max(1, d)
        if need > len(out):
            bigger = np.full((2 * need, width), -1, np.int32)
            bigger[:n] = out[:n]
            out = bigger
            longer = np.zeros(2 * need, np.int64)
            longer[:n] = out_len[:n]
            out_len = longer
        if first == n_items:
            out[n, :lengths[k]] = prefixes[k, :lengths[k]]
            out_len[n] = lengths[k]
            n += 1
        for i in range(d):
            out[n, :lengths[k]] = prefixes[k, :lengths[k]]
            out[n, lengths[k]] = fit[i]
            out_len[n] = lengths[k] + 1
            n += 1
    return out[:n], out_len[:n]


def _table(prefixes: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    width = max(1, max(len(p) for p in prefixes))
    table = np.full((len(prefixes), width), -1, dtype=np.int32)
    lengths = np.zeros(len(prefixes), dtype=np.int64)
    for i, p in enumerate(prefixes):
        table[i, :len(p)] = p
        lengths[i] = len(p)
    return table, lengths


def split(cover: Cover, keep: np.ndarray, prefixes: list[np.ndarray], want: int,
          max_depth: int = 6) -> list[np.ndarray]:
    """Extend the prefixes by the options that fill the first uncovered item, level by
    level, until there are at least `want` of them (kept options only below the given
    prefixes; dead ends dropped). Together they cover the same tree."""
    opts, start = lists_by_first_item(cover, keep)
    table, lengths = _table(prefixes)
    count = cover.piece_count.astype(np.int64)
    for _ in range(max_depth):
        if len(lengths) >= want or len(lengths) == 0:
            break
        table, lengths = _grow(cover.opt_ptr, cover.opt_items, cover.opt_piece, count, opts, start,
                               cover.n_items, table, lengths)
    return [table[i, :lengths[i]].copy() for i in range(len(lengths))]


def subtree_sizes(cover: Cover, keep: np.ndarray, prefixes: list[np.ndarray], probes: int = 4,
                  seed: int = 0) -> np.ndarray:
    """Estimated nodes under each prefix (options in `keep` only below the prefixes)."""
    if not prefixes:
        return np.zeros(0)
    opts, start = lists_by_first_item(cover, keep)
    table, lengths = _table(prefixes)
    return _probe_all(cover.opt_ptr, cover.opt_items, cover.opt_piece,
                      cover.piece_count.astype(np.int64), opts, start, cover.n_items, table,
                      lengths, probes, seed)
