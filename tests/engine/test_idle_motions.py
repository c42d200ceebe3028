"""The motions left out of the leaves' tables (engine/idle_motions.py) and the bitboard
driver's per-puzzle settings (narrow_frontier: the memo and KEYS_WIDE): counts with them,
without them and by the independent brute force of tests/checker.py on random puzzles whose
pieces turn without reflection (where idle motions occur), and the Bedlam cube's tables."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

import polytile
from checker import TooMany, all_solutions, board_motions, class_form
from polytile.engine import driver as engine_driver
from polytile.engine.bitboard import driver as bitboard_driver
from polytile.engine.idle_motions import compress_bits, idle_motions, without_idle
from polytile.engine.search import plan
from random_puzzles import build

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PROFILE = settings(
    max_examples=120, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck)
)


def test_bedlam_drops_exactly_the_reflections():
    """The Bedlam cube's board has 48 motions; its pieces turn in space only, so H is the 24
    rotations, and the mirror image of its skew tetracube (the one four-cube piece, chiral)
    is no piece: each of the other 24 motions is idle."""
    tiling = polytile.load(EXAMPLES / "bedlam-cube.json")
    cover, sym = tiling.model().cover, tiling.symmetry()
    assert sym.order == 48 and bin(sym.h_mask).count("1") == 24
    idle = idle_motions(sym.label_img, sym.opt_label, sym.label_piece, sym.h_mask, cover.opt_piece, cover.piece_min)
    in_h = np.array([(sym.h_mask >> g) & 1 == 1 for g in range(48)])
    assert (idle == ~in_h).all()
    img, mask, stab = without_idle(
        sym.label_img, sym.opt_label, sym.label_piece, sym.h_mask, sym.opt_stab, cover.opt_piece, cover.piece_min
    )
    keep = np.nonzero(in_h)[0]
    assert (img == sym.label_img[keep]).all() and mask == (1 << 24) - 1
    for j, g in enumerate(keep):  # bit j of the new stabilisers is bit g of the old
        assert (((stab >> np.uint64(j)) & np.uint64(1)) == ((sym.opt_stab >> np.uint64(g)) & np.uint64(1))).all()
    assert (stab >> np.uint64(24) == 0).all()


def test_compress_bits_by_hand():
    words = np.array([0b101101, 0, 2**63 + 1], dtype=np.uint64)
    out = compress_bits(words, np.array([0, 2, 3, 63]))
    assert out.tolist() == [0b0111, 0, 0b1001]


def test_nothing_dropped_where_h_is_g():
    tiling = polytile.load(EXAMPLES / "pentomino-6x10.txt")
    cover, sym = tiling.model().cover, tiling.symmetry()
    args = (sym.label_img, sym.opt_label, sym.label_piece, sym.h_mask, sym.opt_stab, cover.opt_piece, cover.piece_min)
    img, mask, stab = without_idle(*args)
    assert img is sym.label_img and mask == sym.h_mask and stab is sym.opt_stab


def test_the_settings_per_puzzle():
    """Bedlam: a wide frontier (memo off, KEYS_WIDE key items); the 6x10 rectangle: narrow
    (memo on, KEYS)."""
    bedlam = polytile.load(EXAMPLES / "bedlam-cube.json")
    rect = polytile.load(EXAMPLES / "pentomino-6x10.txt")
    for tiling, narrow, memo in ((bedlam, False, False), (rect, True, True)):
        cover, sym = tiling.model().cover, tiling.symmetry()
        d = bitboard_driver.BitboardDriver(cover, sym, plan(cover, sym, unique=True, store=False), store=False, limit=0)
        assert bitboard_driver.narrow_frontier(cover) is narrow
        assert d.keys == (bitboard_driver.KEYS if narrow else bitboard_driver.KEYS_WIDE)
        assert d.tables.memo is memo


def _one_sided_memo(tmp_path: Path) -> bool:
    path = tmp_path / "one-sided.json"
    path.write_text(
        json.dumps(
            {"board": ["X" * 10] * 6, "pieces": [{"name": n} for n in "FILNPTUVWXYZ"], "allow_reflection": False}
        )
    )
    tiling = polytile.load(path)
    cover, sym = tiling.model().cover, tiling.symmetry()
    d = bitboard_driver.BitboardDriver(cover, sym, plan(cover, sym, unique=True, store=False), store=False, limit=0)
    return bool(d.tables.memo)


def test_one_sided_pentominoes_use_the_memo(tmp_path):
    """The twelve pentominoes turned without reflection on 6x10: the mirror images are
    idle, so the memo is on (it was off while those motions were kept)."""
    assert _one_sided_memo(tmp_path)
    with _keep_idle():
        assert not _one_sided_memo(tmp_path)


@contextlib.contextmanager
def _keep_idle():
    """The leaves' tables with every motion (as before engine/idle_motions.py)."""
    saved = engine_driver.without_idle
    engine_driver.without_idle = lambda img, _l, _p, mask, stab, *_: (img, mask, stab)
    try:
        yield
    finally:
        engine_driver.without_idle = saved


@contextlib.contextmanager
def _bitboard(**values):
    saved = {k: getattr(bitboard_driver, k) for k in values}
    for k, v in values.items():
        setattr(bitboard_driver, k, v)
    try:
        yield
    finally:
        for k, v in saved.items():
            setattr(bitboard_driver, k, v)


def test_random_one_sided_puzzles_match_the_checker(tmp_path):
    """Random 2D and 3D puzzles whose pieces turn without reflection (some have idle
    motions): solutions and classes by the checker, by polytile with the idle motions left
    out (the default), with the memo on everywhere, and with every motion kept."""
    path = tmp_path / "puzzle.json"
    seen = {"idle": 0, "none": 0}

    @PROFILE
    @given(st.integers(0, 2**32 - 1), st.sampled_from((2, 3, 3)), st.sampled_from(("rotate", "mixed")))
    def run(seed, dim, mode):
        rp = build(seed, dim, mode, "none", "none")
        try:
            truth = all_solutions(rp.board, rp.pieces, rp.dim, limit=300, max_nodes=20_000)
        except TooMany:
            reject()
        gs = board_motions(rp.board, rp.dim)
        expected = (len(truth), len({class_form(s, truth, gs) for s in truth}))
        path.write_text(json.dumps(rp.json))
        tiling = polytile.load(path)
        cover, sym = tiling.model().cover, tiling.symmetry()
        args = (sym.label_img, sym.opt_label, sym.label_piece, sym.h_mask, cover.opt_piece, cover.piece_min)
        seen["idle" if idle_motions(*args).any() else "none"] += 1
        for variant in ({}, {"MEMO_SPAN": 1e9, "MEMO_PIECES": 0, "MEMO_BITS": 4}):
            with _bitboard(**variant):
                r = tiling.count(unique=True, engine="bitboard")
                assert (r.solutions, r.unique) == expected, variant
                with _keep_idle():
                    r = tiling.count(unique=True, engine="bitboard")
                    assert (r.solutions, r.unique) == expected, ("every motion", variant)
        for engine in ("wide", "dlx"):
            r = tiling.count(unique=True, engine=engine)
            assert (r.solutions, r.unique) == expected, engine

    run()
    assert seen["idle"] >= 5, seen  # the case this is about did occur
