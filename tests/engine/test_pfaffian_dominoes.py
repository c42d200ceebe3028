"""Domino tilings by Kasteleyn's Pfaffian (engine/counting/pfaffian.py, its determinant in
engine/counting/banded.py): published counts, boards small enough to count by hand, and
random boards with holes against a plain recursion written here."""

from __future__ import annotations

import math
import random
import time
from fractions import Fraction
from functools import lru_cache

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from polytile.engine.counting import banded
from polytile.engine.counting.pfaffian import count_dominoes, grid_graph, kasteleyn
from polytile.engine.limits import Stopped
from strategies import FAST


def rect(h: int, w: int) -> list[tuple[int, int]]:
    return [(r, c) for r in range(h) for c in range(w)]


# A187616 (oeis.org): T(m, n), the domino tilings of the m x n grid, 0 <= n <= m <= 10,
# read by rows (the triangle of A099390, the main entry, with its row and column of m or n = 0)
A187616 = (
    "1, 1, 0, 1, 1, 2, 1, 0, 3, 0, 1, 1, 5, 11, 36, 1, 0, 8, 0, 95, 0, 1, 1, 13, 41, 281, 1183, 6728, "
    "1, 0, 21, 0, 781, 0, 31529, 0, 1, 1, 34, 153, 2245, 14824, 167089, 1292697, 12988816, "
    "1, 0, 55, 0, 6336, 0, 817991, 0, 108435745, 0, "
    "1, 1, 89, 571, 18061, 185921, 4213133, 53175517, 1031151241, 14479521761, 258584046368"
)
# A004003: the 2n x 2n square, n = 0..8
A004003 = [1, 2, 36, 6728, 12988816, 258584046368, 53060477521960000, 112202208776036178000000]
A004003 += [2444888770250892795802079170816]
# A065072: the 2n x 2n square has 2**n * a(n)**2 tilings, n = 0..13
A065072 = [1, 1, 3, 29, 901, 89893, 28793575, 29607089625, 97725875584681, 1035449388414303593]
A065072 += [35216739783694029601963, 3844747107219467355553841461, 1347358497824862447450096142795629]
A065072 += [1515633798331963142551890627742773295309]
# A189002, odd n: the n x n square without its upper left corner, n = 1, 3, ..., 17
A189002_ODD = [1, 4, 192, 100352, 557568000, 32565539635200, 19872369301840986112]
A189002_ODD += [126231322912498539682594816, 8326627661691818545121844900397056]
# A340535: the 2n x n rectangle, n = 0..14
A340535 = [1, 1, 5, 41, 2245, 185921, 106912793, 90124167441, 540061286536921, 4652799879944138561]
A340535 += [289415868852204573601981, 25545661075321867247577262777, 16457725663617130715785831809325501]
A340535 += [14905470663149838513993965664256435411841, 99323759360556656337166635121447749135517599089]


def triangle() -> list[tuple[int, int, int]]:
    values = [int(v) for v in A187616.split(",")]
    out, k = [], 0
    for m in range(11):
        for n in range(m + 1):
            out.append((m, n, values[k]))
            k += 1
    assert k == len(values)
    return out


@pytest.mark.parametrize("m,n,tilings", triangle())
def test_rectangles_a099390(m, n, tilings):
    assert count_dominoes(rect(m, n)) == tilings
    assert count_dominoes(rect(n, m)) == tilings


@pytest.mark.parametrize("n", range(len(A004003)))
def test_squares_a004003(n):
    assert count_dominoes(rect(2 * n, 2 * n)) == A004003[n]


@pytest.mark.parametrize("n", range(9, len(A065072)))
def test_large_squares_a065072(n):
    """18 x 18 to 26 x 26: counts of 93 to 137 bits, past one prime's reach."""
    assert count_dominoes(rect(2 * n, 2 * n)) == 2**n * A065072[n] ** 2


@pytest.mark.parametrize("k", range(len(A189002_ODD)))
def test_squares_without_a_corner_a189002(k):
    n = 2 * k + 1
    assert count_dominoes(rect(n, n)[1:]) == A189002_ODD[k]


@pytest.mark.parametrize("n", range(len(A340535)))
def test_long_rectangles_a340535(n):
    assert count_dominoes(rect(2 * n, n)) == A340535[n]
    assert count_dominoes([(c + 7, -r) for r, c in rect(2 * n, n)]) == A340535[n]  # turned and moved


def test_small_boards_counted_by_hand():
    ring = set(rect(3, 3)) - {(1, 1)}
    assert count_dominoes(rect(2, 3)) == 3  # three upright; a flat pair over each other, left or right
    assert count_dominoes(rect(2, 4)) == 5  # all upright; one flat pair at 3 places; two flat pairs
    assert count_dominoes(list(ring)) == 2  # a cycle of 8 cells: every other edge, 2 ways
    # without a corner: the cell right of the gap goes with its right neighbour (a 2 x 3 left: 3
    # ways) or with the one below it (then all is forced: 1)
    assert count_dominoes(rect(3, 3)[1:]) == 4
    assert count_dominoes(list(set(rect(4, 4)) - set((r, c) for r in (1, 2) for c in (1, 2)))) == 2  # 12-cycle
    assert count_dominoes(list(set(rect(3, 5)) - {(1, 1), (1, 2), (1, 3)})) == 2  # 12-cycle round 3 holes
    blocks = rect(2, 2) + [(r, c + 4) for r, c in rect(2, 2)]
    assert count_dominoes(blocks) == 4  # two apart: 2 x 2
    assert count_dominoes(blocks + [(0, 2), (0, 3)]) == 4  # the bridge must be one domino: then 2 x 2
    assert count_dominoes([]) == 1  # the empty tiling
    assert count_dominoes([(0, 0)]) == 0
    assert count_dominoes(rect(2, 2) + [(5, 5)]) == 0  # an odd part
    assert count_dominoes(rect(2, 3) + [(0, 0), (1, 1)]) == 3  # cells given twice count once


def test_unequal_colours_mean_no_tiling():
    corners = set(rect(8, 8)) - {(0, 0), (7, 7)}  # the mutilated chessboard
    assert count_dominoes(list(corners)) == 0
    assert count_dominoes([(0, 0), (0, 1), (0, 2), (1, 1)]) == 0  # T: three of one colour


def brute(cells: frozenset[tuple[int, int]]) -> int:
    """Domino tilings: the first empty cell (in reading order) is covered with its right or
    its lower neighbour, recursively."""

    @lru_cache(maxsize=None)
    def ways(left: frozenset[tuple[int, int]]) -> int:
        if not left:
            return 1
        r, c = min(left)
        rest = left - {(r, c)}
        return sum(ways(rest - {n}) for n in ((r, c + 1), (r + 1, c)) if n in rest)

    return ways(cells)


@FAST
@given(st.integers(1, 5), st.integers(1, 6), st.data())
def test_random_boards_with_holes_against_the_recursion(h, w, data):
    keep = data.draw(st.lists(st.booleans(), min_size=h * w, max_size=h * w))
    cells = [cell for cell, kept in zip(rect(h, w), keep) if kept]
    assert count_dominoes(cells) == brute(frozenset(cells))


@FAST
@given(st.integers(2, 6), st.integers(2, 6), st.integers(0, 10**9), st.floats(0.6, 1.0))
def test_dense_random_boards_against_the_recursion(h, w, seed, keep):
    """Mostly full boards, where tilings are many and holes few (faces enclosing a hole)."""
    rng = random.Random(seed)
    cells = [cell for cell in rect(h, w) if rng.random() < keep]
    assert count_dominoes(cells) == brute(frozenset(cells))


def test_a_deadline_stops_the_count(monkeypatch):
    with pytest.raises(Stopped) as stop:
        count_dominoes(rect(4, 4), deadline=time.perf_counter() - 1)
    assert stop.value.reason == "time limit" and stop.value.method == "pfaffian"
    rows, cols, values = kasteleyn(grid_graph(rect(60, 60)))
    monkeypatch.setattr(banded, "CHUNK", 1)  # inside the elimination: a look at the clock every column
    start = time.perf_counter()
    with pytest.raises(Stopped) as stop:
        banded.abs_det(1800, rows, cols, values, deadline=start + 0.02)
    assert stop.value.reason == "time limit" and time.perf_counter() - start < 0.5


def exact_det(matrix: list[list[int]]) -> int:
    """Gaussian elimination over the rationals."""
    m = [[Fraction(v) for v in row] for row in matrix]
    n, det = len(m), Fraction(1)
    for k in range(n):
        piv = next((i for i in range(k, n) if m[i][k]), None)
        if piv is None:
            return 0
        if piv != k:
            m[k], m[piv], det = m[piv], m[k], -det
        det *= m[k][k]
        for i in range(k + 1, n):
            f = m[i][k] / m[k][k]
            for j in range(k, n):
                m[i][j] -= f * m[k][j]
    return int(det)


@FAST
@given(st.integers(1, 14), st.integers(0, 4), st.integers(0, 4), st.integers(0, 10**9))
def test_banded_determinants_against_fractions(n, lower, upper, seed):
    """Zero pivots (row swaps), zero rows, large entries (several primes)."""
    rng = random.Random(seed)
    density = rng.choice((0.3, 0.7, 1.0))
    matrix = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(max(0, i - lower), min(n, i + upper + 1)):
            if rng.random() < density:
                matrix[i][j] = rng.choice((1, -1, 2, rng.randint(-(10**12), 10**12)))
    entries = [(i, j, v) for i, row in enumerate(matrix) for j, v in enumerate(row) if v]
    rows, cols, values = (np.array([e[k] for e in entries], dtype=np.int64) for k in range(3))
    assert banded.abs_det(n, rows, cols, values) == abs(exact_det(matrix))


def test_primes_and_moduli():
    small = [n for n in range(2, 20000) if all(n % d for d in range(2, int(n**0.5) + 1))]
    assert [n for n in range(20000) if banded.is_prime(n)] == small
    assert not banded.is_prime(3215031751)  # strong pseudoprime to bases 2, 3, 5, 7
    assert not banded.is_prime(3825123056546413051)  # ... to bases 2 to 23
    found = banded.primes(40)
    assert found == sorted(found, reverse=True) and len(set(found)) == 40
    assert all(p < 2**banded.PRIME_BITS and banded.is_prime(p) for p in found)
    for h_square in (1, 4**100, 4**1250, 5**2000):
        chosen = banded.moduli(h_square)
        assert math.prod(chosen) ** 2 > 4 * h_square  # P > 2H
        assert len(chosen) == 1 or math.prod(chosen[:-1]) ** 2 <= 4 * h_square  # as few as it takes
