"""Motions applied to shapes, on any grid: images, the canonical form, the distinct
orientations and a board's symmetries as permutations of its cells.

Plain Python on tuples (the shapes are small): the square grid's hot paths turn shapes
with numpy instead (`core.shape`, `core.symmetry`), and agree with these.
"""

from __future__ import annotations

import numpy as np

from .base import Form, Grid, Motion


def image(motion: Motion, points: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """The images of points (plain tuples) under a motion."""
    mat, off = motion
    return [tuple(t + sum(m * x for m, x in zip(row, p)) for row, t in zip(mat, off)) for p in points]


def canonical(grid: Grid, cells: Form, reflect: bool = True) -> Form:
    """The least sorted normalised image of a shape under the allowed motions: one name
    for every congruent copy, which is how forms are grown and named."""
    pts = list(cells)
    images = [image(m, pts) for m in grid.chosen_motions(reflect)] + grid.more_images(pts, reflect)
    return min(tuple(sorted(grid.shift_to_origin(img))) for img in images)


def orientations(
    grid: Grid, cells: np.ndarray, colours: np.ndarray | None, reflect: bool
) -> list[tuple[np.ndarray, np.ndarray | None]]:
    """The distinct normalised images of a shape under the grid's (proper) motions, in
    the order of the motions (then the grid's `more_images`), cells sorted (colours follow).
    The motions' images are made at once with numpy (a board of thousands of sub-voxels
    turned 48 ways took seconds as tuples)."""
    pts = np.asarray(cells, dtype=np.int64).reshape(-1, grid.dim)
    cols = np.zeros(len(pts), dtype=np.int64) if colours is None else np.asarray(colours, dtype=np.int64)
    chosen = grid.chosen_motions(reflect)
    images = list(_images(grid, chosen, pts))
    extra = grid.more_images([tuple(p) for p in pts.tolist()], reflect)
    images += [grid.to_origin(np.array(img, dtype=np.int64).reshape(-1, grid.dim)) for img in extra]
    seen: dict[bytes, tuple[np.ndarray, np.ndarray | None]] = {}
    for img in images:
        order = np.lexsort((cols, *img.T[::-1]))  # by cells, then colour (as sorted tuples)
        arr, col = np.ascontiguousarray(img[order]), cols[order]
        ident = arr.tobytes() + col.tobytes()
        if ident not in seen:
            seen[ident] = (arr, None if colours is None else col)
    return list(seen.values())


def _images(grid: Grid, motions: tuple[Motion, ...], pts: np.ndarray) -> np.ndarray:
    """(M, n, d): each motion's image of the points, normalised (`Grid.to_origin`)."""
    if not motions:
        return np.zeros((0, len(pts), grid.dim), dtype=np.int64)
    mats = np.array([m for m, _ in motions], dtype=np.int64).reshape(len(motions), grid.dim, grid.dim)
    offs = np.array([t for _, t in motions], dtype=np.int64).reshape(len(motions), 1, grid.dim)
    moved = pts[None] @ mats.transpose(0, 2, 1) + offs
    return np.stack([grid.to_origin(img) for img in moved])


def board_permutations(grid: Grid, cells: np.ndarray, colours: np.ndarray) -> np.ndarray:
    """(|G|, n) distinct permutations of the board's cells under the motions that map the
    board (cells and colours) onto itself: row g, entry i = the index of g(cell i). Each
    motion's image is looked up at once (numpy: keys in the board's box, sorted)."""
    pts = grid.to_origin(np.asarray(cells, dtype=np.int64).reshape(-1, grid.dim))
    cols = np.asarray(colours)
    n = len(pts)
    lo = pts.min(axis=0) if n else np.zeros(grid.dim, dtype=np.int64)  # (a normal form may be negative)
    dims = pts.max(axis=0) - lo + 1 if n else np.ones(grid.dim, dtype=np.int64)
    keys = np.ravel_multi_index((pts - lo).T, dims) if n else np.zeros(0, dtype=np.int64)
    order = np.argsort(keys)
    ordered = keys[order]
    perms = []
    for img in _images(grid, grid.motions, pts) - lo:
        if ((img < 0) | (img >= dims)).any():
            continue
        k = np.ravel_multi_index(img.T, dims)
        at = np.minimum(np.searchsorted(ordered, k), max(n - 1, 0))
        if n and (ordered[at] != k).any():
            continue
        perm = order[at]
        if (cols[perm] == cols).all():
            perms.append(perm)
    distinct = {p.tobytes(): p for p in perms}  # (np.unique(axis=0): 13 ms on 2,256 cells, this 0.2 ms)
    rows = sorted(distinct.values(), key=lambda p: p.tolist())  # in np.unique's order
    return np.array(rows, dtype=np.int64).reshape(-1, n)
