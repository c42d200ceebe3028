"""The DLX-format test cases shared by tests/engine/test_dlx.py and test_dlx_random.py:
published matrices (Knuth's examples, n-queens, Langford pairs), a brute force written here
(shares no code with polytile), and the counts of every engine through the API."""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

from cli_helpers import call_cli
from paths import TESTS


CORPUS = TESTS / "corpus" / "tiling"
GENERAL = ("bitset", "links")
TILING = ("bitboard", "wide", "dlx")

# dlx1.w, section 1 (the matrix (3) of Knuth's "Dancing Links" paper): one solution,
# the options "A D", "E F C" and "B G" (lines 4, 1 and 5 of the options).
KNUTH = "| A simple example\nA B C D E | F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n"
# dlx2.w, section 1: colours; "X:0 Y:1" has no primary item; the unique solution is
# "A C X:1 Y:1" and "B X:1" (options 2 and 4).
KNUTH_COLOURS = "| A simple example of color controls\nA B C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nX:0 Y:1\nB X:1\nC Y:1\n"


def queens(n: int) -> str:
    """n queens as Knuth writes them: rows and columns primary, diagonals secondary."""
    lines = [
        " ".join([f"r{i}" for i in range(n)] + [f"c{j}" for j in range(n)])
        + " | "
        + " ".join([f"a{k}" for k in range(2 * n - 1)] + [f"b{k}" for k in range(2 * n - 1)])
    ]
    lines += [f"r{i} c{j} a{i + j} b{i - j + n - 1}" for i in range(n) for j in range(n)]
    return "\n".join(lines) + "\n"


def langford(n: int) -> str:
    """Langford pairs: digit i at positions j and j + i + 1."""
    lines = [" ".join([f"d{i}" for i in range(1, n + 1)] + [f"s{k}" for k in range(1, 2 * n + 1)])]
    lines += [f"d{i} s{j} s{j + i + 1}" for i in range(1, n + 1) for j in range(1, 2 * n - i)]
    return "\n".join(lines) + "\n"


# ---- an independent reading of the format and a brute force ---------------------------


def read(text: str):
    """(primary, secondary, options): options as lists of (item, colour or None)."""
    rows = [ln.split() for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("|")]
    head = " ".join(rows[0]).split("|")
    primary, secondary = head[0].split(), (head[1].split() if len(head) > 1 else [])
    options = [[(w.split(":")[0], w.split(":")[1] if ":" in w else None) for w in r] for r in rows[1:]]
    return primary, secondary, options


def valid(primary, secondary, options, chosen) -> bool:
    """Every primary item exactly once; a secondary item at most once, or by options that
    all give it the same colour; every option chosen has a primary item."""
    uses: dict = {}
    for o in chosen:
        if not any(item in primary for item, _ in options[o]):
            return False
        for item, colour in options[o]:
            uses.setdefault(item, []).append(colour)
    if any(len(uses.get(p, [])) != 1 for p in primary):
        return False
    for s in secondary:
        cs = uses.get(s, [])
        if len(cs) > 1 and (None in cs or len(set(cs)) > 1):
            return False
    return True


def brute(text: str) -> set[frozenset]:
    """Every solution, as sets of option numbers (from 1), by trying every subset."""
    primary, secondary, options = read(text)
    found = set()
    for k in range(len(primary) + 1):
        for chosen in combinations(range(len(options)), k):
            if valid(primary, secondary, options, chosen):
                found.add(frozenset(o + 1 for o in chosen))
    return found


# ---- running polytile ------------------------------------------------------------------


def cover_json(tmp_path: Path, text: str, *args: str) -> dict:
    path = tmp_path / "m.dlx"
    path.write_text(text)
    r = call_cli("cover", path, "--json", *args)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def counts(text: str, engines=("auto",) + GENERAL) -> set[int]:
    """The count of each engine (through the API: no process, no CLI parsing); the
    bit-set kernel on one thread and on two (its trial cut short, so that the threads
    count, not the trial)."""
    from polytile.engine.bitset import driver as bitset_driver
    from polytile.engine.cover_search import search_matrix
    from polytile.formats.dlx import parse

    matrix = parse(text)
    found = {search_matrix(matrix, engine=e).solutions for e in engines}
    found.add(search_matrix(matrix, engine="bitset", jobs=1).solutions)
    saved, bitset_driver.TRIAL_NODES = bitset_driver.TRIAL_NODES, 2
    try:
        found.add(search_matrix(matrix, engine="bitset", jobs=2).solutions)
    finally:
        bitset_driver.TRIAL_NODES = saved
    return found


def listed(text: str, engine: str) -> list[frozenset]:
    from polytile.engine.cover_search import search_matrix
    from polytile.formats.dlx import parse

    res = search_matrix(parse(text), engine=engine, store=True)
    return [frozenset(int(o) + 1 for o in f) for f in res.found]
