"""Figures for people studying a puzzle: how many solutions; where each piece goes (corners,
edges, its favourite placements); the cells hardest to cover; how hard the search is.

The board's boundary. A cell is *exposed* along an axis when one of its two neighbours on
that axis is missing (outside the board, or a hole). In d dimensions a cell is a *corner*
when it is exposed along all d axes (2D: two axes; 3D: three, a corner of a box), on an
*edge* when exposed along at least d-1 axes (2D: every boundary cell, next to a hole too;
3D: the edges of a box, corners included), and on a *face* (3D only) when exposed along
at least one axis. A cell that touches a hole only diagonally is not exposed, so a hole's
corners are edges of the board, not corners.

The search tree is the kernels' first-empty-cell search, its size Knuth's estimate from
random root-to-leaf paths (`engine.tree.estimate_tree`; the root, the empty board, is not
counted).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from ..core.cover import Cover, Model
from ..core.results import Solution, piece_letters
from ..engine.tree import TreeEstimate, estimate_tree
from ..tiling.solver import Tiling

if TYPE_CHECKING:
    from ..core.results import Report
    from ..core.symmetry import Symmetry

TOP_PLACEMENTS = 3
HARDEST = 5
MAX_SOLUTIONS = 200_000  # per-piece figures over at most this many solutions
PROBES = 10_000  # random paths for the tree estimate (about 5 us each on 6x10)
ACTUAL_MAX_NODES = 1e8  # count the whole tree for comparison only up to about this size


# --- the board's boundary -----------------------------------------------------------------


def exposure(cells: np.ndarray) -> np.ndarray:
    """Per cell, the number of axes along which a neighbour is missing."""
    lo = cells.min(axis=0) - 1
    on = np.zeros(tuple(cells.max(axis=0) - lo + 2), dtype=bool)  # a blank margin all round
    at = cells - lo
    on[tuple(at.T)] = True
    out = np.zeros(len(cells), dtype=np.int64)
    for a in range(cells.shape[1]):
        step = np.zeros(cells.shape[1], dtype=np.int64)
        step[a] = 1
        out += ~(on[tuple((at + step).T)] & on[tuple((at - step).T)])
    return out


def boundary(cells: np.ndarray) -> dict[str, np.ndarray | None]:
    """Boolean masks of the corner, edge and (3D) face cells; see the module docstring."""
    d = cells.shape[1]
    e = exposure(cells)
    return {"corner": e >= d, "edge": e >= d - 1, "face": (e >= 1) if d >= 3 else None}


# --- the cover -----------------------------------------------------------------------------


def placements_per_item(cover: Cover) -> np.ndarray:
    """How many options cover each item: the fewer, the harder the cell is to fill."""
    return np.bincount(cover.opt_items, minlength=cover.n_items)


def hardest_cells(model: Model, k: int = HARDEST) -> list[tuple[tuple[int, ...], int]]:
    """The k cells with the fewest placements covering them (ties in coordinate order)."""
    counts = placements_per_item(model.cover)
    cells = model.cells
    order = np.lexsort([cells[:, a] for a in reversed(range(cells.shape[1]))] + [counts])
    return [(tuple(int(x) for x in cells[i]), int(counts[i])) for i in order[:k]]


def _padded_rows(first: np.ndarray, items: np.ndarray, lengths: np.ndarray, width: int, pad: int) -> np.ndarray:
    """Rows [first, sorted items..., pad...] as one comparable key (a void scalar) per row."""
    rows = np.full((len(lengths), width + 1), pad, dtype=np.int64)
    rows[:, 0] = first
    owner = np.repeat(np.arange(len(lengths)), lengths)
    col = np.arange(len(items)) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    rows[owner, 1 + col] = items
    rows[:, 1:].sort(axis=1)
    rows = np.ascontiguousarray(rows)
    return rows.view(np.dtype((np.void, 8 * (width + 1)))).ravel()


def solution_options(model: Model, solutions: list[Solution]) -> np.ndarray:
    """The option ids of listed solutions: (n_solutions, most pieces), -1 padded. A placement
    is its piece (by name) and its set of cells."""
    cells, cover = model.cells, model.cover
    placed = [pl for s in solutions for pl in s.placements]
    per = np.array([len(s.placements) for s in solutions], dtype=np.int64)
    out = np.full((len(solutions), int(per.max(initial=0))), -1, dtype=np.int64)
    if not placed:
        return out
    lo = cells.min(axis=0)
    grid = np.full(tuple(cells.max(axis=0) - lo + 1), -1, dtype=np.int64)
    grid[tuple((cells - lo).T)] = np.arange(len(cells))
    names = [p.name for p in model.puzzle.pieces]
    by_name = len(set(names)) == len(names)  # else match cell-sets alone
    piece_of = {name: i if by_name else 0 for i, name in enumerate(names)}
    opt_len = np.diff(cover.opt_ptr)
    width = int(opt_len.max())
    opt_first = cover.opt_piece if by_name else np.zeros(cover.n_options, dtype=np.int64)
    opt_keys = _padded_rows(opt_first, cover.opt_items, opt_len, width, cover.n_items)
    lengths = np.array([len(pl.cells) for pl in placed], dtype=np.int64)
    items = grid[tuple((np.concatenate([pl.cells for pl in placed]) - lo).T)]
    keys = _padded_rows(np.array([piece_of[pl.piece] for pl in placed]), items, lengths, width, cover.n_items)
    order = np.argsort(opt_keys)
    at = order[np.minimum(np.searchsorted(opt_keys[order], keys), len(order) - 1)]
    if (opt_keys[at] != keys).any():
        raise ValueError("a listed placement is not an option of the cover")
    row = np.repeat(np.arange(len(solutions)), per)
    col = np.arange(len(placed)) - np.repeat(np.cumsum(per) - per, per)
    out[row, col] = at
    return out


# --- per piece -----------------------------------------------------------------------------


@dataclass
class PieceStats:
    """One piece's figures over the solutions examined: where it can go, how often it is
    used, whether it touches the board's corners, edges and faces, its favourite placements."""

    piece: str  # name (the first of congruent pieces merged as copies)
    letter: str  # as `solve` draws it (with copies, solve letters each
    # placement apart; this letter names the kind)
    copies: int
    size: int
    placements: int  # distinct placements on the board
    used: int  # solutions that use the piece (all, unless the puzzle is partial)
    touches: dict[str, int | None]  # corner/edge/face: solutions in which some copy touches one
    top: list[tuple[np.ndarray, int, int]] = field(default_factory=list)
    # (cells, solutions using them, symmetric images), one per class of placements

    def to_json(self) -> dict[str, Any]:
        """The piece's figures as `stats --json` prints them."""
        return {
            "piece": self.piece,
            "letter": self.letter,
            "copies": self.copies,
            "size": self.size,
            "placements": self.placements,
            "used": self.used,
            **self.touches,
            "top_placements": [{"cells": c.tolist(), "solutions": n, "images": m} for c, n, m in self.top],
        }


def placement_classes(model: Model, sym: Symmetry | None) -> tuple[np.ndarray, np.ndarray]:
    """Per option, its class under the symmetries of the whole puzzle (those that map every
    piece's placements onto its own, so they map solutions to solutions) and the class's
    size. A class is named by its smallest option."""
    n = model.cover.n_options
    if sym is None or n == 0:
        return np.arange(n), np.ones(n, dtype=np.int64)
    motions = [g for g in range(sym.order) if (sym.g_exact >> g) & 1]
    label_opt = np.full(sym.label_img.shape[1], -1, dtype=np.int64)
    label_opt[sym.opt_label] = np.arange(n)
    images = label_opt[sym.label_img[motions][:, sym.opt_label]]  # (|motions|, n)
    images = np.sort(images, axis=0)
    size = 1 + (np.diff(images, axis=0) != 0).sum(axis=0)
    return images[0], size


def piece_stats(
    model: Model, sols: np.ndarray, sym: Symmetry | None = None, k: int = TOP_PLACEMENTS
) -> list[PieceStats]:
    """Per piece, over the solutions `sols` (option ids, -1 padded): in how many it touches a
    corner / an edge / a face cell, and its k most used placements, one per class under the
    board's symmetries `sym` (when all solutions are listed, the placements of a class are
    used equally often)."""
    cover, pieces = model.cover, model.puzzle.pieces
    letters = piece_letters(model.puzzle)
    kinds = boundary(model.cells)
    lens = np.diff(cover.opt_ptr)
    owner = np.repeat(np.arange(cover.n_options), lens)
    rows, cols = np.nonzero(sols >= 0)
    opts = sols[rows, cols]
    used = np.bincount(opts, minlength=cover.n_options)
    in_solution = np.zeros((len(sols), len(pieces)), dtype=bool)
    in_solution[rows, cover.opt_piece[opts]] = True
    n_used = in_solution.sum(axis=0)
    touches: dict[str, np.ndarray | None] = {}
    for kind, mask in kinds.items():
        if mask is None:
            touches[kind] = None
            continue
        hits = np.zeros(cover.n_options, dtype=bool)
        hits[owner[mask[cover.opt_items]]] = True  # option covers such a cell
        seen = np.zeros((len(sols), len(pieces)), dtype=bool)
        sel = hits[opts]
        seen[rows[sel], cover.opt_piece[opts[sel]]] = True
        touches[kind] = seen.sum(axis=0)
    placements = np.bincount(cover.opt_piece, minlength=len(pieces))
    cls, size = placement_classes(model, sym)
    out = []
    for p, piece in enumerate(pieces):
        mine = np.nonzero((cover.opt_piece == p) & (used > 0))[0]
        top: list[tuple[np.ndarray, int, int]] = []
        classes: set[int] = set()
        for o in mine[np.lexsort((mine, -used[mine]))]:
            if len(top) == k:
                break
            if cls[o] not in classes:
                classes.add(int(cls[o]))
                top.append((model.cells[cover.option_items(o)], int(used[o]), int(size[o])))
        out.append(
            PieceStats(
                piece.name,
                letters[p],
                piece.count,
                piece.size,
                int(placements[p]),
                int(n_used[p]),
                {kind: None if t is None else int(t[p]) for kind, t in touches.items()},
                top,
            )
        )
    return out


# --- everything together -------------------------------------------------------------------


@dataclass
class Stats:
    """Every figure `stats` gives about a puzzle: counts, the pieces' figures, the hardest
    cells, and how hard the search is (nodes to the first solution, the tree's size)."""

    source: str
    dim: int
    shape: list[int]  # the board's bounding box
    cells: int
    reflect: bool
    solutions: int
    unique: int | None
    examined: int  # solutions the per-piece figures are over
    boundary_cells: dict[str, int | None]
    pieces: list[PieceStats]
    hardest: list[tuple[tuple[int, ...], int]]
    first_nodes: int | None  # nodes to the first solution (the whole tree if none; None: cut short first)
    first_seconds: float
    estimate: TreeEstimate
    tree_nodes: int | None  # the kernel's whole tree, when counted
    engine: str
    reasons: list[str]
    seconds: dict[str, float]
    counted: bool = True  # `solutions` and `unique` are the whole counts (not a time limit's lower bounds)
    timed_out: bool = False  # a search stopped at the time limit

    @property
    def complete(self) -> bool:
        """The per-piece figures are over every solution, not the first `examined` of them."""
        return self.counted and self.examined == self.solutions

    def to_json(self) -> dict[str, Any]:
        """The figures as `stats --json` prints them and the page reads them."""
        return {
            "puzzle": self.source,
            "dim": self.dim,
            "shape": self.shape,
            "cells": self.cells,
            "reflect": self.reflect,
            "solutions": self.solutions,
            "unique": self.unique,
            "examined": self.examined,
            "complete": self.complete,
            "counted": self.counted,
            "timed_out": self.timed_out,
            "boundary_cells": self.boundary_cells,
            "pieces": [p.to_json() for p in self.pieces],
            "hardest_cells": [{"cell": list(c), "placements": n} for c, n in self.hardest],
            "difficulty": {
                "nodes_to_first": self.first_nodes,
                "seconds_to_first": round(self.first_seconds, 6),
                "tree_estimate": self.estimate.to_json(),
                "tree_nodes": self.tree_nodes,
                "engine": self.engine,
            },
            "reasons": self.reasons,
            "seconds": {k: round(v, 6) for k, v in self.seconds.items()},
        }


class Interrupted(Exception):
    """Ctrl-C during one of the searches."""


def _checked(report: Report[Solution]) -> Report[Solution]:
    if report.interrupted:
        raise Interrupted()
    return report


def _clock(time_limit: float | None) -> Callable[..., float | None]:
    """left(most=None): the seconds left of `time_limit` from now (None: no limit), at most `most`."""
    deadline = None if time_limit is None else time.perf_counter() + time_limit

    def left(most: float | None = None) -> float | None:
        rest = None if deadline is None else max(0.0, deadline - time.perf_counter())
        return most if rest is None else rest if most is None else min(most, rest)

    return left


def _tree_nodes(
    tiling: Tiling,
    counted: Report[Solution],
    listed: Report[Solution],
    est: TreeEstimate,
    max_solutions: int,
    time_limit: float | None,
    seconds: dict[str, float],
) -> tuple[int | None, str]:
    """The kernel's whole tree (None: refuted before any search, or too large to count in
    the time left) and the engine that searched it."""
    if counted.reasons:
        return None, listed.engine
    if listed.complete and len(listed.found) <= max_solutions:
        return listed.nodes, listed.engine  # the enumeration searched the whole tree
    if est.nodes <= ACTUAL_MAX_NODES and time_limit != 0.0:
        full = _checked(tiling.count(breaking=False, time_limit=time_limit, memo=False))
        if full.complete:
            seconds["tree"] = full.seconds
            return full.nodes, full.engine
    return None, listed.engine


def collect(
    tiling: Tiling,
    max_solutions: int = MAX_SOLUTIONS,
    probes: int = PROBES,
    seed: int = 0,
    time_limit: float | None = None,
) -> Stats:
    """Run the searches and gather every figure. The per-piece figures are over the first
    `max_solutions` solutions the search finds. With a `time_limit` (seconds, all searches
    together) a search that reaches it gives its figures so far and `timed_out` is set."""
    seconds: dict[str, float] = {}
    left = _clock(time_limit)
    counted = _checked(tiling.count(unique=True, time_limit=left()))
    seconds["count"] = counted.seconds
    listed = _checked(tiling.solve(limit=max_solutions + 1, time_limit=left()))  # one more: do we have them all?
    found = listed.found[:max_solutions]
    seconds["enumerate"] = listed.seconds
    first = _checked(tiling.solve(limit=1, time_limit=left()))
    model = tiling.model()

    t0 = time.perf_counter()
    sols = solution_options(model, found)
    pieces = piece_stats(model, sols, tiling.symmetry() if len(found) else None)
    hardest = hardest_cells(model)
    kinds = boundary(model.cells)
    seconds["analyse"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    est = estimate_tree(model.cover, probes, seed)
    seconds["probes"] = time.perf_counter() - t0

    tree_nodes, engine = _tree_nodes(tiling, counted, listed, est, max_solutions, left(60.0), seconds)
    engine = engine or first.engine
    timed_out = counted.timed_out or listed.timed_out or first.timed_out

    puzzle = model.puzzle
    return Stats(
        source=puzzle.source,
        dim=puzzle.dim,
        shape=[int(x) + 1 for x in model.cells.max(axis=0) - model.cells.min(axis=0)],
        cells=len(model.cells),
        reflect=puzzle.allow_reflection,
        solutions=counted.solutions,
        unique=counted.unique,
        examined=len(found),
        boundary_cells={k: None if m is None else int(m.sum()) for k, m in kinds.items()},
        pieces=pieces,
        hardest=hardest,
        first_nodes=None if first.timed_out and not first.found else first.nodes,
        first_seconds=first.seconds,
        estimate=est,
        tree_nodes=tree_nodes,
        engine=engine,
        reasons=list(counted.reasons),
        seconds=seconds,
        counted=counted.complete,
        timed_out=timed_out,
    )
