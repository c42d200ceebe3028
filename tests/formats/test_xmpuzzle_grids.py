"""BurrTools' grids 1-4 end to end: random small puzzles on each grid, written as .xmpuzzle
files by the test itself, count as the independent brute force (tests/burr_grids_checker.py)
counts them; files written back by polytile keep their counts; solutions print as cells,
and pictures are refused in one line."""

from __future__ import annotations

import json
import random
import re
from math import factorial

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import burr_grids_checker as checker
from cli_helpers import call_cli
from paths import TESTS

FILES = TESTS / "xmpuzzle"
GRIDS = {1: "prism", 2: "sphere", 3: "rhombic", 4: "tetra-octa"}


def _random_puzzle(number: int, seed: int) -> tuple[str, list[set], set]:
    """A board of 6..10 cells grown from one cell, cut into pieces of 1..4 cells: the file's
    XML (every piece a part of its own), the pieces' and the board's voxels."""
    from polytile.core.grids import by_burr

    g = by_burr(number)
    rng = random.Random(seed)
    board = [tuple(g.origin_cell)]
    while len(board) < rng.randint(6, 10):
        options = sorted({n for c in board for n in g.neighbours(c)} - set(board))
        board.append(rng.choice(options))
    left, pieces = set(board), []
    while left:
        piece = [min(left)]
        for _ in range(rng.randint(0, 3)):
            options = sorted({n for c in piece for n in g.neighbours(c)} & (left - set(piece)))
            if options:
                piece.append(rng.choice(options))
        pieces.append(piece)
        left -= set(piece)
    voxels = g.to_burr(np.array(board))
    where = {c: tuple(v) for c, v in zip(board, voxels.tolist())}
    shapes = [{where[c] for c in p} for p in pieces] + [set(where.values())]
    xml = [_voxel(s) for s in shapes]
    parts = "".join(f'<shape id="{i}" count="1"/>' for i in range(len(pieces)))
    text = (
        f'<?xml version="1.0"?>\n<puzzle version="2"><gridType type="{number}"/><colors/>'
        f"<shapes>{''.join(xml)}</shapes><problems><problem><shapes>{parts}</shapes>"
        f'<result id="{len(pieces)}"/></problem></problems></puzzle>'
    )
    return text, shapes[:-1], shapes[-1]


def _voxel(cells: set) -> str:
    """A voxel element in the voxels' own coordinates (kept where they are: the grid's alignment)."""
    sx, sy, sz = (max(c[i] for c in cells) + 1 for i in range(3))
    text = "".join("#" if (x, y, z) in cells else "_" for z in range(sz) for y in range(sy) for x in range(sx))
    return f'<voxel x="{sx}" y="{sy}" z="{sz}" type="0">{text}</voxel>'


def _labellings(number: int, pieces: list[set]) -> int:
    """The ways to tell congruent pieces apart: polytile merges them into copies of one."""
    classes: list[list[set]] = []
    for p in pieces:
        for c in classes:
            if checker.congruent(number, c[0], p):
                c.append(p)
                break
        else:
            classes.append([p])
    return int(np.prod([factorial(len(c)) for c in classes]))


@pytest.mark.parametrize("number", sorted(GRIDS))
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_puzzles_count_as_the_brute_force(tmp_path, number, seed):
    from polytile.formats import xmpuzzle
    from polytile.tiling.solver import Tiling

    text, pieces, _ = _random_puzzle(number, seed)
    path = tmp_path / f"g{number}-{seed}.xmpuzzle"
    path.write_text(text)
    puzzle = xmpuzzle.load(path)
    assert puzzle.board.grid.name == GRIDS[number]
    found = Tiling(puzzle).count().solutions
    assert found >= 1  # the cut it was made from
    assert found * _labellings(number, pieces) == checker.count(path)
    # written back by polytile: the same puzzle for both
    out = tmp_path / "back.xmpuzzle"
    out.write_bytes(xmpuzzle.dump(puzzle, None, str(path)))
    assert Tiling(xmpuzzle.load(out)).count().solutions == found
    assert checker.count(out) == checker.count(path)


# problems of BurrTools' examples whose every assembly the brute force lists in a second or two
EXAMPLES = [("BallRoom", 0), ("BallRoom", 1), ("BallRoom", 2), ("FourPieceTetrahedron", 0), ("DiagonalCube", 0)]


@pytest.mark.parametrize("stem,problem", EXAMPLES)
def test_examples_count_every_assembly_as_the_brute_force(stem, problem):
    from polytile.formats import xmpuzzle
    from polytile.tiling.solver import Tiling

    path = FILES / f"{stem}.xmpuzzle"
    assert Tiling(xmpuzzle.load(path, str(problem + 1))).count().solutions == checker.count(path, problem)


@pytest.mark.parametrize("stem", ["Bermuda", "BallRoom", "DiagonalCube", "FourPieceTetrahedron", "PiecesOfEight"])
def test_written_back_the_burrtools_figure_stays(tmp_path, stem):
    """`polytile convert` of a problem: the file read back counts as burrTxt counted the original."""
    from polytile.formats import xmpuzzle

    runs = (FILES / "burrtxt-runs.txt").read_text()
    expected = int(re.search(rf"-o 0 {stem}\.xmpuzzle\n(\d+) assemblies", runs).group(1))
    out = tmp_path / f"{stem}.xmpuzzle"
    r = call_cli("convert", FILES / f"{stem}.xmpuzzle", out)
    assert r.returncode == 0, r.stderr
    assert xmpuzzle.read_file(out).grid == xmpuzzle.read_file(FILES / f"{stem}.xmpuzzle").grid
    r = call_cli("count", out, "--burr", "--json", "--jobs", "1")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["burrtools"] == expected


def test_solutions_print_as_cells_and_pictures_are_refused():
    path = FILES / "DiagonalCube.xmpuzzle"
    r = call_cli("solve", path)
    assert r.returncode == 0, r.stderr
    lines = [line for line in r.stdout.splitlines() if ":" in line]
    cells = [tuple(map(int, c.split(", "))) for line in lines for c in line.split(": ")[1][1:-1].split(") (")]
    from polytile.formats import xmpuzzle

    board = {tuple(c) for c in xmpuzzle.load(path).board.cells.tolist()}
    assert sorted(cells) == sorted(board)  # every cell once
    for fmt in ("svg", "png"):
        r = call_cli("solve", path, "--format", fmt, "-o", "/dev/null")
        assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
        assert "no drawing of the rhombic grid" in r.stderr


@pytest.mark.parametrize(
    "stem,grid",
    [("Bermuda", "prism"), ("BallRoom", "sphere"), ("HexSticks", "rhombic"), ("FourPieceTetrahedron", "tetra-octa")],
)
def test_json_spellings_round_trip(tmp_path, stem, grid):
    """A BurrTools file as polytile JSON ("grid": its spelling) counts the same; the pieces
    stay solid (no reflection by default); a list that is no cell is refused in one line."""
    out = tmp_path / f"{stem}.json"
    r = call_cli("convert", FILES / f"{stem}.xmpuzzle", out)
    assert r.returncode == 0, r.stderr
    data = json.loads(out.read_text())
    assert data["grid"] == grid
    data.pop("allow_reflection", None)
    out.write_text(json.dumps(data))
    counts = [call_cli("count", p, "--json", "--jobs", "1") for p in (FILES / f"{stem}.xmpuzzle", out)]
    assert [json.loads(c.stdout)["solutions"] for c in counts] == [json.loads(counts[0].stdout)["solutions"]] * 2
    data["board"][0] = [1] * len(data["board"][0])  # (1, 1, 1, 1) / (1, 1, 1): odd sums, no middle of a block
    if grid == "tetra-octa":
        data["board"][0] = [1, 0, 0]
    out.write_text(json.dumps(data))
    r = call_cli("count", out)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
    assert "board[0]" in r.stderr
