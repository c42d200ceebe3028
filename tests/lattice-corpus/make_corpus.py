"""Write the hexiamond and tetrahex puzzles of this directory from Polyform Puzzler's
definitions.

Polyform Puzzler (David Goodger, puzzler/puzzles/hexiamonds.py and polyiamonds.py) places
a triangle at (x, y, z): z = 0 is the up triangle with corners V(x, y), V(x+1, y),
V(x, y+1) and z = 1 the down triangle V(x+1, y), V(x+1, y+1), V(x, y+1), where
V(x, y) = x e1 + y e2 with e1 horizontal and e2 at 60 degrees. In polytile's triangle
coordinates (see src/polytile/core/grids/triangle.py) that is (a, b, c) = (y, x, 2 - z - x - y).
Each board below restates Puzzler's predicate on (x, y, z); the pieces are Puzzler's
piece coordinates ((0, 0, 0) implied) with O'Beirne's names.

Puzzler's hexes (x, y) (puzzler/puzzles/polyhexes.py, tetrahexes.py) have centres at
x e1 + y e2, the same rhombus grid: polytile's axial (q, r) = (x, y) (a mirror image,
which changes no count of free pieces).

Run from the repository root: python tests/lattice-corpus/make_corpus.py
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).parent

HEXIAMONDS = {  # Puzzler's name: (O'Beirne's name, cells other than (0, 0, 0))
    "I6": ("bar", ((0, 0, 1), (1, 0, 0), (1, 0, 1), (2, 0, 0), (2, 0, 1))),
    "P6": ("sphinx", ((0, 0, 1), (1, 0, 0), (1, 0, 1), (2, 0, 0), (1, 1, 0))),
    "J6": ("crook", ((0, 0, 1), (1, 0, 0), (1, 0, 1), (2, 0, 0), (0, -1, 1))),
    "E6": ("crown", ((0, 0, 1), (1, 0, 0), (1, 0, 1), (2, 0, 0), (1, -1, 1))),
    "V6": ("lobster", ((0, 0, 1), (1, 0, 0), (1, 0, 1), (0, 1, 0), (0, 1, 1))),
    "H6": ("signpost", ((0, 0, 1), (1, 0, 0), (1, 0, 1), (1, -1, 1), (2, -1, 0))),
    "S6": ("snake", ((0, 0, 1), (1, 0, 0), (1, 0, 1), (0, -1, 1), (1, 1, 0))),
    "X6": ("butterfly", ((0, 0, 1), (1, 0, 0), (1, 0, 1), (0, 1, 0), (1, -1, 1))),
    "C6": ("chevron", ((0, 0, 1), (1, 0, 0), (1, 0, 1), (1, 1, 0), (1, 1, 1))),
    "G6": ("hook", ((0, 0, 1), (1, 0, 0), (1, 0, 1), (1, 1, 0), (0, 1, 1))),
    "F6": ("yacht", ((0, 0, 1), (1, 0, 0), (1, 0, 1), (0, 1, 0), (1, 1, 0))),
    "O6": ("hexagon", ((0, 0, 1), (1, 0, 0), (0, -1, 1), (1, -1, 0), (1, -1, 1))),
}


def convert(x: int, y: int, z: int) -> list[int]:
    return [y, x, 2 - z - x - y]


def cells(width: int, height: int, keep) -> list[list[int]]:
    return [convert(x, y, z) for z in (0, 1) for y in range(height) for x in range(width) if keep(x, y, z, x + y + z)]


COIN_HOLE = {(3, 2, 1), (3, 3, 0), (3, 3, 1), (4, 2, 0), (4, 2, 1), (4, 3, 0)}


def _trefoil(x, y, z, t):
    return (
        (2 <= y < 6 and x < 4 and 3 < t <= 7)
        or (y < 4 and 4 <= x < 8 and 5 < t <= 9)
        or (4 <= y < 8 and 2 <= x < 6 and 7 < t <= 11)
    )


def _stacked_hexagons(x, y, z, t):
    return (
        (y < 4 and 4 <= x < 8 and 6 <= t < 10)
        or (4 <= y < 8 and 2 <= x < 6 and 8 <= t < 12)
        or (8 <= y and x < 4 and 10 <= t < 14)
    )


# id: (Puzzler's class, width, height, predicate, published count of distinct solutions)
BOARDS = {
    "hexiamonds-3x12": ("Hexiamonds3x12", 12, 3, lambda x, y, z, t: True, 0),
    "hexiamonds-4x9": ("Hexiamonds4x9", 9, 4, lambda x, y, z, t: True, 74),
    "hexiamonds-6x6": ("Hexiamonds6x6", 6, 6, lambda x, y, z, t: True, 156),
    "hexiamonds-4x11-trapezium": ("Hexiamonds4x11Trapezium", 11, 4, lambda x, y, z, t: t < 11, 76),
    "hexiamonds-4x10-long-hexagon": ("Hexiamonds4x10LongHexagon", 10, 4, lambda x, y, z, t: 1 < t <= 11, 856),
    "hexiamonds-crescent": (
        "HexiamondsCrescent",
        8,
        8,
        lambda x, y, z, t: 3 < t < 12 and not (x > 3 and 1 < y < 6 and 7 < t),
        87,
    ),
    "hexiamonds-crescent2": (
        "HexiamondsCrescent2",
        8,
        8,
        lambda x, y, z, t: 3 < t < 12 and not (2 < x < 7 and 2 < y < 7 and 7 < t),
        2,
    ),
    "hexiamonds-ring2": (
        "HexiamondsRing2",
        8,
        8,
        lambda x, y, z, t: 3 < t < 12 and not (2 < x < 7 and 1 < y < 6 and 6 < t < 11),
        11,
    ),
    "hexiamonds-ring": (
        "HexiamondsRing",
        8,
        8,
        lambda x, y, z, t: 3 < t < 12 and not (1 < x < 6 and 1 < y < 6 and 5 < t < 10),
        0,
    ),
    "hexiamonds-coin": ("HexiamondsCoin", 8, 6, lambda x, y, z, t: 2 < t <= 10 and (x, y, z) not in COIN_HOLE, 304),
    "hexiamonds-trefoil": ("HexiamondsTrefoil", 8, 8, _trefoil, 640),
    "hexiamonds-4x12-stacked-hexagons": ("Hexiamonds4x12StackedHexagons", 8, 12, _stacked_hexagons, 51),
}


TETRAHEXES = {  # Puzzler's names, cells other than (0, 0)
    "I4": ((1, 0), (2, 0), (3, 0)),
    "J4": ((1, 0), (2, 0), (2, 1)),
    "P4": ((1, 0), (2, 0), (1, 1)),
    "S4": ((1, 0), (1, 1), (2, 1)),
    "U4": ((-1, 1), (1, 0), (1, 1)),
    "Y4": ((1, 0), (2, -1), (1, 1)),
    "O4": ((1, 0), (0, 1), (1, 1)),
}

# id: (Puzzler's class, width, height, predicate on (x, y), published count)
HEX_BOARDS = {
    "tetrahexes-4x7": ("Tetrahexes4x7", 7, 4, lambda x, y: True, 9),
    "tetrahexes-7x7-triangle": ("Tetrahexes7x7Triangle", 7, 7, lambda x, y: x + y < 7, 0),
    "tetrahexes-3x10-clipped": ("Tetrahexes3x10Clipped", 10, 3, lambda x, y: x + y not in (0, 11), 2),
    "tetrahexes-coin": ("TetrahexesCoin", 7, 5, lambda x, y: 1 < x + y < 9 and (x, y) != (3, 2), 4),
}


def hex_pieces() -> list[dict]:
    return [{"name": name, "cells": [[0, 0]] + [list(c) for c in rest]} for name, rest in TETRAHEXES.items()]


def pieces() -> list[dict]:
    return [
        {"name": name, "cells": [convert(0, 0, 0)] + [convert(*c) for c in rest]}
        for _, (name, rest) in HEXIAMONDS.items()
    ]


def main() -> None:
    manifest = []
    source = (
        "Polyform Puzzler (David Goodger), puzzler/puzzles/hexiamonds.py, class {cls}: "
        'docstring "{n} solutions" (distinct up to the board\'s symmetry); '
        "https://puzzler.sourceforge.net, copy read in github.com/tiwo/puzzler"
    )
    for ident, (cls, width, height, keep, unique) in BOARDS.items():
        board = cells(width, height, keep)
        data = {
            "grid": "triangle",
            "board": board,
            "pieces": pieces(),
            "comment": f"Polyform Puzzler's {cls}, in polytile's triangle coordinates",
        }
        (HERE / f"{ident}.json").write_text(json.dumps(data) + "\n")
        manifest.append(
            {
                "id": ident,
                "file": f"{ident}.json",
                "grid": "triangle",
                "unique": unique,
                "source": source.format(cls=cls, n=unique),
            }
        )
    for ident, (cls, width, height, keep, unique) in HEX_BOARDS.items():
        board = [[x, y] for y in range(height) for x in range(width) if keep(x, y)]
        data = {
            "grid": "hex",
            "board": board,
            "pieces": hex_pieces(),
            "comment": f"Polyform Puzzler's {cls}, in polytile's hex coordinates",
        }
        (HERE / f"{ident}.json").write_text(json.dumps(data) + "\n")
        manifest.append(
            {
                "id": ident,
                "file": f"{ident}.json",
                "grid": "hex",
                "unique": unique,
                "source": source.replace("hexiamonds.py", "tetrahexes.py").format(cls=cls, n=unique),
            }
        )
    (HERE / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")


if __name__ == "__main__":
    main()
