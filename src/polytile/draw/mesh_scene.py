"""What goes on the build plate: pieces meshed one shell each, laid out side by side, or a
solution's pieces in place (each its own shell, the gap between them).

Cell units throughout (edge 1); the writers scale by the unit in millimetres.
"""
from __future__ import annotations

from dataclasses import dataclass
from math import sqrt

import numpy as np

from .mesh import Mesh, piece_mesh

SPACING = 1.0          # cell edges between laid-out pieces (plus the gap they keep)


@dataclass
class Shell:
    name: str
    mesh: Mesh


def flat_down(cells: np.ndarray) -> np.ndarray:
    """A solid piece turned (rotations only: a solid is not mirrored) to stand on its
    largest layer of cells, then as low as possible; flat pieces as they are."""
    cells = np.asarray(cells, dtype=np.int64)
    if cells.shape[1] != 3:
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


def shells(grid: str, named_cells: list[tuple[str, np.ndarray]], shrink: float, bevel: float) -> list[Shell]:
    """One shell per (name, cells), names made distinct (A, A-2, A-3...)."""
    seen: dict[str, int] = {}
    out = []
    for name, cells in named_cells:
        seen[name] = seen.get(name, 0) + 1
        label = name if seen[name] == 1 else f"{name}-{seen[name]}"
        out.append(Shell(label, piece_mesh(grid, cells, shrink, bevel)))
    return out


def lay_out(parts: list[Shell], gap: float = 0.0) -> list[Shell]:
    """Pieces side by side on the plate (z = 0 up), in rows of about a square's width,
    SPACING + gap apart, none overlapping (their bounding boxes are disjoint)."""
    boxes = [(s.mesh.vertices.min(axis=0), s.mesh.vertices.max(axis=0)) for s in parts if len(s.mesh.faces)]
    if not boxes:
        return parts
    room = SPACING + gap
    width = max(max(hi[0] - lo[0] for lo, hi in boxes),
                sqrt(sum((hi[0] - lo[0] + room) * (hi[1] - lo[1] + room) for lo, hi in boxes)))
    x = y = row_depth = 0.0
    out = []
    for s in parts:
        if not len(s.mesh.faces):
            continue
        lo, hi = s.mesh.vertices.min(axis=0), s.mesh.vertices.max(axis=0)
        if x > 0 and x + hi[0] - lo[0] > width:
            x, y, row_depth = 0.0, y - row_depth - room, 0.0
        shift = np.array([x - lo[0], y - hi[1], -lo[2]])
        out.append(Shell(s.name, Mesh(s.mesh.vertices + shift, s.mesh.faces)))
        x += hi[0] - lo[0] + room
        row_depth = max(row_depth, hi[1] - lo[1])
    return out


def on_plate(parts: list[Shell]) -> list[Shell]:
    """Shells moved together so that the lowest stands on z = 0."""
    low = min((s.mesh.vertices[:, 2].min() for s in parts if len(s.mesh.faces)), default=0.0)
    return [Shell(s.name, Mesh(s.mesh.vertices - np.array([0.0, 0.0, low]), s.mesh.faces)) for s in parts]
