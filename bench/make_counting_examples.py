"""Write the puzzle files of examples/counting/ (docs/counting.md's counting table) again.

    python bench/make_counting_examples.py [--out examples/counting]

Every file is polytile JSON: the board as rows of "X", every piece by its cells. Pieces that may
be used any number of times have "count": cells // size, "min": 0; the distinct rectangles have
"count": 1, "min": 0 (each at most once). Standard library only.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PENTOMINOES = {
    "F": [".XX", "XX.", ".X."],
    "I": ["XXXXX"],
    "L": ["X...", "XXXX"],
    "N": ["XX..", ".XXX"],
    "P": ["XX", "XX", "X."],
    "T": ["XXX", ".X.", ".X."],
    "U": ["X.X", "XXX"],
    "V": ["X..", "X..", "XXX"],
    "W": ["X..", "XX.", ".XX"],
    "X": [".X.", "XXX", ".X."],
    "Y": [".X..", "XXXX"],
    "Z": ["XX.", ".X.", ".XX"],
}
SMALL = {"monomino": ["X"], "domino": ["XX"], "I-tromino": ["XXX"], "L-tromino": ["X.", "XX"]}


def rect(h: int, w: int) -> list[str]:
    return ["X" * w] * h


def size(rows: list[str]) -> int:
    return sum(ch == "X" for row in rows for ch in row)


def any_number(comment: str, h: int, w: int, shapes: dict[str, list[str]]) -> dict:
    cells = h * w
    pieces = [{"name": n, "cells": r, "count": cells // size(r), "min": 0} for n, r in shapes.items()]
    return {"comment": comment, "board": rect(h, w), "pieces": pieces}


def distinct_rectangles(n: int) -> dict:
    pieces = [
        {"name": f"{a}x{b}", "cells": rect(a, b), "count": 1, "min": 0}
        for a in range(1, n + 1)
        for b in range(a, n + 1)
    ]
    comment = (
        f"{n} x {n} square cut into rectangles of distinct dimensions: every a x b, 1 <= a <= b <= {n}, "
        "at most once, turned freely (OEIS A360499)"
    )
    return {"comment": comment, "board": rect(n, n), "pieces": pieces}


def files() -> dict[str, dict]:
    out = {}
    for n in (4, 10, 12, 20):
        out[f"dominoes-{n}x{n}.json"] = any_number(
            f"domino tilings of the {n} x {n} square (OEIS A004003)", n, n, {"domino": ["XX"]}
        )
    out["polyominoes-1-3-8x8.json"] = any_number(
        "8 x 8 board covered by monominoes, dominoes, straight and L trominoes, any number of each "
        "(Knuth, TAOCP 7.1.4)",
        8,
        8,
        SMALL,
    )
    for h, w, seq in ((6, 10, "A233427"), (6, 30, "A233427 / A233430"), (5, 10, "A174249, A233427")):
        out[f"pentominoes-any-{h}x{w}.json"] = any_number(
            f"{h} x {w} rectangle tiled by the 12 pentominoes, any number of each (OEIS {seq})", h, w, PENTOMINOES
        )
    once = any_number("the 12 pentominoes, each once, in a 6 x 10 rectangle (2339 up to symmetry)", 6, 10, PENTOMINOES)
    for piece in once["pieces"]:
        piece["count"], piece["min"] = 1, 1
    out["pentominoes-once-6x10.json"] = once
    squares = {f"{k}x{k}": rect(k, k) for k in range(1, 6)}
    out["squares-5x26.json"] = any_number(
        "5 x 26 rectangle tiled by integer-sided squares 1x1..5x5, any number of each "
        "(OEIS A054857 all tilings, A359021 up to symmetry)",
        5,
        26,
        squares,
    )
    for n in (7, 8, 9):  # 9: the first unpublished term (examples/counting/README.md, Records)
        out[f"distinct-rectangles-{n}x{n}.json"] = distinct_rectangles(n)
    return out


def dump(data: dict) -> str:
    """One line per piece and per board row, so that the files read well."""
    pieces = ",\n  ".join(json.dumps(p) for p in data["pieces"])
    board = ",\n  ".join(json.dumps(r) for r in data["board"])
    return (
        "{\n"
        f' "comment": {json.dumps(data["comment"])},\n'
        f' "board": [\n  {board}\n ],\n'
        f' "pieces": [\n  {pieces}\n ]\n'
        "}\n"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "examples" / "counting")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for name, data in files().items():
        (args.out / name).write_text(dump(data))
        print(args.out / name)


if __name__ == "__main__":
    main()
