"""What goes on the build plate: pieces meshed one shell each, laid out side by side, or a
solution's pieces in place (each its own shell, the gap between them).

Cell units throughout (edge 1); the writers scale by the unit in millimetres.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import sqrt

import numpy as np

from ..core.grids import Grid, fit
from .mesh import Mesh, piece_mesh

SPACING = 1.0  # cell edges between laid-out pieces (plus the gap they keep)


@dataclass
class Shell:
    """One piece's mesh and its name: the unit the writers emit (an OBJ group, part of an STL
    solid)."""

    name: str
    mesh: Mesh


def flat_down(grid: Grid, cells: np.ndarray) -> np.ndarray:
    """A solid piece (cube grid) turned (rotations only: a solid is not mirrored) to stand
    on its largest layer of cells, then as low as possible; flat pieces as they are (the
    triangle grid's three coordinates are a flat cell's too)."""
    cells = np.asarray(cells, dtype=np.int64)
    if not fit(grid, cells.shape[1]).cubic:
        return cells
    from ..core.shape import rotations

    best, score = cells, None
    for rot in rotations(3):
        turned = cells @ np.asarray(rot).T
        layer = turned[:, 2]
        s = (-int((layer == layer.min()).sum()), int(layer.max() - layer.min()))
        if score is None or s < score:
            best, score = turned - turned.min(axis=0), s
    return best


def shells(grid: Grid, named_cells: list[tuple[str, np.ndarray]], shrink: float, bevel: float) -> list[Shell]:
    """One shell per (name, cells), names made distinct (A, A-2, A-3...). Copies of a piece
    (the same cells) share one mesh, made once: the writers and the lay-out only read it."""
    seen: dict[str, int] = {}
    made: dict[tuple[tuple[int, ...], bytes], Mesh] = {}
    out = []
    for name, cells in named_cells:
        seen[name] = seen.get(name, 0) + 1
        label = name if seen[name] == 1 else f"{name}-{seen[name]}"
        key = (np.shape(cells), np.ascontiguousarray(cells).tobytes())
        if key not in made:
            made[key] = piece_mesh(grid, cells, shrink, bevel)
        out.append(Shell(label, made[key]))
    return out


def _lying_wide(s: Shell) -> Shell:
    """A shell turned a quarter about the vertical when it is deeper than wide."""
    lo, hi = s.mesh.vertices.min(axis=0), s.mesh.vertices.max(axis=0)
    if hi[1] - lo[1] <= hi[0] - lo[0] + 1e-9:
        return s
    v = s.mesh.vertices
    return Shell(s.name, Mesh(np.stack([-v[:, 1], v[:, 0], v[:, 2]], axis=1), s.mesh.faces))


def lay_out(parts: list[Shell], gap: float = 0.0) -> list[Shell]:
    """Pieces side by side on the plate (z = 0 up), each lying wider than deep, in rows
    (deepest pieces first) of about a square's width, SPACING + gap apart, none overlapping
    (their bounding boxes are disjoint). The pieces keep their order in the list."""
    parts = [_lying_wide(s) for s in parts if len(s.mesh.faces)]
    if not parts:
        return parts
    lows = [s.mesh.vertices.min(axis=0) for s in parts]
    sizes = [s.mesh.vertices.max(axis=0) - lo for s, lo in zip(parts, lows)]
    room = SPACING + gap
    width = max(max(size[0] for size in sizes), 1.25 * sqrt(sum((w + room) * (d + room) for w, d, _ in sizes)))
    x = y = row_depth = 0.0
    moved: dict[int, Shell] = {}
    for i in sorted(range(len(parts)), key=lambda i: -sizes[i][1]):
        if x > 0 and x + sizes[i][0] > width:
            x, y, row_depth = 0.0, y - row_depth - room, 0.0
        shift = np.array([x, y - sizes[i][1], 0.0]) - lows[i]
        moved[i] = Shell(parts[i].name, Mesh(parts[i].mesh.vertices + shift, parts[i].mesh.faces))
        x += sizes[i][0] + room
        row_depth = max(row_depth, sizes[i][1])
    return [moved[i] for i in range(len(parts))]


def on_plate(parts: list[Shell]) -> list[Shell]:
    """Shells moved together so that the lowest stands on z = 0."""
    low = min((s.mesh.vertices[:, 2].min() for s in parts if len(s.mesh.faces)), default=0.0)
    return [Shell(s.name, Mesh(s.mesh.vertices - np.array([0.0, 0.0, low]), s.mesh.faces)) for s in parts]
