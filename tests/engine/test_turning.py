"""The compiled orientations (engine/geometry/turning.py through engine/geometry/turning_driver.py) against
numpy's (core/shape._turned, the reference): the same images, colours and first-of-kind
flags for random shapes in 2D and 3D under every motion set core uses, and the same
orientations for random puzzles' pieces; the board's group (core/symmetry.board_group)
the same permutations in the same order; counts with both against tests/checker.py."""

from __future__ import annotations

import json
import os

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import polytile
from polytile.core import shape
from polytile.engine import kernels
from polytile.engine import model as entry
from compiled_counts import check_counts
from paths import TESTS
from polytile.core.symmetry import board_group
from polytile.engine.geometry.turning_driver import jit_permuter, jit_turner, permuter, turner
from polytile.tiling import by_method, solver
from random_puzzles import random_puzzles

# POLYTILE_JIT=1 (.ci/run's JIT pass): the drivers take numba's dispatcher, never None
JIT_RUN = bool(os.environ.get("POLYTILE_JIT"))
PROFILE = settings(
    max_examples=150, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck)
)


@st.composite
def shape_sets(draw):
    """(cells (P, k, d), colours (P, k), dim, reflect): P distinct-celled shapes of k cells."""
    dim = draw(st.sampled_from((2, 3)))
    k = draw(st.integers(1, 7))
    n = draw(st.integers(1, 5))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    side = draw(st.integers(1, 4))
    cells = []
    for _ in range(n):
        pool = np.array(np.meshgrid(*[np.arange(side + 2)] * dim, indexing="ij")).reshape(dim, -1).T
        pick = pool[rng.choice(len(pool), size=min(k, len(pool)), replace=False)]
        cells.append(shape.normalise(pick)[0])
    k = min(len(c) for c in cells)
    cells = np.stack([shape.normalise(c[:k])[0] for c in cells])
    colours = rng.integers(0, draw(st.integers(1, 3)), size=(n, k))
    return cells, colours, dim, draw(st.booleans())


def check(cells, colours, dim, reflect) -> None:
    mats = shape._motion_stack(dim, reflect)
    want = shape._turned(cells, colours, mats)
    got = jit_turner(cells, colours, mats)
    assert got is not None
    for x, y in zip(want, got):
        assert x.dtype == y.dtype and x.shape == y.shape and np.array_equal(x, y)
    built = turner(cells, colours, mats)  # the ahead-of-time variant, when built
    assert (built is not None) == (kernels.using_compiled("geometry.turning", "turn") or JIT_RUN)
    if built is not None:
        for x, y in zip(want, built):
            assert np.array_equal(x, y)


@PROFILE
@given(shape_sets())
def test_compiled_turns_match_numpy(data):
    check(*data)


def test_the_pentominoes_have_63_orientations():
    """The twelve free pentominoes (hand count: 63 one-sided fixed orientations) through
    the kernel, and numpy's orientations() the same, shape for shape."""
    pieces = {
        "F": [(0, 1), (0, 2), (1, 0), (1, 1), (2, 1)],
        "I": [(0, i) for i in range(5)],
        "L": [(0, 0), (1, 0), (2, 0), (3, 0), (3, 1)],
        "N": [(0, 0), (1, 0), (1, 1), (2, 1), (3, 1)],
        "P": [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)],
        "T": [(0, 0), (0, 1), (0, 2), (1, 1), (2, 1)],
        "U": [(0, 0), (0, 2), (1, 0), (1, 1), (1, 2)],
        "V": [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2)],
        "W": [(0, 0), (1, 0), (1, 1), (2, 1), (2, 2)],
        "X": [(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)],
        "Y": [(0, 1), (1, 0), (1, 1), (2, 1), (3, 1)],
        "Z": [(0, 0), (0, 1), (1, 1), (2, 1), (2, 2)],
    }
    cells = np.stack([shape.normalise(np.array(c))[0] for c in pieces.values()])
    colours = np.zeros(cells.shape[:2], dtype=np.int64)
    mats = shape._motion_stack(2, True)
    got = jit_turner(cells, colours, mats)
    assert got is not None
    assert int(got[2].sum()) == 63
    check(cells, colours, 2, True)


@settings(max_examples=30, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
@given(random_puzzles())
def test_counts_match_the_checker(tmp_path_factory, rp):
    """count(unique=True) with every orientation turned by the kernel (a fresh memo) and
    the board's group from it, against the brute force."""
    check_counts(
        tmp_path_factory,
        rp,
        [
            (shape, "_ORIENTATIONS", {}),
            (entry, "turner", jit_turner),
            (solver, "permuter", jit_permuter),
            (by_method, "permuter", jit_permuter),
        ],
    )


def check_group(model) -> None:
    """board_group with the kernel (numba's; the ahead-of-time variant when built) is
    numpy's, row for row."""
    want = board_group(model.cells, model.colours, model.puzzle.board.grid)
    for compiled in (jit_permuter, permuter):
        got = board_group(model.cells, model.colours, model.puzzle.board.grid, compiled)
        assert got.dtype == want.dtype and got.shape == want.shape and np.array_equal(got, want)


@PROFILE
@given(random_puzzles())
def test_compiled_board_group_matches_numpy(tmp_path_factory, rp):
    path = tmp_path_factory.mktemp("p") / "puzzle.json"
    path.write_text(json.dumps(rp.json))
    check_group(polytile.load(path).model())


def test_compiled_board_group_matches_numpy_on_the_corpus():
    """The corpus's boards: rectangles (4 motions), squares with holes (8, 4, 2, 1), the
    Soma cube (48), coloured boards."""
    corpus = TESTS / "corpus" / "tiling"
    for path in sorted(corpus.glob("*.txt")) + [corpus / "soma-3x3x3.json"]:
        model = polytile.load(path).model()
        check_group(model)
        assert (
            jit_permuter(
                model.cells - model.cells.min(axis=0),
                model.colours,
                np.stack(shape.isometries(model.cells.shape[1])),
                *_grid_of(model),
            )
            is not None
        )


def _grid_of(model):
    from polytile.core.cover import CellIndex

    index = CellIndex(model.cells - model.cells.min(axis=0))
    return index.grid, index.strides, index.hi
