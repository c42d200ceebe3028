"""Triangular prisms as solids, for tests/disassembly_checker.py (no polytile code): a prism
(a, b, c, z) is a unit triangle of the plane times the layer z .. z + 1. The triangle: row
y = a, x = b - c along the row, pointing up when a + b + c = 2 (its base at row y's bottom)
and down when 1; corners x / 2 .. x / 2 + 1 along the row (BurrTools' voxel (x, y, z),
polytile's prism.py note). Two prisms meet when their interiors do (the separating axis
test on the triangles, the layers overlapping); a move is sampled every quarter step."""

from __future__ import annotations

H = 3**0.5 / 2  # a row's height
EPS = 1e-9
# the unit translations: a step along a triangle's edge (a permutation of (1, -1, 0)), a layer
UNITS = {(a, b, c, 0) for a in (-1, 0, 1) for b in (-1, 0, 1) for c in (-1, 0, 1) if sorted((a, b, c)) == [-1, 0, 1]}
UNITS |= {(0, 0, 0, 1), (0, 0, 0, -1)}


def unit(v: tuple[int, ...]) -> tuple[int, ...] | None:
    """v when it is one unit translation of the grid, else None."""
    return v if tuple(v) in UNITS else None


def _solid(cell: tuple[int, ...]) -> tuple[list[tuple[float, float]], float]:
    a, b, c, z = cell
    x, y = b - c, a
    assert a + b + c in (1, 2) and (a + b + c == 2) == ((x + y) % 2 == 0), cell
    x0 = x / 2
    if a + b + c == 2:
        return [(x0, y * H), (x0 + 1, y * H), (x0 + 0.5, (y + 1) * H)], z
    return [(x0, (y + 1) * H), (x0 + 1, (y + 1) * H), (x0 + 0.5, y * H)], z


def _shift(v: tuple[int, ...], t: float) -> tuple[float, float, float]:
    """Grid translation v times t in the plane's and the layers' coordinates."""
    return ((v[1] - v[2]) / 2 * t, v[0] * H * t, v[3] * t)


def _apart(p: list[tuple[float, float]], q: list[tuple[float, float]]) -> bool:
    for poly in (p, q):
        for i in range(3):
            (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % 3]
            nx, ny = y2 - y1, x1 - x2
            pp = [nx * x + ny * y for x, y in p]
            qq = [nx * x + ny * y for x, y in q]
            if max(pp) <= min(qq) + EPS or max(qq) <= min(pp) + EPS:
                return True
    return False


def _meet(moving: set, still: set, d: tuple[float, float, float]) -> bool:
    """Whether a prism of `moving`, displaced by d, meets one of `still`."""
    solids = [_solid(c) for c in still]
    for cell in moving:
        tri, z = _solid(cell)
        tri = [(x + d[0], y + d[1]) for x, y in tri]
        cx, cy = sum(x for x, _ in tri) / 3, sum(y for _, y in tri) / 3
        for other, oz in solids:
            if abs(z + d[2] - oz) >= 1 - EPS:
                continue
            ox, oy = sum(x for x, _ in other) / 3, sum(y for _, y in other) / 3
            if (cx - ox) ** 2 + (cy - oy) ** 2 < 1.44 and not _apart(tri, other):
                return True
    return False


def step_clear(moving: set, still: set, v: tuple[int, ...]) -> bool:
    """One unit step v of `moving` meets nothing of `still` on the way (quarter steps)."""
    return not any(_meet(moving, still, _shift(v, t)) for t in (0.25, 0.5, 0.75, 1.0))


def out_clear(moving: set, still: set, v: tuple[int, ...]) -> bool:
    """`moving` travels along v until past everything of `still`, meeting nothing."""
    reach = 4 * (len(moving) + len(still) + 4)
    return not any(_meet(moving, still, _shift(v, k / 4)) for k in range(1, reach))
