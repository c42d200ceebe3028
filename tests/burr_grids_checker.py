"""An independent brute force for BurrTools' grids 1-4: it reads .xmpuzzle voxel strings
itself, turns shapes as BurrTools describes them (cell centres in space, rotation matrices)
and counts every assembly by a plain search. It shares no code with polytile.

Cells are BurrTools' voxels (x, y, z) and their centres in space:
  1 prisms      (0.5 + 0.5 x, y h + (1/sqrt 3 if x + y odd else 1/sqrt 12), z), h = sqrt(3)/2;
                turned by k * 60 degrees about z, and each turn after the half turn about x;
                moved by shifts (dx, dy, dz) with dx + dy even (a triangle keeps its way up);
  2 spheres     (x, y, z) with x + y + z even; turned (about the shape's first ball) by the
                cube's 24 rotations and those after a sixth of a turn about a corner axis,
                when the balls land on the packing;
  3 rhombic     24 voxels of each 5x5x5 block (coordinates mod 5, 4 -> 0 and 3 -> 1, are 0, 1,
                2 in some order); centres (x, y, z) + 1/2 turned by the cube's 24 rotations;
                moved by multiples of 5;
  4 tetra-octa  the middle and four corners of each 3x3x3 block (voxel_4.cpp); centres turned
                by the cube's 24 rotations; moved by multiples of 3 of even block sum.
"""

from __future__ import annotations

import gzip
import math
import re
from itertools import permutations, product

H = math.sqrt(3) / 2


def read(path):
    """(grid type, shapes' filled voxels, their variable voxels ('+': may stay empty), problems
    as (result id, [(shape id, count)]))."""
    data = open(path, "rb").read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    text = data.decode("latin-1")
    grid = int(re.search(r'<gridType type="(\d+)"', text).group(1))
    shapes, variable = [], []
    for m in re.finditer(r"<voxel ([^>]*)>([^<]*)</voxel>", text):
        size = [int(re.search(rf'\b{a}="(\d+)"', m.group(1)).group(1)) for a in "xyz"]
        states = [ch for ch in m.group(2) if ch in "#+_"]
        at = [(i % size[0], i // size[0] % size[1], i // (size[0] * size[1])) for i in range(len(states))]
        shapes.append({v for v, ch in zip(at, states) if ch == "#"})
        variable.append({v for v, ch in zip(at, states) if ch == "+"})
    problems = []
    for p in re.finditer(r"<problem[^>]*>(.*?)</problem>", text, re.S):
        parts = [(int(a), int(b)) for a, b in re.findall(r'<shape id="(\d+)" count="(\d+)"', p.group(1))]
        problems.append((int(re.search(r'<result id="(\d+)"', p.group(1)).group(1)), parts))
    return grid, shapes, variable, problems


def _cube_rotations():
    out = []
    for perm in permutations(range(3)):
        for signs in product((1, -1), repeat=3):
            m = [[0.0] * 3 for _ in range(3)]
            for r, (c, s) in enumerate(zip(perm, signs)):
                m[r][c] = float(s)
            if round(_det(m)) == 1:
                out.append(m)
    return out


def _det(m):
    return (
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
        - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    )


def _mul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)] for i in range(3)]


def _turn(axis, degrees):
    """Rodrigues' rotation about `axis`."""
    n = [v / math.sqrt(sum(w * w for w in axis)) for v in axis]
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    k = [[0, -n[2], n[1]], [n[2], 0, -n[0]], [-n[1], n[0], 0]]
    return [[c * (i == j) + s * k[i][j] + (1 - c) * n[i] * n[j] for j in range(3)] for i in range(3)]


def rotations(grid):
    if grid == 1:
        turns = [_turn((0, 0, 1), 60 * k) for k in range(6)]
        return turns + [_mul(t, _turn((1, 0, 0), 180)) for t in turns]
    cube = _cube_rotations()
    if grid != 2:
        return cube
    extra = [_mul(g, _turn(axis, 60)) for axis in ((1, 1, 1), (1, 1, -1), (1, -1, 1), (-1, 1, 1)) for g in cube]
    return cube + extra


def centre(grid, v):
    x, y, z = v
    if grid == 1:
        return (0.5 + 0.5 * x, y * H + (1 / math.sqrt(3) if (x + y) % 2 else 1 / math.sqrt(12)), z)
    if grid == 2:
        return (x, y, z)
    return (x + 0.5, y + 0.5, z + 0.5)


def voxel(grid, p):
    """The voxel whose centre is p (None: no centre there)."""
    if grid == 1:
        y = math.floor(p[1] / H + 1e-9)
        x = round((p[0] - 0.5) * 2)
        z = round(p[2])
    elif grid == 2:
        x, y, z = (round(c) for c in p)
    else:
        x, y, z = (round(c - 0.5) for c in p)
    v = (x, y, z)
    return v if all(abs(a - b) < 1e-6 for a, b in zip(centre(grid, v), p)) else None


def _apply(m, p):
    return tuple(sum(m[i][j] * p[j] for j in range(3)) for i in range(3))


def orientations(grid, shape):
    """The shape's images as voxel tuples (translates of one another may repeat)."""
    cells = sorted(shape)
    first = centre(grid, cells[0]) if grid == 2 else (0.0, 0.0, 0.0)  # spheres turn about a ball
    rel = [tuple(a - b for a, b in zip(centre(grid, c), first)) for c in cells]
    out = set()
    for m in rotations(grid):
        img = [voxel(grid, _apply(m, p)) for p in rel]
        if None not in img and not (grid == 2 and any(sum(v) % 2 for v in img)):
            out.add(tuple(sorted(img)))
    return out


def is_shift(grid, d):
    if grid == 1:
        return (d[0] + d[1]) % 2 == 0
    if grid == 2:
        return sum(d) % 2 == 0
    if grid == 3:
        return all(v % 5 == 0 for v in d)
    return all(v % 3 == 0 for v in d) and sum(v // 3 for v in d) % 2 == 0


def placements(grid, board, shape):
    found = set()
    for img in orientations(grid, shape):
        for b in board:
            d = tuple(p - q for p, q in zip(b, img[0]))
            if not is_shift(grid, d):
                continue
            placed = frozenset(tuple(p + q for p, q in zip(c, d)) for c in img)
            if placed <= board:
                found.add(placed)
    return found


def count(path, problem=0):
    """Every assembly of the problem: each filled voxel of the result covered, variable ones
    maybe, every piece placed (copies of one part interchangeable), no symmetry removed."""
    grid, shapes, variable, problems = read(path)
    rid, parts = problems[problem]
    board = frozenset(shapes[rid] | variable[rid])
    left = {k: n for k, (_, n) in enumerate(parts)}
    by_cell = {c: [] for c in board}
    for k, (sid, _) in enumerate(parts):
        for pl in placements(grid, board, shapes[sid]):
            for c in pl:
                by_cell[c].append((k, pl))
    return _search(set(shapes[rid]), set(board), by_cell, left)


def _search(required, free, by_cell, left):
    if not required:
        return _rest(sorted(k for k, n in left.items() for _ in range(n)), free, by_cell, None)
    cell = min(required)
    total = 0
    for k, pl in by_cell[cell]:
        if left[k] and pl <= free:
            left[k] -= 1
            total += _search(required - pl, free - pl, by_cell, left)
            left[k] += 1
    return total


def _rest(pieces, free, by_cell, after):
    """Ways to put the pieces still left (part numbers, sorted) on variable voxels; copies
    of one part in increasing order of their placements (so each set is counted once)."""
    if not pieces:
        return 1
    k, more = pieces[0], pieces[1:]
    places = sorted({tuple(sorted(pl)) for c in free for j, pl in by_cell[c] if j == k and pl <= free})
    total = 0
    for pl in places:
        if after is None or pl > after:
            total += _rest(more, free - set(pl), by_cell, pl if more and more[0] == k else None)
    return total


def congruent(grid, a, b):
    """Whether shape b is a turned and shifted copy of shape a."""
    target = frozenset(b)
    if len(a) != len(b):
        return False
    for img in orientations(grid, a):
        d = tuple(p - q for p, q in zip(min(target), min(img)))
        if is_shift(grid, d) and frozenset(tuple(p + q for p, q in zip(c, d)) for c in img) == target:
            return True
    return False
