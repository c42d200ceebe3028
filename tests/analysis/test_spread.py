"""The spread of per-date counts, against figures worked by hand and the plain pairwise
definition of the Gini coefficient."""

from hypothesis import given
from hypothesis import strategies as st

from polytile.analysis.spread import gini, spread


def test_even_counts_have_gini_zero() -> None:
    assert gini([7, 7, 7, 7]) == 0.0
    assert spread([7, 7, 7, 7]).every


def test_one_date_has_all() -> None:
    # pairs (i, j) with |x_i - x_j| = 4: 3 * 2 ordered pairs -> 24 / (2 * 16 * 1) = 0.75
    assert abs(gini([0, 0, 0, 4]) - 0.75) < 1e-12
    s = spread([0, 0, 0, 4])
    assert (s.least, s.most, s.zero, s.every) == (0, 4, 3, False)
    assert s.as_dict() == {"min": 0, "max": 4, "mean": 1.0, "unsolvable": 3, "gini": 0.75}


def test_empty_and_zero() -> None:
    assert gini([]) == 0.0 and gini([0, 0]) == 0.0
    assert spread([]).most == 0


@given(st.lists(st.integers(0, 1000), min_size=1, max_size=40))
def test_gini_equals_pairwise_definition(xs: list[int]) -> None:
    n, total = len(xs), sum(xs)
    plain = 0.0 if total == 0 else sum(abs(a - b) for a in xs for b in xs) / (2 * n * total)
    assert abs(gini(xs) - plain) < 1e-9
