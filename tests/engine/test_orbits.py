"""The compiled symmetry analysis (engine/geometry/orbits.py through engine/geometry/orbits_driver.py) against
numpy's (core/symmetry.analyse without `compiled`, the reference): every field of the
Symmetry identical, on random puzzles of every grid (tests/random_puzzles.py) and the
corpus; and the counts of `Tiling.count(unique=True)`, which now uses it, against the
independent brute force of tests/checker.py."""

from __future__ import annotations

import json
import os

import numpy as np
from hypothesis import HealthCheck, given, settings

import polytile
from compiled_counts import check_counts
from paths import TESTS
from polytile.core.symmetry import Symmetry, analyse
from polytile.engine import kernels
from polytile.engine.geometry.orbits_driver import analyser, arguments, fits, jit_analyser
from polytile.tiling import solver
from random_puzzles import random_lattice_puzzles, random_puzzles

# POLYTILE_JIT=1 (.ci/run's JIT pass): the drivers take numba's dispatcher, never None
JIT_RUN = bool(os.environ.get("POLYTILE_JIT"))
PROFILE = settings(
    max_examples=120, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck)
)
FIELDS = ("perms", "opt_label", "label_img", "opt_stab", "label_piece")


def tiling_of(rp, tmp_path):
    path = tmp_path / "puzzle.json"
    path.write_text(json.dumps(rp.json))
    return polytile.load(path)


def same(a: Symmetry, b: Symmetry) -> None:
    for name in FIELDS:
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and x.shape == y.shape, name
        assert np.array_equal(x, y), name
    assert (a.g_exact, a.h_mask) == (b.g_exact, b.h_mask)


def check(tiling) -> bool:
    """Both compiled ways (numba's dispatcher; the ahead-of-time variant, when the
    extension is built from these sources) give numpy's Symmetry; whether the kernel ran."""
    model = tiling.model()
    plain = analyse(model)
    same(analyse(model, compiled=jit_analyser), plain)
    same(analyse(model, compiled=analyser), plain)
    return jit_analyser(plain.perms, model.cover) is not None


@PROFILE
@given(random_puzzles())
def test_compiled_analysis_matches_numpy(tmp_path_factory, rp):
    check(tiling_of(rp, tmp_path_factory.mktemp("p")))


@PROFILE
@given(random_lattice_puzzles())
def test_compiled_analysis_matches_numpy_on_lattices(tmp_path_factory, rp):
    check(tiling_of(rp, tmp_path_factory.mktemp("p")))


def test_compiled_analysis_matches_numpy_on_the_corpus():
    """The corpus's boards (square, 3D, rotate-only, partial, coloured): all within 64
    items, so the kernel runs on each (it is not a test of the fallback)."""
    corpus = TESTS / "corpus" / "tiling"
    for path in sorted(corpus.glob("*.txt")) + [corpus / "soma-3x3x3.json"]:
        assert check(polytile.load(path)), path.name


def test_the_compiled_variant_is_used_when_built():
    """With the extension built from these sources, `analyser` runs the compiled variant
    (not numba's dispatcher, not numpy): the types the warm-up exercised are the types a
    count passes."""
    tiling = polytile.load(TESTS / "corpus" / "tiling" / "pentomino-3x20.txt")
    model = tiling.model()
    perms = analyse(model).perms
    found = analyser(perms, model.cover)
    assert (found is not None) == (kernels.using_compiled("geometry.orbits", "analyse") or JIT_RUN)


def test_more_than_64_items_is_left_to_numpy(tmp_path):
    """A 5 x 13 board has 65 cells: beyond one word, `analyser` declines and analyse's
    numpy runs."""
    cells = [[r, c] for r in range(5) for c in range(13)]
    data = {"board": cells, "pieces": [{"name": "m", "cells": [[0, 0], [0, 1], [0, 2], [0, 3], [0, 4]], "count": 13}]}
    path = tmp_path / "orbits-65.json"
    path.write_text(json.dumps(data))
    model = polytile.load(path).model()
    perms = analyse(model).perms
    assert not fits(perms, model.cover) and jit_analyser(perms, model.cover) is None
    same(analyse(model, compiled=jit_analyser), analyse(model))


@settings(max_examples=40, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
@given(random_puzzles())
def test_unique_counts_match_the_checker(tmp_path_factory, rp):
    """count(unique=True) (symmetry from the compiled analysis) against the brute force."""
    check_counts(tmp_path_factory, rp, [(solver, "analyser", jit_analyser)])


L_CELLS = [[0, 0], [1, 0], [2, 0], [2, 1]]


def _by_masks_taken(tiling) -> bool:
    """Whether the analysis' mask path (orbit_masks.by_masks: labels as the options' ranks)
    answered, numba's dispatcher."""
    by, masks = (
        kernels.kernel_module("geometry.orbit_masks").by_masks,
        kernels.kernel_module("geometry.orbit_masks").option_masks,
    )
    model = tiling.model()
    perms, opt_ptr, opt_items, opt_piece, count, least = arguments(analyse(model).perms, model.cover)
    bits = getattr(masks, "jit", masks)(opt_ptr, opt_items)
    return bool(getattr(by, "jit", by)(perms, bits, opt_piece, count, least)[0])


def test_the_mask_path_and_its_two_declines(tmp_path):
    """Labels read off the options' masks where every image is an option with its own
    mask (3x20); numbering every image (the general path) where a one-sided L's mirror
    images are no options, or where two pieces (one-sided L, reflecting L: not merged)
    share masks. Each way equal to numpy's Symmetry."""
    cases = {
        "one-sided": ([{"name": "L", "cells": L_CELLS, "count": 4, "reflect": False}], False),
        "shared": (
            [
                {"name": "L", "cells": L_CELLS, "count": 2, "reflect": False},
                {"name": "M", "cells": L_CELLS, "count": 2, "reflect": True},
            ],
            False,
        ),
    }
    for name, (pieces, taken) in cases.items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps({"board": ["XXXX"] * 4, "pieces": pieces}))
        tiling = polytile.load(path)
        assert check(tiling) and _by_masks_taken(tiling) == taken, name
    tiling = polytile.load(TESTS / "corpus" / "tiling" / "pentomino-3x20.txt")
    assert check(tiling) and _by_masks_taken(tiling)


def _jit(module: str, name: str):
    found = getattr(kernels.kernel_module(module), name)
    return getattr(found, "jit", found)


def test_composed_rows_and_masks_match_numpy():
    """The mask path's pieces against numpy: each option's bitmask (orbit_masks.option_masks,
    which the compiled model makes while placing) as the sum of its items' bits; and every
    row of label_img, whether hashed from a generator's moved bits or composed from two
    known rows (orbit_masks._images), equal to numpy's Symmetry's, on a rectangle (4
    motions: 2 hashed, 1 composed), a square (8) and the 3x3x3 cube (48)."""
    corpus = TESTS / "corpus" / "tiling"
    for name in ("pentomino-3x20.txt", "pentomino-8x8-centre-hole.txt", "soma-3x3x3.json"):
        model = polytile.load(corpus / name).model()
        plain = analyse(model)
        perms, opt_ptr, opt_items, *_ = arguments(plain.perms, model.cover)
        masks = _jit("geometry.orbit_masks", "option_masks")(opt_ptr, opt_items)
        bits = [sum(1 << int(i) for i in model.cover.option_items(o)) for o in range(model.cover.n_options)]
        assert masks.tolist() == bits, name
        ordered, _ = _jit("geometry.orbit_masks", "_ranked")(masks)
        label_img = np.empty((len(perms), len(ordered)), dtype=np.int32)
        assert _jit("geometry.orbit_masks", "_images")(perms, ordered, label_img), name
        assert np.array_equal(label_img, plain.label_img), name
