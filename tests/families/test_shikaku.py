"""Shikaku: counts from the corpus manifest, verified solutions, inputs, errors, generator."""

from __future__ import annotations

import json
import random
import time

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from conftest import CORPUS
from polytile.cli import main
from polytile.engine.counting import memo
from polytile.engine.search import search
from polytile.errors import PuzzleError
from polytile.shikaku.formats import load, parse, to_game_id, to_url
from polytile.shikaku.model import Shikaku, letters, reduce, solve, verify
from polytile.shikaku.generate import generate, partition
from cli_helpers import call_cli

DIR = CORPUS / "shikaku"
MANIFEST = json.loads((DIR / "manifest.json").read_text())
CASES = {c["id"]: c for c in MANIFEST}
LIGHT = [c for c in MANIFEST if not c.get("heavy")]


def cli(capsys, *args):
    status = main([str(a) for a in args])
    out = capsys.readouterr()
    return status, out.out, out.err


def rects_from_letters(lines: list[str]) -> list[tuple[int, int, int, int]]:
    """The rectangles a letter drawing shows (4-connected runs of one letter)."""
    grid = [line.split() for line in lines]
    seen, rects = set(), []
    for r, row in enumerate(grid):
        for c, ch in enumerate(row):
            if (r, c) in seen:
                continue
            w = 1
            while c + w < len(row) and row[c + w] == ch and (r, c + w) not in seen:
                w += 1
            h = 1
            while r + h < len(grid) and grid[r + h][c : c + w] == [ch] * w:
                h += 1
            seen |= {(y, x) for y in range(r, r + h) for x in range(c, c + w)}
            rects.append((r, c, h, w))
    return rects


@pytest.mark.parametrize("case", LIGHT, ids=[c["id"] for c in LIGHT])
def test_corpus_count_and_solution(case):
    p = load(DIR / case["file"])
    assert (p.width, p.height) == (case["width"], case["height"])
    ans = solve(p)
    assert ans.solutions == case["solutions"]
    if case["solutions"]:
        assert verify(p, ans.rectangles) is None
    else:
        assert ans.rectangles == [] and ans.reason


@pytest.mark.parametrize("case", [c for c in LIGHT if "game_id" in c], ids=lambda c: c["id"])
def test_game_id_and_url_read_as_the_file(case):
    p = load(DIR / case["file"])
    assert parse(case["game_id"]) == p
    assert to_game_id(p) == case["game_id"]
    assert parse(to_url(p)) == p


@pytest.mark.parametrize("cid", ["tatham-7x7", "tatham-20x20a", "domino-6x6", "random-partition-12x12"])
def test_cli_prints_count_then_letters(capsys, cid):
    case = CASES[cid]
    status, out, _ = cli(capsys, "shikaku", DIR / case["file"])
    assert status == 0
    lines = out.splitlines()
    assert int(lines[0]) == case["solutions"]
    assert len(lines) == 1 + case["height"]
    assert all(len(line.split()) == case["width"] for line in lines[1:])
    p = load(DIR / case["file"])
    assert verify(p, rects_from_letters(lines[1:])) is None
    assert lines[1].split()[0] == "A"


def test_cli_json_and_count(capsys):
    case = CASES["domino-10x10"]
    status, out, _ = cli(capsys, "shikaku", DIR / case["file"], "--json")
    data = json.loads(out)
    assert (
        status == 0 and set(data) == {"solutions", "rectangles", "seconds", "complete", "method"} and data["complete"]
    )
    assert data["solutions"] == case["solutions"] and isinstance(data["seconds"], float)
    assert verify(load(DIR / case["file"]), [tuple(r) for r in data["rectangles"]]) is None
    status, out, _ = cli(capsys, "shikaku", DIR / case["file"], "--count")
    assert out == f"{case['solutions']}\n"


@pytest.mark.parametrize("cid", ["unsolvable-3x3", "unsolvable-sum"])
def test_unsolvable_prints_zero_with_reason(capsys, cid):
    status, out, err = cli(capsys, "shikaku", DIR / CASES[cid]["file"])
    assert (status, out) == (0, "0\n")
    assert err.startswith("no solution: ")
    status, out, _ = cli(capsys, "shikaku", DIR / CASES[cid]["file"], "--json")
    assert json.loads(out)["solutions"] == 0 and json.loads(out)["rectangles"] == []


def test_stdin_and_game_id_argument():
    case = CASES["tatham-10x10"]
    text = (DIR / case["file"]).read_text()
    p = call_cli("shikaku", "-", "--count", input=text)
    assert (p.returncode, p.stdout) == (0, f"{case['solutions']}\n")
    p = call_cli("shikaku", case["game_id"], "--count")
    assert (p.returncode, p.stdout) == (0, f"{case['solutions']}\n")


BAD = {
    "ragged short": ("3 2\n1 0 2\n3 0\n", 3, 4),
    "ragged long": ("3 2\n1 0 2\n3 0 0 0\n", 3, 7),
    "not an integer": ("2 2\n2 0\n0 x\n", 3, 3),
    "a decimal": ("2 2\n2 0\n0 2.0\n", 3, 3),
    "negative": ("2 2\n2 0\n0 -2\n", 3, 3),
    "larger than the grid": ("2 2\n5 0\n0 0\n", 2, 1),
    "missing header": ("1 0 2\n3 0 0\n", 1, 5),
    "header not numbers": ("a b\n1\n", 1, 1),
    "header zero": ("0 2\n", 1, 1),
    "too few rows": ("2 3\n2 0\n2 0\n", 4, 1),
    "too many rows": ("2 1\n2 0\n0 0\n", 3, 1),
}


@pytest.mark.parametrize("name", list(BAD))
def test_bad_input_one_line_with_position(capsys, tmp_path, name):
    text, line, col = BAD[name]
    f = tmp_path / "bad.txt"
    f.write_text(text)
    status, out, err = cli(capsys, "shikaku", f)
    assert status == 2 and out == ""
    assert err.count("\n") == 1
    assert f"{f}:{line}:{col}:" in err, err


@pytest.mark.parametrize(
    "text",
    [
        "7x7:a8a4e3a3a2f2c6f5k6_2_2_2_4",
        "3x3:a9zz",
        "2x2:a%",
        "https://puzz.link/p?shikaku/2/2/-ff",
        '{"shikaku": {"width": 2}}',
    ],
)
def test_bad_ids_urls_json(text):
    with pytest.raises(PuzzleError):
        parse(text)


def test_json_puzzle():
    p = parse('{"shikaku": {"width": 4, "height": 2, "clues": [[0, 1, 4], [1, 2, 4]]}}')
    assert solve(p).solutions == CASES["tiny-2x4-two"]["solutions"] == 2
    assert parse(json.dumps({"shikaku": {"width": 4, "height": 2, "rows": p.rows()}})) == p


def test_speed_figures():
    for cid, limit in (("domino-8x8", 1.0), ("domino-10x10", 10.0), ("tatham-150x150", 1.0)):
        p = load(DIR / CASES[cid]["file"])
        solve(p)  # warm
        t0 = time.perf_counter()
        assert solve(p).solutions == CASES[cid]["solutions"]
        assert time.perf_counter() - t0 < 2 * limit, cid  # slack for a busy machine


@pytest.mark.parametrize("size,seed", [((5, 5), 1), ((10, 10), 2), ((12, 7), 3), ((25, 20), 4)])
def test_generated_puzzles_are_unique(size, seed):
    p = generate(*size, seed=seed)
    assert (p.width, p.height) == size
    ans = solve(p)
    assert ans.solutions == 1 and verify(p, ans.rectangles) is None
    assert generate(*size, seed=seed) == p


def test_generate_cli(capsys):
    status, out, _ = cli(capsys, "shikaku", "--generate", "8x6", "--seed", "5")
    assert status == 0
    assert solve(parse(out)).solutions == 1
    status, _, err = cli(capsys, "shikaku", "--generate", "8by6")
    assert status == 2 and "--generate" in err


def test_letters_repeat_after_52():
    p = Shikaku.from_rows([[1] * 60])
    row = letters(p, solve(p).rectangles)[0].split()
    assert "".join(row[:52]) == "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    assert row[52] == "A"


def _engine_count(p: Shikaku) -> int:
    red = reduce(p)
    return search(red.cover, engine="dlx").solutions if red.cover.n_options else 0


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 6), st.integers(2, 6), st.integers(0, 10_000), st.integers(0, 3))
def test_memo_count_equals_the_shared_engine(w, h, seed, drop):
    """The memoised counter against the dancing-links search, on random puzzles from
    random partitions with some clues moved or merged away."""
    rng = random.Random(seed)
    rects = partition(w, h, rng, max_area=6)
    clues = [(*rng.choice([(y, x) for y in range(r, r + a) for x in range(c, c + b)]), a * b) for r, c, a, b in rects]
    rng.shuffle(clues)
    clues = clues[drop:] + [(r, c, v + 1) for r, c, v in clues[:drop]]
    p = Shikaku(w, h, tuple(sorted({(r, c): (r, c, v) for r, c, v in clues}.values())))
    ans = solve(p)
    if sum(v for *_, v in p.clues) == w * h:
        assert ans.solutions == _engine_count(p)
    if ans.solutions:
        assert verify(p, ans.rectangles) is None


def test_memo_is_geometry_free_on_a_plain_cover():
    """Three items, options {0,1}, {2}, {0}, {1,2}: two exact covers."""
    from polytile.core.cover import Cover

    cover = Cover(
        3,
        np.array([0, 2, 3, 4, 6]),
        np.array([0, 1, 2, 0, 1, 2], np.int32),
        np.arange(4, dtype=np.int32),
        np.ones(4, np.int32),
        np.zeros(4, np.int32),
        np.full((3, 1), -1, np.int32),
    )
    res = memo.count(cover)
    assert res.solutions == 2 and res.found in ([0, 1], [2, 3])
    assert memo.count(cover, cap=1).solutions == 1


def test_svg_picture(capsys):
    case = CASES["tatham-7x7"]
    status, out, _ = cli(capsys, "shikaku", DIR / case["file"], "--format", "svg")
    assert status == 0 and out.startswith("<svg") and out.count('stroke-width="2"') == 13
