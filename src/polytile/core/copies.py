"""Copies in a tiling-shaped matrix: piece items whose options cover the same sets of cells.
A file that writes the k copies of a piece as k items (as `polytile convert` does, as
Knuth's examples do) has k! solutions for every way of placing the piece's shapes; a
search that tells the copies apart tries all k! orders before it learns that none leads
anywhere (13 pieces, 8 of them copies of a domino, on 28 cells: past 100 M nodes for a
puzzle with no solution). core.matrix.tiling_cover merges such items into one piece of
k copies, which the tiling kernels count once, and multiplies back."""

from __future__ import annotations

import numpy as np


def copy_groups(
    opt_piece: np.ndarray, ptr: np.ndarray, cells: np.ndarray, size: np.ndarray, mergeable: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Which pieces are copies of which. opt_piece: each option's piece; its cells are
    cells[ptr[o]:ptr[o+1]], ascending; size: each piece's option length; mergeable: the
    pieces that may be merged (bool). Returns rep (each piece's first copy: itself when it
    has none), label (its place among the copies, 0 for the first) and twin (each option's
    option of the first copy with the same cells; the i-th such when a piece has an option
    twice)."""
    n_pieces, n_options = len(size), len(opt_piece)
    rep, label = np.arange(n_pieces), np.zeros(n_pieces, dtype=np.int64)
    twin = np.arange(n_options)
    if n_options == 0 or int(mergeable.sum()) < 2:
        return rep, label, twin
    counts = np.bincount(opt_piece, minlength=n_pieces)
    by_piece = np.argsort(opt_piece, kind="stable")
    starts = np.concatenate([[0], np.cumsum(counts)])
    sums = np.bincount(opt_piece, weights=np.add.reduceat(cells.astype(np.float64), ptr[:-1]), minlength=n_pieces)
    candidates: dict[tuple[int, int, float], list[int]] = {}
    for p in np.nonzero(mergeable & (counts > 0))[0].tolist():  # a cheap key first: size, options, cell sum
        candidates.setdefault((int(size[p]), int(counts[p]), float(sums[p])), []).append(p)
    for (s, _, _), pieces in candidates.items():
        if len(pieces) < 2:
            continue
        first: dict[bytes, tuple[int, np.ndarray]] = {}
        for p in pieces:
            opts = by_piece[starts[p] : starts[p + 1]]
            rows = cells[ptr[opts][:, None] + np.arange(s)]
            order = np.lexsort(rows.T[::-1])
            opts, key = opts[order], rows[order].tobytes()
            if key not in first:
                first[key] = (p, opts)
                continue
            r, r_opts = first[key]
            label[p] = label[rep == r].max() + 1
            rep[p] = r
            twin[opts] = r_opts
    return rep, label, twin
