"""An independent reader and checker of BurrTools .xmpuzzle files for the tests: it shares
no code with polytile (the standard library's XML parser, written from BurrTools' own
sources: src/lib/voxel.cpp for voxel strings, problem.cpp for counts and colour pairs,
assembly.cpp for stored assemblies, tabs_0/rotmatrix.inc for the rotations).

A solution is a list of (piece name, cells): the cells are result voxels (x, y, z) counted
from the result's least corner; the piece name is the shape's name or S<id+1>, as
polytile names the pieces of a problem."""

from __future__ import annotations

import gzip
import xml.etree.ElementTree as ET
from itertools import permutations, product

# BurrTools' 24 cube rotations (rotmatrix.inc, first 24 rows), for stored assemblies
ROT = [
    (1, 0, 0, 0, 1, 0, 0, 0, 1),
    (1, 0, 0, 0, 0, -1, 0, 1, 0),
    (1, 0, 0, 0, -1, 0, 0, 0, -1),
    (1, 0, 0, 0, 0, 1, 0, -1, 0),
    (0, 0, -1, 0, 1, 0, 1, 0, 0),
    (0, -1, 0, 0, 0, -1, 1, 0, 0),
    (0, 0, 1, 0, -1, 0, 1, 0, 0),
    (0, 1, 0, 0, 0, 1, 1, 0, 0),
    (-1, 0, 0, 0, 1, 0, 0, 0, -1),
    (-1, 0, 0, 0, 0, -1, 0, -1, 0),
    (-1, 0, 0, 0, -1, 0, 0, 0, 1),
    (-1, 0, 0, 0, 0, 1, 0, 1, 0),
    (0, 0, 1, 0, 1, 0, -1, 0, 0),
    (0, 1, 0, 0, 0, -1, -1, 0, 0),
    (0, 0, -1, 0, -1, 0, -1, 0, 0),
    (0, -1, 0, 0, 0, 1, -1, 0, 0),
    (0, -1, 0, 1, 0, 0, 0, 0, 1),
    (0, 0, 1, 1, 0, 0, 0, 1, 0),
    (0, 1, 0, 1, 0, 0, 0, 0, -1),
    (0, 0, -1, 1, 0, 0, 0, -1, 0),
    (0, 1, 0, -1, 0, 0, 0, 0, 1),
    (0, 0, -1, -1, 0, 0, 0, 1, 0),
    (0, -1, 0, -1, 0, 0, 0, 0, -1),
    (0, 0, 1, -1, 0, 0, 0, -1, 0),
]


def _apply(m, c):
    return (
        m[0] * c[0] + m[1] * c[1] + m[2] * c[2],
        m[3] * c[0] + m[4] * c[1] + m[5] * c[2],
        m[6] * c[0] + m[7] * c[1] + m[8] * c[2],
    )


def rotations():
    """The 24 proper rotations as 3x3 tuples (independently of BurrTools' order)."""
    out = []
    for perm in permutations(range(3)):
        for signs in product((1, -1), repeat=3):
            m = [0] * 9
            for row in range(3):
                m[3 * row + perm[row]] = signs[row]
            inv = sum(1 for i in range(3) for j in range(i + 1, 3) if perm[i] > perm[j])
            if (-1) ** inv * signs[0] * signs[1] * signs[2] == 1:
                out.append(tuple(m))
    return out


def voxels(el):
    """{(x, y, z): (state, colour)} of the non-empty voxels of a <voxel> element."""
    sx, sy = int(el.get("x")), int(el.get("y"))
    out, i = {}, -1
    cells = []
    for ch in (el.text or "").strip():
        if ch in "#+_":
            i += 1
            cells.append([ch, 0])
        else:
            cells[-1][1] = cells[-1][1] * 10 + int(ch)
    for i, (state, colour) in enumerate(cells):
        if state != "_":
            out[(i % sx, i // sx % sy, i // (sx * sy))] = (state, colour)
    return out


def read(path, problem: int = 0):
    """(result {cell: (state, colour)}, pieces {name: (cells {cell: colour}, min, max)},
    colour pairs {(piece colour, result colour)}, number of colours, the problem element)."""
    data = open(path, "rb").read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    root = ET.fromstring(data)
    shapes = root.find("shapes").findall("voxel")
    prob = root.find("problems").findall("problem")[problem]
    res = voxels(shapes[int(prob.find("result").get("id"))])
    lo = [min(c[a] for c in res) for a in range(3)]
    res = {tuple(c[a] - lo[a] for a in range(3)): v for c, v in res.items()}
    pieces = {}
    for part in prob.find("shapes").findall("shape"):
        sid = int(part.get("id"))
        lo_n = int(part.get("count", part.get("min", 1)))
        hi_n = int(part.get("count", part.get("max", 1)))
        el = shapes[sid]
        cells = {c: col for c, (state, col) in voxels(el).items() if state == "#"}
        pieces[el.get("name") or f"S{sid + 1}"] = (cells, lo_n, hi_n)
    bitmap = prob.find("bitmap")
    pairs = {
        (int(p.get("piece")) + 1, int(p.get("result")) + 1) for p in ([] if bitmap is None else bitmap.findall("pair"))
    }
    colours = root.find("colors")
    n_colours = 0 if colours is None else len(colours.findall("color"))
    return res, pieces, pairs, n_colours, prob


def _allowed(piece_colour, result_colour, pairs, n_colours) -> bool:
    return n_colours == 0 or piece_colour == 0 or result_colour == 0 or (piece_colour, result_colour) in pairs


def check(path, solution, problem: int = 0) -> None:
    """Raise AssertionError unless `solution` is an assembly of the problem: pieces are
    rotations of their shapes on result voxels (colours allowed), no voxel twice, every
    '#' voxel covered, each shape used within its min..max."""
    res, pieces, pairs, n_colours, _ = read(path, problem)
    covered = {}
    used = {name: 0 for name in pieces}
    for name, cells in solution:
        cells = [tuple(c) for c in cells]
        assert name in pieces, f"{name} is no piece of the problem"
        shape, _, _ = pieces[name]
        for c in cells:
            assert c in res, f"{name} covers {c}, no result voxel"
            assert c not in covered, f"{c} covered twice"
            covered[c] = name
        assert _placed_as(shape, cells, res, pairs, n_colours), f"{name} at {cells} is no rotation of it"
        used[name] += 1
    missing = [c for c, (state, _) in res.items() if state == "#" and c not in covered]
    assert not missing, f"result voxels left empty: {missing[:5]}"
    for name, (_, lo, hi) in pieces.items():
        assert lo <= used[name] <= hi, f"{name} used {used[name]} times, allowed {lo}..{hi}"


def _placed_as(shape, cells, res, pairs, n_colours) -> bool:
    target = set(cells)
    for m in rotations():
        turned = {_apply(m, c): col for c, col in shape.items()}
        shift = [min(c[a] for c in target) - min(c[a] for c in turned) for a in range(3)]
        moved = {tuple(c[a] + shift[a] for a in range(3)): col for c, col in turned.items()}
        if set(moved) == target and all(_allowed(col, res[c][1], pairs, n_colours) for c, col in moved.items()):
            return True
    return False


def stored(path, problem: int = 0) -> list:
    """The assemblies stored in the problem, decoded: lists of (piece name, cells) with
    cell = position + M_t (voxel) (assembly.cpp, voxel_0.cpp)."""
    _, pieces, _, _, prob = read(path, problem)
    slots = [name for name, (_, _, hi) in pieces.items() for _ in range(hi)]
    out = []
    for sol in prob.find("solutions") or []:
        words = sol.find("assembly").text.split()
        placed, k = [], 0
        for name in slots:
            if words[k] == "x":
                k += 1
                continue
            x, y, z, t = (int(w) for w in words[k : k + 4])
            k += 4
            cells = sorted(tuple(p + q for p, q in zip(_apply(ROT[t], c), (x, y, z))) for c in pieces[name][0])
            placed.append((name, cells))
        assert k == len(words), "assembly longer than its slots"
        out.append(placed)
    return out
