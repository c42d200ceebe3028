"""An independent solution checker: it reads the puzzle files itself and shares no code
with polytile. A solution is a list of (piece name, cells) with cells in the board's
coordinates (the board translated so its minimum corner is the origin; on the triangle
and hex grids any translation of the board is accepted).

Triangle and hex grids (JSON "grid"), from the documented coordinates only: a triangle
(a, b, c) is the region between grid lines whose corners are the lattice points (A, B, C),
A + B + C = 3, with A >= a, B >= b, C >= c, so a cell is the least corner of its three
corners; motions act on the corners as points (u, v) = (A, B) of the plane lattice, where
(u, v) -> (-v, u + v) turns by 60 degrees and (u, v) -> (v, u) is a reflection. A hex
(q, r) is the cube point (x, y, z) = (q, -q - r, r), turned by (x, y, z) -> (-z, -x, -y)
and reflected by swapping y and z."""

from __future__ import annotations

import json
from itertools import permutations, product
from pathlib import Path


def _norm(cells):
    lo = [min(c[i] for c in cells) for i in range(len(cells[0]))]
    return [tuple(c[i] - lo[i] for i in range(len(c))) for c in cells]


# ---- the triangle and hex grids ------------------------------------------------------


def _corners(cell):
    a, b, c = cell
    if a + b + c == 2:
        return [(a + 1, b, c), (a, b + 1, c), (a, b, c + 1)]
    assert a + b + c == 1, f"{cell} is no triangle"
    return [(a, b + 1, c + 1), (a + 1, b, c + 1), (a + 1, b + 1, c)]


def _triangle_motion(turns: int, flip: bool):
    def point(u, v):
        if flip:
            u, v = v, u
        for _ in range(turns):
            u, v = -v, u + v
        return u, v

    def move(cell):
        pts = [point(A, B) for A, B, _ in _corners(cell)]
        return tuple(min(p[i] for p in [(u, v, 3 - u - v) for u, v in pts]) for i in range(3))

    return move


def _hex_motion(turns: int, flip: bool):
    def move(cell):
        x, y, z = cell[0], -cell[0] - cell[1], cell[1]
        if flip:
            y, z = z, y
        for _ in range(turns):
            x, y, z = -z, -x, -y
        return (x, z)

    return move


def lattice_motions(grid: str, reflect: bool):
    make = _triangle_motion if grid == "triangle" else _hex_motion
    return [make(t, f) for f in ((False, True) if reflect else (False,)) for t in range(6)]


def shift_of(cells, dim: int, grid: str):
    """The translation that moves a shape to its origin (subtracted from every cell)."""
    lo = [min(c[i] for c in cells) for i in range(dim)]
    if grid == "triangle":
        lo[2] = -(lo[0] + lo[1])
    return lo


def all_motions(dim: int, reflect: bool, grid: str = "square"):
    return motions(dim, reflect) if grid == "square" else lattice_motions(grid, reflect)


def read_grid(path) -> str:
    path = Path(path)
    if path.suffix != ".json":
        return "square"
    return json.loads(path.read_text()).get("grid", "square")


def read_puzzle(path: str | Path):
    """(board {cell: colour}, tiles [{cell: colour}], dim) from an ASCII drawing or JSON."""
    path = Path(path)
    text = path.read_text()
    if path.suffix == ".json":
        data = json.loads(text)
        board = {tuple(c): "" for c in data["board"]}
        if "colours" in data:
            board = {tuple(c): col for c, col in zip(data["board"], data["colours"])}
        tiles = []
        for p in data["pieces"]:
            cols = p.get("colours", [""] * len(p["cells"]))
            for _ in range(p.get("count", 1)):
                tiles.append({tuple(c): col for c, col in zip(p["cells"], cols)})
        dim = len(data["board"][0])
    else:
        grid = {(r, c): ch for r, line in enumerate(text.splitlines()) for c, ch in enumerate(line) if ch != " "}
        groups, seen = [], set()
        for start in sorted(grid):
            if start in seen:
                continue
            stack, group = [start], {}
            seen.add(start)
            while stack:
                r, c = stack.pop()
                group[(r, c)] = grid[(r, c)]
                for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if nb in grid and nb not in seen:
                        seen.add(nb)
                        stack.append(nb)
            groups.append(group)
        groups.sort(key=len, reverse=True)
        board, tiles, dim = groups[0], groups[1:], 2
    lo = shift_of(list(board), dim, read_grid(path))
    board = {tuple(k[i] - lo[i] for i in range(dim)): v for k, v in board.items()}
    return board, tiles, dim


def motions(dim: int, reflect: bool):
    """Functions on coordinate tuples: rotations (and reflections) of the grid."""
    out = []
    for perm in permutations(range(dim)):
        for signs in product((1, -1), repeat=dim):
            # determinant sign = parity of perm * product of signs
            inv = sum(1 for i in range(dim) for j in range(i + 1, dim) if perm[i] > perm[j])
            det = (-1) ** inv
            for s in signs:
                det *= s
            if det < 0 and not reflect:
                continue
            out.append(lambda c, perm=perm, signs=signs: tuple(signs[i] * c[perm[i]] for i in range(dim)))
    return out


def _shape_key(cells_colours: dict, dim: int, reflect: bool, grid: str = "square"):
    """Canonical form of a coloured shape under the allowed motions."""
    best = None
    for m in all_motions(dim, reflect, grid):
        moved = [(m(c), col) for c, col in cells_colours.items()]
        lo = shift_of([c for c, _ in moved], dim, grid)
        k = tuple(sorted((tuple(c[i] - lo[i] for i in range(dim)), col) for c, col in moved))
        if best is None or k < best:
            best = k
    return best


def check(path, solution, *, reflect: bool, partial: bool, colours: bool = True) -> None:
    """Raise AssertionError unless `solution` is a valid tiling of the puzzle."""
    board, tiles, dim = read_puzzle(path)
    grid = read_grid(path)
    reflect_3d = reflect
    if grid != "square":  # the solution's cells in the board's frame
        lo = shift_of([tuple(c) for _, cells in solution for c in cells], dim, grid)
        solution = [(n, [tuple(c[i] - lo[i] for i in range(dim)) for c in cells]) for n, cells in solution]
    covered = {}
    for name, cells in solution:
        for c in cells:
            c = tuple(c)
            assert c in board, f"{name} covers {c}, which is not a board cell"
            assert c not in covered, f"cell {c} covered twice ({covered[c]} and {name})"
            covered[c] = name
    assert set(covered) == set(board), f"cells left empty: {sorted(set(board) - set(covered))[:5]}"
    # each placement must be a tile under an allowed motion, with matching colours
    use_colours = colours and len(set(board.values())) > 1

    def coloured(cells_colours):
        return {c: (col if use_colours else "") for c, col in cells_colours.items()}

    stock: dict = {}
    for t in tiles:
        k = _shape_key(coloured(t), dim, reflect_3d, grid)
        stock[k] = stock.get(k, 0) + 1
    used: dict = {}
    for name, cells in solution:
        k = _shape_key(coloured({tuple(c): board[tuple(c)] for c in cells}), dim, reflect_3d, grid)
        assert k in stock, f"placement {name} at {cells} is no tile (colours and motions included)"
        used[k] = used.get(k, 0) + 1
    for k, n in used.items():
        assert n <= stock[k], f"a tile is used {n} times, {stock[k]} available"
    if not partial:
        assert used == stock, "not every tile is used"


def board_symmetries(path):
    """Maps of board cells onto themselves (colours kept), for canonical forms."""
    board, _, dim = read_puzzle(path)
    grid = read_grid(path)
    out = []
    for m in all_motions(dim, True, grid):
        moved = {m(c): col for c, col in board.items()}
        lo = shift_of(list(moved), dim, grid)
        moved = {tuple(c[i] - lo[i] for i in range(dim)): col for c, col in moved.items()}
        if moved == board:
            out.append(lambda c, m=m, lo=lo: tuple(x - l for x, l in zip(m(c), lo)))
    return out


def canonical(solution, syms) -> tuple:
    """Smallest image of a solution (a set of cell-sets) under the board's symmetries."""
    forms = []
    for g in syms:
        forms.append(tuple(sorted(tuple(sorted(g(tuple(c)) for c in cells)) for _, cells in solution)))
    return min(forms)


def as_set(solution) -> frozenset:
    return frozenset(frozenset(tuple(c) for c in cells) for _, cells in solution)


# ---------------------------------------------------------------------------------------
# An independent count: every solution of a small puzzle by plain backtracking, and the
# classes of solutions under the board's symmetries. Puzzles are plain data:
#   board: {cell tuple: colour}, pieces: [{"cells": {cell: colour}, "count": c, "min": m,
#   "reflect": bool}], dim.


def _orientations(cells_colours: dict, dim: int, reflect: bool, grid: str = "square") -> set:
    """Every placement shape (normalised, with colours) under the allowed motions."""
    out = set()
    for m in all_motions(dim, reflect, grid):
        moved = [(m(c), col) for c, col in cells_colours.items()]
        lo = shift_of([c for c, _ in moved], dim, grid)
        out.add(frozenset((tuple(c[i] - lo[i] for i in range(dim)), col) for c, col in moved))
    return out


def merged_pieces(pieces: list, dim: int, grid: str = "square") -> list:
    """Pieces congruent under their own motions (colours included) become copies of one."""
    out: dict = {}
    for p in pieces:
        key = (frozenset(_orientations(p["cells"], dim, p["reflect"], grid)), p["reflect"])
        if key in out:
            out[key]["count"] += p["count"]
            out[key]["min"] += p["min"]
        else:
            out[key] = dict(p)
    return list(out.values())


def placements(board: dict, piece: dict, dim: int, grid: str = "square") -> set:
    """Every cell-set of the board that the piece covers in some allowed position (on the
    triangle grid a translation keeps up triangles up)."""
    found = set()
    cells = sorted(board)
    for shape in _orientations(piece["cells"], dim, piece["reflect"], grid):
        anchor = min(c for c, _ in shape)
        for target in cells:
            if grid == "triangle" and sum(target) != sum(anchor):
                continue
            shift = [target[i] - anchor[i] for i in range(dim)]
            moved = [(tuple(c[i] + shift[i] for i in range(dim)), col) for c, col in shape]
            if all(c in board and board[c] == col for c, col in moved):
                found.add(frozenset(c for c, _ in moved))
    return found


class TooMany(Exception):
    """More solutions than the caller wants to enumerate."""


def all_solutions(
    board: dict, pieces: list, dim: int, limit: int | None = None, max_nodes: int | None = None, grid: str = "square"
) -> set:
    """Every solution (a frozenset of cell-sets): each board cell covered once, each piece
    used between its minimum and its count. Branch on the empty cell with the fewest
    placements that still fit; give up a branch when the tiles left cannot cover the empty
    cells or the minimums need more cells than are empty. Raise TooMany past `limit`
    solutions or `max_nodes` nodes."""
    pieces = merged_pieces(pieces, dim, grid)
    if sum(len(p["cells"]) * p["count"] for p in pieces) == len(board):
        for p in pieces:
            p["min"] = p["count"]
    size = [len(p["cells"]) for p in pieces]
    by_cell: dict = {c: [] for c in board}
    for i, p in enumerate(pieces):
        for cs in placements(board, p, dim, grid):
            for c in cs:
                by_cell[c].append((i, cs))
    left = [p["count"] for p in pieces]
    empty = set(board)
    chosen: list = []
    out: set = set()
    nodes = [0]

    def fits(i: int, cs: frozenset) -> bool:
        return left[i] > 0 and cs <= empty

    def fill() -> None:
        nodes[0] += 1
        if max_nodes is not None and nodes[0] > max_nodes:
            raise TooMany
        if not empty:
            if all(p["count"] - left[i] >= p["min"] for i, p in enumerate(pieces)):
                sol = frozenset(chosen)
                assert sol not in out, "a solution found twice"
                out.add(sol)
                if limit is not None and len(out) > limit:
                    raise TooMany
            return
        if sum(n * k for n, k in zip(left, size)) < len(empty):
            return
        needed = sum(max(0, p["min"] - (p["count"] - left[i])) * size[i] for i, p in enumerate(pieces))
        if needed > len(empty):
            return
        best = None
        for c in empty:
            options = [(i, cs) for i, cs in by_cell[c] if fits(i, cs)]
            if best is None or len(options) < len(best):
                best = options
                if not best:
                    return
        for i, cs in best:
            left[i] -= 1
            empty.difference_update(cs)
            chosen.append(cs)
            fill()
            chosen.pop()
            empty.update(cs)
            left[i] += 1

    fill()
    return out


def board_motions(board: dict, dim: int, grid: str = "square") -> list:
    """The board's symmetries (cells and colours kept) as dicts cell -> image cell."""
    out = []
    for m in all_motions(dim, True, grid):
        moved = {c: m(c) for c in board}
        lo = shift_of(list(moved.values()), dim, grid)
        g = {c: tuple(x - l for x, l in zip(img, lo)) for c, img in moved.items()}
        if all(g[c] in board and board[g[c]] == col for c, col in board.items()):
            out.append(g)
    return out


def class_form(s: frozenset, solutions: set, gs: list) -> tuple:
    """The least image of s, among its images under the board symmetries `gs` that are
    solutions: equal for s and t exactly when t is such an image of s."""
    images = (frozenset(frozenset(g[c] for c in cs) for cs in s) for g in gs)
    return min(tuple(sorted(tuple(sorted(cs)) for cs in img)) for img in images if img in solutions)


def classes(solutions: set, board: dict, dim: int, grid: str = "square") -> int:
    """Classes of solutions: s and t are the same when t is an image of s under a board
    symmetry (an image that is no solution does not count)."""
    gs = board_motions(board, dim, grid)
    return len({class_form(s, solutions, gs) for s in solutions})


def shikaku_solutions(width: int, height: int, clues: dict) -> list:
    """Every Shikaku solution by plain backtracking: the first empty cell in reading order
    is the top-left corner of its rectangle, which holds exactly one clue, equal to its
    area. clues: {(row, col): number}. A solution: sorted (row, col, height, width)."""
    empty = [[True] * width for _ in range(height)]
    chosen: list = []
    out: list = []

    def fill(k: int) -> None:
        while k < width * height and not empty[k // width][k % width]:
            k += 1
        if k == width * height:
            out.append(sorted(chosen))
            return
        r, c = divmod(k, width)
        for h in range(1, height - r + 1):
            for w in range(1, width - c + 1):
                if not all(empty[r + i][c + j] for i in range(h) for j in range(w)):
                    break
                inside = [v for (y, x), v in clues.items() if r <= y < r + h and c <= x < c + w]
                if len(inside) == 1 and inside[0] == h * w:
                    for i in range(h):
                        for j in range(w):
                            empty[r + i][c + j] = False
                    chosen.append((r, c, h, w))
                    fill(k + w)
                    chosen.pop()
                    for i in range(h):
                        for j in range(w):
                            empty[r + i][c + j] = True

    fill(0)
    return out


def card_completions(data: dict, limit: int = 1) -> int:
    """Completions of a challenge card's JSON puzzle (its free cells and the pieces left, each
    used exactly its count), by the brute force above; past `limit`: limit + 1."""
    board = {tuple(c): "" for c in data["board"]}
    pieces = [
        {"cells": {tuple(c): "" for c in p["cells"]}, "count": p["count"], "min": p["count"], "reflect": True}
        for p in data["pieces"]
    ]
    assert data["allow_reflection"] is True
    try:
        return len(all_solutions(board, pieces, 2, limit))
    except TooMany:
        return limit + 1
