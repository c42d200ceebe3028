"""Bad input through the command line (in this process: tests/cli_helpers.py): one line on stderr naming the file (and the
line and column where there is one), exit status 2, never a traceback, and no search.

Also the other side of the contract: an unsolvable puzzle is not an error (exit 0 with
0 solutions and a reason; `solve` exits 1), and tiles that exceed the board only warn.
"""
from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cli_helpers import call_cli

TILE = "\n\nXX\n"          # appended to a board drawing: one domino, separated by a blank row


def run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    """The command in this process, in the directory `tmp_path` (the files' names as given)."""
    return call_cli(*args, cwd=tmp_path)


def write(tmp_path: Path, name: str, content: str | bytes) -> str:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return name


def assert_one_error(res: subprocess.CompletedProcess, *fragments: str) -> str:
    """Exit 2, nothing on stdout, exactly one non-empty line on stderr holding `fragments`."""
    assert "Traceback" not in res.stderr + res.stdout, res.stderr
    assert res.returncode == 2, (res.returncode, res.stderr)
    lines = res.stderr.splitlines()
    assert len(lines) == 1, res.stderr
    line = lines[0]
    assert line.strip(), "empty error line"
    for f in fragments:
        assert f in line, (f, line)
    assert res.stdout == "", res.stdout
    return line


def json_puzzle(**overrides) -> str:
    """A small valid polytile JSON puzzle (2x2 board, two dominoes), with fields replaced."""
    data = {"board": [[0, 0], [0, 1], [1, 0], [1, 1]],
            "pieces": [{"name": "D", "cells": [[0, 0], [0, 1]], "count": 2}]}
    for k, v in overrides.items():
        if k.startswith("piece_"):
            data["pieces"][0][k[len("piece_"):]] = v
        else:
            data[k] = v
    return json.dumps(data)


# --- text-level errors -------------------------------------------------------------

def test_empty_file(tmp_path):
    name = write(tmp_path, "empty.txt", "")
    assert_one_error(run(tmp_path, "count", name), "empty.txt")


def test_only_blanks(tmp_path):
    name = write(tmp_path, "blanks.txt", "   \n\n      \n  \n")
    assert_one_error(run(tmp_path, "count", name), "blanks.txt")


def test_only_blanks_json_suffix(tmp_path):
    name = write(tmp_path, "blanks.json", "\n   \n")
    assert_one_error(run(tmp_path, "count", name), "blanks.json")


def test_board_but_no_tiles(tmp_path):
    name = write(tmp_path, "board.txt", "XXXX\nXXXX\nXXXX\n")
    assert_one_error(run(tmp_path, "count", name), "board.txt")


def test_binary_garbage(tmp_path):
    rng = random.Random(20261123)
    data = b"XX\x00\xff" + bytes(rng.randrange(256) for _ in range(4000)) + b"\xc3\x28\xfe"
    name = write(tmp_path, "garbage.bin", data)
    line = assert_one_error(run(tmp_path, "count", name), "garbage.bin:1:")
    assert "text" in line


def test_invalid_utf8_position(tmp_path):
    name = write(tmp_path, "latin1.txt", b"XXX\nXXX\n X\xe9X\n\nXX\n")
    assert_one_error(run(tmp_path, "count", name), "latin1.txt:3:3:", "UTF-8")


def test_nul_byte_position(tmp_path):
    name = write(tmp_path, "nul.txt", b"XXX\nX\x00X\n\nX\n")
    assert_one_error(run(tmp_path, "solve", name), "nul.txt:2:2:")


def test_tab_position(tmp_path):
    name = write(tmp_path, "tab.txt", "XXX\nXXX\nX \tX\n\nXX\n")
    assert_one_error(run(tmp_path, "count", name), "tab.txt:3:3:", "tab")


def test_million_cell_board_answers_quickly(tmp_path):
    name = write(tmp_path, "huge.txt", ("X" * 1000 + "\n") * 1000 + TILE)
    t0 = time.perf_counter()
    res = run(tmp_path, "count", name)
    elapsed = time.perf_counter() - t0
    assert_one_error(res, "huge.txt")
    assert elapsed < 3.0, f"took {elapsed:.2f} s"


def test_file_too_large(tmp_path):
    name = write(tmp_path, "big.txt", ("X" * 999 + "\n") * 5000)
    assert_one_error(run(tmp_path, "count", name), "big.txt")


def test_missing_file(tmp_path):
    assert_one_error(run(tmp_path, "count", "nowhere.txt"), "nowhere.txt")


def test_directory(tmp_path):
    (tmp_path / "puzzles").mkdir()
    assert_one_error(run(tmp_path, "solve", "puzzles"), "puzzles")


# --- JSON -------------------------------------------------------------------------

def test_malformed_json_position(tmp_path):
    text = '{\n  "board": [[0, 0],\n             [0, 1]\n  "pieces": []\n}\n'
    name = write(tmp_path, "bad.json", text)
    assert_one_error(run(tmp_path, "count", name), "bad.json:4:3:", "JSON")


def test_truncated_json_position(tmp_path):
    name = write(tmp_path, "cut.json", '{"board": [[0, 0], [0, 1]],\n "pieces": [{"cells": [[0')
    assert_one_error(run(tmp_path, "count", name), "cut.json:2:", "JSON")


def test_json_number_too_long(tmp_path):
    text = '{"board": [[0, 0],\n  [0, ' + "1" * 5000 + ']], "pieces": [{"cells": [[0, 0]]}]}'
    name = write(tmp_path, "digits.json", text)
    assert_one_error(run(tmp_path, "count", name), "digits.json:2:7:")


def test_json_nested_too_deeply(tmp_path):
    name = write(tmp_path, "deep.json", "[" * 100_000 + "]" * 100_000)
    assert_one_error(run(tmp_path, "count", name), "deep.json")


BAD_JSON = {
    "not-an-object": ("[[0, 0], [0, 1]]", "top level"),
    "board-not-list": (json_puzzle(board=5), "board"),
    "cell-is-string": (json_puzzle(board=[[0, 0], "01"]), "board[1]"),
    "coordinate-is-string": (json_puzzle(board=[[0, 0], [0, "1"]]), "board[1][1]"),
    "count-two": (json_puzzle(piece_count="two"), "pieces[0].count"),
    "count-zero": (json_puzzle(piece_count=0), "pieces[0].count"),
    "min-above-count": (json_puzzle(piece_count=2, piece_min=3), "pieces[0].min"),
    "reflect-yes": (json_puzzle(piece_reflect="yes"), "pieces[0].reflect"),
    "unknown-key": (json_puzzle(boards=[[0, 0]]), "boards"),
    "cell-4d": (json_puzzle(board=[[0, 0, 0, 0], [0, 0, 0, 1]]), "board[0]"),
    # the reduction lays the board out as a dense grid: a huge bounding box must be refused
    "board-far-apart": (json_puzzle(board=[[0, 0], [1_000_000, 1_000_000]]), "board"),
}

MORE_BAD_JSON = {
    "board-is-string": (json_puzzle(board="XX"), "board"),
    "board-drawing-empty": (json_puzzle(board=["", " . "]), "board"),
    "coordinate-is-float": (json_puzzle(board=[[0, 0], [0, 1.5]]), "board[1][1]"),
    "coordinate-is-bool": (json_puzzle(board=[[0, 0], [0, True]]), "board[1][1]"),
    "coordinate-is-null": (json_puzzle(board=[[0, 0], [0, None]]), "board[1][1]"),
    "coordinate-out-of-range": (json_puzzle(board=[[0, 0], [0, 10**7]]), "board[1][1]"),
    "cell-1d": (json_puzzle(board=[[0], [1]]), "board[0]"),
    "piece-cell-4d": (json_puzzle(piece_cells=[[0, 0, 0, 0]]), "pieces[0].cells[0]"),
    "mixed-dims": (json_puzzle(board=[[0, 0], [0, 0, 1]]), "board[1]"),
    "duplicate-cell": (json_puzzle(board=[[0, 0], [0, 0]]), "board"),
    "missing-board": ('{"pieces": [{"cells": [[0, 0]]}]}', "board"),
    "missing-pieces": ('{"board": [[0, 0]]}', "pieces"),
    "pieces-empty": (json_puzzle(pieces=[]), "pieces"),
    "pieces-object": (json_puzzle(pieces={"cells": [[0, 0]]}), "pieces"),
    "piece-not-object": (json_puzzle(pieces=["D"]), "pieces[0]"),
    "piece-no-cells": (json_puzzle(pieces=[{"name": "D"}]), "pieces[0]"),
    "piece-cells-empty": (json_puzzle(piece_cells=[]), "pieces[0].cells"),
    "count-negative": (json_puzzle(piece_count=-1), "pieces[0].count"),
    "count-float": (json_puzzle(piece_count=2.0), "pieces[0].count"),
    "count-true": (json_puzzle(piece_count=True), "pieces[0].count"),
    "count-huge": (json_puzzle(piece_count=10**30), "pieces[0].count"),
    "min-negative": (json_puzzle(piece_min=-1), "pieces[0].min"),
    "min-string": (json_puzzle(piece_min="1"), "pieces[0].min"),
    "reflect-null-string": (json_puzzle(piece_reflect="null"), "pieces[0].reflect"),
    "allow-reflection-1": (json_puzzle(allow_reflection=1), "allow_reflection"),
    "unknown-piece-key": (json_puzzle(piece_colour="red"), "pieces[0].colour"),
    "colours-wrong-length": (json_puzzle(colours=["a"]), "colours"),
    "colours-not-strings": (json_puzzle(colours=[1, 2, 3, 4]), "colours"),
    "piece-colours-empty-string": (json_puzzle(piece_colours=["", "a"]), "pieces[0].colours"),
    "piece-3d-board-2d": (json_puzzle(piece_cells=[[0, 0, 0], [0, 0, 1]]), "pieces[0].cells"),
    "name-not-string": (json_puzzle(piece_name=7), "pieces[0].name"),
    "name-empty": (json_puzzle(piece_name=""), "pieces[0].name"),
    "board-far-apart-3d": (json_puzzle(board=[[-10**6, 0, 0], [10**6, 5, 5]]), "board"),
    "board-too-many-coordinates": (json_puzzle(board=[[0, i] for i in range(20_001)]), "board"),
}


@pytest.mark.parametrize("case", sorted(BAD_JSON))
def test_json_wrong_types(tmp_path, case):
    text, where = BAD_JSON[case]
    name = write(tmp_path, f"{case}.json", text)
    assert_one_error(run(tmp_path, "count", name), f"{case}.json", where)


@pytest.mark.parametrize("case", sorted(MORE_BAD_JSON))
def test_json_wrong_types_more(tmp_path, case):
    text, where = MORE_BAD_JSON[case]
    name = write(tmp_path, f"{case}.json", text)
    assert_one_error(run(tmp_path, "count", name), f"{case}.json", where)


def test_json_board_of_a_million_cells(tmp_path):
    name = write(tmp_path, "million.json",
                 json_puzzle(board=["X" * 1000] * 1000))
    t0 = time.perf_counter()
    assert_one_error(run(tmp_path, "count", name), "million.json", "board")
    assert time.perf_counter() - t0 < 3.0


# --- the command line itself ------------------------------------------------------

def test_unknown_option(tmp_path):
    name = write(tmp_path, "ok.txt", "XX\nXX\n" + TILE)
    line = assert_one_error(run(tmp_path, "count", "--bogus", name), "--bogus")
    assert "count" in line


def test_unknown_command(tmp_path):
    name = write(tmp_path, "ok.txt", "XX\nXX\n" + TILE)
    assert_one_error(run(tmp_path, "frobnicate", name), "frobnicate")


def test_missing_argument(tmp_path):
    assert_one_error(run(tmp_path, "count"))


def test_bad_option_value(tmp_path):
    name = write(tmp_path, "ok.txt", "XX\nXX\n" + TILE)
    assert_one_error(run(tmp_path, "solve", name, "--limit", "many"), "--limit")


def test_errors_do_not_import_numba(tmp_path):
    """Parse errors answer before any search: the kernel (numba) is never imported."""
    names = [write(tmp_path, "e.txt", ""),
             write(tmp_path, "t.txt", "XXX\n\tX\n"),
             write(tmp_path, "j.json", json_puzzle(piece_count="two")),
             write(tmp_path, "h.txt", ("X" * 1000 + "\n") * 100 + TILE)]
    code = ("import sys\nfrom polytile.cli import main\n"
            f"codes = [main(['count', n]) for n in {names!r}] + [main(['count', 'missing'])]\n"
            "print(codes, 'numba' in sys.modules)\n")
    res = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                         text=True, timeout=60)
    assert "Traceback" not in res.stderr
    assert res.stdout.split() == ["[2,", "2,", "2,", "2,", "2]", "False"], res.stdout
    assert len(res.stderr.splitlines()) == 5


# --- not errors: unsolvable puzzles and partial ones --------------------------------

def reason_lines(stderr: str) -> list[str]:
    return [ln for ln in stderr.splitlines() if ln.strip()]


def test_tiles_smaller_than_board_count(tmp_path):
    name = write(tmp_path, "short.txt", "XXX\nXXX\n\nXX\n")       # 6 cells, one domino
    res = run(tmp_path, "count", name)
    assert "Traceback" not in res.stderr
    assert res.returncode == 0, res.stderr
    assert "solutions: 0" in res.stdout.splitlines()
    assert any("no solution" in ln for ln in reason_lines(res.stderr)), res.stderr


def test_tiles_smaller_than_board_solve_exits_1(tmp_path):
    name = write(tmp_path, "short.txt", "XXX\nXXX\n\nXX\n")
    res = run(tmp_path, "solve", name)
    assert "Traceback" not in res.stderr
    assert res.returncode == 1, res.stderr
    assert res.stdout.strip() == ""
    assert reason_lines(res.stderr), "no reason given"


def test_tile_larger_than_board_json(tmp_path):
    text = json.dumps({"board": [[0, 0], [0, 1], [1, 0], [1, 1]],          # 2x2
                       "pieces": [{"name": "I", "cells": [[0, i] for i in range(5)]}]})
    name = write(tmp_path, "tall.json", text)
    res = run(tmp_path, "count", name, "--json")
    assert "Traceback" not in res.stderr
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["solutions"] == 0
    lines = reason_lines(res.stderr)
    assert "warning: not all tiles are used" in lines           # 5 cells of tiles > 4
    assert any("no solution" in ln for ln in lines), res.stderr


def test_tiles_exceed_board_warns(tmp_path):
    # board: a 1x3 bar; tiles: two dominoes and a monomino (5 cells > 3)
    name = write(tmp_path, "partial.txt", "XXX\n\nXX XX X\n")
    res = run(tmp_path, "count", name)
    assert "Traceback" not in res.stderr
    assert res.returncode == 0, res.stderr
    assert "warning: not all tiles are used" in res.stderr.splitlines()
    # covers of the bar from {domino, domino, monomino}: D+M, M+D (two dominoes are copies)
    assert "solutions: 2" in res.stdout.splitlines()
