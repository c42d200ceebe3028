"""The bound kernel kept per process under the driver's `bind_key`, and
the memo table's first size chosen from the options' mean span, against their references:
equal keys only for equal argument types (kernels.type_key, which the compiled variants
are matched by), the variant the key hands out the one kernels.bind finds, and counts with
every first table size (and with the rule off, or on for every board) equal to the
published counts of tests/corpus/tiling/manifest.json and to tests/checker.py."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

import polytile
from checker import TooMany, all_solutions, board_motions, class_form
from paths import TESTS
from polytile.engine import kernels
from polytile.engine.bitboard import chained, memo_table
from polytile.engine.bitboard import driver as bitboard_driver
from polytile.engine.search import driver_class, piece_never_placed, plan, search
from random_puzzles import random_puzzles

CORPUS = TESTS / "corpus" / "tiling"
MANIFEST = {entry["file"]: entry for entry in json.loads((CORPUS / "manifest.json").read_text())}
PROFILE = settings(
    max_examples=25, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck)
)
# the drivers' settings that change their records: what a count, a listing, a limit, a
# random order, a selection, the memo off, the region floods and other key counts build
VARIANTS = (
    {},
    {"store": True},
    {"limit": 3},
    {"store": True, "shuffle": 7},
    {"select": np.array([0, 2], dtype=np.int64)},
    {"memo": False},
    {"flood": True},
    {"keys": 3},
    {"prune": False},
    {"memo": 0},  # (an int where a bool was: the tables' `memo` is then an int)
    {"flood": 1},
    {"store": True, "shuffle": 3, "keys": np.int64(3)},
)


def tiling_of(rp, tmp_path):
    path = tmp_path / "puzzle.json"
    path.write_text(json.dumps(rp.json))
    return polytile.load(path)


def drivers(tiling):
    """Bitboard drivers of the puzzle for every variant, with and without symmetry, begun
    with the plan's prefixes (one with a larger solution buffer, as engine/grouped.py gives)."""
    cover = tiling.model().cover
    if cover.n_items > 64 or len(cover.piece_count) > 64:
        return
    sym = tiling.symmetry()
    for s, unique in ((sym, True), (None, False)):
        p = plan(cover, s, unique=unique, store=False)
        for extra in VARIANTS:
            kw = {"store": False, "limit": 0, **extra}
            driver = driver_class("bitboard")(cover, s, p, **kw)
            driver.begin(p.prefixes)
            yield driver
    driver.out = np.full((64, driver.depth), -1, dtype=np.int32)
    driver.begin(p.prefixes)
    yield driver
    # records of arrays the driver does not make: read-only ones, as a caller may give
    for record, field in (("rules", "opt_piece"), ("rules", "piece_count"), ("sym", "label_img"), ("sym", "opt_stab")):
        fixed = getattr(driver, record)._asdict()[field].copy()
        fixed.setflags(write=False)
        setattr(driver, record, getattr(driver, record)._replace(**{field: fixed}))
        driver._run = None
        yield driver


def arguments(driver):
    return (driver.tables, driver.rules, driver.sym, driver.work, driver.prefixes, 0)


def check_bind_keys(tiling, seen: dict) -> None:
    """Equal bind_keys, equal types of every argument (across puzzles too: `seen`), and
    the bound kernel the one kernels.bind matches."""
    for driver in drivers(tiling):
        args = arguments(driver)
        full = tuple(kernels.type_key(a) for a in args)
        assert seen.setdefault(driver.bind_key(), full) == full
        assert driver.bind() is kernels.bind(driver.kernel.run, *args)


@PROFILE
@given(random_puzzles())
def test_bind_keys_tell_the_argument_types_on_random_puzzles(tmp_path_factory, rp):
    check_bind_keys(tiling_of(rp, tmp_path_factory.mktemp("p")), SEEN)


SEEN: dict = {}  # bind_key -> the argument types, over every test of this module


def test_bind_keys_tell_the_argument_types_on_the_corpus():
    for name in (
        "pentomino-3x20.txt",
        "rotate-only-4L4-4x4.txt",
        "tetromino-box-4x5-atmost2.txt",
        "katamino-slam1-5.txt",
    ):
        check_bind_keys(polytile.load(CORPUS / name), SEEN)
    assert len(SEEN) > 1  # the variants do make records of other types


def test_type_id_of_an_int_follows_its_range():
    """type_id's short path for ints: one id for those type_key calls int64, another for
    the rest (uint64), whatever the value."""
    small = {kernels.type_id(v) for v in (0, -5, 1 << 40, (1 << 63) - 1, -(1 << 63))}
    large = {kernels.type_id(v) for v in (1 << 63, 1 << 64, -(1 << 63) - 1)}
    assert len(small) == 1 and len(large) == 1 and small != large
    assert kernels.type_id(True) not in small  # a bool is not an int here


def count(path, reflect=True, **settings):
    """count --unique of a puzzle file with the driver's module settings changed."""
    saved = {name: getattr(bitboard_driver, name) for name in settings}
    try:
        for name, value in settings.items():
            setattr(bitboard_driver, name, value)
        tiling = polytile.load(path) if reflect else polytile.load(path).no_reflect()
        res = search(tiling.model().cover, tiling.symmetry(), unique=True)
        return res.solutions, res.unique
    finally:
        for name, value in saved.items():
            setattr(bitboard_driver, name, value)


def test_counts_with_every_first_table_size_match_the_published_ones():
    """The narrow boards of the corpus counted with first tables of 4 to 2^12 rows, and with
    the rule off (no board narrow) or on for every board, growing from there: the
    manifest's counts (published tables, hand counts) every time."""
    for name in (
        "pentomino-3x20.txt",
        "rotate-only-4L4-4x4.txt",
        "tetromino-box-4x5-atmost2.txt",
        "katamino-slam2-7.txt",
    ):
        entry = MANIFEST[name]
        want, reflect = (entry["solutions"], entry["unique"]), entry["allow_reflection"]
        for bits in (2, 4, 6, 8, 10, 12):
            for span in (0.0, 8.0, 100.0):
                growth = ((1 << 6, bits + 2), (1 << 13, 14))
                got = count(
                    CORPUS / name, reflect, MEMO_NARROW_START_BITS=bits, MEMO_NARROW_SPAN=span, MEMO_GROWTH=growth
                )
                assert got == want, (name, bits, span)


def test_the_rule_gives_3x20_a_small_table_and_4x15_the_usual_one():
    """3x20 (options spanning 7.45 items on average) starts with 2^10 rows and no spare;
    4x15 (9.07) with 2^12 rows and the spare for its first growth."""
    for name, rows, spare in (("pentomino-3x20.txt", 1 << 10, False), ("pentomino-4x15.txt", 1 << 12, True)):
        tiling = polytile.load(CORPUS / name)
        cover, sym = tiling.model().cover, tiling.symmetry()
        p = plan(cover, sym, unique=True, store=False)
        driver = driver_class("bitboard")(cover, sym, p, store=False, limit=0)
        assert len(driver.table.rows) == rows and (driver.spare is not None) == spare, name
        assert driver.span == bitboard_driver.option_span(cover)


@settings(PROFILE, max_examples=60)
@given(random_puzzles(), st.sampled_from([2, 3, 6]))
def test_small_first_tables_on_every_board_match_the_checker(tmp_path_factory, rp, bits):
    """Every random puzzle counted as a narrow one (first table of 2^bits rows, growing at
    64 nodes): tests/checker.py's solutions and classes."""
    if sum(len(p["cells"]) * p["min"] for p in rp.pieces) > len(rp.board):
        reject()  # `count` says so before any search
    try:
        truth = all_solutions(rp.board, rp.pieces, rp.dim, limit=300, max_nodes=20_000, grid=rp.grid)
    except TooMany:
        reject()
    gs = board_motions(rp.board, rp.dim, rp.grid)
    want = (len(truth), len({class_form(s, truth, gs) for s in truth}))
    path = tmp_path_factory.mktemp("p") / "puzzle.json"
    path.write_text(json.dumps(rp.json))
    if polytile.load(path).model().cover.n_items > 64:
        reject()
    growth = ((1 << 6, bits + 3), (1 << 13, 14))
    assert count(path, MEMO_NARROW_START_BITS=bits, MEMO_NARROW_SPAN=1000.0, MEMO_GROWTH=growth) == want


def test_new_rows_is_table_rows_in_one_call():
    """memo_table.new_rows (ahead of time where built, and numba's) against the driver's
    table_rows: the same zeroed (rows, 2) uint64 table, from a 64-byte boundary, of the
    type the kernel was compiled for."""
    compiled = kernels.kernel_module("bitboard.memo_table").new_rows
    for rows in (4, 8, 1 << 10, 1 << 12):
        want = bitboard_driver.table_rows(rows)
        for new_rows in (compiled, memo_table.new_rows):
            got = new_rows(rows)
            assert got.shape == want.shape and not got.any()
            assert kernels.type_key(got) == kernels.type_key(want)
            assert got.__array_interface__["data"][0] % 64 == 0


@settings(PROFILE, max_examples=200)
@given(st.lists(st.integers(0, (1 << 31) - 1), max_size=64), st.randoms(use_true_random=False))
def test_mixed_radix_compiled_as_written(counts, rng):
    """chained._mixed_radix (both variants) against driver.mixed_radix for any counts in
    any bit order, up to RADIX_CAP and past it (no overflow)."""
    bit_piece = list(range(len(counts)))
    rng.shuffle(bit_piece)
    opt_bit = np.zeros(len(counts), dtype=np.int64)
    opt_bit[bit_piece] = np.arange(len(counts))
    places, codes = bitboard_driver.mixed_radix(counts, bit_piece)
    assert codes <= bitboard_driver.RADIX_CAP == chained.RADIX_CAP
    array = np.array(counts, dtype=np.int32)
    for mixed in (kernels.kernel_module("bitboard.chained")._mixed_radix, chained._mixed_radix):
        radix, got = mixed(array, opt_bit, len(counts))
        assert radix.tolist() == places and got == codes


def check_plan_knows_never_placed(tiling) -> None:
    """search.plan's never_placed, where its compiled call found it, is piece_never_placed."""
    cover, sym = tiling.model().cover, tiling.symmetry()
    for unique, store in ((True, False), (False, False), (False, True)):
        p = plan(cover, sym, unique=unique, store=store)
        assert p.never_placed is None or p.never_placed == piece_never_placed(cover)


@PROFILE
@given(random_puzzles())
def test_the_plan_knows_whether_a_piece_is_never_placed(tmp_path_factory, rp):
    check_plan_knows_never_placed(tiling_of(rp, tmp_path_factory.mktemp("p")))


def test_the_plan_finds_a_piece_never_placed():
    """3x20 as it is (every piece placed), then with one piece's placements all taken away:
    no solution, and no node searched."""
    tiling = polytile.load(CORPUS / "pentomino-3x20.txt")
    cover, sym = tiling.model().cover, tiling.symmetry()
    assert plan(cover, sym, unique=True, store=False).never_placed is False
    gone = int(cover.opt_piece[0])
    keep = cover.opt_piece != gone
    starts = cover.opt_ptr[:-1][keep]
    lengths = (cover.opt_ptr[1:] - cover.opt_ptr[:-1])[keep]
    items = np.concatenate([cover.opt_items[a : a + n] for a, n in zip(starts.tolist(), lengths.tolist())])
    ptr = np.concatenate([[0], np.cumsum(lengths)]).astype(cover.opt_ptr.dtype)
    cut = dataclasses.replace(cover, opt_ptr=ptr, opt_items=items, opt_piece=cover.opt_piece[keep].copy())
    assert piece_never_placed(cut)
    res = search(cut, None, unique=False)
    assert res.solutions == 0 and res.nodes == 0
