"""The compiled placements (engine/geometry/placing.py through engine/geometry/placing_driver.py) against
numpy's (core/cover.build without `placer`, the reference): the same Cover, array for
array, on random puzzles of every grid (tests/random_puzzles.py: coloured ones and the
triangle grid stay numpy's) and the corpus; and counts of models built with it against
the independent brute force of tests/checker.py."""

from __future__ import annotations

import json
import os

import numpy as np
from hypothesis import HealthCheck, given, settings

import polytile
from compiled_counts import check_counts
from paths import TESTS
from polytile.core.cover import Cover, build
from polytile.engine import kernels
from polytile.engine import model as entry
from polytile.engine.geometry.placing_driver import jit_placer, placer
from random_puzzles import random_lattice_puzzles, random_puzzles

# POLYTILE_JIT=1 (.ci/run's JIT pass): the drivers take numba's dispatcher, never None
JIT_RUN = bool(os.environ.get("POLYTILE_JIT"))
PROFILE = settings(
    max_examples=120, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck)
)
FIELDS = ("opt_ptr", "opt_items", "opt_piece", "piece_count", "piece_min", "neighbours")


def puzzle_of(rp, tmp_path):
    path = tmp_path / "puzzle.json"
    path.write_text(json.dumps(rp.json))
    return polytile.load(path).puzzle


def same(a: Cover, b: Cover) -> None:
    assert a.n_items == b.n_items
    for name in FIELDS:
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and x.shape == y.shape, name
        assert np.array_equal(x, y), name


def check(puzzle) -> None:
    """Both compiled ways (numba's dispatcher; the ahead-of-time variant when built) give
    numpy's Cover."""
    plain = build(puzzle).cover
    same(build(puzzle, placer=jit_placer).cover, plain)
    same(build(puzzle, placer=placer).cover, plain)


@PROFILE
@given(random_puzzles())
def test_compiled_placements_match_numpy(tmp_path_factory, rp):
    check(puzzle_of(rp, tmp_path_factory.mktemp("p")))


@PROFILE
@given(random_lattice_puzzles())
def test_compiled_placements_match_numpy_on_lattices(tmp_path_factory, rp):
    check(puzzle_of(rp, tmp_path_factory.mktemp("p")))


def test_compiled_placements_match_numpy_on_the_corpus():
    corpus = TESTS / "corpus" / "tiling"
    for path in sorted(corpus.glob("*.txt")) + [corpus / "soma-3x3x3.json"]:
        check(polytile.load(path).puzzle)


def test_the_kernel_runs_on_plain_boards():
    """On the 3x20 rectangle the compiled call places every pentomino (it is not a test
    of the fallback), and the compiled variant is used when the extension is built."""
    calls = []

    def counting(*args):
        calls.append(len(args[5]))
        return jit_placer(*args)

    puzzle = polytile.load(TESTS / "corpus" / "tiling" / "pentomino-3x20.txt").puzzle
    same(build(puzzle, placer=counting).cover, build(puzzle).cover)
    assert calls == [63]  # the twelve pentominoes' orientations
    args = []
    build(puzzle, placer=lambda *a: args.append(a))
    assert (placer(*args[0]) is not None) == (kernels.using_compiled("geometry.placing", "place") or JIT_RUN)


@settings(max_examples=40, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
@given(random_puzzles())
def test_counts_match_the_checker(tmp_path_factory, rp):
    """count(unique=True) on the model built by the kernel against the brute force."""
    check_counts(tmp_path_factory, rp, [(entry, "placer", jit_placer)])
