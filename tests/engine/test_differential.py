"""Random differential tests: random small puzzles nobody wrote down (tests/random_puzzles.py),
counted by polytile with every shortcut (symmetry breaking, every kernel, two threads) and
without, and by the independent brute force of tests/checker.py.

CI runs a fixed-seed profile; `make fuzz` (POLYTILE_FUZZ=long) a long one."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import random
from collections import Counter

from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

import polytile
from checker import TooMany, all_solutions, board_motions, class_form, shikaku_solutions
from polytile.analysis import survey
from polytile.engine.bitboard import driver as bitboard_driver
from polytile.shikaku import model as shikaku
from polytile.shikaku.generate import partition
from polytile.shikaku.model import Shikaku, verify
from random_puzzles import _cut, _free_key, random_lattice_puzzles, random_puzzles

LONG = os.environ.get("POLYTILE_FUZZ") == "long"
EXAMPLES = 100_000 if LONG else 2_000
LATTICE_EXAMPLES = 20_000 if LONG else 300
MAX_SOLUTIONS = 2_000 if LONG else 300  # larger puzzles are skipped (brute force)
MAX_NODES = 200_000 if LONG else 20_000
ENGINES = ("bitboard", "wide", "dlx")
PROFILE = settings(
    max_examples=EXAMPLES, deadline=None, derandomize=not LONG, database=None, suppress_health_check=list(HealthCheck)
)


# The bitboard kernel's other settings (its defaults are checked with every engine above):
# sub-blocks by 0 or 2 key items, the flood fill on, the memo off, or on everywhere (wide
# frontiers too) with a 16-entry table (collisions all the time).
BITBOARD_VARIANTS = (
    {"KEYS": 0, "KEYS_WIDE": 0, "FLOOD": True, "MEMO": False},
    {"KEYS": 2, "KEYS_WIDE": 2, "MEMO_PIECES": 0, "MEMO_BITS": 4, "MEMO_SPAN": 1e9},
)


@contextlib.contextmanager
def bitboard_settings(**settings):
    saved = {k: getattr(bitboard_driver, k) for k in settings}
    for k, v in settings.items():
        setattr(bitboard_driver, k, v)
    try:
        yield
    finally:
        for k, v in saved.items():
            setattr(bitboard_driver, k, v)


def as_set(solution) -> frozenset:
    return frozenset(frozenset(tuple(int(x) for x in c) for c in p.cells) for p in solution.placements)


def check_puzzle(rp, path) -> None:
    try:
        truth = all_solutions(rp.board, rp.pieces, rp.dim, limit=MAX_SOLUTIONS, max_nodes=MAX_NODES, grid=rp.grid)
    except TooMany:
        reject()
    gs = board_motions(rp.board, rp.dim, rp.grid)
    classes = {class_form(s, truth, gs) for s in truth}
    expected = (len(truth), len(classes))
    path.write_text(json.dumps(rp.json))
    tiling = polytile.load(path)
    for engine in ENGINES:
        r = tiling.count(unique=True, engine=engine)
        assert (r.solutions, r.unique) == expected, (engine, rp.kind)
    for variant in BITBOARD_VARIANTS:
        with bitboard_settings(**variant):
            r = tiling.count(unique=True, engine="bitboard")
            assert (r.solutions, r.unique) == expected, (variant, rp.kind)
            assert tiling.count(breaking=False, engine="bitboard").solutions == len(truth), variant
    assert tiling.count(breaking=False).solutions == len(truth)
    r = tiling.count(unique=True, jobs=2)
    assert (r.solutions, r.unique) == expected, ("2 jobs", rp.kind)
    r = tiling.count(unique=True, breaking=False)
    assert (r.solutions, r.unique) == expected, ("no breaking", rp.kind)
    assert tiling.count().solutions == len(truth)
    listed = [as_set(s) for s in tiling.solve(limit=None).found]
    assert len(listed) == len(set(listed)) and set(listed) == truth
    unique = [as_set(s) for s in tiling.solve(limit=None, unique=True).found]
    assert set(unique) <= truth
    assert sorted(class_form(s, truth, gs) for s in unique) == sorted(classes)


def test_random_tilings_match_the_checker(tmp_path, capsys):
    seen: Counter = Counter()
    path = tmp_path / "puzzle.json"

    @PROFILE
    @given(random_puzzles())
    def run(rp):
        check_puzzle(rp, path)
        seen[rp.kind] += 1

    run()
    names = ("dim", "reflection", "one-sided piece", "copies", "partial", "colours")
    with capsys.disabled():
        print(f"\n{sum(seen.values())} random puzzles checked, {len(seen)} kinds of ({', '.join(names)})")
        for i, name in enumerate(names):
            tally = Counter()
            for kind, n in seen.items():
                tally[kind[i]] += n
            print(f"  {name}: " + ", ".join(f"{v}: {n}" for v, n in sorted(tally.items())))
    for i, name in enumerate(names):
        assert len({k[i] for k in seen}) >= 2, f"the random puzzles never varied {name}"
    assert sum(seen.values()) >= EXAMPLES // 2


def test_random_lattice_tilings_match_the_checker(tmp_path, capsys):
    """The same on the triangle and hex grids."""
    seen: Counter = Counter()
    path = tmp_path / "puzzle.json"

    @settings(PROFILE, max_examples=LATTICE_EXAMPLES)
    @given(random_lattice_puzzles())
    def run(rp):
        check_puzzle(rp, path)
        seen[rp.kind] += 1

    run()
    with capsys.disabled():
        grids = Counter(k[0] for k in seen.elements())
        print(
            f"\n{sum(seen.values())} random lattice puzzles checked, {len(seen)} kinds; "
            f"triangle {grids['triangle']}, hex {grids['hex']}"
        )
    for i, name in enumerate(("grid", "reflection", "one-sided", "copies", "partial", "colours")):
        assert len({k[i] for k in seen}) >= 2, f"the random puzzles never varied {name}"
    assert sum(seen.values()) >= LATTICE_EXAMPLES // 2


# --- Shikaku: the memoised counter against a brute-force enumeration -------------------

SHIKAKU_EXAMPLES = 20_000 if LONG else 1_000


@st.composite
def shikaku_puzzles(draw):
    """Clues from a random partition (one per rectangle, anywhere inside it), then some
    moved, changed, dropped or added: solvable and unsolvable grids up to 6 x 6."""
    w, h = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    clues = {}
    for r, c, a, b in partition(w, h, rng, max_area=rng.choice((2, 4, 6, 9))):
        clues[(r + rng.randrange(a), c + rng.randrange(b))] = a * b
    for _ in range(draw(st.integers(0, 2))):
        cell = (rng.randrange(h), rng.randrange(w))
        change = rng.choice(("drop", "bump", "add"))
        if change == "drop":
            clues.pop(cell, None)
        elif change == "bump" and cell in clues:
            clues[cell] = max(1, clues[cell] + rng.choice((-1, 1)))
        elif change == "add":
            clues[cell] = rng.randint(1, 6)
    return Shikaku(w, h, tuple(sorted((r, c, v) for (r, c), v in clues.items())))


def test_random_shikaku_match_the_checker():
    seen = Counter()

    @settings(PROFILE, max_examples=SHIKAKU_EXAMPLES)
    @given(shikaku_puzzles())
    def run(p):
        truth = shikaku_solutions(p.width, p.height, {(r, c): v for r, c, v in p.clues})
        ans = shikaku.solve(p)
        assert ans.solutions == len(truth)
        if truth:
            assert verify(p, ans.rectangles) is None and sorted(ans.rectangles) in truth
        seen[min(len(truth), 2)] += 1

    run()
    assert seen[0] and seen[1] and seen[2], seen  # unsolvable, unique and several


# --- survey holes: the tally by hole set against every board counted on its own ---------


@st.composite
def surveys(draw):
    """A small board, k holes, and pieces cut from the board less k random cells (no
    monominoes: they could not be told from holes), some of them one-sided."""
    w, h = draw(st.integers(2, 4)), draw(st.integers(2, 4))
    k = draw(st.integers(1, 2))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    cells = [(r, c) for r in range(h) for c in range(w)]
    for _ in range(50):
        holes = set(rng.sample(cells, k))
        parts = _cut(rng, [c for c in cells if c not in holes], 4)
        if all(len(p) > 1 for p in parts):
            break
    else:
        reject()
    rotate_only = draw(st.booleans())
    policy: dict = {}  # one policy per free shape, as in random_puzzles
    for part in parts:
        policy.setdefault(_free_key(part, 2), not rotate_only or rng.random() < 0.5)
    pieces = [{"cells": [list(c) for c in part], "reflect": policy[_free_key(part, 2)]} for part in parts]
    return w, h, k, pieces


def test_random_surveys_match_per_board_counts(tmp_path):
    path = tmp_path / "pieces.json"

    @settings(PROFILE, max_examples=400 if LONG else 40)
    @given(surveys())
    def run(case):
        w, h, k, pieces = case
        path.write_text(json.dumps({"board": [[0, 0]], "pieces": pieces}))
        s = survey.run(w, h, k, str(path), jobs=1)
        cells = {(r, c): "" for r in range(h) for c in range(w)}
        plain = [
            {"cells": {tuple(c): "" for c in p["cells"]}, "count": 1, "min": 1, "reflect": p["reflect"]} for p in pieces
        ]
        truth = {
            hs: len(all_solutions({c: "" for c in cells if c not in hs}, plain, 2))
            for hs in itertools.combinations(sorted(cells), k)
        }
        found = {}
        for b in s.boards:
            found[tuple(sorted(map(tuple, b.holes)))] = b
        assert sum(b.orbit for b in s.boards) == len(truth)
        for hs, b in found.items():
            assert b.tilings == truth[hs], (hs, b)
        # every board of a class has its class's count: the classes' orbits cover all
        # hole sets, and a hole set's count equals its representative's
        counts = Counter(truth.values())
        tally = Counter()
        for b in s.boards:
            tally[b.tilings] += b.orbit
        assert tally == counts

    run()
