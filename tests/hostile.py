"""Hostile inputs of the formats added last (BurrTools .xmpuzzle, DLX matrices, calendar
boards) and of `mesh`'s options, built by code: the red team's kinds (Unicode digits, huge
numbers, unreadable encodings, gzip files that grow to gigabytes of model, items by the
hundred thousand, names of megabytes) for the reproducers (tests/cli/test_repro_hostile.py)
and the fuzz resource profile's structured families (tests/formats/test_fuzz_resources.py)."""

from __future__ import annotations

import gzip

from hypothesis import strategies as st

# ---- BurrTools .xmpuzzle -------------------------------------------------------------------


def burr_xml(
    shapes: list[tuple[object, object, object, str]],
    parts: list[tuple[int, object]],
    result: int,
    colours: int = 0,
    declaration: str = '<?xml version="1.0"?>\n',
    pairs: list[tuple[int, int]] = (),  # type: ignore[assignment]
    problems: int = 1,
) -> str:
    """A BurrTools file's XML: shapes (x, y, z, voxel string), one problem (repeated
    `problems` times) of parts (shape id, count) and a result shape, `colours` colours
    defined, colour pairs (piece, result) allowed."""
    cols = "<colors>" + '<color red="255" green="0" blue="0"/>' * colours + "</colors>"
    voxels = "".join(f'<voxel x="{x}" y="{y}" z="{z}" type="0">{text}</voxel>' for x, y, z, text in shapes)
    pieces = "".join(f'<shape id="{i}" count="{c}"/>' for i, c in parts)
    bitmap = "".join(f'<pair piece="{p}" result="{r}"/>' for p, r in pairs)
    problem = f'<problem><shapes>{pieces}</shapes><result id="{result}"/><bitmap>{bitmap}</bitmap></problem>'
    return (
        f'{declaration}<puzzle version="2"><gridType type="0"/>{cols}<shapes>{voxels}</shapes>'
        f"<problems>{problem * problems}</problems></puzzle>"
    )


def gz(text: str) -> bytes:
    return gzip.compress(text.encode("utf-8"), 9)


SQUARE = (2, 2, 1, "####")  # a 2x2 result
CUBE = (1, 1, 1, "#")  # a one-voxel piece


def square_of(voxels: str = "####", count: object = 4, **kwargs: object) -> str:
    """Four monocubes on a 2x2 square (one assembly), the square's voxel string given."""
    return burr_xml([(2, 2, 1, voxels), CUBE], [(1, count)], 0, **kwargs)  # type: ignore[arg-type]


def many_colours(n: int = 20_000) -> bytes:
    """2.3 KB of gzip defining 20,000 colours (a colour table of their square: 1.6 GB)."""
    return gz(burr_xml([SQUARE, CUBE], [(1, 4)], 0, colours=n))


def big_shapes(n: int = 7, side: int = 2048) -> bytes:
    """29 KB of gzip: seven shapes of 2048 x 2048 voxels (1.2 GB read as they were)."""
    return gz(burr_xml([(side, side, 1, "#" * (side * side))] * n + [CUBE], [(n, 4)], 0))


def variable_result(side: int = 1024) -> bytes:
    """A result of side x side variable voxels (a million filler copies) and four cubes."""
    return gz(burr_xml([(side, side, 1, "+" * (side * side)), CUBE], [(1, 4)], 0))


def element_bomb(n: int = 4_000_000) -> bytes:
    """A few KB of gzip holding millions of empty elements where the reader reads (pairs)."""
    return gz(burr_xml([SQUARE, CUBE], [(1, 4)], 0).replace("<bitmap>", "<bitmap>" + "<pair/>" * n))


UNICODE_DIGITS = ["\u00b2", "\u0661", "\u2460", "\u0f33", "\uff11", "\U0001d7d9", "\u00b9", "\u2155"]
ENCODINGS = ["foo", "cp932", "utf-32", "shift_jis", "UTF-16", "x" * 5000, "\u00b2"]


# ---- DLX matrices ------------------------------------------------------------------------------

ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def item_name(k: int) -> str:
    """A short distinct item name for every k (base 62)."""
    name = ""
    while True:
        name += ALPHABET[k % 62]
        k //= 62
        if k == 0:
            return name


def many_items(n: int = 700_000) -> str:
    """n primary items (3.3 MB) and one option covering two of them: no solution. The
    bit-set kernel's stacks have a row of n bits for each of n levels (57 GiB)."""
    return " ".join(item_name(k) for k in range(n)) + "\n" + f"{item_name(0)} {item_name(1)}\n"


def items_and_options(items: int = 200_000, options: int = 16_384) -> str:
    """`options` options of one item each among `items` primary items: no solution. The
    bit-set kernel's stacks would hold, for each of 16,384 levels, a count per item: 13 GB."""
    names = [item_name(k) for k in range(items)]
    return " ".join(names) + "\n" + "\n".join(names[:options]) + "\n"


def full_length_tiling(cells: int = 256, options: int = 440) -> str:
    """A matrix of a tiling's shape (one piece item in every option) whose options each
    hold every cell, in shuffled orders (517 KB): `options` solutions, each option alone.
    Recovering the cells' neighbours from it paired 14 million cells (1.4 GB, minutes)."""
    import random

    rng = random.Random(1)
    names = [f"c{i}" for i in range(cells)]
    lines = [" ".join(names) + " P"]
    for _ in range(options):
        rng.shuffle(names)
        lines.append("P " + " ".join(names))
    return "\n".join(lines) + "\n"


def long_name(n: int = 3_000_000) -> str:
    """An option naming an item of n characters: the one error line echoed it whole."""
    return "a b\n" + "x" * n + "\n"


def many_options(n: int = 1_900_000, colour: bool = False) -> str:
    """n one-item options on item `a` (n solutions), `a s:x` with a coloured secondary item."""
    if colour:
        return "a | s\n" + "a s:x\n" * n
    return "a\n" + "a\n" * n


# ---- strategies: the fuzz resource profile's structured kinds --------------------------------

NUMBERS = [
    0,
    1,
    2,
    63,
    64,
    10_000,
    10_001,
    1 << 20,
    (1 << 20) + 1,
    10**9,
    10**30,
    "1" * 5000,
    "0" * 4301 + "2",
    "-1",
    "+2",
    "1_0",
    "10^30",
    " 3 ",
    "",
    "\u00b2",
    "\u0662",
    "\x00",
]
SIDES = [0, 1, 2, 3, 64, 1023, 1024, 1025, 2048, 10**30, "\u00b2", "-1"]


@st.composite
def voxel_strings(draw, n: int) -> str:
    """A voxel string of about n voxels: states, colours (digits, Unicode ones too), blanks."""
    kind = draw(st.sampled_from(["full", "variable", "mixed", "coloured", "odd"]))
    if kind == "full":
        return "#" * n
    if kind == "variable":
        return "+" * n
    if kind == "mixed":
        return ("#+_" * (n // 3 + 1))[:n]
    if kind == "coloured":
        colour = draw(st.sampled_from(["1", "63", "64", "007", "99", "1" * 50, "\u00b2", "\u0661"]))
        return ("#" + colour) * min(n, 100_000)
    return draw(st.text(alphabet="#+_0123456789 \n\u00b2x", max_size=200))


@st.composite
def hostile_burr(draw) -> bytes:
    """A BurrTools file of the red team's kinds: sides, counts and colours at and past the
    limits, big voxel strings, unreadable encodings, element bombs, many problems."""
    side = draw(st.sampled_from(SIDES))
    small = isinstance(side, int) and 0 <= side <= 2048
    area = side * side if small else 4
    voxels = draw(voxel_strings(min(area, 1 << 22)))
    copies = min(draw(st.integers(1, 7)), max(1, (32 << 20) // max(1, len(voxels))))  # (the test holds the text)
    shapes = [(side, side, 1, voxels)] * copies + [CUBE]
    count = draw(st.sampled_from(NUMBERS))
    text = burr_xml(
        shapes,
        [(len(shapes) - 1, count)],
        draw(st.sampled_from([0, len(shapes) - 1, 99])),
        colours=draw(st.sampled_from([0, 1, 63, 64, 20_000])),
        declaration=draw(
            st.sampled_from(
                ['<?xml version="1.0"?>\n', ""] + [f'<?xml version="1.0" encoding="{e}"?>' for e in ENCODINGS]
            )
        ),
        pairs=draw(st.lists(st.tuples(st.integers(-1, 70), st.integers(-1, 70)), max_size=5)),
        problems=draw(st.sampled_from([1, 2, 10_000])),
    )
    if draw(st.booleans()):  # (in the first problem only: 10,000 problems of 300,000 pairs are 21 GB)
        text = text.replace("<bitmap>", "<bitmap>" + "<pair/>" * draw(st.sampled_from([10, 300_000])), 1)
    return gz(text) if draw(st.booleans()) else text.encode("utf-8")


@st.composite
def hostile_dlx(draw) -> str:
    """A DLX matrix of the red team's kinds: many items, full-length tiling options, long
    names, many options (plain or coloured), Unicode, NUL bytes."""
    kind = draw(st.sampled_from(["items", "both", "tiling", "name", "options", "coloured", "noise"]))
    if kind == "items":
        return many_items(draw(st.sampled_from([2, 1000, 100_000, 700_000])))
    if kind == "both":
        return items_and_options(draw(st.sampled_from([100, 200_000])), draw(st.sampled_from([64, 16_384, 16_385])))
    if kind == "tiling":
        return full_length_tiling(draw(st.sampled_from([2, 64, 65, 256, 300])), draw(st.sampled_from([1, 30, 440])))
    if kind == "name":
        return long_name(draw(st.sampled_from([9, 100, 3_000_000])))
    if kind in ("options", "coloured"):
        return many_options(draw(st.sampled_from([1, 1000, 600_000])), kind == "coloured")
    return draw(st.text(alphabet="ab|:x \n\t\u00b2\x00\u2028", min_size=1, max_size=300))


@st.composite
def hostile_mesh_puzzle(draw) -> str:
    """A polytile JSON puzzle for `mesh`: square, cube or checkered pieces of sizes about the
    print's limits (500 cells with a gap or a bevel, 10,000 without), many copies."""
    import json

    side = draw(st.sampled_from([1, 2, 10, 22, 23, 70, 99, 100, 141]))
    shape = draw(st.sampled_from(["square", "cube", "checker"]))
    if shape == "cube":
        side = min(side, 22)
        cells = [[i, j, k] for i in range(side) for j in range(side) for k in range(side)]
    else:
        cells = [[i, j] for i in range(side) for j in range(side) if shape == "square" or (i + j) % 2 == 0]
    count = draw(st.sampled_from([1, 2, 500, 10_000]))
    return json.dumps({"board": ["XX"], "pieces": [{"cells": cells, "count": count}]})
