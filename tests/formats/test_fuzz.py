"""Fuzzing every parser: mutations of valid corpus files (characters inserted, deleted or
replaced, Unicode digits, huge numbers, deep nesting, JSON values of the wrong type) must
parse or raise PuzzleError with one line -- never any other exception.

Families: ASCII drawings, polytile JSON, Shikaku text, Tatham game ids, puzz.link URLs,
Shikaku JSON, and the web page's request specs. A few hundred inputs per family by default;
`POLYTILE_FUZZ=long` (`make fuzz`) runs 10,000 per family."""

from __future__ import annotations

import json
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import CORPUS
from paths import EXAMPLES
from polytile.errors import PuzzleError
from polytile.formats import ascii_art, polyjson
from polytile.shikaku import formats as shikaku_format
from polytile.web import puzzles as web_puzzles

LONG = os.environ.get("POLYTILE_FUZZ") == "long"
FUZZ = settings(
    max_examples=10_000 if LONG else 300, deadline=None, database=None, suppress_health_check=list(HealthCheck)
)


# ---- seeds: valid inputs of every family ----------------------------------------------------------


def _small(paths, limit: int = 3000) -> list[str]:
    return [p.read_text() for p in sorted(paths) if p.stat().st_size <= limit]


ASCII_SEEDS = _small(list((CORPUS / "tiling").glob("*.txt")) + list(EXAMPLES.glob("*.txt")))
POLYJSON_SEEDS = _small(list((CORPUS / "tiling").glob("*.json")) + list(EXAMPLES.glob("*.json"))) + [
    '{"board": ["XX", "XX"], "pieces": [{"cells": [[0, 0], [0, 1]], "count": 2}]}',
    '{"board": [[0,0],[0,1],[1,0],[1,1]], "colours": ["B","W","W","B"], "pieces": '
    '[{"name": "D", "cells": ["BW"], "count": 2, "min": 1, "reflect": false}], "allow_reflection": true}',
    '{"board": ["XXXXX", "XXXXX", "XXXXX"], "pieces": ["L", "P", {"name": "red", "count": 1}]}',
    '{"board": ["XXXXXXXXXX", "XXXXXXXXXX", "XXXXXXXXXX", "XXXXXXXXXX", "XXXXXXXXXX", '
    '"XXXXXXXXXX"], "pieces": "pentominoes"}',
]
_SHIKAKU_TEXTS = _small((CORPUS / "shikaku").glob("*.txt"), 1200)
_SHIKAKU_PUZZLES = [shikaku_format.parse_text(t) for t in _SHIKAKU_TEXTS]
SHIKAKU_TEXT_SEEDS = _SHIKAKU_TEXTS
GAME_ID_SEEDS = [shikaku_format.to_game_id(p) for p in _SHIKAKU_PUZZLES] + ["2x2:4c", "3x1:a2_1"]
URL_SEEDS = [shikaku_format.to_url(p) for p in _SHIKAKU_PUZZLES] + [
    "https://puzz.link/p?shikaku/2/2/4j",
    "http://pzv.jp/p.html?sikaku/3/3/-10g+100h=000",
    "?shikaku/5/1/$00001k",
]
SHIKAKU_JSON_SEEDS = [
    json.dumps({"shikaku": {"width": p.width, "height": p.height, "rows": p.rows()}}) for p in _SHIKAKU_PUZZLES[:4]
] + [
    '{"shikaku": {"width": 3, "height": 2, "clues": [[0, 0, 3], [1, 2, 3]]}}',
    '{"width": 2, "height": 2, "rows": [[4, 0], [0, 0]]}',
    '{"rows": [[2, 0], [0, 2]]}',
]
WEB_SEEDS = [
    {"kind": "tiling", "board": ["XXXXX", "XXXXX", "XXXXX"], "pieces": ["L", "P", {"name": "Y", "count": 1}]},
    {
        "kind": "tiling",
        "board": ["XXX.", "XXXX"],
        "pieces": [{"cells": ["XX.", ".XX"], "count": 1, "min": 0}, {"name": "4-2", "count": 1}],
        "reflect": False,
    },
    {"kind": "tiling", "text": ASCII_SEEDS[0]},
    {"kind": "tiling", "text": POLYJSON_SEEDS[1]},
    {"kind": "katamino", "pieces": ["L", "red", 3], "height": 5, "width": 3, "reflect": True},
    {"kind": "box", "order": 4, "width": 4, "height": 5, "max_copies": 2, "min_copies": 0, "one_sided": False},
    {"kind": "shikaku", "rows": [[2, 0], [0, 2]]},
    {"kind": "shikaku", "text": GAME_ID_SEEDS[-1]},
    {"kind": "shikaku", "text": SHIKAKU_JSON_SEEDS[-2]},
]


# ---- mutations ---------------------------------------------------------------------------------------

NASTY = [
    "\u00b2",
    "\u2460",
    "\u0f33",
    "\u0663",
    "\uff11",
    "\u2028",
    "\x85",
    "\n",
    "\r",
    "\t",
    "\x00",
    "9" * 5000,
    "1" * 4301,
    "-",
    "+",
    "_",
    "x",
    ":",
    "/",
    "?",
    "{",
    "}",
    "[",
    "]",
    '"',
    ",",
    "\\",
    "[" * 3000,
    '{"a":' * 2000,
    "null",
    "true",
    "1e999",
    "-0",
    "NaN",
    "\ufeff",
    "\U0001f600",
    "a" * 300,
    "/" * 300,
    "z",
    "$",
    "%",
    "*",
    "=",
    ".",
    " ",
    "X",
    "0",
]


@st.composite
def mutated_text(draw, seeds: list[str]) -> str:
    """A seed with 1-4 edits: insert a nasty or random string, delete or duplicate a span,
    replace a character."""
    text = draw(st.sampled_from(seeds))
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        j = min(len(text), i + draw(st.integers(0, 12)))
        op = draw(st.sampled_from(["insert", "insert", "delete", "replace", "duplicate"]))
        piece = draw(st.one_of(st.sampled_from(NASTY), st.text(max_size=4)))
        if op == "insert":
            text = text[:i] + piece + text[i:]
        elif op == "delete":
            text = text[:i] + text[j:]
        elif op == "replace":
            text = text[:i] + piece + text[i + 1 :]
        else:
            text = text[:j] + text[i:j] + text[j:]
    return text


def _deep(depth: int):
    value: object = 1
    for _ in range(depth):
        value = [value]
    return value


WRONG = st.one_of(
    st.sampled_from(
        [
            None,
            True,
            False,
            0,
            -1,
            1.5,
            "",
            "x",
            "a\nb",
            "\u00b2",
            [],
            {},
            [[]],
            {"a\nb": 1},
            10**30,
            -(10**30),
            10**4000,
            "9" * 5000,
        ]
    ),
    st.integers(-3, 40),
    st.text(max_size=5),
    st.integers(10, 3000).map(_deep),
)


KEYS = [
    "a\nb",
    "\u2028",
    "rows",
    "clues",
    "width",
    "height",
    "kind",
    "text",
    "board",
    "pieces",
    "count",
    "min",
    "cells",
    "colours",
    "reflect",
    "name",
    "order",
    "max_copies",
    "shikaku",
]


def _paths(value, prefix=()):
    """Paths to the values of a JSON document, not below a depth of 6 (inserted deep lists)."""
    yield prefix
    if len(prefix) >= 6:
        return
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, prefix + (i,))


def _at(value, path):
    for step in path:
        value = value[step]
    return value


def _replace(value, path, new):
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _replace(value[head], rest, new)}
    return [_replace(v, rest, new) if i == head else v for i, v in enumerate(value)]


@st.composite
def mutated_json(draw, seeds: list):
    """A JSON seed with 1-3 values replaced by wrong types, huge numbers or deep nesting,
    or a key added, renamed (a newline in it) or dropped."""
    value = draw(st.sampled_from(seeds))
    value = json.loads(value) if isinstance(value, str) else value
    for _ in range(draw(st.integers(1, 2))):
        op = draw(st.sampled_from(["replace", "replace", "key", "key", "drop"]))
        paths = [p for p in _paths(value) if op == "replace" or isinstance(_at(value, p), dict)]
        path = draw(st.sampled_from(paths or [()]))
        target = _at(value, path)
        if op in ("key", "drop") and isinstance(target, dict):
            key = draw(st.sampled_from(sorted(target) + KEYS))
            changed = {k: v for k, v in target.items() if k != key}
            if op == "key":
                changed[key] = draw(WRONG)
            value = _replace(value, path, changed)
        else:
            value = _replace(value, path, draw(WRONG))
    return value


def _dumps(value) -> str:
    try:
        return json.dumps(value)
    except (ValueError, RecursionError):  # the value is too deep for the encoder
        return "[" * 5000 + "]" * 5000


# ---- the property ------------------------------------------------------------------------------------


def parses_or_refuses(fn, *args):
    """fn(*args), or None when it raises PuzzleError with a one-line message; any other
    exception fails the test."""
    try:
        return fn(*args)
    except PuzzleError as e:
        message = str(e)
        assert message.strip() and len(message.splitlines()) == 1, repr(message)
        return None


@FUZZ
@given(st.one_of(mutated_text(ASCII_SEEDS), st.text(alphabet="XXXB .\n\t\u00b2", max_size=200)))
def test_fuzz_ascii_drawings(text):
    parses_or_refuses(ascii_art.parse, text, "fuzz.txt")


@FUZZ
@given(st.one_of(mutated_text(POLYJSON_SEEDS), mutated_json(POLYJSON_SEEDS).map(_dumps)))
def test_fuzz_polytile_json(text):
    parses_or_refuses(polyjson.parse, text, "fuzz.json")


@FUZZ
@given(mutated_text(SHIKAKU_TEXT_SEEDS))
def test_fuzz_shikaku_text(text):
    parses_or_refuses(shikaku_format.parse, text, "fuzz.txt")


@FUZZ
@given(mutated_text(GAME_ID_SEEDS))
def test_fuzz_tatham_game_ids(text):
    parses_or_refuses(shikaku_format.parse, text, "fuzz.txt")
    parses_or_refuses(shikaku_format.load, text)  # given as the argument instead of a file


@FUZZ
@given(mutated_text(URL_SEEDS))
def test_fuzz_puzz_link_urls(text):
    parses_or_refuses(shikaku_format.parse, text, "fuzz.txt")
    parses_or_refuses(shikaku_format.load, text)


@FUZZ
@given(st.one_of(mutated_text(SHIKAKU_JSON_SEEDS), mutated_json(SHIKAKU_JSON_SEEDS).map(_dumps)))
def test_fuzz_shikaku_json(text):
    puzzle = parses_or_refuses(shikaku_format.parse, text, "fuzz.json")
    if puzzle is not None and puzzle.width * puzzle.height <= 36:
        from polytile.shikaku.model import solve

        assert solve(puzzle).solutions >= 0


def _web_spec(spec):
    parsed = web_puzzles.parse(spec)
    return web_puzzles.summary(parsed)


@FUZZ
@given(
    st.one_of(
        mutated_json(WEB_SEEDS),
        st.tuples(
            st.sampled_from(WEB_SEEDS), mutated_text(ASCII_SEEDS + POLYJSON_SEEDS + GAME_ID_SEEDS + SHIKAKU_JSON_SEEDS)
        ).map(lambda seed_text: {**seed_text[0], "text": seed_text[1]}),
    )
)
def test_fuzz_web_request_specs(spec):
    parses_or_refuses(_web_spec, spec)
