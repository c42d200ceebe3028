"""Hostile parser inputs (files in tests/repro/, copied from the hostile-user survey):
through the real command line each gives one line on stderr and exit 2, or the right answer;
through the web API each gives a 400 with a one-line error, never a 500."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from paths import TESTS
from test_bad_input import assert_one_error, run

REPRO = TESTS / "repro"
DEEP = '{"shikaku": ' + "[" * 100_000 + "]" * 100_000 + "}"


def copy(tmp_path: Path, name: str) -> str:
    shutil.copy(REPRO / name, tmp_path / name)
    return name


def test_a_long_game_id_given_as_the_argument_is_solved(tmp_path):
    """The 363-character id of a 50x50 Tatham puzzle; 1 solution (repro README)."""
    game_id = (REPRO / "tatham-50x50-id.txt").read_text().strip()
    assert len(game_id) > 255  # longer than any file name may be
    res = run(tmp_path, "shikaku", game_id, "--count")
    assert res.returncode == 0 and "Traceback" not in res.stderr, res.stderr
    assert res.stdout.strip() == "1"


def test_an_id_like_argument_that_is_no_file_nor_id_is_one_line(tmp_path):
    assert_one_error(run(tmp_path, "shikaku", "9" * 300 + "x2:a"), "too large")
    assert_one_error(run(tmp_path, "shikaku", "x" * 300), "cannot read")


@pytest.mark.parametrize(
    "name, words",
    [
        ("tatham-superscript.txt", ":1:5:"),  # "2x2:\u00b2a": a digit that is no ASCII digit
        ("shikaku-text-5000-digits.txt", ":2:1:"),  # past int()'s 4,300 digits
        ("tatham-5000-digit-width.txt", ":1:1:"),
        ("url-5000-digit-width.txt", ":1:29:"),
        ("shikaku-json-5000-digits.json", ":1:23:"),
        ("shikaku-json-clues-null.json", '"clues"'),  # JSON values of the wrong type
        ("shikaku-json-bool-size.json", '"width"'),
    ],
)
def test_shikaku_files_are_one_line_errors(tmp_path, name, words):
    assert_one_error(run(tmp_path, "shikaku", copy(tmp_path, name)), name, words)


@pytest.mark.parametrize(
    "text",
    ["2x2:\u2460a", "2x2:\u0f33a", "\u00b2x2:4c", "2 2\n\u0663 0\n0 1", "https://puzz.link/p?shikaku/\u0662/2/4j"],
)
def test_unicode_digits_are_not_digits(tmp_path, text):
    name = "p.txt"
    (tmp_path / name).write_text(text, encoding="utf-8")
    assert_one_error(run(tmp_path, "shikaku", name), name)


def test_deep_json_is_one_line(tmp_path):
    (tmp_path / "deep.json").write_text(DEEP)
    assert_one_error(run(tmp_path, "shikaku", "deep.json"), "deep.json", "nested too deeply")


def test_a_key_with_a_newline_is_one_line(tmp_path):
    line = assert_one_error(
        run(tmp_path, "count", copy(tmp_path, "polyjson-newline-key.json")), "polyjson-newline-key.json", "unknown key"
    )
    assert '"a\\nb"' in line


def test_a_file_name_with_a_newline_is_one_line(tmp_path):
    assert_one_error(run(tmp_path, "count", "no\nsuch.txt"), "no\\nsuch.txt", "no such file")


WEB_BAD = [
    ("superscript digit", {"kind": "shikaku", "text": "2x2:\u00b2a"}),
    ("text 5000 digits", {"kind": "shikaku", "text": (REPRO / "shikaku-text-5000-digits.txt").read_text()}),
    ("json 5000 digits", {"kind": "shikaku", "text": (REPRO / "shikaku-json-5000-digits.json").read_text()}),
    ("url 5000 digits", {"kind": "shikaku", "text": (REPRO / "url-5000-digit-width.txt").read_text()}),
    ("deep text", {"kind": "shikaku", "text": '{"shikaku": ' + "[" * 99_990 + "]" * 99_990 + "}"}),
    ("clues null", {"kind": "shikaku", "text": (REPRO / "shikaku-json-clues-null.json").read_text()}),
    ("bool size", {"kind": "shikaku", "text": (REPRO / "shikaku-json-bool-size.json").read_text()}),
    ("newline key", {"kind": "tiling", "text": (REPRO / "polyjson-newline-key.json").read_text()}),
    ("kind deep", {"kind": [[[[[[1]]]]]]}),
    ("piece name list", {"kind": "tiling", "board": ["XX"], "pieces": [{"name": ["a\nb"]}]}),
]


@pytest.mark.parametrize("name, puzzle", WEB_BAD, ids=[w[0] for w in WEB_BAD])
def test_web_malformed_specs_are_400_with_one_line(client, name, puzzle):
    for path, body in (("/api/check", {"puzzle": puzzle}), ("/api/jobs", {"action": "solve", "puzzle": puzzle})):
        r = client.post(path, content=json.dumps(body), headers={"Content-Type": "application/json"})
        assert r.status_code == 400, (path, r.text[:200])
        err = r.json()["error"]
        assert err and len(err.splitlines()) == 1, err
