"""The bitboard kernel's merged blocks (one block per lowest item and key pattern, every
piece in it), its four-row memo buckets and their rehash, and its counts when paused at random budgets,
against plain references: a Python filter of the options, a dict, and tests/checker.py's
brute force."""

from __future__ import annotations

import json
import random
from collections import Counter

import numpy as np
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

import polytile
from checker import TooMany, all_solutions, board_motions, class_form
from polytile.core.results import Report
from polytile.engine.bitboard import driver as bitboard_driver
from polytile.engine.bitboard.kernel import chunk_fit
from polytile.engine.bitboard.memo_table import CODE_BITS, MAX_CODE, MAX_COUNT, WAYS, keep, recall, rehash, slot
from polytile.engine.bitboard.tables import lists_by_first_item, merged_blocks
from polytile.engine.search import driver_class, plan
from random_puzzles import random_puzzles

PROFILE = settings(deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))


@st.composite
def option_sets(draw):
    """n <= 64 items, random options (item masks) of random pieces, and a key count."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    n = draw(st.integers(1, 64))
    n_bits = draw(st.integers(1, 12))
    masks, bits = [], []
    for _ in range(draw(st.integers(0, 150))):
        cells = rng.sample(range(n), rng.randint(1, min(n, 5)))
        masks.append(sum(1 << c for c in cells))
        bits.append(rng.randrange(n_bits))
    return n, n_bits, masks, bits, draw(st.integers(0, 4))


@PROFILE
@given(option_sets())
def test_merged_blocks_hold_each_pieces_options_that_miss_the_occupied_key_items(case):
    n, n_bits, masks, bits, keys = case
    opt_mask = np.array(masks, dtype=np.uint64)
    opt_bit = np.array(bits, dtype=np.int64)
    ptr = np.zeros(len(masks) + 1, dtype=np.int64)
    items = []
    for o, m in enumerate(masks):
        items += [i for i in range(n) if m >> i & 1]
        ptr[o + 1] = len(items)
    keep_all = np.ones(len(masks), dtype=np.bool_)
    cell_opts, cell_start = lists_by_first_item(n, ptr, np.array(items, dtype=np.int32), keep_all)
    opts, tbit, start, key = merged_blocks(n, cell_start, cell_opts, opt_mask, opt_bit, n_bits, keys)
    assert start[-1] == len(opts) == len(tbit)
    for t in range(n):
        assert t not in key[t] or keys == 0
        lowest = [o for o in range(len(masks)) if (masks[o] & -masks[o]).bit_length() - 1 == t]
        for pattern in range(1 << keys):
            occupied = sum(1 << int(key[t, j]) for j in range(keys) if pattern >> j & 1)
            block = (t << keys) | pattern
            got = list(opts[start[block] : start[block + 1]])
            # the reference: the options of t that miss the occupied key items, by piece bit
            # then in cover order (the order of one block per piece before the merge)
            want = sorted((o for o in lowest if masks[o] & occupied == 0), key=lambda o: (bits[o], o))
            assert got == want
            assert list(tbit[start[block] : start[block + 1]]) == [bits[o] for o in want]


@PROFILE
@given(st.integers(0, 2**32 - 1), st.integers(0, 70), st.integers(0, 70))
def test_chunk_fit_marks_the_placements_that_miss_the_cover_and_have_a_piece_left(seed, begin, length):
    rng = random.Random(seed)
    tmask = np.array([rng.getrandbits(64) & rng.getrandbits(64) for _ in range(150)], dtype=np.uint64)
    tbit = np.array([rng.randrange(12) for _ in range(150)], dtype=np.uint8)
    covered, avail = np.uint64(rng.getrandbits(64)), np.uint64(rng.getrandbits(12))
    stop = min(150, begin + length)
    got = int(chunk_fit(tmask, tbit, np.uint64(begin), np.uint64(stop), covered, avail))
    want = sum(
        1 << i
        for i in range(min(stop - begin, 64))
        if int(tmask[begin + i]) & int(covered) == 0 and int(avail) >> int(tbit[begin + i]) & 1
    )
    assert got == want


@settings(PROFILE, max_examples=40)
@given(st.integers(2, 5), st.lists(st.tuples(st.integers(1, 40), st.integers(0, 9), st.integers(0, 99)), max_size=60))
def test_memo_buckets_recall_the_last_count_kept_and_nothing_wrong(bits, ops):
    rows = np.zeros((1 << bits, 2), dtype=np.uint64)
    kept: dict[tuple[int, int], int] = {}  # the last count kept, by sub-problem
    last: dict[int, tuple[int, int]] = {}  # the last sub-problem kept, by bucket
    for covered, code, count in ops:
        found = recall(rows, np.uint64(covered), code)
        assert found == -1 or found == kept[(covered, code)]  # never another's count
        kept[(covered, code)] = count
        keep(rows, np.uint64(covered), code, count)
        last[int(slot(np.uint64(covered), code, 1 << bits))] = (covered, code)
    for covered, code in last.values():
        assert recall(rows, np.uint64(covered), code) == kept[(covered, code)]


@settings(PROFILE, max_examples=60)
@given(
    st.integers(2, 5),
    st.integers(1, 3),
    st.lists(
        st.tuples(st.integers(1, 2**64 - 1), st.integers(0, MAX_CODE - 1), st.integers(0, MAX_COUNT - 1)), max_size=80
    ),
)
def test_memo_rehash_loses_no_row_and_keeps_each_buckets_order(bits, more, ops):
    rows = np.zeros((1 << bits, 2), dtype=np.uint64)
    kept: dict[tuple[int, int], int] = {}
    for covered, code, count in ops:
        if recall(rows, np.uint64(covered), code) == -1:  # the kernel keeps a count only after a miss
            keep(rows, np.uint64(covered), code, count)
    for b in range(0, len(rows), WAYS):  # the rows as a plain list per bucket, newest first
        for covered, word in rows[b : b + WAYS].tolist():
            if covered:
                kept[(covered, word & (MAX_CODE - 1))] = word >> CODE_BITS
    bigger = np.zeros((len(rows) << more, 2), dtype=np.uint64)
    rehash(rows, bigger)
    assert int((bigger[:, 0] != 0).sum()) == len(kept)
    for (covered, code), count in kept.items():
        assert recall(bigger, np.uint64(covered), code) == count
    for b in range(0, len(rows), WAYS):  # rows of one old bucket stay in their order
        old = [(c, w & (MAX_CODE - 1)) for c, w in rows[b : b + WAYS].tolist() if c]
        for h in {int(slot(np.uint64(c), k, len(bigger))) for c, k in old}:
            new = [(c, w & (MAX_CODE - 1)) for c, w in bigger[h : h + WAYS].tolist() if c]
            assert new == [row for row in old if row in new]


def test_memo_counts_too_large_for_a_row_are_not_kept():
    rows = np.zeros((4, 2), dtype=np.uint64)
    keep(rows, np.uint64(5), 3, MAX_COUNT)
    assert recall(rows, np.uint64(5), 3) == -1
    keep(rows, np.uint64(5), 3, MAX_COUNT - 1)
    assert recall(rows, np.uint64(5), 3) == MAX_COUNT - 1
    assert bitboard_driver.MEMO_MAX_CODE == MAX_CODE  # the driver's copy of the code's bound


def paused_count(tiling, budgets: random.Random) -> Report:
    """count --unique on the bitboard kernel, its search cut into slices of random budgets."""
    cover, sym = tiling.model().cover, tiling.symmetry()
    p = plan(cover, sym, unique=True, store=False)
    driver = driver_class("bitboard")(cover, sym, p, store=False, limit=0)
    driver.begin(p.prefixes)
    while driver.advance(budgets.choice((1, 2, 3, 7, 50, 300))) != "done":
        pass
    res = Report(unique=0)
    driver.collect(res, False)
    return res


def check_paused(rp, seed: int, memo: tuple[int, int], path) -> tuple | None:
    """The checker's (solutions, classes) and the paused count's, or None: a puzzle the
    checker cannot enumerate or `count` rejects before any search."""
    if sum(len(p["cells"]) * p["min"] for p in rp.pieces) > len(rp.board):
        return None  # `count` says so before any search (tiling/solver.py); the kernel is not asked
    try:
        truth = all_solutions(rp.board, rp.pieces, rp.dim, limit=300, max_nodes=20_000, grid=rp.grid)
    except TooMany:
        return None
    gs = board_motions(rp.board, rp.dim, rp.grid)
    expected = (len(truth), len({class_form(s, truth, gs) for s in truth}))
    path.write_text(json.dumps(rp.json))
    tiling = polytile.load(path)
    if tiling.model().cover.n_items > 64:
        return None
    names = ("MEMO_BITS", "MEMO_PIECES", "MEMO_START_BITS", "MEMO_NARROW_START_BITS", "MEMO_GROWTH")
    saved = [getattr(bitboard_driver, name) for name in names]
    # the table grows at once, early or mid-search (nodes drawn), in one or two steps
    growth = ((seed % 50, 3), (seed % 50 + seed % 300, 16))
    for name, value in zip(names, (*memo, 1, 1, growth)):
        setattr(bitboard_driver, name, value)
    try:
        r = paused_count(tiling, random.Random(seed))
    finally:
        for name, value in zip(names, saved):
            setattr(bitboard_driver, name, value)
    return expected, (r.solutions, r.unique)


def test_counts_paused_at_random_budgets_with_small_memo_tables_match_the_checker(tmp_path):
    seen = Counter()

    @settings(PROFILE, max_examples=200)
    @given(random_puzzles(), st.integers(0, 2**32 - 1), st.sampled_from([(16, 3), (14, 0), (1, 0), (2, 0), (3, 1)]))
    def run(rp, seed, memo):
        found = check_paused(rp, seed, memo, tmp_path / "puzzle.json")
        if found is None:
            reject()
        expected, got = found
        assert got == expected, (rp.kind, memo)
        seen[rp.kind[0], expected[0] > 0] += 1

    run()
    assert sum(seen.values()) >= 60 and seen[2, True] and seen[3, True], seen
