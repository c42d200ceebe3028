"""A matrix in a tiling's form (core.matrix.tiling_cover): the Cover the tiling kernels
search, whose pieces may come in copies, and the way back to the matrix's options.

Copies: piece items whose options cover the same sets of cells. A file that writes the k
copies of a piece as k items (as `polytile convert` does, as Knuth's examples do) has k!
solutions for every way of placing the piece's shapes (k!/(k-j)! when j of k optional
copies are used); a search that tells the copies apart tries all those orders before it
learns that none leads anywhere (13 pieces, 8 of them copies of a domino, on 28 cells: past
100 M nodes for a puzzle with no solution). The Cover holds them as one piece of k copies,
which the kernels place once; `splits` says how to multiply back, `expand` lists."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Iterator

import numpy as np

from .cover import Cover

MAX_SPLITS = 256  # searches one count may take (optional copies: one per choice of how many)


@dataclass
class TilingForm:
    """The Cover (its pieces with copies are the matrix's piece items that cover the same
    cells), back[o, c]: the matrix's option of Cover option o placed by copy c (-1: no
    such copy), and `short`: why there is no solution, known from the pieces' sizes."""

    cover: Cover
    back: np.ndarray
    short: str | None = None

    @property
    def factor(self) -> int | None:
        """How many matrix solutions each Cover solution is when every copy is required:
        k! for a piece of k copies; None when some copies are optional (see splits)."""
        k, least = self.cover.piece_count, self.cover.piece_min
        if ((least < k) & (k > 1)).any():
            return None
        return math.prod(math.factorial(int(c)) for c in k.tolist())

    def splits(self) -> list[tuple[np.ndarray, np.ndarray, int]]:
        """The searches that count the matrix: for each choice of how many copies j of
        each piece with optional copies are used, whose area may fill the cells, the
        Cover's piece counts and minimums (j copies, all required) and the matrix
        solutions each of its solutions is (k!/(k-j)! for j of k copies; k! when all
        are required)."""
        k, least, size = self.cover.piece_count, self.cover.piece_min, self.cover.piece_size
        free = np.nonzero((least < k) & (k > 1))[0].tolist()
        fixed = int((size * least).sum())
        spare = int((size * (k - least))[k == 1].sum())  # single optional pieces
        base = math.prod(math.factorial(int(c)) for c in k[least == k].tolist())
        out = []
        for used in itertools.product(*(range(int(k[p]) + 1) for p in free)):
            area = fixed + sum(int(size[p]) * j for p, j in zip(free, used))
            if area <= self.cover.n_items <= area + spare:
                counts, minimum = k.copy(), least.copy()
                counts[free] = minimum[free] = used
                weight = base * math.prod(math.perm(int(k[p]), j) for p, j in zip(free, used))
                out.append((counts, minimum, weight))
        return out

    def expand(self, found: np.ndarray) -> Iterator[np.ndarray]:
        """The matrix solutions (sorted option numbers) of one Cover solution: the
        copies of each piece in every order."""
        found = np.asarray(found, dtype=np.int64)
        pieces = self.cover.opt_piece[found]
        many = self.cover.piece_count[pieces] > 1
        single = self.back[found[~many], 0]
        groups = [(found[pieces == p], int(self.cover.piece_count[p])) for p in np.unique(pieces[many]).tolist()]
        orders = [itertools.permutations(range(k), len(g)) for g, k in groups]
        for labels in itertools.product(*orders):
            parts = [single] + [self.back[g, list(order)] for (g, _), order in zip(groups, labels)]
            yield np.sort(np.concatenate(parts))


def copy_groups(
    opt_piece: np.ndarray, ptr: np.ndarray, cells: np.ndarray, size: np.ndarray, kind: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Which pieces are copies of which. opt_piece: each option's piece; its cells are
    cells[ptr[o]:ptr[o+1]], ascending; size: each piece's option length; kind: pieces of
    one kind may be copies of each other (-1: of none). Returns rep (each piece's first
    copy: itself when it has none), label (its place among the copies, 0 for the first)
    and twin (each option's option of the first copy with the same cells; the i-th such
    when a piece has an option twice)."""
    n_pieces, n_options = len(size), len(opt_piece)
    rep, label = np.arange(n_pieces), np.zeros(n_pieces, dtype=np.int64)
    twin = np.arange(n_options)
    if n_options == 0 or int((kind >= 0).sum()) < 2:
        return rep, label, twin
    counts = np.bincount(opt_piece, minlength=n_pieces)
    by_piece = np.argsort(opt_piece, kind="stable")
    starts = np.concatenate([[0], np.cumsum(counts)])
    sums = np.bincount(opt_piece, weights=np.add.reduceat(cells.astype(np.float64), ptr[:-1]), minlength=n_pieces)
    candidates: dict[tuple[int, int, int, float], list[int]] = {}
    for p in np.nonzero((kind >= 0) & (counts > 0))[0].tolist():  # a cheap key first: size, options, cell sum
        candidates.setdefault((int(kind[p]), int(size[p]), int(counts[p]), float(sums[p])), []).append(p)
    for (_, s, _, _), pieces in candidates.items():
        if len(pieces) < 2:
            continue
        first: dict[bytes, tuple[int, np.ndarray]] = {}
        copies: dict[int, int] = {}
        for p in pieces:
            opts = by_piece[starts[p] : starts[p + 1]]
            rows = cells[ptr[opts][:, None] + np.arange(s)]
            order = np.lexsort(rows.T[::-1])
            opts, key = opts[order], rows[order].tobytes()
            if key not in first:
                first[key] = (p, opts)
                continue
            r, r_opts = first[key]
            copies[r] = label[p] = copies.get(r, 0) + 1
            rep[p] = r
            twin[opts] = r_opts
    return rep, label, twin
