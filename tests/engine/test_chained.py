"""The set-up steps chained into one compiled call each (engine/bitboard/chained.py)
against the same steps one call at a time and against numpy: the bitboard driver's
tables (BitboardDriver's `_tables`, the path a shuffled search still takes, itself checked
against loops in test_setup_tables.py) and symmetry breaking's choices in search.plan
(core.symmetry.breaking_piece and second_breaking, the numpy reference), on random
puzzles of every grid and the corpus."""

from __future__ import annotations

import json

import numpy as np
from hypothesis import HealthCheck, given, settings

import polytile
from paths import TESTS
from polytile.core import symmetry
from polytile.engine.bitboard.driver import BitboardDriver, build
from polytile.engine.search import Plan, plan
from random_puzzles import random_lattice_puzzles, random_puzzles

PROFILE = settings(
    max_examples=100, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck)
)
TABLES = (
    "opt_mask",
    "nb_mask",
    "opt_border",
    "shift_d",
    "shift_m",
    "prune",
    "topt",
    "tbit",
    "tstart",
    "key",
    "tmask",
    "narrow",
    "keys",
    "span",
)


class StepByStep(BitboardDriver):
    """The driver with its tables built one compiled call at a time."""

    def _all_tables(self, keep, prune, opt_bit, keys=None):
        self._choose_keys(keys)
        return self._tables(keep, prune, opt_bit)


def tiling_of(rp, tmp_path):
    path = tmp_path / "puzzle.json"
    path.write_text(json.dumps(rp.json))
    return polytile.load(path)


def numpy_plan(cover, sym, second: bool) -> Plan:
    """search.plan's choices made by core.symmetry's numpy functions."""
    keep = np.ones(cover.n_options, dtype=bool)
    found = symmetry.breaking_piece(cover, sym) if sym.order > 1 else None
    if found is None:
        return Plan(keep, 1, -1, True)
    piece, first = found
    keep[cover.opt_piece == piece] = False
    prefixes = [np.array([o], dtype=np.int32) for o in first]
    found2 = symmetry.second_breaking(cover, sym, piece, first) if second else None
    return Plan(keep, 2, piece, True, prefixes, *(found2 or (-1, None, None)))


def same_plan(a: Plan, b: Plan) -> None:
    assert (a.sym_mode, a.sym_piece, a.canonical_only, a.sym_piece2) == (
        b.sym_mode,
        b.sym_piece,
        b.canonical_only,
        b.sym_piece2,
    )
    assert np.array_equal(a.keep, b.keep)
    assert [p.tolist() for p in a.prefixes] == [p.tolist() for p in b.prefixes]
    for x, y in ((a.ban_ptr, b.ban_ptr), (a.ban_opts, b.ban_opts)):
        assert (x is None) == (y is None)
        if x is not None:
            assert x.dtype == y.dtype and np.array_equal(x, y)


def blocks_by_loops(n, cell_start, cell_opts, opt_mask, opt_bit, keys):
    """tables.merged_blocks by its docstring: the key items of t (the `keys` items most often
    covered by the options whose lowest item is t, ties the lower, t itself last), then block
    (t << keys) | P: the options with lowest item t covering no key item occupied in P, by
    piece bit, then in the order of `cell_opts`."""
    blocks, key = {}, []
    for t in range(n):
        mine = [int(o) for o in cell_opts[cell_start[t] : cell_start[t + 1]]]
        counts = [sum(int(opt_mask[o]) >> i & 1 for o in mine) for i in range(64)]
        counts[t] = -1
        key.append(sorted(range(64), key=lambda i: (-counts[i], i))[:keys])
        for pat in range(1 << keys):
            for o in sorted(mine, key=lambda o: opt_bit[o]):  # (a stable sort)
                if not any(pat >> j & 1 and int(opt_mask[o]) >> key[t][j] & 1 for j in range(keys)):
                    blocks.setdefault((t << keys) | pat, []).append(o)
    return blocks, key


def check_blocks(driver, cover) -> None:
    """The blocks the driver built against blocks_by_loops."""
    keep = np.isin(np.arange(cover.n_options), driver.topt)  # the options that were kept
    opts, start = build.lists_by_first_item(cover.n_items, cover.opt_ptr, cover.opt_items, keep)
    opt_bit = np.zeros(len(cover.piece_count), dtype=np.int64)
    opt_bit[driver.bit_piece] = np.arange(len(driver.bit_piece))
    blocks, key = blocks_by_loops(cover.n_items, start, opts, driver.opt_mask, opt_bit[cover.opt_piece], driver.keys)
    assert driver.key.tolist() == key
    for b in range(cover.n_items << driver.keys):
        found = driver.topt[driver.tstart[b] : driver.tstart[b + 1]].tolist()
        assert found == blocks.get(b, [])
        assert driver.tbit[driver.tstart[b] : driver.tstart[b + 1]].tolist() == [
            opt_bit[cover.opt_piece[o]] for o in found
        ]


def check(tiling) -> None:
    cover = tiling.model().cover
    sym = tiling.symmetry()
    for second in (True, False):
        same_plan(plan(cover, sym, unique=True, store=False, second=second), numpy_plan(cover, sym, second))
    if cover.n_items > 64 or len(cover.piece_count) > 64:
        return
    p = plan(cover, sym, unique=True, store=False)
    for prune, keys in ((True, None), (False, 3), (True, 1)):
        fast = BitboardDriver(cover, sym, p, store=False, limit=0, prune=prune, keys=keys)
        slow = StepByStep(cover, sym, p, store=False, limit=0, prune=prune, keys=keys)
        if keys is not None and cover.n_options < 400:
            check_blocks(fast, cover)
        for name in TABLES:
            x, y = getattr(fast, name), getattr(slow, name)
            if isinstance(x, np.ndarray):
                assert x.dtype == y.dtype and x.shape == y.shape, name
            assert np.array_equal(x, y), name
        for name in ("radix", "memo", "min_empty"):  # the memo's, from the tables call or step by step
            x, y = getattr(fast.tables, name), getattr(slow.tables, name)
            assert np.array_equal(x, y) and type(x) is type(y), name
        assert fast.codes == slow.codes


@PROFILE
@given(random_puzzles())
def test_chained_calls_match_the_steps(tmp_path_factory, rp):
    check(tiling_of(rp, tmp_path_factory.mktemp("p")))


@settings(max_examples=40, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
@given(random_lattice_puzzles())
def test_chained_calls_match_the_steps_on_lattices(tmp_path_factory, rp):
    check(tiling_of(rp, tmp_path_factory.mktemp("p")))


def test_chained_calls_match_the_steps_on_the_corpus():
    corpus = TESTS / "corpus" / "tiling"
    for path in sorted(corpus.glob("*.txt")) + [corpus / "soma-3x3x3.json"]:
        check(polytile.load(path))
