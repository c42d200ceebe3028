"""Counting without enumerating (engine/counting): published counts, and random puzzles
nobody wrote down whose pieces come in any number of copies, counted by the frontier (and
Burnside's lemma for classes), by the enumerating search, and by the independent brute
force of tests/checker.py."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
import random
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

import polytile
from checker import TooMany, all_solutions, board_motions, class_form
from paths import ROOT
from polytile.engine.counting import burnside, exact, frontier
from random_puzzles import _board, _cut, _free_key

EXAMPLES = ROOT / "examples" / "counting"
PROFILE = settings(
    max_examples=300, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck)
)

# Published counts (never polytile's): OEIS A004003 (domino tilings of the 2n x 2n square),
# Knuth, TAOCP 7.1.4 (the 8x8 board by polyominoes of 1-3 cells), A233427 (6 x n by the
# pentominoes, any number of each), A359021 (5 x n by squares up to 5 x 5: tilings, and up to
# the rectangle's symmetry).
PUBLISHED = {
    "dominoes-4x4.json": (36, None),
    "dominoes-10x10.json": (258_584_046_368, None),
    "dominoes-12x12.json": (53_060_477_521_960_000, None),
    "polyominoes-1-3-8x8.json": (92_109_458_286_284_989_468_604, None),
    "pentominoes-any-6x10.json": (7_845_888_732, None),
    "squares-5x26.json": (2_768_251_248_844_125, 692_062_856_184_512),
}


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_published_counts_by_the_frontier(name):
    solutions, unique = PUBLISHED[name]
    r = polytile.load(EXAMPLES / name).count(unique=unique is not None, method="frontier")
    assert r.complete and r.method == "frontier"
    assert (r.solutions, r.unique) == (solutions, unique)


def test_auto_chooses_a_method_that_does_not_enumerate_for_copies():
    r = polytile.load(EXAMPLES / "pentominoes-any-6x10.json").count()
    assert r.method == "frontier" and r.solutions == PUBLISHED["pentominoes-any-6x10.json"][0]


def test_the_primes_are_prime_and_the_crt_inverts_residues():
    small = [n for n in range(2, 2000) if all(n % d for d in range(2, int(n**0.5) + 1))]
    assert [n for n in range(2000) if exact.is_prime(n)] == small
    ps = exact.primes(4)
    assert ps[0] == 2**61 - 1 and len(set(ps)) == 4 and all(p < 2**61 and exact.is_prime(p) for p in ps)
    # strong pseudoprimes: to the bases 2, 3, 5, 7 (Jaeschke), and to every base up to 23
    for composite in (561, 41041, 3_215_031_751, 3_825_123_056_546_413_051, (2**31 - 1) * (2**61 - 1)):
        assert not exact.is_prime(composite)
    rng = random.Random(5)
    for _ in range(100):
        k = rng.randint(1, 4)
        x = rng.randrange(ps[0] ** k if k == 1 else 2 ** (61 * k - 1))
        assert exact.crt([x % p for p in ps[:k]], ps[:k]) == x
    assert exact.needed(2**61 - 2) == 1 and exact.needed(2**61) == 2


# ---- random puzzles with copies ---------------------------------------------------------


def _copies_puzzle(seed: int, dim: int, colours: bool) -> tuple[dict, dict, list]:
    """A random board (holes, colours) and one to three shapes cut from it, each with any
    number of copies, a few, or a minimum: (polytile JSON, checker board, checker pieces)."""
    rng = random.Random(seed)
    cells = _board(rng, dim)
    paint = {c: ("BW"[sum(c) % 2] if colours else "") for c in cells}
    shapes = [p for p in _cut(rng, cells, rng.choice((2, 3, 4))) if len(p) <= 4]
    rng.shuffle(shapes)
    specs, pieces, keys = [], [], set()
    for part in shapes[: rng.randint(1, 3)]:
        if _free_key(part, dim) in keys:
            continue  # (one shape, one piece: copies are what the counts say)
        keys.add(_free_key(part, dim))
        most = len(cells) // len(part)
        count = rng.choice((most, most, 1, 2, 3))
        least = rng.choice((0, 0, 0, 1, count))
        reflect = rng.random() < 0.7
        pieces.append({"cells": {c: paint[c] for c in part}, "count": count, "min": least, "reflect": reflect})
        spec = {
            "name": f"p{len(specs)}",
            "cells": [list(c) for c in part],
            "count": count,
            "min": least,
            "reflect": reflect,
        }
        if colours:
            spec["colours"] = [paint[c] for c in part]
        specs.append(spec)
    data = {"board": [list(c) for c in cells], "pieces": specs, "allow_reflection": True}
    if colours:
        data["colours"] = [paint[c] for c in cells]
    return data, {c: paint[c] for c in cells}, pieces


@pytest.mark.parametrize("hashed", ["hashed", "merged"])
def test_random_puzzles_with_copies_match_the_checker(tmp_path, monkeypatch, hashed):
    if hashed == "merged":  # every layer merged in order, none through the hash table
        monkeypatch.setattr(frontier, "HASHED_STATES", 0)
    path = tmp_path / "puzzle.json"
    seen = {"frontier": 0, "unique": 0}

    @PROFILE
    @given(st.integers(0, 2**32 - 1), st.sampled_from((2, 2, 3)), st.booleans())
    def check(seed, dim, colours):
        data, board, pieces = _copies_puzzle(seed, dim, colours)
        try:
            truth = all_solutions(board, pieces, dim, limit=3000, max_nodes=30_000)
        except TooMany:
            reject()
        path.write_text(json.dumps(data))
        try:
            tiling = polytile.load(path)
        except polytile.PuzzleError:
            reject()  # (e.g. the pieces cannot cover the board by area: refused on reading)
        assert tiling.count(method="enumerate").solutions == len(truth)
        r = tiling.count(method="frontier")
        assert r.method == "frontier" and r.solutions == len(truth), data
        seen["frontier"] += 1
        gs = board_motions(board, dim)
        classes = len({class_form(s, truth, gs) for s in truth})
        try:
            u = tiling.count(unique=True, method="frontier")
        except polytile.PuzzleError:
            return  # the motions do not map the pieces onto themselves (one-sided pieces)
        assert (u.solutions, u.unique) == (len(truth), classes), data
        model = tiling.model()
        for g in tiling.symmetry().perms:  # the hashed look-up of the placements' images, as the sorted one
            assert (burnside.image_options(model.cover, g) == burnside._image_options_exactly(model.cover, g)).all()
        seen["unique"] += 1

    check()
    assert seen["frontier"] >= 150 and seen["unique"] >= 50, seen


# ---- the command line ------------------------------------------------------------------


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "polytile", *args], capture_output=True, text=True)


def test_count_names_its_method_and_refuses_one_that_cannot_apply():
    p = _run("count", str(EXAMPLES / "dominoes-4x4.json"), "--json", "--method", "frontier")
    assert p.returncode == 0 and json.loads(p.stdout)["method"] == "frontier"
    p = _run("count", str(EXAMPLES / "pentominoes-any-6x10.json"), "--method", "pfaffian")
    assert p.returncode == 2 and p.stdout == "" and p.stderr.count("\n") == 1 and "dominoes" in p.stderr
    p = _run("count", str(EXAMPLES / "pentominoes-any-6x10.json"), "--method", "memo")
    assert p.returncode == 2 and "at most once" in p.stderr
    p = _run("count", str(EXAMPLES / "dominoes-4x4.json"), "--method", "frontier", "--engine", "dlx")
    assert p.returncode == 2 and "--method enumerate" in p.stderr


def test_a_stopped_frontier_count_has_no_figure():
    p = _run(
        "count", str(EXAMPLES / "pentominoes-any-6x30.json"), "--json", "--method", "frontier", "--time-limit", "0"
    )
    out = json.loads(p.stdout)
    assert (
        p.returncode == 124 and out["solutions"] is None and out["complete"] is False and out["reason"] == "time limit"
    )


def test_the_frontier_keeps_within_the_memory_budget():
    p = _run("count", str(EXAMPLES / "pentominoes-any-6x30.json"), "--method", "frontier", "--max-memory", "1M")
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "memory" in p.stderr


def test_a_stopped_frontier_count_resumes_from_its_checkpoint(tmp_path):
    """6 x 30 by the pentominoes (A233430: 74,280,211,349,600,198,206,855,422,647,223), stopped
    by a time limit again and again, each run going on from the layer the last one saved. A
    run that saved nothing new (a loaded machine, or the JIT compiling within the limit) gets
    twice the time next, so the test ends however busy the machine is."""
    ck = tmp_path / "count.npz"
    runs, limit, saved = [], 0.05, None
    for _ in range(200):
        p = _run(
            "count",
            str(EXAMPLES / "pentominoes-any-6x30.json"),
            "--json",
            "--method",
            "frontier",
            "--checkpoint",
            str(ck),
            "--time-limit",
            str(limit),
        )
        runs.append(p.returncode)
        if p.returncode == 0:
            break
        assert p.returncode == 124 and json.loads(p.stdout)["solutions"] is None
        now = ck.read_bytes() if ck.exists() else None
        if now == saved:
            limit *= 2
        saved = now
    assert json.loads(p.stdout)["solutions"] == 74_280_211_349_600_198_206_855_422_647_223
    assert len(runs) >= 2 and ck.exists()  # (stopped at least once)
    p = _run("count", str(EXAMPLES / "pentominoes-any-6x10.json"), "--method", "frontier", "--checkpoint", str(ck))
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "another count" in p.stderr
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    p = _run(
        "count",
        str(EXAMPLES / "pentominoes-any-6x10.json"),
        "--method",
        "frontier",
        "--checkpoint",
        str(tmp_path / "junk.npz"),
    )
    assert p.returncode == 2 and "not a frontier checkpoint" in p.stderr and "Traceback" not in p.stderr


# ---- DLX matrices: `polytile cover --method` ---------------------------------------------


@PROFILE
@given(st.data())
def test_random_matrices_counted_by_the_frontier_match_the_brute_force(data):
    """Random DLX matrices (primary and secondary items, no colours; tests/dlx_cases.py's
    brute force tries every subset of options) counted by the frontier in the file's
    order, as a tiling's cover when they have that form."""
    from dlx_cases import brute

    from polytile.core.matrix import counting_cover
    from polytile.engine.counting import Refused, choose
    from polytile.engine.counting import count as count_by
    from polytile.formats.dlx import parse

    n_p, n_s = data.draw(st.integers(1, 7)), data.draw(st.integers(0, 3))
    prim, sec = [f"p{i}" for i in range(n_p)], [f"s{i}" for i in range(n_s)]
    lines = [" ".join(prim) + (" | " + " ".join(sec) if sec else "")]
    for _ in range(data.draw(st.integers(0, 12))):
        words = data.draw(st.lists(st.sampled_from(prim), min_size=1, max_size=3, unique=True))
        words += data.draw(st.lists(st.sampled_from(sec), max_size=2, unique=True)) if sec else []
        lines.append(" ".join(data.draw(st.permutations(words))))
    text = "\n".join(lines) + "\n"
    cover, factor = counting_cover(parse(text))
    try:
        choose(cover, "frontier")
    except Refused:
        reject()
    assert count_by(cover, "frontier").solutions * factor == len(brute(text)), text


def test_cover_counts_by_method_on_the_command_line(tmp_path):
    (tmp_path / "m.dlx").write_text("a b | c\na c\nb c\na\nb\n")  # {a c}{b}, {a}{b c}, {a}{b}
    p = _run("cover", str(tmp_path / "m.dlx"), "--json", "--method", "frontier")
    assert p.returncode == 0 and json.loads(p.stdout)["solutions"] == 3 and json.loads(p.stdout)["method"] == "frontier"
    p = _run("cover", str(tmp_path / "m.dlx"), "--all", "--method", "frontier")
    assert p.returncode == 2 and p.stderr.count("\n") == 1


def test_the_pfaffian_refuses_a_determinant_past_the_budget():
    from polytile.engine.counting.pfaffian import count_dominoes
    from polytile.engine.limits import Stopped

    cells = [(r, c) for r in range(40) for c in range(40)]
    with pytest.raises(Stopped) as stop:
        count_dominoes(cells, memory=10_000)
    assert stop.value.reason == "memory budget" and stop.value.need > 10_000
    assert count_dominoes(cells[: 16 * 40][: 4 * 40], memory=10**9) > 0  # (4 x 40 fits)


def test_counts_past_2_to_the_64_agree_two_independent_ways(tmp_path):
    """The 8x8 board by the polyominoes of 1-3 cells: Knuth's published count, the
    independent pure-Python frontier of bench/ (no polytile import) and polytile's sweep;
    18x18 dominoes: A065072's formula, the Pfaffian and the frontier."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import frontier_reference
    finally:
        sys.path.remove(str(ROOT / "bench"))
    path = EXAMPLES / "polyominoes-1-3-8x8.json"
    published = PUBLISHED["polyominoes-1-3-8x8.json"][0]
    assert published > 2**64 and frontier_reference.count(str(path)) == published
    assert polytile.load(path).count(method="frontier").solutions == published
    board = {"board": ["X" * 18] * 18, "pieces": [{"name": "d", "cells": ["XX"], "count": 162, "min": 0}]}
    tmp = tmp_path / "d18.json"
    tmp.write_text(json.dumps(board))
    tiling = polytile.load(tmp)
    a065072_9 = 1035449388414303593  # (the 2n x 2n square has 2**n a(n)**2 tilings)
    expected = 2**9 * a065072_9**2
    assert expected > 2**64
    assert tiling.count(method="pfaffian").solutions == expected
    assert tiling.count(method="frontier").solutions == expected


def test_random_puzzles_counted_by_the_memo_match_the_checker(tmp_path):
    """Random puzzles (tests/random_puzzles.py) whose pieces are used at most once, counted
    by the memo method, against the checker; the frontier too where it applies."""
    from random_puzzles import random_puzzles

    path = tmp_path / "puzzle.json"
    seen = {"memo": 0}

    @settings(max_examples=100, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
    @given(random_puzzles())
    def check(rp):
        try:
            truth = all_solutions(rp.board, rp.pieces, rp.dim, limit=300, max_nodes=20_000, grid=rp.grid)
        except TooMany:
            reject()
        path.write_text(json.dumps(rp.json))
        tiling = polytile.load(path)
        try:
            r = tiling.count(method="memo")
        except polytile.PuzzleError:
            reject()  # (copies: the memo counts pieces used at most once)
        assert r.solutions == len(truth), rp.kind
        seen["memo"] += 1
        try:
            assert tiling.count(method="frontier").solutions == len(truth), rp.kind
        except polytile.PuzzleError:
            pass  # (a placement spanning more than 64 cells, or too many pieces to track)

    check()
    assert seen["memo"] >= 30, seen


def test_coloured_dominoes_are_not_counted_by_the_pfaffian():
    """Four dominoes coloured R-G on a 4x2 board coloured by columns (G left, R right): by
    hand, only the four horizontal dominoes fit, 1 tiling; the Pfaffian would count all 5."""
    import polytile

    puzzle = {
        "board": [[r, c] for r in range(4) for c in range(2)],
        "colours": ["G", "R"] * 4,
        "pieces": [{"name": "D", "cells": [[0, 1], [0, 0]], "count": 4, "colours": ["R", "G"]}],
    }
    path = Path(tempfile.mkdtemp()) / "coloured.json"
    path.write_text(json.dumps(puzzle))
    assert polytile.load(str(path)).count().solutions == 1
