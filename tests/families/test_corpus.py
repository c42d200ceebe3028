"""Every case of the corpus manifest: counts, unique counts, and verified solutions.
Expected numbers come from the manifest only."""

from __future__ import annotations

import pytest

import polytile
from checker import as_set, board_symmetries, canonical, check
from conftest import CORPUS, tiling_cases

CASES = tiling_cases()
IDS = [c["id"] for c in CASES]
SMALL = [c for c in CASES if c["solutions"] <= 3200]


def load(case):
    t = polytile.load(CORPUS / "tiling" / case["file"])
    return t if case["allow_reflection"] else t.no_reflect()


def as_pairs(sol):
    return [(p.piece, p.cells.tolist()) for p in sol.placements]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_counts(case):
    t = load(case)
    r = t.count(unique=True)
    assert r.complete
    assert (r.solutions, r.unique) == (case["solutions"], case["unique"])
    assert ("warning: not all tiles are used" in t.notes) == case["partial"]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_counts_by_canonical_forms(case):
    """Without symmetry breaking: every solution is visited and classified."""
    r = load(case).count(unique=True, breaking=False)
    assert (r.solutions, r.unique) == (case["solutions"], case["unique"])


@pytest.mark.parametrize("engine", ["wide", "dlx"])
@pytest.mark.parametrize("case", [c for c in CASES if c["seconds_ref"] <= 2.5], ids=lambda c: c["id"])
def test_other_engines(case, engine):
    """The several-word bitboard and dancing links give the same counts."""
    r = load(case).count(unique=True, engine=engine)
    assert (r.solutions, r.unique) == (case["solutions"], case["unique"])


@pytest.mark.parametrize("case", SMALL, ids=[c["id"] for c in SMALL])
def test_every_solution_verified(case):
    """List all solutions: each passes the independent checker, all are distinct, and the
    independent canonical forms give the manifest's unique count."""
    path = CORPUS / "tiling" / case["file"]
    r = load(case).solve(limit=None)
    assert r.complete and len(r.found) == case["solutions"]
    sols = [as_pairs(s) for s in r.found]
    for s in sols:
        check(path, s, reflect=case["allow_reflection"], partial=case["partial"])
    assert len({as_set(s) for s in sols}) == case["solutions"]
    syms = board_symmetries(path)
    assert len(syms) == case["group"]
    assert len({canonical(s, syms) for s in sols}) == case["unique"]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_unique_representatives_verified(case):
    """solve --unique --all: one verified solution per class, pairwise inequivalent."""
    path = CORPUS / "tiling" / case["file"]
    if case["unique"] > 3000:
        pytest.skip("large; covered by the counts")
    r = load(case).solve(limit=None, unique=True)
    assert len(r.found) == case["unique"]
    sols = [as_pairs(s) for s in r.found]
    for s in sols:
        check(path, s, reflect=case["allow_reflection"], partial=case["partial"])
    syms = board_symmetries(path)
    assert len({canonical(s, syms) for s in sols}) == case["unique"]


@pytest.mark.parametrize("engine", ["bitboard", "wide", "dlx"])
def test_first_solution_and_limit(engine):
    path = CORPUS / "tiling" / "pentomino-6x10.txt"
    t = polytile.load(path)
    r = t.solve(limit=3, engine=engine)
    assert len(r.found) == 3 and not r.complete
    for s in r.found:
        check(path, as_pairs(s), reflect=True, partial=False)
    assert len({as_set(as_pairs(s)) for s in r.found}) == 3
