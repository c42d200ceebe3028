"""The kernels' named records (engine/records.py, bitboard/records.py, the wide and dlx
drivers): every argument a kernel takes is a record of named fields or an array, and the
type keys by which the compiled kernels are picked (kernels.type_key) agree with numba's
own typing of the records (aot.numba_key), so a record built by a driver finds its
compiled variant, and one with other fields or types goes to the JIT."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pytest

import polytile
from polytile.core.results import Report
from polytile.engine import kernels
from polytile.engine.records import place_dtype
from polytile.engine.search import plan, driver_class
from paths import ROOT


def driver(engine: str, store: bool = False):
    model = polytile.load(ROOT / "examples" / "pentomino-3x20.txt").model()
    sym = polytile.load(ROOT / "examples" / "pentomino-3x20.txt").symmetry()
    p = plan(model.cover, sym, unique=True, store=store)
    r = driver_class(engine)(model.cover, sym, p, store=store, limit=0)
    r.begin(p.prefixes)
    return r


def records(value, path="record"):
    """(path, value) of every field below `value`, records opened."""
    yield path, value
    if isinstance(value, tuple):
        for name, v in zip(value._fields, value):
            yield from records(v, f"{path}.{name}")


@pytest.mark.parametrize("engine", ["bitboard", "wide", "dlx"])
def test_kernel_arguments_are_named_records(engine):
    r = driver(engine)
    for name in ("tables", "rules", "sym", "work"):
        for path, value in records(getattr(r, name), name):
            if isinstance(value, tuple):
                assert hasattr(value, "_fields"), f"{path} is a positional tuple"
                assert type(value).__doc__ and set(type(value).__annotations__) == set(value._fields)
    place = r.work.place
    assert place.dtype.names and place.shape == (1,)  # the place: one row, by field


class Pair(NamedTuple):
    a: np.ndarray
    n: int


@pytest.mark.parametrize(
    "value",
    [
        np.zeros(1, place_dtype("depth", "floor")),
        Pair(np.zeros(2, np.int32), 3),
        (Pair(np.zeros(1, np.uint64), 1), np.zeros(1, place_dtype("x"))),
    ],
)
def test_record_type_keys_agree_with_numba(value):
    numba = pytest.importorskip("numba")
    from polytile.engine.aot import numba_key

    assert kernels.type_key(value) == numba_key(numba.typeof(value))


@pytest.mark.parametrize("engine", ["bitboard", "wide", "dlx"])
def test_driver_records_type_keys_agree_with_numba(engine):
    numba = pytest.importorskip("numba")
    from polytile.engine.aot import numba_key

    r = driver(engine, store=True)
    for value in (r.tables, r.rules, r.sym, r.work):
        assert kernels.type_key(value) == numba_key(numba.typeof(value))


def test_records_of_other_classes_or_fields_do_not_share_a_key():
    """A compiled variant is picked by the record's class and field names too."""

    class Other(NamedTuple):
        a: np.ndarray
        m: int

    a = np.zeros(2, np.int32)
    assert kernels.type_key(Pair(a, 1)) != kernels.type_key(Other(a, 1))
    assert kernels.type_key(np.zeros(1, place_dtype("x"))) != kernels.type_key(np.zeros(1, place_dtype("y")))


@pytest.mark.parametrize("engine", ["bitboard", "wide", "dlx"])
def test_a_search_through_the_records_counts_the_published_values(engine):
    """3 x 20 pentominoes: 2 tilings up to symmetry, 8 in all (published)."""
    r = driver(engine)
    res: Report = Report(unique=0)
    while r.advance(1 << 20) != "done":
        pass
    r.collect(res, False)
    assert (res.solutions, res.unique) == (8, 2)
