"""Hand play's server side on the triangle, hex and cube grids, through POST /api/play.

The turn tables (tables: true): each piece's orientations are exactly the independent
checker's (tests/checker.py) under the motions allowed, each once; R turns clockwise on the
screen by the grid's least angle and Shift+R back, F mirrors left to right, T and Y are quarter
turns of cubes that with R reach all 24 rotations. The screen is the page's own drawing (lattice.js:
a triangle's column is half an edge wide, a hex's two columns are one hex apart; the rows go
down), the page's points read back to cells by the grids' documented from_drawing rule.

Positions: completions counted by the checker (every solution of the board left with the
pieces left); a hex position whose empty cells hang together only across a hex's diagonal
sides is open, not a dead end (a region split by square neighbours would be wrongly unfillable);
finishing from a position gives a tiling the checker accepts."""

from __future__ import annotations

import json
import math

import pytest
from checker import _orientations, _shape_key, all_solutions, check, read_puzzle, shift_of

from conftest import CORPUS

LATTICE = CORPUS.parent / "lattice-corpus"
TETRAHEXES = LATTICE / "tetrahexes-4x7.json"
HEXIAMONDS = LATTICE / "hexiamonds-6x6.json"
SOMA = CORPUS / "tiling" / "soma-3x3x3.json"
SLAM = CORPUS / "tiling" / "katamino-slam1-4.txt"
H = math.sqrt(3) / 2


def post(client, puzzle: dict, placed: list, status: int = 200, **extra) -> dict:
    r = client.post("/api/play", json={"puzzle": puzzle, "placed": placed, **extra})
    assert r.status_code == status, r.text
    return r.json()


def text_puzzle(path, reflect: bool = True) -> dict:
    return {"kind": "tiling", "text": path.read_text(), "reflect": reflect}


def soma_box(tmp_path, names: str = "TAP", shape=(2, 3, 2)):
    soma = {p["name"]: p for p in json.loads(SOMA.read_text())["pieces"]}
    path = tmp_path / "soma-box.json"
    path.write_text(
        json.dumps(
            {
                "board": [[r, c, z] for r in range(shape[0]) for c in range(shape[1]) for z in range(shape[2])],
                "pieces": [soma[n] for n in names],
                "allow_reflection": False,
            }
        )
    )
    return path


# ---- the page's drawing: points to cells and to the screen ------------------------------------


def cell_of(grid: str, point, parity: int = 0) -> tuple:
    """A page point back to a cell (the grid's from_drawing rule, as documented in core/grids)."""
    if grid == "triangle":
        r, c = point
        s = 2 if (r + c) % 2 == 0 else 1
        return (-r, (s + r + c) // 2, (s + r - c) // 2)
    if grid == "hex":
        r, c = point
        return ((c - r - parity) // 2, r)
    return tuple(point)


def screen(grid: str, point) -> tuple[float, float]:
    """The centre of a page point as lattice.js / app.js draw it (x right, y down)."""
    r, c = point[:2]
    if grid == "triangle":
        up = (r + c) % 2 == 0
        return (c / 2 + 0.5, r * H + (2 * H / 3 if up else H / 3))
    if grid == "hex":
        return (H * c + H, 1.5 * r + 1)
    return (c + 0.5, r + 0.5)


def picture(grid: str, points, motion=lambda x, y: (x, y)) -> list:
    """The centres of a shape's cells after a motion of the screen, up to translation."""
    pts = [motion(*screen(grid, p)) + tuple(p[2:]) for p in points]
    lo = [min(p[i] for p in pts) for i in range(len(pts[0]))]
    return sorted(tuple(round(x - m, 6) for x, m in zip(p, lo)) for p in pts)


def clockwise(degrees: float):
    a = math.radians(degrees)
    return lambda x, y: (x * math.cos(a) - y * math.sin(a), x * math.sin(a) + y * math.cos(a))


def cyclic_order(table: list[int]) -> int:
    """The order of a permutation (the smallest n with table^n the identity)."""
    n, state = 1, table[:]
    while state != list(range(len(table))):
        state, n = [table[i] for i in state], n + 1
    return n


# ---- the turn tables -------------------------------------------------------------------------


def mirrored_soma(tmp_path):
    path = tmp_path / "soma-mirrored.json"
    path.write_text(json.dumps(dict(json.loads(SOMA.read_text()), allow_reflection=True)))
    return path


CASES = [
    ("hex", lambda tmp: TETRAHEXES, True, 2),
    ("triangle", lambda tmp: HEXIAMONDS, True, 3),
    ("square", lambda tmp: SLAM, True, 2),
    ("square", lambda tmp: SOMA, False, 3),
    ("square", mirrored_soma, True, 3),
]


@pytest.mark.parametrize("grid, make, reflect, dim", CASES, ids=["hex", "triangle", "square", "cube", "cube-mirror"])
def test_turn_tables_are_the_checkers_orientations(client, tmp_path, grid, make, reflect, dim):
    path = make(tmp_path)
    v = post(client, text_puzzle(path, reflect), [], tables=True)
    summary = client.post("/api/check", json={"puzzle": text_puzzle(path, reflect)}).json()
    assert len(v["tables"]) == len(summary["pieces"])
    for piece, table in zip(summary["pieces"], v["tables"]):
        wanted = {
            frozenset(c for c, _ in o)
            for o in _orientations({tuple(c): "" for c in piece["cells"]}, dim, reflect, grid)
        }
        got = []
        for points in table["orientations"]:
            parity = (points[0][0] + points[0][1]) % 2 if grid == "hex" else 0
            cells = [cell_of(grid, p, parity) for p in points]
            lo = shift_of(cells, dim, grid)
            got.append(frozenset(tuple(x - m for x, m in zip(c, lo)) for c in cells))
        assert len(got) == len(set(got)) and set(got) == wanted, piece["name"]
        keys = table["keys"]
        assert ("f" in keys) == reflect
        for k in [k for k in keys if k.islower() and k != "f"]:
            assert [keys[k][i] for i in keys[k.upper()]] == list(range(len(got))), f"{k.upper()} undoes {k}"
        if "f" in keys:
            assert [keys["f"][i] for i in keys["f"]] == list(range(len(got)))


@pytest.mark.parametrize(
    "grid, path, angle", [("hex", TETRAHEXES, 60), ("triangle", HEXIAMONDS, 60), ("square", SLAM, 90)]
)
def test_r_turns_clockwise_and_f_mirrors_on_the_screen(client, grid, path, angle):
    tables = post(client, text_puzzle(path), [], tables=True)["tables"]
    for table in tables:
        shapes, keys = table["orientations"], table["keys"]
        for i, points in enumerate(shapes):
            assert picture(grid, points, clockwise(angle)) == picture(grid, shapes[keys["r"][i]])
            assert picture(grid, points, lambda x, y: (-x, y)) == picture(grid, shapes[keys["f"][i]])
    # an asymmetric piece turns through all its rotations before it comes back
    assert max(cyclic_order(t["keys"]["r"]) for t in tables) == 360 // angle


def test_cube_turns_reach_every_rotation(client):
    """The Soma L has no symmetry: R, T and Y take it to its 24 rotations; R turns a layer
    clockwise as drawn (rows down, columns right), T and Y are quarter turns too."""
    tables = post(client, text_puzzle(SOMA, False), [], tables=True)["tables"]
    names = [p["name"] for p in json.loads(SOMA.read_text())["pieces"]]
    ell = tables[names.index("L")]
    assert len(ell["orientations"]) == 24
    for k in "rty":
        assert cyclic_order(ell["keys"][k]) == 4
    for i, points in enumerate(ell["orientations"]):
        turned = [[c, -r, z] for r, c, z in points]  # a clockwise quarter turn of the layer
        assert picture("square", turned) == picture("square", ell["orientations"][ell["keys"]["r"][i]])
    seen, todo = {0}, [0]
    while todo:
        i = todo.pop()
        for k in "rty":
            if ell["keys"][k][i] not in seen:
                seen.add(ell["keys"][k][i])
                todo.append(ell["keys"][k][i])
    assert len(seen) == 24


# ---- positions -----------------------------------------------------------------------------------


def frame(client, puzzle: dict, path, grid: str):
    """The checker's board and pieces, and a map from its cells to the server's."""
    board, tiles, dim = read_puzzle(path)
    cells = [tuple(c) for c in client.post("/api/check", json={"puzzle": puzzle}).json()["cells"]]
    lo_file, lo_page = shift_of(list(board), dim, grid), shift_of(cells, dim, grid)
    to_server = {c: [x - a + b for x, a, b in zip(c, lo_file, lo_page)] for c in board}
    assert sorted(map(tuple, to_server.values())) == sorted(cells)
    return board, tiles, dim, to_server


def rest_count(board, tiles, dim, grid, reflect, placed_parts) -> int:
    """The checker's number of ways to finish: the cells left with the pieces left."""
    covered = {c for part in placed_parts for c in part}
    left = dict.fromkeys((c for c in board if c not in covered), "")
    pieces = [{"cells": t, "count": 1, "min": 1, "reflect": reflect} for t in tiles]
    for part in placed_parts:  # take away the pieces placed
        k = _shape_key({c: "" for c in part}, dim, reflect, grid)
        i = next(i for i, p in enumerate(pieces) if _shape_key(p["cells"], dim, reflect, grid) == k)
        pieces.pop(i)
    return len(all_solutions(left, pieces, dim, grid=grid)) if left else 1


@pytest.mark.parametrize("grid, make", [("hex", lambda tmp: TETRAHEXES), ("square", soma_box)], ids=["hex", "cube"])
def test_positions_counted_and_finished_like_the_checker(client, tmp_path, grid, make):
    path = make(tmp_path)
    reflect = grid == "hex"
    puzzle = text_puzzle(path, reflect)
    board, tiles, dim, to_server = frame(client, puzzle, path, grid)
    solutions = sorted(
        all_solutions(board, [{"cells": t, "count": 1, "min": 1, "reflect": reflect} for t in tiles], dim, grid=grid),
        key=lambda s: sorted(map(sorted, s)),
    )
    v = post(client, puzzle, [])
    assert (v["verdict"], v["completions"], v["capped"]) == ("open", len(solutions), False)
    parts = sorted(solutions[-1], key=min)
    for k in (1, 2):
        placed = [[to_server[c] for c in part] for part in parts[:k]]
        v = post(client, puzzle, placed)
        assert (v["verdict"], v["completions"]) == ("open", rest_count(board, tiles, dim, grid, reflect, parts[:k]))
    found = post(client, puzzle, placed, finish=True)["found"]
    check(
        path,
        [("placed", p) for p in placed] + [(p["piece"], p["cells"]) for p in found],
        reflect=reflect,
        partial=False,
    )
    whole = placed + [p["cells"] for p in found]
    assert post(client, puzzle, whole)["verdict"] == "solved"


def test_hex_regions_join_across_diagonal_sides(client):
    """Positions (pieces of the checker's solutions) on the tetrahex board whose empty cells
    fall apart into regions of sizes no set of tetrahexes makes when only square neighbours
    ((0, 1), (1, 0)) are joined, but hang together as hexes: open, counted as the checker
    counts, never a wrong dead end."""
    from itertools import combinations

    puzzle = text_puzzle(TETRAHEXES)
    board, tiles, dim, to_server = frame(client, puzzle, TETRAHEXES, "hex")

    def sizes(cells, steps):
        todo, out = set(cells), []
        while todo:
            stack, n = [todo.pop()], 1
            while stack:
                q, r = stack.pop()
                for dq, dr in steps:
                    if (q + dq, r + dr) in todo:
                        todo.remove((q + dq, r + dr))
                        stack.append((q + dq, r + dr))
                        n += 1
            out.append(n)
        return out

    square = ((1, 0), (-1, 0), (0, 1), (0, -1))
    hexes = square + ((1, -1), (-1, 1))
    solutions = sorted(
        all_solutions(board, [{"cells": t, "count": 1, "min": 1, "reflect": True} for t in tiles], 2, grid="hex"),
        key=lambda s: sorted(map(sorted, s)),
    )
    tried = 0
    for solution in solutions[::3]:
        for parts in combinations(sorted(solution, key=min), 2):
            left = [c for c in board if not any(c in p for p in parts)]
            if all(n % 4 == 0 for n in sizes(left, hexes)) and any(n % 4 for n in sizes(left, square)):
                v = post(client, puzzle, [[to_server[c] for c in part] for part in parts])
                ways = rest_count(board, tiles, dim, "hex", True, list(parts))
                assert ways > 0 and (v["verdict"], v["completions"]) == ("open", ways), (parts, v)
                tried += 1
                break
        if tried == 4:
            return
    raise AssertionError(f"only {tried} such positions")


def test_triangle_hexagon_by_hand(client, tmp_path):
    """Two triamonds in a hexagon of six triangles: the three diameters, counted by hand (and
    by the checker); one placed leaves one way; three triangles round a corner are no triamond;
    cells of the wrong size are refused in one line."""
    hexagon = [(0, 0, 2), (0, 0, 1), (0, 1, 1), (-1, 0, 2), (-1, 1, 2), (-1, 1, 1)]
    path = tmp_path / "hexagon.json"
    path.write_text(
        json.dumps(
            {
                "grid": "triangle",
                "board": hexagon,
                "pieces": [{"name": "tri", "cells": [[0, 0, 2], [0, 0, 1], [0, 1, 1]], "count": 2}],
            }
        )
    )
    puzzle = text_puzzle(path)
    board, tiles, dim, to_file = frame(client, puzzle, path, "triangle")
    lo = shift_of(hexagon, 3, "triangle")  # the checker's frame of the board
    to_server = {c: to_file[tuple(x - m for x, m in zip(c, lo))] for c in hexagon}
    assert post(client, puzzle, [])["completions"] == 3 == rest_count(board, tiles, dim, "triangle", True, [])
    half = [to_server[c] for c in hexagon[:3]]
    v = post(client, puzzle, [half])
    assert (v["verdict"], v["completions"]) == ("open", 1)
    assert post(client, puzzle, [half, [to_server[c] for c in hexagon[3:]]])["verdict"] == "solved"
    fan = [to_server[c] for c in (hexagon[0], hexagon[2], hexagon[5])]  # not edge to edge
    bad = post(client, puzzle, [fan], status=400)["error"]
    assert bad.startswith("placed: placed[0] (at row ") and "is not a piece of the puzzle" in bad
    wrong = post(client, puzzle, [[[0, 0]]], status=400)["error"]
    assert wrong == "play: placed[0] must be a list of cells [row, column]"
