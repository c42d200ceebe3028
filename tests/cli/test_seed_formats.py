"""Output in the forms the seed programs' users expect: nanakin's Shikaku heading and the
numeric piece-id matrix of Katamino and boxing solutions. The matrices are checked cell by
cell here (each number one piece of the right shape, the board covered once), with shape
code of this file's own."""

from __future__ import annotations

import pytest

from cli_helpers import call_cli
from katamino_slams import SHAPES

# nanakin/shikaku-solver's README, "Execution": its example grid and the output it documents
NANAKIN_GRID = "5 5\n0 0 8 0 0\n0 0 0 0 0\n6 0 4 0 4\n0 0 0 0 0\n0 0 3 0 0\n"
NANAKIN_OUTPUT = "1 solution\nA A A A B\nA A A A B\nC C D D B\nC C D D B\nC C E E E\n"

# the free pentominoes by their conventional letters, drawn by hand (tests/katamino_slams.py)
PENTOMINOES = SHAPES
# Katamino's numbering of its pieces (the order of the box's colour chart)
KATAMINO_NUMBER = {"I": 1, "L": 2, "Y": 3, "N": 4, "V": 5, "P": 6, "U": 7, "Z": 8, "F": 9, "T": 10, "W": 11, "X": 12}


def canonical(cells) -> tuple:
    """The least of the 8 images of a set of (row, col) cells, moved to the origin."""
    images = []
    for flip in (False, True):
        pts = [(r, -c) if flip else (r, c) for r, c in cells]
        for _ in range(4):
            pts = [(c, -r) for r, c in pts]
            lo_r, lo_c = min(r for r, _ in pts), min(c for _, c in pts)
            images.append(tuple(sorted((r - lo_r, c - lo_c) for r, c in pts)))
    return min(images)


def drawn(rows) -> tuple:
    return canonical([(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "X"])


def regions(text: str) -> tuple[dict[int, list[tuple[int, int]]], int]:
    """Number -> its cells, and the number of cells, of one matrix."""
    out: dict[int, list[tuple[int, int]]] = {}
    rows = [line.split() for line in text.strip().splitlines()]
    for r, row in enumerate(rows):
        for c, v in enumerate(row):
            out.setdefault(int(v), []).append((r, c))
    return out, sum(len(row) for row in rows)


def test_shikaku_nanakin_heading_matches_its_readme(tmp_path):
    f = tmp_path / "grid.txt"
    f.write_text(NANAKIN_GRID)
    r = call_cli("shikaku", f, "--format", "nanakin")
    assert r.returncode == 0 and r.stdout == NANAKIN_OUTPUT


@pytest.mark.parametrize(
    "grid,heading",
    [
        ("2 2\n2 0\n0 2\n", "2 solutions"),  # both dominoes across or both down: counted by hand
        ("3 1\n0 1 2\n", "0 solutions"),  # the 2 can only take the 1's cell or leave the grid
    ],
)
def test_shikaku_nanakin_plural(tmp_path, grid, heading):
    f = tmp_path / "grid.txt"
    f.write_text(grid)
    r = call_cli("shikaku", f, "--format", "nanakin")
    assert r.returncode == 0 and r.stdout.splitlines()[0] == heading


def test_katamino_matrix_numbers_are_katamino_numbers():
    letters = ["L", "Y", "N", "P", "V", "U", "T"]
    r = call_cli("katamino", *letters, "--format", "matrix", "--all")
    assert r.returncode == 0, r.stderr
    blocks = r.stdout.strip().split("\n\n")
    assert len(blocks) > 1
    for block in blocks:
        found, cells = regions(block)
        assert cells == 35 and 0 not in found
        assert {KATAMINO_NUMBER[x] for x in letters} == set(found)
        for letter in letters:
            assert canonical(found[KATAMINO_NUMBER[letter]]) == drawn(PENTOMINOES[letter])


def test_box_matrix_numbers_each_placed_piece():
    r = call_cli("box", "--order", "4", "--size", "8x5", "--max-copies", "2", "--limit", "5", "--format", "matrix")
    assert r.returncode == 0, r.stderr
    for block in r.stdout.strip().split("\n\n"):
        found, cells = regions(block)
        assert cells == 40 and sorted(found) == list(range(1, 11))
        shapes: dict[tuple, int] = {}
        for piece in found.values():
            assert len(piece) == 4
            shapes[canonical(piece)] = shapes.get(canonical(piece), 0) + 1
        assert len(shapes) <= 5 and max(shapes.values()) <= 2  # 5 free tetrominoes, each twice at most


def test_solve_matrix_marks_holes_and_draws_layers(tmp_path):
    r = call_cli("solve", "examples/pentomino-8x8-centre-hole.txt", "--format", "matrix")
    assert r.returncode == 0, r.stderr
    found, cells = regions(r.stdout)
    assert cells == 64 and sorted(found[0]) == [(3, 3), (3, 4), (4, 3), (4, 4)]
    assert {canonical(v) for k, v in found.items() if k} == {drawn(x) for x in PENTOMINOES.values()}
    r = call_cli("solve", "examples/soma-3x3x3.json", "--format", "matrix")
    layers = r.stdout.strip().split("\n\n")
    assert len(layers) == 3 and all(len(layer.splitlines()) == 3 for layer in layers)


def test_matrix_refuses_other_grids():
    r = call_cli("solve", "examples/tetrahexes-4x7.json", "--format", "matrix")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
