"""BurrTools .xmpuzzle files in and out. Expected assembly counts are burrTxt's, recorded
with their commands in tests/xmpuzzle/burrtxt-runs.txt (BurrTools' examples) and
tests/xmpuzzle/burrtxt-exported.txt (polytile's examples written by `polytile convert`);
solutions are verified by tests/burr_checker.py, which reads the files itself."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest

import burr_checker
from cli_helpers import call_cli
from paths import EXAMPLES, TESTS
from random_puzzles import build

FILES = TESTS / "xmpuzzle"
CUBE = [
    "AlPackino",
    "CubeInCage",
    "DemoMirrorParadox",
    "DemoPieceGenerator",
    "DraculasDentalDesaster",
    "PelikanBurr",
    "SolidSixPieceBurrs",
    "CongruentParts",
]
SLOW = {("PelikanBurr", 0), ("SolidSixPieceBurrs", 0)}  # seconds each: in bench_burr.py only
OTHER_GRIDS = {
    "12PieceSeparation": 3,
    "AugmentedSecondStellation": 3,
    "BallRoom": 2,
    "Bermuda": 1,
    "BrokenSticks": 3,
    "DiagonalCube": 3,
    "FourPieceTetrahedron": 4,
    "HexSticks": 3,
    "PermutatedThirdStellation": 3,
    "PiecesOfEight": 3,
    "Prisgon": 1,
}


def recorded(name: str) -> dict[tuple[str, int], int]:
    """{(file stem, problem from 0): assemblies} from a record of burrTxt runs."""
    out, command = {}, None
    for line in (FILES / name).read_text().splitlines():
        if line.startswith("$ burrTxt"):
            command = line
        elif command and (m := re.match(r"(\d+) assemblies|Piece \d+ can be place nowhere", line)):
            problem = re.search(r"-o (\d+)", command)
            stem = Path(command.split()[-1]).stem
            out[(stem, int(problem.group(1)) if problem else 0)] = int(m.group(1) or 0)  # nowhere: none
            command = None
    return out


BURRTXT = recorded("burrtxt-runs.txt")
EXPORTED = recorded("burrtxt-exported.txt")


def count(path, *args) -> dict:
    r = call_cli("count", path, "--json", "--jobs", "1", *args)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def refused(*args) -> str:
    r = call_cli(*args)
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
    return lines[0]


def test_every_problem_is_read_and_recorded():
    """All 28 problems of the 18 files: the 8 cube files' and the 20 on grid types 1-4."""
    from polytile.formats.xmpuzzle import load, read_file

    stems = CUBE + sorted(OTHER_GRIDS)
    problems = {(stem, i) for stem in stems for i in range(len(read_file(FILES / f"{stem}.xmpuzzle").problems))}
    assert problems == set(BURRTXT) and len(problems) == 10 + 20
    for stem, i in problems:
        puzzle = load(FILES / f"{stem}.xmpuzzle", str(i + 1))
        assert puzzle.board.area and puzzle.pieces
        assert puzzle.board.grid.burr_number == OTHER_GRIDS.get(stem, 0)


@pytest.mark.parametrize("stem,problem", sorted(set(BURRTXT) - SLOW))
def test_assemblies_agree_with_burrtxt(stem, problem):
    out = count(FILES / f"{stem}.xmpuzzle", "--problem", problem + 1, "--burr", "--unique")
    assert out["burrtools"] == BURRTXT[(stem, problem)]
    assert out["complete"] and out["unique"] <= out["solutions"]


def test_unknown_grid_types_and_cells_off_the_grid_are_refused_in_one_line(tmp_path):
    text = gzip.decompress((FILES / "FourPieceTetrahedron.xmpuzzle").read_bytes()).decode()
    unknown = tmp_path / "unknown.xmpuzzle"
    unknown.write_text(text.replace('<gridType type="4"/>', '<gridType type="5"/>'))
    line = refused("count", unknown)
    assert "grid type 5 (unknown) is not supported" in line and "4 (tetrahedron-octahedron)" in line
    off = tmp_path / "off.xmpuzzle"  # (1, 0, 0) of a 3x3x3 block is no cell of the tetra-octa grid
    first = text.index('type="0">') + len('type="0">')
    off.write_text(text[:first] + "_#" + text[first + 2 :])
    line = refused("count", off)
    assert "shape 1: voxel (1, 0, 0) is no cell of the tetrahedron-octahedron grid" in line


def test_problems_are_listed_and_chosen_by_number_or_name():
    path = FILES / "DemoMirrorParadox.xmpuzzle"
    r = call_cli("count", path, "--problem", "list")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert [line.split("\t")[:2] for line in lines] == [["1", "Example From Text"], ["2", "Another Example"]]
    assert "0..4 pieces" in lines[0] and "result S1: 10 voxels" in lines[0]
    by_number, by_name = count(path, "--problem", "2"), count(path, "--problem", "Another Example")
    assert by_number["solutions"] == by_name["solutions"] != count(path)["solutions"]
    assert "no problem 3" in refused("count", path, "--problem", "3")
    assert "no problem named" in refused("count", path, "--problem", "nope")
    assert "BurrTools" in refused("count", EXAMPLES / "pentomino-3x20.txt", "--problem", "1")


def _solutions(path, *args) -> list:
    r = call_cli("solve", path, "--format", "json", *args)
    assert r.returncode == 0, r.stderr
    return [[(p["piece"], p["cells"]) for p in s] for s in json.loads(r.stdout)["solutions"]]


@pytest.mark.parametrize(
    "stem,problem,limit",
    [
        ("DemoMirrorParadox", 0, None),
        ("DemoMirrorParadox", 1, None),
        ("DemoPieceGenerator", 0, 60),
        ("CubeInCage", 0, 20),
        ("DraculasDentalDesaster", 0, 4),
        ("AlPackino", 0, 2),
    ],
)
def test_printed_solutions_are_assemblies(stem, problem, limit):
    path = FILES / f"{stem}.xmpuzzle"
    args = ["--problem", problem + 1] + (["--all"] if limit is None else ["--limit", limit])
    found = _solutions(path, *args)
    assert found
    for s in found:
        assert all(name != "(empty)" for name, _ in s)
        burr_checker.check(path, s, problem)


def test_congruent_parts_are_told_apart_by_burrtools_only():
    # two dominoes listed as two shapes: BurrTools counts 3 assemblies where polytile has
    # 3 solutions, 2 unique; listed as one shape with two copies, BurrTools counts 2
    path = FILES / "CongruentParts.xmpuzzle"
    assert BURRTXT[("CongruentParts", 0)] == 3 and BURRTXT[("CongruentParts", 1)] == 2
    two_parts, copies = count(path, "--unique"), count(path, "--unique", "--problem", "2")
    assert (two_parts["solutions"], two_parts["unique"]) == (copies["solutions"], copies["unique"]) == (3, 2)


def test_variable_voxels_and_one_cell_pieces_are_told_apart():
    # DemoPieceGenerator: unit cubes (0..10) and variable voxels; its result has one mirror
    # symmetry and every piece is achiral, so BurrTools' count is polytile's unique count
    out = count(FILES / "DemoPieceGenerator.xmpuzzle", "--unique", "--burr")
    assert out["unique"] == out["burrtools"] == BURRTXT[("DemoPieceGenerator", 0)]


def test_orbits_of_the_unique_solutions_are_every_solution():
    from polytile.engine.search import search
    from polytile.formats import load
    from polytile.tiling.burr import _orbits
    from polytile.tiling.solver import Tiling

    for path, problem in [
        (FILES / "DemoPieceGenerator.xmpuzzle", None),
        (FILES / "DemoMirrorParadox.xmpuzzle", "2"),
        (EXAMPLES / "soma-3x3x3.json", None),
    ]:
        tiling = Tiling(load(path, problem=problem))
        cover, sym = tiling.model().cover, tiling.symmetry()
        plain = {frozenset(int(o) for o in s) for s in search(cover, sym, store=True, breaking=False).found}
        reps = search(cover, sym, unique=True, store=True).found
        assert _orbits(cover, sym, reps, 10**6) == plain


BAD = {
    "malformed.xmpuzzle": (
        b'<?xml version="1.0"?>\n<puzzle version="2">\n<shapes><voxel x="1"></shapes>',
        "malformed XML",
    ),
    "laughs.xmpuzzle": (
        b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
        b'<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>'
        b"<puzzle>&lol2;</puzzle>",
        "EntitiesForbidden",
    ),
    "short.xmpuzzle": (
        b'<puzzle version="2"><gridType type="0"/><shapes>'
        b'<voxel x="2" y="2" z="1" type="0">###</voxel></shapes><problems><problem>'
        b'<shapes><shape id="0" count="1"/></shapes><result id="0"/></problem>'
        b"</problems></puzzle>",
        "3 voxels given for 2x2x1 = 4",
    ),
    "unknown-id.xmpuzzle": (
        b'<puzzle version="2"><gridType type="0"/><shapes>'
        b'<voxel x="1" y="1" z="1" type="0">#</voxel></shapes><problems><problem>'
        b'<shapes><shape id="7" count="1"/></shapes><result id="0"/></problem>'
        b"</problems></puzzle>",
        "shape id 7 does not exist",
    ),
    "no-problem.xmpuzzle": (b'<puzzle version="2"><gridType type="0"/><shapes/></puzzle>', "no problem"),
    "bad-gzip.xmpuzzle": (b"\x1f\x8b\x08\x00garbage", "broken gzip"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_files_get_one_line(tmp_path, name):
    data, words = BAD[name]
    path = tmp_path / name
    path.write_bytes(gzip.compress(data) if name != "bad-gzip.xmpuzzle" else data)
    line = refused("count", path)
    assert words in line and str(path) in line


def test_malformed_xml_names_line_and_column(tmp_path):
    path = tmp_path / "plain.xmpuzzle"
    path.write_bytes(BAD["malformed.xmpuzzle"][0])  # plain XML is read too
    assert re.search(r"plain\.xmpuzzle:3:\d+: malformed XML", refused("count", path))


def test_gzip_bomb_is_refused(tmp_path):
    path = tmp_path / "bomb.xmpuzzle"
    path.write_bytes(gzip.compress(b"<puzzle>" + b" " * (40 << 20) + b"</puzzle>"))
    assert path.stat().st_size < 100_000
    assert "more than 32 MB" in refused("count", path)


# round trips: file -> polytile -> .xmpuzzle -> polytile keeps every count
@pytest.mark.parametrize(
    "path,problem",
    [
        (FILES / "DemoMirrorParadox.xmpuzzle", "1"),
        (FILES / "DemoMirrorParadox.xmpuzzle", "2"),
        (FILES / "DemoPieceGenerator.xmpuzzle", None),
        (FILES / "CubeInCage.xmpuzzle", None),
        (FILES / "DraculasDentalDesaster.xmpuzzle", None),
        (EXAMPLES / "soma-3x3x3.json", None),
        (EXAMPLES / "checkerboard-8x8-centre-hole.txt", None),
        (EXAMPLES / "partial-x-triplication.txt", None),
        (EXAMPLES / "pentomino-3x20.txt", None),
    ],
)
def test_round_trip_keeps_every_count(tmp_path, path, problem):
    out = tmp_path / "out.xmpuzzle"
    args = [] if problem is None else ["--problem", problem]
    r = call_cli("convert", path, out, "--solutions", "3", *args)
    assert r.returncode == 0, r.stderr
    before, after = count(path, "--unique", "--burr", *args), count(out, "--unique", "--burr")
    for key in ("solutions", "unique", "burrtools"):
        assert before[key] == after[key], key
    stored = burr_checker.stored(out)
    assert len(stored) == min(3, before["solutions"])
    for s in stored:
        burr_checker.check(out, s)
    again = tmp_path / "again.xmpuzzle"
    assert call_cli("convert", out, again).returncode == 0
    assert count(again, "--burr")["burrtools"] == before["burrtools"]


def test_stored_assemblies_are_the_solutions_printed(tmp_path):
    out = tmp_path / "soma.xmpuzzle"
    assert call_cli("convert", EXAMPLES / "soma-3x3x3.json", out, "--solutions", "4").returncode == 0
    printed = _solutions(EXAMPLES / "soma-3x3x3.json", "--limit", "4")
    as_sets = [{frozenset(tuple(c) for c in cells) for _, cells in s} for s in printed]
    assert [{frozenset(cells) for _, cells in s} for s in burr_checker.stored(out)] == as_sets


@pytest.mark.parametrize("stem", sorted({s for s, _ in EXPORTED} - {"pentomino-5x12", "pentomino-6x10"}))
def test_exported_examples_count_as_burrtxt_counts_them(stem):
    source = next(EXAMPLES.glob(f"{stem}.*"))
    assert count(source, "--burr")["burrtools"] == EXPORTED[(stem, 0)]


@pytest.mark.parametrize(
    "name,words",
    [
        ("rotate-only-five-Y.json", "may only be rotated"),
        ("hexiamonds-6x6.json", "triangle grid"),
        ("tetrahexes-4x7.json", "hex grid"),
    ],
)
def test_what_burrtools_cannot_say_is_refused(tmp_path, name, words):
    assert words in refused("convert", EXAMPLES / name, tmp_path / "out.xmpuzzle")


def test_mirrorable_solids_are_refused(tmp_path):
    data = json.loads((EXAMPLES / "soma-3x3x3.json").read_text())
    data["allow_reflection"] = True
    path = tmp_path / "soma-mirror.json"
    path.write_text(json.dumps(data))
    assert "may be mirrored" in refused("convert", path, tmp_path / "out.xmpuzzle")


# the BurrTools figure's shortcut (polytile's unique count when no two parts are congruent)
# against the full classification of every labelled assembly (Prisgon's take ~10 s each)
@pytest.mark.parametrize(
    "stem,problem",
    [pytest.param(*k, marks=[pytest.mark.slow] if k[0] == "Prisgon" else []) for k in sorted(set(BURRTXT) - SLOW)],
)
def test_shortcut_agrees_on_burrtools_examples(stem, problem):
    from polytile.formats import load
    from polytile.tiling.burr import burr_count

    puzzle = load(FILES / f"{stem}.xmpuzzle", problem=str(problem + 1))
    assert burr_count(puzzle, shortcut=False) == burr_count(puzzle) == BURRTXT[(stem, problem)]


# random puzzles (tests/random_puzzles.py) with few solutions: the first six have no two
# congruent parts (the shortcut applies), the last four have (labellings add classes)
RANDOM = [
    (404285457, 3, "none", "pieces"),
    (717440070, 2, "checker", "pieces"),
    (3818273214, 3, "checker", "none"),
    (3753401357, 2, "checker", "none"),
    (2518728461, 3, "checker", "none"),
    (4155573215, 2, "none", "copies"),
    (403123852, 2, "checker", "copies"),
    (3294916953, 3, "checker", "copies"),
    (4059906722, 3, "none", "none"),
    (92297589, 3, "none", "none"),
]


@pytest.mark.parametrize("seed,dim,colours,extras", RANDOM)
def test_shortcut_agrees_on_random_puzzles(tmp_path, seed, dim, colours, extras):
    from polytile.formats import load
    from polytile.tiling.burr import burr_count, same_as_unique
    from polytile.tiling.solver import Tiling

    data = build(seed, dim, "free" if dim == 2 else "rotate", colours, extras).json
    path = tmp_path / f"random-{seed}.json"
    path.write_text(json.dumps(data))
    puzzle = load(path)
    report = Tiling(puzzle).count(unique=True)
    assert report.solutions > 0
    full, unique = burr_count(puzzle, shortcut=False), report.unique
    assert same_as_unique(puzzle) == (RANDOM.index((seed, dim, colours, extras)) < 6)
    if same_as_unique(puzzle):
        assert full == burr_count(puzzle) == unique
    else:  # congruent parts: labellings split polytile's classes
        assert full > unique


def test_burrtools_colour_rules_are_not_written_as_json(tmp_path):
    line = refused("convert", FILES / "DemoPieceGenerator.xmpuzzle", tmp_path / "out.json")
    assert "cannot be written as polytile JSON" in line
    out = tmp_path / "alpackino.json"  # no colours, no variable voxels
    assert call_cli("convert", FILES / "AlPackino.xmpuzzle", out).returncode == 0
    assert count(out, "--unique")["unique"] == BURRTXT[("AlPackino", 0)]
