"""Shikaku counting of dense grids: the method each class gets, and its counts against
numbers from outside polytile (the Kasteleyn-Temperley-Fisher product formula for domino
tilings, published values, the independent brute force of tests/checker.py)."""

from __future__ import annotations

import json
import random
from decimal import Decimal, localcontext

import pytest
from hypothesis import given, settings, strategies as st

from checker import shikaku_solutions
from paths import TESTS
from polytile.cli import main
from polytile.engine.counting import determinant, memo
from polytile.shikaku import pfaffian
from polytile.shikaku.formats import load
from polytile.shikaku.generate import partition
from polytile.shikaku.model import Shikaku, method_of, reduce, solve, verify

CHECKER_24 = TESTS / "repro" / "shikaku-24x24-checker-2s.txt"


# --- the product formula, independently of polytile ---------------------------------------


def _pi(prec: int) -> Decimal:
    """pi to `prec` digits (the recipe of Python's decimal documentation)."""
    with localcontext() as ctx:
        ctx.prec = prec + 5
        lasts, t, s, n, na, d, da = Decimal(0), Decimal(3), Decimal(3), 1, 0, 0, 24
        while s != lasts:
            lasts = s
            n, na = n + na, na + 8
            d, da = d + da, da + 32
            t = (t * n) / d
            s += t
        return +s


def _cos(x: Decimal, prec: int) -> Decimal:
    """cos x by its Taylor series, to `prec` digits (|x| < 2 here)."""
    with localcontext() as ctx:
        ctx.prec = prec + 5
        i, lasts, s, fact, num, sign = 0, Decimal(0), Decimal(1), 1, Decimal(1), 1
        while s != lasts:
            lasts = s
            i += 2
            fact *= i * (i - 1)
            num *= x * x
            sign = -sign
            s += num / fact * sign
        return +s


def domino_tilings(m: int, n: int, prec: int = 250) -> int:
    """Domino tilings of an m x n rectangle by Kasteleyn / Temperley-Fisher:
    prod_{j <= ceil(m/2), k <= ceil(n/2)} (4 cos^2(pi j/(m+1)) + 4 cos^2(pi k/(n+1))).
    Every factor is computed to `prec` significant digits (relative error < 10**(5-prec)
    each); a product of at most 144 factors of a number below 10**80 then errs by far less
    than 10**-100, so the nearest integer is exact (asserted, with a margin of 10**-50)."""
    pi = _pi(prec)
    with localcontext() as ctx:
        ctx.prec = prec
        p = Decimal(1)
        for j in range(1, (m + 1) // 2 + 1):
            for k in range(1, (n + 1) // 2 + 1):
                p *= 4 * _cos(pi * j / (m + 1), prec) ** 2 + 4 * _cos(pi * k / (n + 1), prec) ** 2
        exact = int(p.to_integral_value())
        assert abs(p - exact) < Decimal(10) ** -50
    return exact


def test_the_formula_gives_the_published_values():
    """OEIS A004003 (2n x 2n) and A099390 entries, so the formula itself is right."""
    assert [domino_tilings(2 * k, 2 * k) for k in range(1, 6)] == [2, 36, 6728, 12988816, 258584046368]
    assert domino_tilings(3, 4) == 11 and domino_tilings(2, 10) == 89 and domino_tilings(5, 5) == 0


# --- puzzles ------------------------------------------------------------------------------


def checkerboard(w: int, h: int) -> Shikaku:
    """2s on the cells with row + column even: its solutions are the domino tilings."""
    return Shikaku.from_rows([[2 if (r + c) % 2 == 0 else 0 for c in range(w)] for r in range(h)])


def lattice(w: int, h: int, k: int) -> Shikaku:
    """k on the cells with row + column = 0 mod k (3: any straight tromino holds one)."""
    return Shikaku.from_rows([[k if (r + c) % k == 0 else 0 for c in range(w)] for r in range(h)])


def plain_memo(p: Shikaku) -> int:
    """The memoised counter on the same reduction, whatever method `solve` would choose."""
    return memo.count_options(reduce(p).options(), solution=False).solutions


@pytest.mark.parametrize("w,h", [(w, h) for w in range(1, 11) for h in range(w, 11)])
def test_rectangles_of_2s_count_domino_tilings(w, h):
    p = checkerboard(w, h)
    for method in (None, "pfaffian"):
        ans = solve(p, method=method)
        assert ans.solutions == domino_tilings(h, w)
        if ans.solutions:
            assert verify(p, ans.rectangles) is None
    assert ans.method in ("pfaffian", "none")


@pytest.mark.parametrize("w,h", [(16, 12), (20, 20), (31, 18)])
def test_larger_rectangles_of_2s(w, h):
    p = checkerboard(w, h)
    ans = solve(p, solution=False)
    assert ans.method == "pfaffian" and ans.solutions == domino_tilings(h, w)


def test_the_24x24_checkerboard_exact_through_the_cli(capsys):
    assert main(["shikaku", str(CHECKER_24), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["method"] == "pfaffian" and data["complete"]
    assert data["solutions"] == domino_tilings(24, 24)
    assert verify(load(CHECKER_24), [tuple(r) for r in data["rectangles"]]) is None
    assert main(["shikaku", str(CHECKER_24), "--count"]) == 0
    assert capsys.readouterr().out.strip() == str(domino_tilings(24, 24))


def test_a_frontier_count_through_the_cli(capsys, tmp_path):
    """15 x 15 lattice of 3s: the memo outgrows its 65,536 states, the frontier finishes; the
    count agrees with the memo alone, the solution printed is verified."""
    p = lattice(15, 15, 3)
    path = tmp_path / "lattice.txt"
    path.write_text(p.text())
    assert main(["shikaku", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["method"] == "frontier" and data["complete"]
    assert data["solutions"] == solve(p, method="memo", solution=False).solutions
    assert verify(p, [tuple(r) for r in data["rectangles"]]) is None


def test_the_method_by_class():
    assert method_of(checkerboard(8, 40)) == "pfaffian"
    assert method_of(checkerboard(6, 6)) == "memo"  # small: the memo is quicker
    assert method_of(Shikaku.from_rows([[2, 0, 2], [0, 3, 0], [0, 0, 0]])) == "memo"
    assert method_of(checkerboard(8, 8), prefer_not={(0, 0, 1, 2)}) == "memo"
    assert solve(lattice(15, 15, 3), solution=False).method == "frontier"  # the memo outgrows
    assert solve(lattice(12, 12, 3), solution=False).method == "memo"  # FRONTIER_FROM


def test_limits_stop_the_pfaffian():
    big = checkerboard(80, 80)
    ans = solve(big, solution=False, time_limit=0.01)
    assert ans.solutions is None and ans.stopped == "time limit" and ans.method == "pfaffian"
    ans = solve(big, solution=False, max_memory=1 << 20)
    assert ans.solutions is None and ans.stopped == "memory budget" and ans.need > 1 << 20


# --- random grids: the method vs the plain memo counter vs the brute force ---------------


def random_domino_tiling(w: int, h: int, rng: random.Random) -> list[tuple[int, int, int, int]]:
    """A random tiling of a w x h board (w * h even) by dominoes: a regular one, then random
    2 x 2 flips."""
    if w % 2 == 0:
        tiles = {(r, c, 1, 2) for r in range(h) for c in range(0, w, 2)}
    else:
        tiles = {(r, c, 2, 1) for r in range(0, h, 2) for c in range(w)}
    for _ in range(4 * w * h):
        r, c = rng.randrange(h), rng.randrange(w)
        for a, b, new in (
            ((r, c, 1, 2), (r + 1, c, 1, 2), ((r, c, 2, 1), (r, c + 1, 2, 1))),
            ((r, c, 2, 1), (r, c + 1, 2, 1), ((r, c, 1, 2), (r + 1, c, 1, 2))),
        ):
            if a in tiles and b in tiles:
                tiles -= {a, b}
                tiles |= set(new)
                break
    return sorted(tiles)


def brute(p: Shikaku) -> int:
    return len(shikaku_solutions(p.width, p.height, {(r, c): v for r, c, v in p.clues}))


def check_three_ways(p: Shikaku, method: str) -> None:
    ans = solve(p, method=method)
    expected = brute(p)
    assert ans.method in (method, "none", "memo") and ans.solutions == expected == plain_memo(p)
    if ans.solutions:
        assert verify(p, ans.rectangles) is None


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.integers(0, 10**6), st.booleans())
def test_random_grids_of_2s(w, h, seed, planted):
    """Planted: a clue at a random end of each domino of a random tiling (irregular parts,
    holes, faces that are not unit squares once forced dominoes are gone); else half the
    cells at random (mostly no solution)."""
    if w * h % 2:
        h += 1
    rng = random.Random(seed)
    rows = [[0] * w for _ in range(h)]
    if planted:
        for r, c, dh, dw in random_domino_tiling(w, h, rng):
            y, x = (r, c) if rng.random() < 0.5 else (r + dh - 1, c + dw - 1)
            rows[y][x] = 2
    else:
        for k in rng.sample(range(w * h), w * h // 2):
            rows[k // w][k % w] = 2
    check_three_ways(Shikaku.from_rows(rows), "pfaffian")


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.integers(0, 10**6), st.integers(2, 6), st.booleans())
def test_random_dense_grids(w, h, seed, max_area, corner):
    """Random partitions into small rectangles (areas up to `max_area`), a clue in each (in
    its corner: many solutions; anywhere: few): the frontier programme vs the plain memo
    counter vs the brute force. (Some parts of area-6 clues leave the frontier's window?
    No: a 6 x 1 rectangle spans 5 rows of at most 6 cells, well within 64.)"""
    rng = random.Random(seed)
    rows = [[0] * w for _ in range(h)]
    for r, c, dh, dw in partition(w, h, rng, max_area):
        y, x = (r, c) if corner else (r + rng.randrange(dh), c + rng.randrange(dw))
        rows[y][x] = dh * dw
    check_three_ways(Shikaku.from_rows(rows), "frontier")


def test_lattices_of_3s_on_three_rows_count_tromino_tilings():
    """3s at row + col = 0 mod 3 on 3 x n: every straight tromino holds one clue, so the
    solutions are the tilings of 3 x n by straight trominoes, a(n) = a(n-1) + a(n-3)
    (A000930). a(150) > 2**82: counts of several limbs."""
    a = [1, 1, 1]
    while len(a) <= 150:
        a.append(a[-1] + a[-3])
    for n in (3, 10, 31, 60, 150):
        for method in ("frontier", "memo"):
            ans = solve(lattice(n, 3, 3), method=method)
            assert ans.solutions == a[n] and verify(lattice(n, 3, 3), ans.rectangles) is None
            assert ans.method == method


def test_the_frontier_keeps_the_limits():
    """The frontier stops at the time limit and at the memory budget, with no count. The time
    limit's run names the method: with the choice left to `solve`, a loaded machine could
    spend the 0.3 s before the memo hands the grid to the frontier."""
    p = lattice(21, 21, 3)
    ans = solve(p, solution=False, time_limit=0.3, method="frontier")
    assert ans.solutions is None and ans.stopped == "time limit" and ans.method == "frontier"
    ans = solve(p, solution=False, max_memory=8 << 20)
    assert ans.solutions is None and ans.stopped == "memory budget" and ans.method == "frontier"
    assert ans.need > 8 << 20


def test_a_dense_grid_the_memo_cannot_hold():
    """15 x 15 lattice of 3s: the memo alone stops at a 64 MB budget; the frontier counts it
    within the same budget, the same number as the memo with room enough."""
    p = lattice(15, 15, 3)
    assert solve(p, method="memo", solution=False, max_memory=64 << 20).stopped == "memory budget"
    ans = solve(p, max_memory=64 << 20, method="frontier")
    assert ans.method == "frontier" and verify(p, ans.rectangles) is None
    assert ans.solutions == solve(p, method="memo", solution=False).solutions


def matchings_by_hand(cells: set[tuple[int, int]]) -> int:
    """Perfect matchings of the grid graph on `cells`: the first cell is matched to a right or
    lower neighbour, recursively."""
    if not cells:
        return 1
    r, c = min(cells)
    rest = cells - {(r, c)}
    return sum(matchings_by_hand(rest - {n}) for n in ((r, c + 1), (r + 1, c)) if n in rest)


def matchings_of(cells: set[tuple[int, int]]) -> int:
    """The Pfaffian count of a grid graph on `cells`, part by part (clues: row + col even)."""
    total, left = 1, set(cells)
    while left:
        part, todo = [], [min(left)]
        left.discard(todo[0])
        while todo:
            r, c = todo.pop()
            part.append((r, c))
            for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if n in left:
                    left.discard(n)
                    todo.append(n)
        index = {cell: k for k, cell in enumerate(part)}
        edges = [
            (index[a], index[(a[0] + dr, a[1] + dc)])
            for a in part
            for dr, dc in ((0, 1), (1, 0))
            if (a[0] + dr, a[1] + dc) in index
        ]
        g = pfaffian.graph_of(part, [(r + c) % 2 == 0 for r, c in part], edges)
        total *= pfaffian.matchings(g)
    return total


def test_faces_enclosing_an_odd_number_of_cells():
    """Rings around one cell and around three (the plain 'weight i on vertical edges'
    signing is wrong on such faces), a ring with a tail, two blocks joined at a bridge."""
    ring = {(r, c) for r in range(3) for c in range(3)} - {(1, 1)}
    ring3 = {(r, c) for r in range(3) for c in range(5)} - {(1, 1), (1, 2), (1, 3)}
    tail = ring | {(1, 3), (1, 4), (0, 4), (0, 5)}
    bridge = {(0, 0), (0, 1), (1, 0), (1, 1), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4)}
    for cells in (ring, ring3, tail, bridge):
        assert matchings_of(cells) == matchings_by_hand(cells)
    assert matchings_of(ring) == 2


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 7), st.integers(1, 7), st.integers(0, 10**6), st.floats(0.5, 1.0))
def test_random_grid_graphs(w, h, seed, keep):
    """Any set of cells (holes of any size, cut vertices, bridges, several parts):
    the Kasteleyn orientation built from the trees against the plain recursion."""
    rng = random.Random(seed)
    cells = {(r, c) for r in range(h) for c in range(w) if rng.random() < keep}
    assert matchings_of(cells) == matchings_by_hand(cells)


def test_hadamard_moduli_cover_the_bound():
    for h_square in (1, 4**100, 4**300, 5**2000):
        product = 1
        for p in determinant.moduli(h_square):
            product *= p
        assert product * product > 4 * h_square
    assert determinant.abs_det([{0: 2, 1: 1}, {0: 1, 1: 3}], 2) == 5
    assert determinant.abs_det([{0: 1, 1: 1}, {0: 1, 1: 1}], 2) == 0
