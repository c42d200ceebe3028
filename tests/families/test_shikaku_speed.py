"""Shikaku's shortcuts for speed, each against the plain path and against tests/checker.py
(the independent brute force): the candidate enumeration by free intervals, the bitmask
propagation (`solve(prune=True)`, the default), and the text reader's fast path."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import example, given, settings, strategies as st

from checker import shikaku_solutions
from conftest import CORPUS
from polytile.errors import PuzzleError
from polytile.shikaku import model, prune
from polytile.shikaku.candidates import candidates
from polytile.shikaku.formats import _plain_text, load, parse_text_careful
from polytile.shikaku.generate import partition
from polytile.shikaku.model import Shikaku, solve, verify

DIR = CORPUS / "shikaku"
MANIFEST = json.loads((DIR / "manifest.json").read_text())


def brute_candidates(p: Shikaku) -> list[set]:
    """Every h x w of each clue's area, at every position, that holds that clue and no other:
    a test of each rectangle cell by cell."""
    clues = {(r, c) for r, c, _ in p.clues}
    out = []
    for r, c, v in p.clues:
        found = set()
        for h in range(1, v + 1):
            if v % h:
                continue
            w = v // h
            for top in range(r - h + 1, r + 1):
                for left in range(c - w + 1, c + 1):
                    if top < 0 or left < 0 or top + h > p.height or left + w > p.width:
                        continue
                    inside = [(y, x) for y in range(top, top + h) for x in range(left, left + w) if (y, x) in clues]
                    if inside == [(r, c)]:
                        found.add((top, left, h, w))
        out.append(found)
    return out


def random_puzzle(w: int, h: int, seed: int, max_area: int, moved: int, corner: bool = False) -> Shikaku:
    """Clues of a random partition, one per rectangle at a random cell (in its corner:
    many solutions); `moved` of them then moved to a random cell (often no solution)."""
    rng = random.Random(seed)
    rows = [[0] * w for _ in range(h)]
    for r, c, dh, dw in partition(w, h, rng, max_area):
        if corner:
            rows[r][c] = dh * dw
        else:
            rows[r + rng.randrange(dh)][c + rng.randrange(dw)] = dh * dw
    cells = [(r, c) for r in range(h) for c in range(w) if rows[r][c]]
    for r, c in rng.sample(cells, min(moved, len(cells))):
        y, x = rng.randrange(h), rng.randrange(w)
        rows[r][c], rows[y][x] = rows[y][x], rows[r][c]
    return Shikaku.from_rows(rows)


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 12), st.integers(1, 12), st.integers(0, 10**6), st.integers(2, 12), st.integers(0, 4))
def test_candidates_are_the_brute_force_ones(w, h, seed, max_area, moved):
    p = random_puzzle(w, h, seed, max_area, moved)
    got = candidates(p.height, p.width, p.clues)
    assert [set(rects) for rects in got] == brute_candidates(p)
    assert all(len(set(rects)) == len(rects) for rects in got)


@settings(max_examples=120, deadline=None)
@given(st.integers(1, 7), st.integers(1, 7), st.integers(0, 10**6), st.integers(2, 8), st.integers(0, 3), st.booleans())
def test_propagation_vs_plain_vs_brute_force(w, h, seed, max_area, moved, corner):
    """Random partitions, clues in a corner (many solutions) or anywhere, some moved (none):
    the count after propagation, the plain memo count and the brute force agree, and the
    solution shown is one."""
    p = random_puzzle(w, h, seed, max_area, moved, corner)
    expected = len(shikaku_solutions(w, h, {(r, c): v for r, c, v in p.clues}))
    fast, plain = solve(p), solve(p, prune=False)
    assert fast.solutions == plain.solutions == expected
    if expected:
        assert verify(p, fast.rectangles) is None
    else:
        assert fast.rectangles == [] and fast.reason
    assert solve(p, cap=1).solutions == min(expected, 1)
    assert solve(p, solution=False).solutions == expected


@settings(max_examples=40, deadline=None)
@given(st.integers(8, 30), st.integers(8, 30), st.integers(0, 10**6), st.integers(4, 40), st.integers(0, 2))
def test_propagation_vs_plain_on_larger_grids(w, h, seed, max_area, moved):
    """Grids beyond the brute force: the two paths agree, every solution shown verifies."""
    p = random_puzzle(w, h, seed, max_area, moved)
    fast, plain = solve(p), solve(p, prune=False)
    assert fast.solutions == plain.solutions
    for ans in (fast, plain):
        assert (verify(p, ans.rectangles) is None) if ans.solutions else not ans.rectangles


def test_propagation_leaves_only_forced_removals():
    """What propagation removes is in no solution: every brute-force solution's rectangles
    are among the settled and open candidates."""
    rng = random.Random(7)
    checked = 0
    for _ in range(60):
        p = random_puzzle(6, 6, rng.randrange(10**6), 6, rng.randrange(2))
        got = prune.prune(p.width, p.height, p.clues, candidates(p.height, p.width, p.clues))
        sols = shikaku_solutions(6, 6, {(r, c): v for r, c, v in p.clues})
        if got.dead is not None:
            assert sols == []
            continue
        kept = set(got.settled) | {r for _, rects in got.open for r in rects}
        for sol in sols:
            assert set(sol) <= kept and set(got.settled) <= set(sol)
            checked += 1
    assert checked > 20


@pytest.mark.parametrize("case", [c for c in MANIFEST if not c.get("heavy")], ids=lambda c: c["id"])
def test_corpus_both_paths(case):
    p = load(DIR / case["file"])
    fast, plain = solve(p), solve(p, prune=False)
    assert fast.solutions == plain.solutions == case["solutions"]
    if case["solutions"]:
        assert verify(p, fast.rectangles) is None


def test_the_plain_path_past_the_mask_budget(monkeypatch):
    p = load(DIR / "tatham-30x30a.txt")
    monkeypatch.setattr(model, "MASK_BYTES", 0)
    ans = solve(p)
    assert ans.solutions == next(c for c in MANIFEST if c["id"] == "tatham-30x30a")["solutions"]
    assert verify(p, ans.rectangles) is None


def test_propagation_keeps_the_time_limit():
    ans = solve(load(DIR / "tatham-50x50.txt"), time_limit=0.0)
    assert ans.solutions is None and ans.stopped == "time limit"


def test_masks_are_the_rectangles():
    p = random_puzzle(9, 7, 3, 8, 0)
    for rects in candidates(p.height, p.width, p.clues):
        (ms,), (offset,) = prune.masks(p.width, [rects])
        assert offset == min(r[0] for r in rects) * p.width
        for rect, mask in zip(rects, ms):
            top, left, h, w = rect
            cells = {(top + i) * p.width + left + j for i in range(h) for j in range(w)}
            assert mask << offset == sum(1 << b for b in cells)
            assert prune.rect_of(mask, p.width, h * w, offset) == rect


# --- the text reader's fast path against the careful one ----------------------------------

TOKENS = st.sampled_from(
    ["0", "1", "2", "3", "4", "9", "12", "007", "-2", "+3", "x", "2.0", "٣", "1_0", "00000000000000004", "99999", ""]
)


@settings(max_examples=300, deadline=None)
@given(
    st.integers(0, 5),
    st.integers(0, 5),
    st.lists(st.lists(TOKENS, max_size=6), max_size=7),
    st.sampled_from([" ", "  ", "\t", " \u00a0", "\u2003"]),
    st.sampled_from(["\n", "\r\n", "\n\n"]),
)
@example(2, 2, [["0", "0"], ["0", "00000000000000004"]], " ", "\n")  # zeros before a number do not make it long
def test_text_fast_path_reads_as_the_careful_reader(w, h, rows, space, newline):
    """Texts near the form (wrong counts, signs, non-ASCII digits, long numbers, odd blanks):
    the fast path gives the careful reader's puzzle, or leaves the text to it."""
    text = newline.join([f"{w} {h}"] + [space.join(row) for row in rows]) + "\n"
    try:
        careful = parse_text_careful(text, "t")
    except PuzzleError:
        careful = None
    fast = _plain_text(text)
    assert fast is None or fast == careful
    if careful is not None and all(t.isdigit() and t.isascii() for row in rows for t in row):
        assert fast == careful


@pytest.mark.parametrize("case", [c for c in MANIFEST if not c.get("heavy")], ids=lambda c: c["id"])
def test_corpus_files_take_the_fast_path(case):
    text = (DIR / case["file"]).read_text()
    assert _plain_text(text) == parse_text_careful(text, "t") == load(DIR / case["file"])


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 6),
    st.integers(1, 6),
    st.data(),
    st.sampled_from([" ", "\t", "   "]),
    st.sampled_from(["\n", "\r\n", "\n \n"]),
)
def test_text_fast_path_on_grids_and_one_flaw(w, h, data, space, newline):
    """A well-formed grid reads the same both ways; with one token replaced, the fast path
    still gives the careful reader's answer or leaves it the text (errors and positions)."""
    rows = [[str(data.draw(st.integers(0, w * h))) for _ in range(w)] for _ in range(h)]
    text = newline.join([f"{w} {h}"] + [space.join(row) for row in rows]) + newline
    assert _plain_text(text) == parse_text_careful(text, "t") is not None
    r, c = data.draw(st.integers(0, h - 1)), data.draw(st.integers(0, w - 1))
    rows[r][c] = data.draw(
        st.sampled_from([str(w * h + 1), "-1", "+1", "٣", "1_0", "0x1", "", "1 1", "00000000000000001", "²"])
    )
    text = newline.join([f"{w} {h}"] + [space.join(row) for row in rows]) + newline
    try:
        careful = parse_text_careful(text, "t")
    except PuzzleError:
        careful = None
    fast = _plain_text(text)
    assert fast is None or fast == careful


def test_the_command_counts_shows_a_verified_solution_and_restores_the_collector(capsys):
    """The whole command on the 100 x 100 (the propagation path, collector off while it
    counts): the count, a solution that verifies, and the collector as it was."""
    import gc

    from polytile.cli import main

    case = next(c for c in MANIFEST if c["id"] == "tatham-100x100")
    assert gc.isenabled()
    assert main(["shikaku", str(DIR / case["file"]), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["solutions"] == case["solutions"] and data["complete"]
    assert verify(load(DIR / case["file"]), [tuple(r) for r in data["rectangles"]]) is None
    assert gc.isenabled()
