"""Hostile inputs of the formats added last (BurrTools .xmpuzzle, DLX matrices, calendar
boards) and of `mesh`'s options, built by code: the red team's kinds (Unicode digits, huge
numbers, unreadable encodings, gzip files that grow to gigabytes of model, items by the
hundred thousand, names of megabytes) for the reproducers (tests/cli/test_repro_hostile.py)
and the fuzz resource profile's structured families (tests/formats/test_fuzz_resources.py)."""

from __future__ import annotations

import gzip

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
