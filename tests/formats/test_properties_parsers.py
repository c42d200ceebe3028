"""Properties of the parsers, checked on random input: round trips, and junk only ever
raising PuzzleError."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from polytile.errors import PuzzleError
from polytile.formats import ascii_art, load, polyjson, read_text
from strategies import FAST, FUZZ, cell_sets, polyforms


# --- parsers: round trips -------------------------------------------------------------

PALETTE = "XBW#o@"


@st.composite
def puzzles(draw, dim: int = 2, coloured: bool = True):
    """A connected board and some smaller connected tiles, each cell with a colour character."""
    board = draw(polyforms(dim, min_size=2, max_size=16 if dim == 2 else 10))
    n_tiles = draw(st.integers(1, 4))
    tiles = [draw(polyforms(dim, min_size=1, max_size=min(5, len(board) - 1))) for _ in range(n_tiles)]
    chars = st.sampled_from(PALETTE if coloured else "X")

    def paint(cells):
        return [draw(chars) for _ in range(len(cells))]

    return (board, paint(board)), [(t, paint(t)) for t in tiles]


def draw_ascii(board, tiles) -> str:
    """The board at the top left; tiles in a row below it, one blank row/column apart."""
    grid: dict[tuple[int, int], str] = {}
    (bcells, bchars) = board
    for (r, c), ch in zip(bcells.tolist(), bchars):
        grid[(r, c)] = ch
    top = int(bcells[:, 0].max()) + 2
    left = 0
    for cells, chars in tiles:
        for (r, c), ch in zip(cells.tolist(), chars):
            grid[(top + r, left + c)] = ch
        left += int(cells[:, 1].max()) + 2
    rows = max(r for r, _ in grid) + 1
    lines = []
    for r in range(rows):
        width = max((c + 1 for rr, c in grid if rr == r), default=0)
        lines.append("".join(grid.get((r, c), " ") for c in range(width)))
    return "\n".join(lines) + "\n"


def painted(cells, colour_names_or_chars, codes=None) -> frozenset:
    """{(cell, colour name)} translated to the origin."""
    cells = np.asarray(cells)
    cells = cells - cells.min(axis=0)
    names = colour_names_or_chars if codes is None else [colour_names_or_chars[k] for k in np.asarray(codes).tolist()]
    return frozenset(zip(map(tuple, cells.tolist()), names))


def check_parsed(puzzle, board, tiles, counts=None, use_colours=True):
    bcells, bchars = board
    blank = [""] * len(bcells)
    assert painted(puzzle.board.cells, puzzle.colour_names, puzzle.board.colours) == painted(
        bcells, bchars if use_colours else blank
    )
    assert (puzzle.board.cells.min(axis=0) == 0).all()
    got = sorted(tuple(sorted(painted(p.cells, puzzle.colour_names, p.colours))) for p in puzzle.pieces)
    want = sorted(tuple(sorted(painted(c, ch if use_colours else [""] * len(c)))) for c, ch in tiles)
    assert got == want
    counts = counts or [1] * len(tiles)
    assert sorted(p.count for p in puzzle.pieces) == sorted(counts)
    area = sum(len(c) * n for (c, _), n in zip(tiles, counts))
    assert ("warning: not all tiles are used" in puzzle.notes) == (area > len(bcells))


def write_file(directory: str, name: str, text: str | bytes) -> Path:
    path = Path(directory) / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


@FAST
@given(puzzles(2))
def test_ascii_round_trip(puz):
    board, tiles = puz
    text = draw_ascii(board, tiles)
    with tempfile.TemporaryDirectory() as d:
        puzzle = load(write_file(d, "p.txt", text))
    assert puzzle.dim == 2
    check_parsed(puzzle, board, tiles)
    assert sorted(puzzle.colour_names) == puzzle.colour_names
    used = {ch for _, chars in [board, *tiles] for ch in chars}
    assert set(puzzle.colour_names) == used


@FAST
@given(
    puz=st.one_of(puzzles(2, coloured=False), puzzles(2), puzzles(3), puzzles(3, False)),
    counts=st.lists(st.integers(1, 3), min_size=4, max_size=4),
    colours_in_json=st.booleans(),
    reflect=st.sampled_from([None, True, False]),
)
def test_json_round_trip(puz, counts, colours_in_json, reflect):
    board, tiles = puz
    dim = board[0].shape[1]
    counts = counts[: len(tiles)]
    data = {
        "board": board[0].tolist(),
        "pieces": [
            {"name": f"p{i}", "cells": c.tolist(), "count": n} for i, ((c, _), n) in enumerate(zip(tiles, counts))
        ],
    }
    if colours_in_json:
        data["colours"] = board[1]
        for piece, (_, chars) in zip(data["pieces"], tiles):
            piece["colours"] = chars
    if reflect is not None:
        data["allow_reflection"] = reflect
    with tempfile.TemporaryDirectory() as d:
        puzzle = load(write_file(d, "p.json", json.dumps(data, indent=1)))
    assert puzzle.dim == dim
    assert puzzle.allow_reflection == (dim == 2 if reflect is None else reflect)
    check_parsed(puzzle, board, tiles, counts, use_colours=colours_in_json)
    assert sorted(p.name for p in puzzle.pieces) == sorted(f"p{i}" for i in range(len(tiles)))


def test_solid_puzzles_are_not_mirrored_unless_they_say_so():
    """The JSON default of allow_reflection: true for flat puzzles, false for 3D ones (a solid
    cannot be mirrored), the square grid's 3D cells included (they are the cube grid's)."""
    plain = {"board": [[0, 0], [0, 1]], "pieces": [{"cells": [[0, 0]], "count": 2}]}
    solid = {"board": [[0, 0, 0], [1, 0, 0]], "pieces": [{"cells": [[0, 0, 0]], "count": 2}]}
    assert polyjson.parse(json.dumps(plain)).allow_reflection is True
    assert polyjson.parse(json.dumps(solid)).allow_reflection is False
    assert polyjson.parse(json.dumps({**solid, "allow_reflection": True})).allow_reflection is True


@FAST
@given(puzzles(2))
def test_json_drawing_rows_round_trip(puz):
    """The board and pieces of polytile JSON may be rows of a drawing ('.' and ' ' blank);
    the characters are colours when some drawing uses more than one."""
    board, tiles = puz
    use = any(len(set(chars)) > 1 for chars in [board[1]] + [t[1] for t in tiles])

    def rows(cells, chars):
        h, w = cells.max(axis=0) + 1
        grid = [["."] * w for _ in range(h)]
        for (r, c), ch in zip(cells.tolist(), chars):
            grid[r][c] = ch
        return ["".join(g) for g in grid]

    data = {"board": rows(*board), "pieces": [{"cells": rows(*t)} for t in tiles]}
    puzzle = polyjson.parse(json.dumps(data), "rows.json")
    check_parsed(puzzle, board, tiles, use_colours=use)


def test_json_board_drawn_in_one_character_takes_pieces_given_as_cells():
    """Counted by hand: a 2x2 board drawn "XX", "XX" and a domino given as coordinates,
    two copies: 2 tilings (both horizontal or both vertical)."""
    data = {"board": ["XX", "XX"], "pieces": [{"cells": [[0, 0], [0, 1]], "count": 2}]}
    puzzle = polyjson.parse(json.dumps(data), "plain.json")
    assert set(puzzle.board.colours.tolist()) == {0}
    from polytile.tiling.solver import Tiling

    assert Tiling(puzzle).count().solutions == 2


# --- parsers: junk only ever raises PuzzleError ----------------------------------------


def parses_or_refuses(fn, *args):
    try:
        return fn(*args)
    except PuzzleError as e:
        assert str(e).strip()
        assert "\n" not in str(e)
        return None


junk_text = st.one_of(
    st.text(max_size=300),
    st.text(alphabet=st.sampled_from("XXXXB .\n\n\t\r#"), max_size=300),
    st.text(alphabet=st.sampled_from('{}[]:,"0123456789-. \nboardpiecesclountmfxy'), max_size=300),
)


@FUZZ
@given(junk_text)
def test_parsers_on_junk_text(text):
    for fn in (ascii_art.parse, polyjson.parse):
        puzzle = parses_or_refuses(fn, text, "junk")
        if puzzle is not None:
            assert puzzle.board.area >= 1 and puzzle.pieces


@FUZZ
@given(st.text(alphabet=st.sampled_from("XXXXXXB  \n"), max_size=200))
def test_ascii_junk_drawings(text):
    puzzle = parses_or_refuses(ascii_art.parse, text, "junk.txt")
    if puzzle is None:
        return
    non_blank = sum(ch not in " \n" for ch in text)
    assert puzzle.board.area + sum(p.size for p in puzzle.pieces) == non_blank
    assert all(p.size <= puzzle.board.area for p in puzzle.pieces)


@FUZZ
@given(st.binary(max_size=400))
def test_read_and_load_on_junk_bytes(data):
    with tempfile.TemporaryDirectory() as d:
        for name in ("junk.txt", "junk.json"):
            path = write_file(d, name, data)
            text = parses_or_refuses(read_text, path)
            if text is not None:
                assert isinstance(text, str) and text.strip()
            parses_or_refuses(load, path)


json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.integers(-(10**30), 10**30),
    st.floats(allow_nan=True),
    st.sampled_from(["", "X", "XX", "X.X", "1", "two"]),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(["cells", "count", "min", "reflect", "name", "colours", "x"]), inner, max_size=4
        )
    ),
    max_leaves=20,
)
cells_like = st.lists(st.lists(st.integers(-2, 2), min_size=1, max_size=4), max_size=6)
valid_cells = st.one_of(cell_sets(2, max_size=8), cell_sets(3, max_side=3, max_size=8), polyforms(2, max_size=5)).map(
    lambda a: a.tolist()
)


def mostly(valid, junk=json_values):
    """Usually a valid value, sometimes junk, so that parsing gets past the first field."""
    return st.one_of(valid, valid, valid, junk)


piece_like = st.fixed_dictionaries(
    {"cells": mostly(valid_cells, st.one_of(cells_like, json_values))},
    optional={
        "count": mostly(st.integers(1, 3)),
        "min": mostly(st.integers(0, 3)),
        "reflect": mostly(st.booleans()),
        "name": mostly(st.text(max_size=3)),
        "colours": mostly(st.lists(st.sampled_from(["a", "b"]), min_size=1, max_size=5)),
    },
)


@FUZZ
@given(
    board=mostly(valid_cells, st.one_of(cells_like, json_values)),
    pieces=mostly(st.lists(piece_like, min_size=1, max_size=3)),
    extra=st.fixed_dictionaries(
        {},
        optional={
            "colours": mostly(st.lists(st.sampled_from(["a", "b"]), min_size=1, max_size=8)),
            "allow_reflection": mostly(st.booleans()),
            "name": json_values,
            "bogus": json_values,
        },
    ),
)
def test_structured_junk_json(board, pieces, extra):
    text = json.dumps({"board": board, "pieces": pieces, **extra})
    puzzle = parses_or_refuses(polyjson.parse, text, "junk.json")
    if puzzle is not None:
        assert puzzle.board.area == len(board) == len({tuple(c) for c in board})
        assert len(puzzle.pieces) == len(pieces)
        assert all(p.cells.shape[1] == puzzle.dim for p in puzzle.pieces)
        assert all(0 <= p.least <= p.count for p in puzzle.pieces)


@FAST
@given(puzzles(2))
def test_byte_order_mark_is_not_a_cell(puz):
    """Editors on Windows may start a UTF-8 file with a byte-order mark; it draws nothing."""
    board, tiles = puz
    text = draw_ascii(board, tiles)
    with tempfile.TemporaryDirectory() as d:
        puzzle = load(write_file(d, "bom.txt", b"\xef\xbb\xbf" + text.encode()))
    check_parsed(puzzle, board, tiles)
