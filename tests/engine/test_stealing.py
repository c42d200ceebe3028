"""Counting on threads by work stealing: every prefix handed out once, each worker's driver
its own copy made before any search, random puzzles split and stolen against the plain
count and the independent checker, the time limit."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, reject, settings, strategies as st
import pytest

import polytile
from test_parallel import CASES, load
from polytile.engine.records import SOLUTIONS, UNIQUE


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(
    n=st.integers(0, 300),
    workers=st.integers(1, 5),
    most=st.none() | st.integers(1, 40),
    turns=st.lists(st.integers(0, 4), max_size=400),
)
def test_stealing_hands_out_every_prefix_once(n, workers, most, turns):
    """Whatever order the workers ask in, the chunks are non-empty, at most `most` long,
    and together the prefixes 0..n-1, each once; a worker is refused only when none is left."""
    from polytile.engine.parallel.stealing import Stealing

    chunks = Stealing(list(range(n)), workers, most)
    seen: list[int] = []
    for w in turns + [k % chunks.workers for k in range(4 * n + 4)]:
        got = chunks.take(w % chunks.workers)
        if got is None:
            assert len(seen) == n
            continue
        i, prefixes = got
        assert prefixes == list(chunks.span(i)) and 0 < len(prefixes) <= (most or n)
        seen += prefixes
    assert sorted(seen) == list(range(n))


def test_a_copied_driver_shares_no_array_it_writes_and_counts_the_same():
    import numpy as np
    from polytile.engine.search import Pacer, plan, driver_class
    from polytile.engine.parallel.stealing import clone

    t = load(CASES["pentomino-8x8-side-offset-missing"])
    cover, sym = t.model().cover, t.symmetry()
    p = plan(cover, sym, unique=True, store=False)
    original = driver_class("bitboard")(cover, sym, p, store=False, limit=0)
    twin = clone(original)
    for name, value in vars(original).items():
        if isinstance(value, np.ndarray) and value.size and name != "cover":
            assert not np.shares_memory(value, getattr(twin, name)), name
    counts = []
    for r in (twin, original):
        r.begin(p.prefixes)
        pacer = Pacer()
        while pacer.advance(r) != "done":
            pass
        counts.append([int(r.stats[SOLUTIONS]), int(r.stats[UNIQUE])])
    case = CASES["pentomino-8x8-side-offset-missing"]
    assert counts == [[case["solutions"], case["unique"]]] * 2


def test_each_worker_gets_a_driver_of_its_own_made_before_any_search():
    """Shared copies the driver for every worker when it is made, before any worker
    searches: a copy taken while another worker searched caught its memo table half
    written (9348 of 6x10's 9356 solutions, about one count in ten). Whatever the first
    worker then writes into its driver, the others' copies keep the state they were made
    with."""
    import numpy as np
    from polytile.engine.search import plan, driver_class
    from polytile.engine.parallel.stealing import Shared

    t = load(CASES["pentomino-6x10"])
    cover, sym = t.model().cover, t.symmetry()
    p = plan(cover, sym, unique=False, store=False)
    original = driver_class("bitboard")(cover, sym, p, store=False, limit=0)
    pristine = {k: v.copy() for k, v in vars(original).items() if isinstance(v, np.ndarray)}
    shared = Shared(original, 3)
    first = shared.get()
    for value in vars(first).values():  # the first worker's search writes its arrays
        if isinstance(value, np.ndarray) and value.flags.writeable and value.size:
            value.view(np.uint8)[:] = 0xA5
    others = [shared.get(), shared.get()]
    assert shared.get() is None and all(r is not first for r in others)
    for r in others:
        for name, value in pristine.items():
            assert np.array_equal(getattr(r, name), value), name


@pytest.fixture
def steal_settings(monkeypatch):
    """Set the stealing count's prefixes wanted and chunk divisor for one call."""
    from polytile.engine.parallel import counts as parallel, stealing

    def use(prefixes: int, divide: int) -> None:
        monkeypatch.setattr(parallel, "STEAL_PER_WORKER", prefixes)
        monkeypatch.setattr(stealing, "DIVIDE", divide)

    return use


def test_random_puzzles_split_and_stolen_match_the_plain_count_and_the_checker(tmp_path, steal_settings):
    """Random small puzzles (tests/random_puzzles.py), counted on 2, 3 and 5 threads by work
    stealing, split into few or many prefixes and in chunks of every size: the same counts
    as one thread without symmetry breaking, and as the independent brute force."""
    from checker import TooMany, all_solutions, board_motions, class_form
    from random_puzzles import random_puzzles

    path = tmp_path / "puzzle.json"
    checked = []

    @settings(max_examples=60, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
    @given(
        random_puzzles(),
        st.sampled_from([1, 4, 64, 4096]),
        st.sampled_from([1, 2, 4, 1000]),
        st.sampled_from([2, 3, 5]),
    )
    def run(rp, prefixes, divide, jobs):
        try:
            truth = all_solutions(rp.board, rp.pieces, rp.dim, limit=300, max_nodes=20_000, grid=rp.grid)
        except TooMany:
            reject()
        gs = board_motions(rp.board, rp.dim, rp.grid)
        expected = (len(truth), len({class_form(s, truth, gs) for s in truth}))
        path.write_text(json.dumps(rp.json))
        tiling = polytile.load(path)
        assert tiling.count(breaking=False).solutions == expected[0]
        steal_settings(prefixes, divide)
        r = tiling.count(unique=True, jobs=jobs)
        assert r.complete and (r.solutions, r.unique) == expected, (prefixes, divide, jobs, rp.kind)
        assert tiling.count(jobs=jobs, breaking=False).solutions == expected[0]
        checked.append(expected[0])

    run()
    assert len(checked) >= 30 and sum(1 for c in checked if c > 1) >= 10


def test_stealing_keeps_the_time_limit_and_the_parts_searched():
    """A deadline during a count by work stealing: incomplete, timed out, the nodes of the
    parts searched kept; the workers stop."""
    import threading
    import time

    t = load(CASES["pentomino-6x10"])
    t0 = time.perf_counter()
    r = t.count(jobs=2, breaking=False, time_limit=0.15)
    assert not r.complete and r.timed_out and r.nodes > 0
    assert time.perf_counter() - t0 < 2.0
    time.sleep(0.1)
    assert not [w for w in threading.enumerate() if w.name.endswith("(work)")]  # workers gone
