"""Disassembly as `burrTxt -d` answers it. Expected values: burrTxt's own runs, recorded with
their commands in tests/xmpuzzle/burrtxt-disassembly.txt (counts of assemblies and of those
that come apart, and each one's level string); every plan is replayed by
tests/disassembly_checker.py, which shares no code with polytile; small cases reasoned by hand."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

import disassembly_checker
import disassembly_prisms
from cli_helpers import call_cli
from paths import EXAMPLES, TESTS

FILES = TESTS / "xmpuzzle"
# (file stem, problem from 0) of every cube problem recorded; the slow ones only in one test
PROBLEMS = [
    ("AlPackino", 0),
    ("CubeInCage", 0),
    ("DemoMirrorParadox", 0),
    ("DemoMirrorParadox", 1),
    ("DemoPieceGenerator", 0),
    ("DraculasDentalDesaster", 0),
    ("PelikanBurr", 0),
    ("SolidSixPieceBurrs", 0),
    ("CongruentParts", 0),
    ("CongruentParts", 1),
    ("soma-3x3x3", 0),
    ("Bermuda", 0),  # triangular prisms (BurrTools' grid 1) from here on
    ("Prisgon", 0),
    ("Prisgon", 1),
]


def recorded() -> dict[tuple[str, int], tuple[int, int, Counter]]:
    """{(stem, problem): (assemblies, solutions, Counter of level strings)} from the record:
    the counts of the `-d -q -o N` runs, the levels of the `-d -q -o all` runs (one block
    per problem, in order)."""
    out: dict[tuple[str, int], list] = {}
    stem, problem, levels = "", 0, None
    for line in (FILES / "burrtxt-disassembly.txt").read_text().splitlines():
        if line.startswith("$ "):
            stem = Path(line.split()[-1]).stem
            m = re.search(r"-o (\d+|all)", line)
            problem = -1 if m is None or m.group(1) == "all" else int(m.group(1))
            levels = Counter() if problem == -1 else None
            block = 0
        elif line.startswith("level: ") and levels is not None:
            levels[line.split()[1]] += 1
        elif m := re.match(r"(\d+) assemblies and (\d+) solutions", line):
            if problem >= 0:
                out.setdefault((stem, problem), [0, 0, Counter()])[:2] = [int(m.group(1)), int(m.group(2))]
            else:
                out.setdefault((stem, block), [0, 0, Counter()])[2] = levels
                levels, block = Counter(), block + 1
    return {k: (a, s, lv) for k, (a, s, lv) in out.items()}


BURRTXT = recorded()


def test_the_record_holds_every_problem():
    for key in PROBLEMS:
        assemblies, solutions, levels = BURRTXT[key]
        assert sum(levels.values()) == solutions, key
    assert BURRTXT[("SolidSixPieceBurrs", 0)][:2] == (588, 179)
    assert BURRTXT[("PelikanBurr", 0)][2] == Counter({"98.2.4.2": 1})
    assert BURRTXT[("Prisgon", 1)] == (1, 1, Counter({"9.5.1.1.2.2.2": 1}))


def _disassemble(stem: str, problem: int):
    import polytile

    return polytile.disassemble(FILES / f"{stem}.xmpuzzle", problem=str(problem + 1))


@pytest.mark.parametrize(
    "stem,problem",
    [pytest.param(*k, marks=pytest.mark.slow) if k[0] == "SolidSixPieceBurrs" else k for k in PROBLEMS],
)
def test_counts_and_levels_are_burrtxts(stem, problem):  # SolidSixPieceBurrs: seconds, a slow test
    out = _disassemble(stem, problem)
    assemblies, solutions, levels = BURRTXT[(stem, problem)]
    assert (out.assemblies, out.disassemblable) == (assemblies, solutions)
    assert Counter(r.level for r in out.results if r.apart) == levels


# CubeInCage.xmpuzzle puts its three frame pieces in piece group 1: they may stay together
TOGETHER = {"CubeInCage": [{"Frame1", "Frame2#1", "Frame2#2"}]}


@pytest.mark.parametrize(
    "stem,problem",
    [("PelikanBurr", 0), ("CubeInCage", 0), ("DraculasDentalDesaster", 0), ("AlPackino", 0)]
    + [("Bermuda", 0), ("Prisgon", 0), ("Prisgon", 1)],
)
def test_every_plan_replays(stem, problem):
    out = _disassemble(stem, problem)
    apart = [r for r in out.results if r.apart]
    assert apart
    for r in apart:
        j = r.to_json()
        disassembly_checker.check(j["pieces"], j["moves"], j["level"], TOGETHER.get(stem))
        assert j["level"].split(".")[0] == str(1 + [m["out"] for m in j["moves"]].index(True))


def _run(cells: list[list[tuple[int, int, int]]], weights=None, groups=None):
    from polytile.tiling.disassembly import Disassembler, Groups

    k = len(cells)
    return Disassembler(
        [np.array(c, np.int64) for c in cells],
        list(range(k)),
        weights or [1] * k,
        Groups(groups or [[] for _ in range(k)]),
        np.eye(3, dtype=np.int64),
    ).run()


RING = [(x, y, 1) for x in range(3) for y in range(3) if (x, y) != (1, 1)]  # a square ring at z = 1
# a bolt through the ring with a flange under it and one above: it cannot leave along z (a
# flange meets the ring), nor along x or y (its shaft meets the ring): no move at all
BOLT = [(1, 1, 0), (1, 1, 1), (1, 1, 2), (0, 1, 0), (2, 1, 2)]


def test_two_interlocked_pieces_never_come_apart():
    assert _run([RING, BOLT]) is None


def test_a_loose_piece_leaves_in_one_move():
    s = _run([[(0, 0, 0)], [(1, 0, 0)]])
    assert s is not None and s.level() == "1"


def test_a_group_may_stay_together():
    """A cube resting on the ring leaves; ring and bolt then never part: done only when
    they are one piece group (BurrTools' groups)."""
    cube = [(0, 0, 2)]
    assert _run([RING, BOLT, cube]) is None
    s = _run([RING, BOLT, cube], groups=[[(1, 1)], [(1, 1)], []])
    assert s is not None and s.level() == "1"


def test_a_piece_slides_before_it_leaves():
    """A cube in a pocket of a box (the pocket: (1, 1, 1) and (2, 1, 1); walls around it, a
    lid over (1, 1) only): the cube cannot leave where it is, it steps +x into (2, 1, 1) and
    leaves along +z: level 2. The box is heavier, so the cube is the one that moves."""
    plate = [(x, y, 0) for x in range(4) for y in range(3)]  # the floor
    walls = [(x, y, 1) for x in range(4) for y in range(3) if not (y == 1 and x in (1, 2))]
    lid = [(0, 1, 2), (1, 1, 2), (3, 1, 2)]  # over the pocket, open above (2, 1)
    s = _run([plate + walls + lid, [(1, 1, 1)]], weights=[2, 1])
    assert s is not None and s.level() == "2"
    assert s.plan(["box", "cube"])[0].vector == (1, 0, 0)


def test_count_and_solve_on_the_command_line(tmp_path):
    r = call_cli("count", FILES / "CubeInCage.xmpuzzle", "--burr", "--disassemble", "--json", "--jobs", "1")
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert (got["burrtools"], got["disassemblable"]) == BURRTXT[("CubeInCage", 0)][:2]
    r = call_cli("solve", FILES / "CubeInCage.xmpuzzle", "--disassemble", "--format", "json")
    assert r.returncode == 0, r.stderr
    (plan,) = json.loads(r.stdout)
    assert plan["level"] == "4.9.3"
    disassembly_checker.check(plan["pieces"], plan["moves"], plan["level"], TOGETHER["CubeInCage"])
    r = call_cli("solve", FILES / "CubeInCage.xmpuzzle", "--disassemble")
    assert r.returncode == 0 and r.stdout.startswith("disassembly 1: level 4.9.3\n"), r.stdout


def test_other_grids_and_misuse_are_refused_in_one_line():
    for args in (
        ("count", EXAMPLES / "pentomino-6x10.txt", "--disassemble"),
        ("solve", EXAMPLES / "pentomino-6x10.txt", "--disassemble"),
        ("solve", FILES / "CubeInCage.xmpuzzle", "--sort", "level"),
        ("count", FILES / "BallRoom.xmpuzzle", "--burr", "--disassemble"),
        ("count", FILES / "HexSticks.xmpuzzle", "--burr", "--disassemble"),
    ):
        r = call_cli(*args)
        assert r.returncode == 2, (args, r.stderr)
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in r.stderr, r.stderr


def test_prism_plans_are_in_the_grids_coordinates():
    """Prisgon's pieces as (a, b, c, z) prisms, each move one of the grid's unit translations
    times its steps (the checker replays them as solids)."""
    r = [r for r in _disassemble("Prisgon", 0).results if r.apart][0].to_json()
    assert all(len(c) == 4 and sum(c[:3]) in (1, 2) for cs in r["pieces"].values() for c in cs)
    for m in r["moves"]:
        v = m["vector"]
        steps = max(abs(c) for c in v)
        assert disassembly_prisms.unit(tuple(c // steps for c in v)) is not None, m
    with pytest.raises(AssertionError):
        disassembly_checker.check(r["pieces"], r["moves"][1:], r["level"])
    r2 = call_cli("solve", FILES / "Prisgon.xmpuzzle", "--disassemble")
    assert r2.returncode == 0 and r2.stdout.startswith("disassembly 1: level 9.6.4.2.2.2.1.2\n"), r2.stdout


def test_the_checker_sees_a_prism_pass_through_another():
    """An up triangle's prism (x 0 of row 0) beside the down one at x 1: two triangles along
    the row its end is free, but on the way it crosses the down one; up a layer it leaves."""
    pieces = {"A": [(0, 1, 1, 0)], "B": [(0, 1, 0, 0)]}
    along = {"pieces": ["A"], "vector": [0, 1, -1, 0], "out": False}
    up = {"pieces": ["A"], "vector": [0, 0, 0, 1], "out": True}
    with pytest.raises(AssertionError, match="meet"):
        disassembly_checker.check(pieces, [along, up], "2")
    with pytest.raises(AssertionError, match="blocked"):
        disassembly_checker.check(pieces, [dict(along, out=True)], "1")
    disassembly_checker.check(pieces, [up], "1")


def test_the_checker_refuses_a_broken_plan():
    """The checker itself: the pocket's plan without its first step is blocked; with a wrong
    level, refused."""
    r = [r for r in _disassemble("CubeInCage", 0).results if r.apart][0].to_json()
    with pytest.raises(AssertionError):
        disassembly_checker.check(r["pieces"], r["moves"][1:], r["level"], TOGETHER["CubeInCage"])
    with pytest.raises(AssertionError):
        disassembly_checker.check(r["pieces"], r["moves"], "4.9.2", TOGETHER["CubeInCage"])
    with pytest.raises(AssertionError):
        disassembly_checker.check(r["pieces"], r["moves"], r["level"])  # the frames stay together


def test_piece_groups_in_either_form(tmp_path):
    """CubeInCage's frames in group 1 as `group` attributes (the file) and as `<group>`
    children (BurrTools writes those when a part's copies are shared out): the same answer;
    without the groups, the frames never part and nothing comes apart."""
    import gzip

    import polytile

    xml = gzip.decompress((FILES / "CubeInCage.xmpuzzle").read_bytes()).decode()
    children = xml.replace(
        '<shape id="1" count="1" group="1"/>', '<shape id="1" count="1"><group group="1" count="1"/></shape>'
    )
    children = children.replace(
        '<shape id="2" count="2" group="1"/>', '<shape id="2" count="2"><group group="1" count="2"/></shape>'
    )
    none = xml.replace(' group="1"', "")
    assert children != xml and none != xml
    for text, apart in ((children, 1), (none, 0)):
        path = tmp_path / "cage.xmpuzzle"
        path.write_text(text)
        assert polytile.disassemble(path).disassemblable == apart


def test_threads_give_the_same_answer():
    import polytile

    for stem in ("DraculasDentalDesaster", "DemoPieceGenerator"):
        one = polytile.disassemble(FILES / f"{stem}.xmpuzzle", jobs=1)
        two = polytile.disassemble(FILES / f"{stem}.xmpuzzle", jobs=2)
        assert [r.to_json() for r in one.results] == [r.to_json() for r in two.results]
        assert (one.disassemblable, one.nodes) == (two.disassemblable, two.nodes)


# burrTxt -d -p's plans (tests/xmpuzzle/burrtxt-plans/*.txt.gz, its output as run, gzipped):
# each state is drawn as z slices side by side (rows y, columns x) in a fixed frame, piece i
# as letter 'a' + i; a separation's states, then "puzzle separates into  2 parts", then the
# part taken out's, then the part left's


def _burrtxt_states(stem: str) -> list[list[dict[int, set]]]:
    import gzip

    lines = gzip.decompress((FILES / "burrtxt-plans" / f"{stem}.txt.gz").read_bytes()).decode().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("level:"))
    seps: list[list[dict[int, set]]] = [[]]
    rows: list[str] | None = None
    for line in lines[start + 1 :]:
        if line.startswith(" puzzle separates"):
            seps.append([])
        elif line.startswith(" +"):
            if rows is None:
                rows = []
                continue
            state: dict[int, set] = {}
            for y, row in enumerate(rows):
                for z, seg in enumerate(row.split("!")[1::2]):
                    for x, ch in enumerate(seg):
                        if ch != " ":
                            state.setdefault(ord(ch) - ord("a"), set()).add((x, y, z))
            seps[-1].append(state)
            rows = None
        elif line.startswith(" !") and rows is not None:
            rows.append(line)
    return [s for s in seps if s]


def _our_separations(sep, out: list) -> list:
    """(pieces, states as {piece: translation}, removed) per separation, in burrTxt's order."""
    if sep is not None:
        states = [{p: tuple(st[t]) for t, p in enumerate(sep.pieces)} for st in sep.states.tolist()]
        out.append((set(sep.pieces), states, {sep.pieces[t] for t in np.flatnonzero(sep.removed)}))
        _our_separations(sep.taken, out)
        _our_separations(sep.left, out)
    return out


@pytest.mark.parametrize(
    "stem,problem,plan",
    [(s, 0, s) for s in ("AlPackino", "CubeInCage", "DraculasDentalDesaster", "PelikanBurr")],
)  # not yet on prisms: BurrTools' member of a class of prism assemblies is not chosen (burr_order.py is the cube's)
def test_plans_follow_burrtxts_move_by_move(stem, problem, plan):
    """Each move translates the same pieces relative to the others as burrTxt's (a piece's
    move is read from the drawing where the piece is whole in both states: the frame cuts
    pieces that travel far), and the same pieces come out."""
    result = next(r for r in _disassemble(stem, problem).results if r.apart)
    _follow(_burrtxt_states(plan), result.separation, len(result.names))


def _follow(theirs: list, separation, n: int) -> None:
    """AssertionError unless our separations' moves are the drawing's (see above)."""
    ours = _our_separations(separation, [])
    assert len(theirs) == len(ours)
    size = {p: max(len(st.get(p, ())) for sep in theirs for st in sep) for p in range(n)}
    for states, (pieces, mine, removed) in zip(theirs, ours):
        assert len(states) == len(mine) + 1
        for a, b, x, y in zip(states, states[1:], mine, mine[1:]):
            rel = {p: tuple(np.subtract(y[p], x[p])) for p in pieces}
            seen = {
                p: tuple((np.array(sorted(b[p])).min(0) - np.array(sorted(a[p])).min(0)).tolist())
                for p in pieces
                if len(a.get(p, ())) == len(b.get(p, ())) == size[p]
            }
            base = next(iter(seen))
            for p, v in seen.items():  # the drawing and the plan agree up to a common shift
                assert np.array_equal(np.subtract(v, seen[base]), np.subtract(rel[p], rel[base])), (p, v, rel)
        gone = set(states[-2]) - set(states[-1])
        assert gone <= removed and not any(p in states[-1] for p in removed)


@pytest.mark.parametrize("problem", [0, 1])
def test_prism_plans_follow_burrtxts_in_its_orientation(problem, monkeypatch):
    """Prisgon: BurrTools keeps another image of the assembly under the result's symmetries
    than polytile's (its choice is not made on prisms yet); taken apart in each image, the
    plan of some image follows burrTxt's drawing move by move (all the moves, the same
    pieces out), and the level of polytile's own is burrTxt's."""
    from polytile.formats import load
    from polytile.tiling import disassembly_run
    from polytile.tiling.disassembly import Disassembler

    puzzle = load(FILES / "Prisgon.xmpuzzle", problem=str(problem + 1))
    weights, groups = disassembly_run.file_rules(puzzle, FILES / "Prisgon.xmpuzzle", str(problem + 1))
    tasks: list = []
    monkeypatch.setattr(disassembly_run, "_run_all", lambda t, *a: tasks.extend(t))
    disassembly_run.disassemble_puzzle(puzzle, weights, groups)
    (names, cells, dis, grid), theirs = tasks[0], _burrtxt_states(f"Prisgon-{problem}")
    board = grid.to_origin(np.asarray(puzzle.board.cells))
    matched, levels = 0, set()
    for rows, off in grid.motions:
        m, o = np.array(rows), np.array(off)
        shift = grid.origin_shift(board @ m.T + o)
        if sorted(map(tuple, (board @ m.T + o - shift).tolist())) != sorted(map(tuple, board.tolist())):
            continue  # not a symmetry of the result
        voxels = grid.to_burr(np.concatenate([c @ m.T + o - shift for c in cells]))
        split = np.split(voxels, np.cumsum([len(c) for c in cells])[:-1])
        sep = Disassembler(split, dis.parts, list(dis.weights), dis.groups, dis.steps, table=dis.table).run()
        levels.add(sep.level())
        try:
            _follow(theirs, sep, len(names))
        except AssertionError:
            continue
        matched += 1
        assert sep.level() == BURRTXT[("Prisgon", problem)][2].most_common(1)[0][0]
    assert matched >= 1, levels
    assert BURRTXT[("Prisgon", problem)][2] == Counter([dis.run().level()])
