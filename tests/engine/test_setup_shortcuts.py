"""More of the set-up's shortcuts against their plain references:
`tables.useful`'s floods with the shifts unrolled against kernel.regions_ok called option by
option, `kernels.type_id`'s fast paths against `type_key` (equal ids only when the keys
are equal), and a driver begun again keeping its bound kernel and counting what search
counts, on random puzzles of every grid (tests/random_puzzles.py) and the corpus."""

from __future__ import annotations

import json

import numpy as np
from hypothesis import HealthCheck, given, settings

import polytile
from paths import TESTS
from polytile.engine import kernels
from polytile.engine.bitboard import kernel as bitboard_kernel
from polytile.engine.bitboard.driver import MAX_SHIFTS, BitboardDriver, build
from polytile.engine.records import Rules
from polytile.engine.search import plan, search
from random_puzzles import random_lattice_puzzles, random_puzzles

PROFILE = settings(
    max_examples=25, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck)
)


def tiling_of(rp, tmp_path):
    path = tmp_path / "puzzle.json"
    path.write_text(json.dumps(rp.json))
    return polytile.load(path)


def useful_by_regions_ok(keep, opt_mask, opt_border, full, nb_mask, shift_d, shift_m, sizes, cap):
    """tables.useful as it was: kernel.regions_ok for each kept option."""
    out = keep.copy()
    for o in np.nonzero(keep)[0].tolist():
        out[o] = bitboard_kernel.regions_ok(full & ~opt_mask[o], opt_border[o], nb_mask, shift_d, shift_m, sizes, cap)
    return out


def check_useful(cover) -> None:
    """The compiled `useful` (ahead of time where built, and numba's) against the reference,
    for every piece's sizes and a few caps, on all options and on every other one."""
    n = cover.n_items
    if n > 64 or cover.n_options == 0:
        return
    opt_mask, nb_mask, opt_border = build.board_masks(n, cover.opt_ptr, cover.opt_items, cover.neighbours)
    shift_d, shift_m = build.neighbour_shifts(cover.neighbours, MAX_SHIFTS)
    full = np.uint64((1 << n) - 1) if n < 64 else np.uint64(0xFFFFFFFFFFFFFFFF)
    sizes = bitboard_kernel.reachable_sizes(cover.piece_count.astype(np.int64), cover.piece_size.astype(np.int64))
    every = np.ones(cover.n_options, dtype=bool)
    alternate = every.copy()
    alternate[::2] = False
    for keep in (every, alternate):
        for cap in (4, 15):
            args = (keep, opt_mask, opt_border, full, nb_mask, shift_d, shift_m, sizes, cap)
            want = useful_by_regions_ok(*args)
            for useful in (build.useful, kernels.kernel_module("bitboard.tables").useful):
                got = useful(*args)
                assert got.dtype == want.dtype and np.array_equal(got, want), cap


def check_begun_once(tiling) -> None:
    """A driver begun again keeps its bound kernel (`begin` no longer forgets it) and
    counts what search counts."""
    cover, sym = tiling.model().cover, tiling.symmetry()
    if cover.n_items > 64 or len(cover.piece_count) > 64:
        return
    p = plan(cover, sym, unique=True, store=False)
    driver = BitboardDriver(cover, sym, p, store=False, limit=0)
    bound = driver.bind()
    driver.begin([q.copy() for q in p.prefixes])
    assert driver.begun is not p.prefixes and driver.bind() is bound
    while driver.advance(1 << 20) != "done":
        pass
    res = search(cover, sym, unique=True, engine="bitboard")
    assert (res.solutions, res.unique) == (int(driver.stats[1]), int(driver.stats[2]))


@PROFILE
@given(random_puzzles())
def test_useful_unrolled_matches_regions_ok(tmp_path_factory, rp):
    check_useful(tiling_of(rp, tmp_path_factory.mktemp("p")).model().cover)


@settings(max_examples=12, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
@given(random_lattice_puzzles())
def test_useful_unrolled_matches_regions_ok_on_lattices(tmp_path_factory, rp):
    check_useful(tiling_of(rp, tmp_path_factory.mktemp("p")).model().cover)


def test_useful_unrolled_matches_regions_ok_on_the_corpus():
    corpus = TESTS / "corpus" / "tiling"
    for path in sorted(corpus.glob("*.txt")):
        check_useful(polytile.load(path).model().cover)


def test_a_driver_begun_again_keeps_its_kernel_and_counts_alike():
    corpus = TESTS / "corpus" / "tiling"
    for name in ("pentomino-3x20.txt", "pentomino-4x15.txt"):
        check_begun_once(polytile.load(corpus / name))


def test_type_ids_equal_exactly_when_type_keys_are():
    """type_id's shortcuts (arrays by all their flags, scalars by their type): equal
    integers only for values of equal type_key, and the same integer for values of the
    same Python type and key (a Python bool and numpy's may differ: a second look-up)."""
    base = np.zeros((3, 4), dtype=np.int64)
    frozen = base.copy()
    frozen.flags.writeable = False
    values = [
        base,
        base.copy(),
        base[:, ::2],  # not contiguous
        base.T,  # Fortran order
        base[0],  # a view: OWNDATA differs, the key does not
        frozen,
        np.zeros(3, dtype=np.int32),
        np.zeros(3, dtype=np.uint64),
        np.zeros(1, dtype=np.dtype([("a", np.int64), ("b", np.int64)], align=True)),
        np.zeros(1, dtype=np.dtype([("a", np.int64), ("c", np.int64)], align=True)),
        True,
        np.bool_(False),
        3,
        1 << 63,  # a Python int too large for int64: uint64
        -5,
        2.5,
        np.uint64(7),
        np.int64(7),
        np.int32(7),
        np.float64(1.0),
        (base, 3),
        (base, np.uint64(1)),
        Rules(np.zeros(2, np.int32), np.zeros(2, np.int32), np.zeros(2, np.int32), False, 0),
        Rules(np.zeros(2, np.int64), np.zeros(2, np.int32), np.zeros(2, np.int32), False, 0),
        Rules(np.zeros(2, np.int32), np.zeros(2, np.int32), np.zeros(2, np.int32), np.bool_(True), 1 << 63),
    ]
    for _ in range(2):  # the second time from the caches
        ids = [kernels.type_id(v) for v in values]
        keys = [kernels.type_key(v) for v in values]
        for i in range(len(values)):
            for j in range(len(values)):
                if ids[i] == ids[j]:
                    assert keys[i] == keys[j], (i, j)
                elif type(values[i]) is type(values[j]) and keys[i] == keys[j]:
                    raise AssertionError((i, j))


def test_key_items_one_pass_matches_the_sorted_counts_on_the_corpus():
    """tables.key_items' one pass keeping the best against a sort of the counts (its
    docstring: the `keys` items most often covered by the options whose lowest item is t,
    ties the lower item, t itself never), for every keys a driver uses, on the corpus."""
    corpus = TESTS / "corpus" / "tiling"
    for path in sorted(corpus.glob("*.txt"))[:12]:
        cover = polytile.load(path).model().cover
        n = cover.n_items
        if n > 64:
            continue
        keep = np.ones(cover.n_options, dtype=bool)
        opts, start = build.lists_by_first_item(n, cover.opt_ptr, cover.opt_items, keep)
        opt_mask = build.board_masks(n, cover.opt_ptr, cover.opt_items, cover.neighbours)[0]
        for keys in (0, 1, 5, 7):
            got = build.key_items(n, start, opts, opt_mask, keys)
            for t in range(n):
                mine = opt_mask[opts[start[t] : start[t + 1]]].tolist()
                counts = [sum(m >> i & 1 for m in mine) for i in range(64)]
                want = sorted((i for i in range(64) if i != t), key=lambda i: (-counts[i], i))[:keys]
                assert got[t].tolist() == want, (path.name, t, keys)
