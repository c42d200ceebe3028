"""Properties of shapes and board symmetry, checked on random input.

Expected group sizes for named boards are reasoned out by hand in the comments,
never produced by the code under test.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from polytile.core.shape import canonical_key, isometries, normalise, orientations, rotations
from polytile.core.symmetry import board_group
from strategies import FAST, as_set, cell_sets, is_normalised, polyforms, translated_set


# --- isometries ---------------------------------------------------------------------


@pytest.mark.parametrize("dim, n_all, n_rot", [(2, 8, 4), (3, 48, 24)])
def test_isometries_form_the_hyperoctahedral_group(dim, n_all, n_rot):
    mats = isometries(dim)
    rots = rotations(dim)
    assert len(mats) == n_all and len(rots) == n_rot
    keys = {m.tobytes() for m in mats}
    assert len(keys) == n_all  # all distinct
    for m in mats:  # signed permutation matrices
        assert sorted(np.abs(m).sum(axis=0).tolist()) == [1] * dim
        assert sorted(np.abs(m).sum(axis=1).tolist()) == [1] * dim
        assert m.T.tobytes() in keys  # inverse is there
    assert np.eye(dim, dtype=np.int64).tobytes() in keys
    for a, b in itertools.product(mats, mats):  # closed under composition
        assert (a @ b).tobytes() in keys
    for r in rots:
        assert round(np.linalg.det(r)) == 1
    rot_keys = {r.tobytes() for r in rots}
    for a, b in itertools.product(rots, rots):
        assert (a @ b).tobytes() in rot_keys
    assert sum(round(np.linalg.det(m)) == -1 for m in mats) == n_all - n_rot
    # "rotations first"
    assert all(round(np.linalg.det(m)) == 1 for m in mats[:n_rot])


# --- orientations ---------------------------------------------------------------------


@pytest.mark.parametrize("dim, reflect, group", [(2, True, 8), (2, False, 4), (3, False, 24), (3, True, 48)])
@FAST
@given(data=st.data())
def test_orientation_count_divides_group_order(dim, reflect, group, data):
    cells = data.draw(polyforms(dim, max_size=8 if dim == 2 else 6))
    orients = orientations(cells, reflect=reflect)
    assert group % len(orients) == 0
    keys = {as_set(c) for c, _ in orients}
    assert len(keys) == len(orients)  # duplicates removed
    for c, col in orients:
        assert col is None
        assert len(c) == len(cells)
        assert is_normalised(c)
    # every image of the shape under an allowed motion is among the orientations
    mats = isometries(dim) if reflect else rotations(dim)
    for m in mats:
        assert translated_set(cells @ m.T) in keys


@pytest.mark.parametrize("dim, reflect", [(2, True), (2, False), (3, False), (3, True)])
@FAST
@given(data=st.data())
def test_orientations_invariant_under_a_motion_first(dim, reflect, data):
    cells = data.draw(polyforms(dim, max_size=8 if dim == 2 else 6))
    mats = isometries(dim) if reflect else rotations(dim)
    m = mats[data.draw(st.integers(0, len(mats) - 1))]
    shift = np.array(data.draw(st.tuples(*[st.integers(-20, 20)] * dim)), dtype=np.int64)
    moved = cells @ m.T + shift
    moved = moved[np.array(data.draw(st.permutations(range(len(moved)))), dtype=np.int64)]
    before = {as_set(c) for c, _ in orientations(cells, reflect=reflect)}
    after = {as_set(c) for c, _ in orientations(moved, reflect=reflect)}
    assert before == after
    assert canonical_key(cells, reflect=reflect) == canonical_key(moved, reflect=reflect)


@FAST
@given(data=st.data())
def test_orientations_carry_colours_along(data):
    cells = data.draw(polyforms(2, min_size=2, max_size=7))
    colours = np.array(data.draw(st.lists(st.integers(0, 2), min_size=len(cells), max_size=len(cells))), dtype=np.int64)
    painted = {(tuple(c), k) for c, k in zip(cells.tolist(), colours.tolist())}
    expected = set()
    for m in isometries(2):
        img = cells @ m.T
        lo = img.min(axis=0)
        expected.add(frozenset((tuple(c), k) for c, k in zip((img - lo).tolist(), colours.tolist())))
    got = set()
    for c, col in orientations(cells, colours, reflect=True):
        assert is_normalised(c)
        got.add(frozenset(zip(map(tuple, c.tolist()), col.tolist())))
    assert got == expected
    assert frozenset(painted) in got


def test_orientation_counts_of_known_pieces():
    # by hand: the free pentominoes' orientation counts (with flips; rotations only)
    shapes = {
        "X": ([(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)], 1, 1),  # full symmetry
        "I": ([(0, i) for i in range(5)], 2, 2),  # symmetric under 180 and flips
        "L": ([(0, 0), (1, 0), (2, 0), (3, 0), (3, 1)], 8, 4),  # no symmetry: chiral
        "T": ([(0, 0), (0, 1), (0, 2), (1, 1), (2, 1)], 4, 4),  # one mirror axis
        "Z": ([(0, 0), (0, 1), (1, 1), (2, 1), (2, 2)], 4, 2),  # 180-degree symmetric, chiral
    }
    for name, (cells, free, one_sided) in shapes.items():
        arr = np.array(cells)
        assert len(orientations(arr, reflect=True)) == free, name
        assert len(orientations(arr, reflect=False)) == one_sided, name
    tripod = np.array([(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)])  # 3-fold axis: 24/3
    assert len(orientations(tripod, reflect=False)) == 8
    assert len(orientations(tripod, reflect=True)) == 8  # it has mirror planes


L_TETROMINO = np.array([(0, 0), (1, 0), (2, 0), (2, 1)])
J_TETROMINO = np.array([(0, 1), (1, 1), (2, 1), (2, 0)])  # its mirror image
SOMA_A = np.array([(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 1, 1)])  # the left screw
SOMA_B = np.array([(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 0, 1)])


def test_canonical_key_separates_mirror_images_only_without_reflection():
    assert canonical_key(L_TETROMINO, reflect=True) == canonical_key(J_TETROMINO, reflect=True)
    assert canonical_key(L_TETROMINO, reflect=False) != canonical_key(J_TETROMINO, reflect=False)
    mirror = SOMA_A * np.array([-1, 1, 1])
    assert canonical_key(SOMA_A, reflect=True) == canonical_key(mirror, reflect=True)
    assert canonical_key(SOMA_A, reflect=False) != canonical_key(mirror, reflect=False)
    # the two Soma screws are mirror images of each other
    assert canonical_key(SOMA_B, reflect=True) == canonical_key(SOMA_A, reflect=True)
    assert canonical_key(SOMA_B, reflect=False) != canonical_key(SOMA_A, reflect=False)


@FAST
@given(data=st.data())
def test_canonical_key_of_a_mirror_image(data):
    dim = data.draw(st.sampled_from([2, 3]))
    cells = data.draw(polyforms(dim, max_size=7 if dim == 2 else 6))
    flip = np.ones(dim, dtype=np.int64)
    flip[data.draw(st.integers(0, dim - 1))] = -1
    mirror = cells * flip
    assert canonical_key(cells, reflect=True) == canonical_key(mirror, reflect=True)
    # without reflection they agree exactly when the shape is congruent to its mirror image
    achiral = translated_set(mirror) in {as_set(c) for c, _ in orientations(cells, reflect=False)}
    same = canonical_key(cells, reflect=False) == canonical_key(mirror, reflect=False)
    assert same == achiral


@FAST
@given(a=polyforms(2, max_size=6), b=polyforms(2, max_size=6), reflect=st.booleans())
def test_canonical_key_equal_iff_congruent(a, b, reflect):
    images = {translated_set(a @ m.T) for m in (isometries(2) if reflect else rotations(2))}
    congruent = translated_set(b) in images
    assert (canonical_key(a, reflect=reflect) == canonical_key(b, reflect=reflect)) == congruent


@FAST
@given(cells=cell_sets(3, max_side=4, max_size=10))
def test_normalise_is_idempotent_and_translation_free(cells):
    c1, _ = normalise(cells)
    c2, _ = normalise(c1 + np.array([3, -7, 11]))
    assert is_normalised(c1)
    assert np.array_equal(c1, c2)
    assert as_set(c1) == translated_set(cells)


# --- board symmetry -----------------------------------------------------------------


def group_of(cells, colours=None):
    cells = np.asarray(cells, dtype=np.int64)
    if colours is None:
        colours = np.zeros(len(cells), dtype=np.int64)
    return board_group(cells, np.asarray(colours, dtype=np.int64))


def check_group(perms: np.ndarray, n: int, order: int) -> None:
    """A subgroup of the grid's motions, acting on the n cells as permutations.

    There is one row per motion, so when some motion moves no cell (every cell lies on a
    mirror: a one-row board, a flat 3D board) rows repeat; the set of rows is still a group.
    """
    assert perms.ndim == 2 and perms.shape[1] == n
    rows = {p.tobytes() for p in perms}
    assert np.arange(n, dtype=perms.dtype).tobytes() in rows  # the identity
    for p in perms:
        assert sorted(p.tolist()) == list(range(n))  # each is a permutation
    for p, q in itertools.product(perms, perms):  # closed under composition
        assert p[q].tobytes() in rows
    assert order % len(perms) == 0  # Lagrange
    assert len(perms) % len(rows) == 0  # each row equally often


def rectangle(*sides):
    return np.array(list(itertools.product(*[range(s) for s in sides])), dtype=np.int64)


@FAST
@given(data=st.data())
def test_board_group_is_a_subgroup(data):
    dim = data.draw(st.sampled_from([2, 3]))
    cells = data.draw(cell_sets(dim, max_side=4 if dim == 3 else 5, max_size=12))
    colours = np.array(data.draw(st.lists(st.integers(0, 1), min_size=len(cells), max_size=len(cells))), dtype=np.int64)
    plain = data.draw(st.booleans())
    if plain:
        colours[:] = 0
    perms = group_of(cells, colours)
    check_group(perms, len(cells), 8 if dim == 2 else 48)
    for p in perms:  # maps colours onto colours
        assert np.array_equal(colours[p], colours)
    # an independent count: motions that map the (translated) coloured board onto itself,
    # and the distinct ways they move the cells
    base = cells - cells.min(axis=0)
    painted = {(tuple(c), k) for c, k in zip(base.tolist(), colours.tolist())}
    index = {tuple(c): i for i, c in enumerate(base.tolist())}
    fixing, maps = 0, set()
    for m in isometries(dim):
        img = cells @ m.T
        img = img - img.min(axis=0)
        if {(tuple(c), k) for c, k in zip(img.tolist(), colours.tolist())} == painted:
            fixing += 1
            maps.add(tuple(index[tuple(c)] for c in img.tolist()))
    assert fixing >= len(perms) == len(maps)  # distinct permutations, no repeats
    assert {tuple(p.tolist()) for p in perms} == maps


@pytest.mark.parametrize(
    "name, cells, colours, expected",
    [
        # a 6x10 rectangle: identity, half turn, the two mirror axes; quarter turns and the
        # diagonal mirrors would swap the unequal sides
        ("6x10", rectangle(6, 10), None, 4),
        # a square: all 8 motions of the square
        ("8x8", rectangle(8, 8), None, 8),
        # a cube: all 48 motions of the cube
        ("3x3x3", rectangle(3, 3, 3), None, 48),
        # a 2x3x4 box: no axis may move to another (sides differ); each may flip: 2^3
        ("2x3x4", rectangle(2, 3, 4), None, 8),
        # a 2x2x3 box: the two equal axes may swap (2) and each axis may flip (8)
        ("2x2x3", rectangle(2, 2, 3), None, 16),
        # 8x8 without the 2x2 block at rows 0-1, columns 2-3: the notch is on one side only
        # (top), and the only motion keeping the top side is the mirror c -> 7-c, which moves
        # the notch to columns 4-5. Only the identity remains.
        (
            "8x8 notch off-centre",
            np.array([(r, c) for r, c in rectangle(8, 8).tolist() if not (r < 2 and 2 <= c < 4)]),
            None,
            1,
        ),
        # the same notch centred (columns 3-4) keeps the mirror c -> 7-c: 2
        (
            "8x8 notch centred",
            np.array([(r, c) for r, c in rectangle(8, 8).tolist() if not (r < 2 and 3 <= c < 5)]),
            None,
            2,
        ),
        # 8x8 with the centre 2x2 removed: still all 8
        (
            "8x8 centre hole",
            np.array([(r, c) for r, c in rectangle(8, 8).tolist() if not (3 <= r < 5 and 3 <= c < 5)]),
            None,
            8,
        ),
        # checkerboard colour (r + c) % 2 on 8x8 (coordinates 0..7, 7 odd): a quarter turn
        # (r, c) -> (c, 7 - r) gives c + 7 - r, parity flipped; the mirrors r -> 7 - r and
        # c -> 7 - c flip it too; the half turn (14 - r - c) and the diagonal mirrors
        # (c, r), (7 - c, 7 - r) keep it: identity + 3 = 4
        ("8x8 checkerboard", rectangle(8, 8), rectangle(8, 8).sum(axis=1) % 2, 4),
        # checkerboard 6x10: of {id, half turn (14 - r - c: kept), r -> 5 - r (flipped),
        # c -> 9 - c (flipped)} two remain
        ("6x10 checkerboard", rectangle(6, 10), rectangle(6, 10).sum(axis=1) % 2, 2),
        # checkerboard 3x3x3 (x + y + z) % 2: x -> 2 - x keeps parity (2 even) and permuting
        # axes keeps the sum: all 48
        ("3x3x3 checkerboard", rectangle(3, 3, 3), rectangle(3, 3, 3).sum(axis=1) % 2, 48),
        # checkerboard 4x4x4: x -> 3 - x flips parity, so a signed permutation keeps it iff it
        # has an even number of sign changes: 6 permutations x 4 sign patterns = 24
        ("4x4x4 checkerboard", rectangle(4, 4, 4), rectangle(4, 4, 4).sum(axis=1) % 2, 24),
        # an L tromino: only the mirror in the diagonal through its corner cell (1, 0),
        # (r, c) -> (1 - c, 1 - r): 2
        ("L tromino", np.array([(0, 0), (1, 0), (1, 1)]), None, 2),
        # one cell: all 48 motions fix it, and all act as the same (identity) permutation
        ("monocube", np.array([(0, 0, 0)]), None, 1),
        # a flat 3D board, 2x3x1: the motions of the 2x3 rectangle (4), each with or without the
        # flip of the thin axis; the flip moves no cell, so 4 distinct permutations
        ("2x3x1", rectangle(2, 3, 1), None, 4),
    ],
)
def test_board_group_of_known_boards(name, cells, colours, expected):
    perms = group_of(cells, colours)
    check_group(perms, len(cells), 8 if cells.shape[1] == 2 else 48)
    assert len(perms) == expected, name


def test_board_group_colour_that_breaks_symmetry():
    # a 4x4 square with one coloured corner (0, 0): the motions fixing that corner are the
    # identity and the mirror in the main diagonal (r, c) -> (c, r)
    cells = rectangle(4, 4)
    colours = np.zeros(16, dtype=np.int64)
    colours[0] = 1
    assert len(group_of(cells, colours)) == 2
