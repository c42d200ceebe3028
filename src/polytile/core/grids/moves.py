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
    the order of the motions (then the grid's `more_images`), cells sorted (colours follow)."""
    pts = [tuple(p) for p in np.asarray(cells, dtype=np.int64).tolist()]
    cols = [0] * len(pts) if colours is None else np.asarray(colours).tolist()
    seen: dict[tuple[object, ...], tuple[np.ndarray, np.ndarray | None]] = {}
    images = [image(m, pts) for m in grid.chosen_motions(reflect)] + grid.more_images(pts, reflect)
    for img in images:
        moved = tuple(sorted(zip(grid.shift_to_origin(img), cols)))
        if moved not in seen:
            arr = np.array([c for c, _ in moved], dtype=np.int64).reshape(len(moved), grid.dim)
            col = None if colours is None else np.array([k for _, k in moved], dtype=np.int64)
            seen[moved] = (arr, col)
    return list(seen.values())


def board_permutations(grid: Grid, cells: np.ndarray, colours: np.ndarray) -> np.ndarray:
    """(|G|, n) distinct permutations of the board's cells under the motions that map the
    board (cells and colours) onto itself: row g, entry i = the index of g(cell i)."""
    pts = grid.shift_to_origin([tuple(p) for p in np.asarray(cells).tolist()])
    where = {p: i for i, p in enumerate(pts)}
    cols = np.asarray(colours).tolist()
    perms = []
    for motion in grid.motions:
        img = grid.shift_to_origin(image(motion, pts))
        perm = [where.get(p, -1) for p in img]
        if -1 not in perm and all(cols[j] == cols[i] for i, j in enumerate(perm)):
            perms.append(perm)
    return np.unique(np.array(perms, dtype=np.int64).reshape(-1, len(pts)), axis=0)
