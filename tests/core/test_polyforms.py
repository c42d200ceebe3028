"""The polyform library (all n-ominoes and n-cubes) and `polytile pieces`.

Counts are the published sequences: OEIS A000105 (free polyominoes), A000988 (one-sided),
A001168 (fixed); A038119 (polycubes, mirror images identified), A000162 (rotations only),
A001931 (fixed polycubes).
"""

from __future__ import annotations

import json
import subprocess
from collections import deque

import numpy as np
import pytest
from cli_helpers import call_cli

from polytile.core import library, polyforms, shape

SEQUENCES = {
    (2, "free"): [1, 1, 2, 5, 12, 35, 108, 369, 1285, 4655],
    (2, "one-sided"): [1, 1, 2, 7, 18, 60, 196, 704, 2500, 9189],
    (2, "fixed"): [1, 2, 6, 19, 63, 216, 760, 2725, 9910, 36446],
    (3, "free"): [1, 1, 2, 7, 23, 112, 607],
    (3, "one-sided"): [1, 1, 2, 8, 29, 166, 1023],
    (3, "fixed"): [1, 3, 15, 86, 534, 3481, 23502],
}
ALL = [(n, dim, kind) for (dim, kind), seq in SEQUENCES.items() for n in range(1, len(seq) + 1)]


@pytest.mark.parametrize("dim,kind", list(SEQUENCES))
def test_published_sequences(dim, kind):
    seq = SEQUENCES[(dim, kind)]
    assert [polyforms.count(n, dim, kind) for n in range(1, len(seq) + 1)] == seq
    assert [len(polyforms.polyforms(n, dim, kind)) for n in range(1, len(seq) + 1)] == seq


def rows_key(rows: list[str], reflect: bool) -> bytes:
    return shape.canonical_key(library.cells_from_rows(rows), reflect=reflect)


def keys(n: int, dim: int, kind: str, reflect: bool) -> list[bytes]:
    return [shape.canonical_key(f.cells, reflect=reflect) for f in polyforms.polyforms(n, dim, kind)]


def test_the_five_free_tetrominoes():
    drawn = {"I": ["XXXX"], "L": ["XXX", "X.."], "T": ["XXX", ".X."], "O": ["XX", "XX"], "S": [".XX", "XX."]}
    assert sorted(keys(4, 2, "free", True)) == sorted(rows_key(r, True) for r in drawn.values())


def test_the_seven_one_sided_tetrominoes():
    drawn = {
        "I": ["XXXX"],
        "L": ["XXX", "X.."],
        "J": ["XXX", "..X"],
        "T": ["XXX", ".X."],
        "O": ["XX", "XX"],
        "S": [".XX", "XX."],
        "Z": ["XX.", ".XX"],
    }
    assert sorted(keys(4, 2, "one-sided", False)) == sorted(rows_key(r, False) for r in drawn.values())
    names = [f.name for f in polyforms.polyforms(4, 2, "one-sided")]
    assert names == ["4-1", "4-2", "4-2'", "4-3", "4-4", "4-5", "4-5'"]


def test_pentomino_names():
    free = polyforms.polyforms(5)
    assert sorted(f.name for f in free) == sorted(library.PENTOMINO_ROWS)
    for f in free:
        assert shape.canonical_key(f.cells) == rows_key(library.PENTOMINO_ROWS[f.name], True)
    sided = [f.name for f in polyforms.polyforms(5, 2, "one-sided")]
    assert sided == ["I", "L", "L'", "Y", "Y'", "P", "P'", "U", "V", "T", "N", "N'", "F", "F'", "W", "Z", "Z'", "X"]
    fixed = [f.name for f in polyforms.polyforms(5, 2, "fixed")]
    assert fixed[:4] == ["I#1", "I#2", "L#1", "L#2"] and "F'#4" in fixed and "X#2" not in fixed


def test_stable_order_and_names():
    """The documented order: free forms sorted by their canonical cells; the first one of
    each kind is the straight piece; names pinned for a few cases."""
    assert [f.name for f in polyforms.polyforms(3)] == ["3-1", "3-2"]
    assert polyforms.polyforms(3)[0].cells.tolist() == [[0, 0], [0, 1], [0, 2]]
    assert [f.name for f in polyforms.polyforms(3, 3, "one-sided")] == ["3-1", "3-2"]
    assert [f.name for f in polyforms.polyforms(4, 3, "one-sided")] == [
        "4-1",
        "4-2",
        "4-3",
        "4-4",
        "4-5",
        "4-6",
        "4-6'",
        "4-7",
    ]
    free = polyforms.polyforms(8)
    canon = [min(tuple(map(tuple, c)) for c, _ in shape.orientations(f.cells)) for f in free]
    assert canon == sorted(canon)
    assert [tuple(map(tuple, f.cells)) for f in free] == canon


@pytest.mark.parametrize("n,dim,kind", [c for c in ALL if c[0] <= 8])
def test_every_piece_connected_normalised_and_distinct(n, dim, kind):
    forms = polyforms.polyforms(n, dim, kind)
    names = [f.name for f in forms]
    assert len(set(names)) == len(names)
    for f in forms:
        assert f.cells.shape == (n, dim) and f.n == n and f.dim == dim
        normal, _ = shape.normalise(f.cells)
        assert np.array_equal(f.cells, normal)
        assert connected(f.cells)
    reflect = {"free": True, "one-sided": False, "fixed": None}[kind]
    ids = [shape.key(f.cells) if reflect is None else shape.canonical_key(f.cells, reflect=reflect) for f in forms]
    assert len(set(ids)) == len(ids)


def connected(cells: np.ndarray) -> bool:
    todo, seen = deque([tuple(cells[0])]), {tuple(cells[0])}
    cellset = set(map(tuple, cells.tolist()))
    while todo:
        c = todo.popleft()
        for axis in range(len(c)):
            for step in (-1, 1):
                nb = c[:axis] + (c[axis] + step,) + c[axis + 1 :]
                if nb in cellset and nb not in seen:
                    seen.add(nb)
                    todo.append(nb)
    return len(seen) == len(cellset)


def test_fixed_and_one_sided_are_the_orientations_of_the_free_forms():
    for dim in (2, 3):
        for kind, reflect in (("one-sided", False), ("fixed", None)):
            expect = set()
            for f in polyforms.polyforms(5, dim):
                for c, _ in shape.orientations(f.cells, reflect=True):
                    expect.add(shape.key(c) if reflect is None else shape.canonical_key(c, reflect=False))
            got = {
                shape.key(f.cells) if reflect is None else shape.canonical_key(f.cells, reflect=False)
                for f in polyforms.polyforms(5, dim, kind)
            }
            assert got == expect


def test_memoised_and_read_only():
    a, b = polyforms.polyforms(6, 2, "fixed"), polyforms.polyforms(6, 2, "fixed")
    assert a is not b and all(x is y for x, y in zip(a, b))
    with pytest.raises(ValueError):
        a[0].cells[0, 0] = 7


@pytest.mark.parametrize("args", [(0,), (-1,), (3, 4), (3, 2, "mirror"), (True,)])
def test_api_rejects_bad_arguments(args):
    with pytest.raises(ValueError):
        polyforms.polyforms(*args)


# --- the command line -----------------------------------------------------------------


def run(*args: str) -> subprocess.CompletedProcess:
    return call_cli("pieces", *args)


@pytest.mark.parametrize(
    "args,expect",
    [
        (("5", "--count"), "12"),
        (("5", "--one-sided", "--count"), "18"),
        (("5", "--fixed", "--count"), "63"),
        (("--dim", "3", "4", "--count"), "7"),
        (("--dim", "3", "4", "--one-sided", "--count"), "8"),
        (("10", "--count"), "4655"),
    ],
)
def test_cli_count(args, expect):
    res = run(*args)
    assert res.returncode == 0, res.stderr
    assert res.stdout == expect + "\n" and res.stderr == ""


def test_cli_text():
    res = run("4")
    assert res.returncode == 0, res.stderr
    blocks = res.stdout.rstrip("\n").split("\n\n")
    assert [b.splitlines()[0] for b in blocks] == ["4-1", "4-2", "4-3", "4-4", "4-5"]
    assert blocks[0] == "4-1\n####" and blocks[2] == "4-3\n###\n.#."
    cubes = run("3", "--dim", "3", "--fixed").stdout.rstrip("\n").split("\n\n")
    assert len(cubes) == 15 and cubes[:3] == ["3-1#1\n#   #   #", "3-1#2\n###", "3-1#3\n#\n#\n#"]


def test_cli_json():
    res = run("5", "--one-sided", "--format", "json")
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    assert [d["name"] for d in data] == [f.name for f in polyforms.polyforms(5, 2, "one-sided")]
    assert all(len(d["cells"]) == 5 and all(len(c) == 2 for c in d["cells"]) for d in data)
    cubes = json.loads(run("4", "--dim", "3", "--format", "json").stdout)
    assert len(cubes) == 7 and all(len(c) == 3 for d in cubes for c in d["cells"])


@pytest.mark.parametrize(
    "args,fragment",
    [
        (("0",), "between 1 and 12"),
        (("13",), "between 1 and 12"),
        (("9", "--dim", "3"), "between 1 and 8"),
        (("5", "--one-sided", "--fixed"), "--one-sided"),
        (("5", "--dim", "4"), "--dim"),
        (("five",), "n"),
    ],
)
def test_cli_bad_input(args, fragment):
    res = run(*args)
    assert "Traceback" not in res.stderr
    assert res.returncode == 2 and res.stdout == ""
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and fragment in lines[0], res.stderr
