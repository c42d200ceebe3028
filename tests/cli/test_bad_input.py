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

TILE = "\n\nXX\n"  # appended to a board drawing: one domino, separated by a blank row


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
    data = {"board": [[0, 0], [0, 1], [1, 0], [1, 1]], "pieces": [{"name": "D", "cells": [[0, 0], [0, 1]], "count": 2}]}
    for k, v in overrides.items():
        if k.startswith("piece_"):
            data["pieces"][0][k[len("piece_") :]] = v
        else:
            data[k] = v
    return json.dumps(data)


# --- text-level errors -------------------------------------------------------------

# name: (the file's content, or None for no file; the one line on stderr after "polytile: ")
BAD_FILES = {
    "empty.txt": ("", "empty.txt: empty puzzle file"),
    "blanks.txt": ("   \n\n      \n  \n", "blanks.txt: puzzle file has only blanks"),
    "blanks.json": ("\n   \n", "blanks.json: puzzle file has only blanks"),
    "board.txt": ("XXXX\nXXXX\nXXXX\n", "board.txt: no tiles: the drawing has a board but no other object"),
    # line 3, column 3: the first bad character
    "latin1.txt": (b"XXX\nXXX\n X\xe9X\n\nXX\n", "latin1.txt:3:3: not a text file (invalid UTF-8 byte)"),
    "nul.txt": (b"XXX\nX\x00X\n\nX\n", "nul.txt:2:2: not a text file (control character 0x00)"),
    "tab.txt": ("XXX\nXXX\nX \tX\n\nXX\n", "tab.txt:3:3: tab character; draw with spaces"),
    "big.txt": (("X" * 999 + "\n") * 5000, "big.txt: file too large (limit 4000000 bytes)"),
    "nowhere.txt": (None, "nowhere.txt: no such file"),
    # JSON: the line and column of the first thing that cannot be read
    "bad.json": (
        '{\n  "board": [[0, 0],\n             [0, 1]\n  "pieces": []\n}\n',
        "bad.json:4:3: malformed JSON: Expecting ',' delimiter",
    ),
    "cut.json": (
        '{"board": [[0, 0], [0, 1]],\n "pieces": [{"cells": [[0',
        "cut.json:2:26: malformed JSON: Expecting ',' delimiter",
    ),
    "digits.json": (
        '{"board": [[0, 0],\n  [0, ' + "1" * 5000 + ']], "pieces": [{"cells": [[0, 0]]}]}',
        "digits.json:2:7: malformed JSON: a number has more than 4300 digits",
    ),
    "deep.json": ("[" * 100_000 + "]" * 100_000, "deep.json: malformed JSON: nested too deeply"),
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_bad_file(tmp_path, name):
    content, message = BAD_FILES[name]
    if content is not None:
        write(tmp_path, name, content)
    assert assert_one_error(run(tmp_path, "count", name)) == f"polytile: {message}"


def test_directory(tmp_path):
    (tmp_path / "puzzles").mkdir()
    assert assert_one_error(run(tmp_path, "solve", "puzzles")) == "polytile: puzzles: is a directory, not a puzzle file"


def test_binary_garbage(tmp_path):
    rng = random.Random(20261123)
    data = b"XX\x00\xff" + bytes(rng.randrange(256) for _ in range(4000)) + b"\xc3\x28\xfe"
    name = write(tmp_path, "garbage.bin", data)
    line = assert_one_error(run(tmp_path, "count", name), "garbage.bin:1:")
    assert "text" in line


def test_million_cell_board_answers_quickly(tmp_path):
    name = write(tmp_path, "huge.txt", ("X" * 1000 + "\n") * 1000 + TILE)
    t0 = time.perf_counter()
    res = run(tmp_path, "count", name)
    elapsed = time.perf_counter() - t0
    assert assert_one_error(res) == "polytile: huge.txt:21:1: drawing too large (more than 20000 cells)"
    assert elapsed < 30, f"took {elapsed:.2f} s"  # a deadline (refused before the board is built), not a speed test


# --- JSON -------------------------------------------------------------------------

# case: (the file, the one line after "polytile: CASE.json: ")
BAD_JSON = {
    "not-an-object": ("[[0, 0], [0, 1]]", 'top level: expected an object with "board" and "pieces"'),
    "board-not-list": (json_puzzle(board=5), "board: expected a non-empty list of cells"),
    "cell-is-string": (json_puzzle(board=[[0, 0], "01"]), "board[1]: a cell is a list of 2, 3 or 4 integers"),
    "coordinate-is-string": (json_puzzle(board=[[0, 0], [0, "1"]]), 'board[1][1]: expected an integer, got "1"'),
    "count-two": (json_puzzle(piece_count="two"), 'pieces[0].count: expected an integer, got "two"'),
    "count-zero": (json_puzzle(piece_count=0), "pieces[0].count: 0 is out of range 1..10000"),
    "min-above-count": (json_puzzle(piece_count=2, piece_min=3), "pieces[0].min: 3 is out of range 0..2"),
    "reflect-yes": (json_puzzle(piece_reflect="yes"), "pieces[0].reflect: expected true or false"),
    "unknown-key": (
        json_puzzle(boards=[[0, 0]]),
        "boards: unknown key (expected one of allow_reflection, board, colors, colours, comment, grid, name, pieces)",
    ),
    "cell-4d": (
        json_puzzle(board=[[0, 0, 0, 0], [0, 0, 0, 1]]),
        "board[0]: a square or cube cell is a list of 2 or 3 integers",
    ),
    # the reduction lays the board out as a dense grid: a huge bounding box must be refused
    "board-far-apart": (
        json_puzzle(board=[[0, 0], [1_000_000, 1_000_000]]),
        "board spans 1000001x1000001 cells (bounding box limit 1000000 cells)",
    ),
    "board-is-string": (json_puzzle(board="XX"), "board: expected a non-empty list of cells"),
    "board-drawing-empty": (json_puzzle(board=["", " . "]), "board: the drawing has no cells"),
    "coordinate-is-float": (json_puzzle(board=[[0, 0], [0, 1.5]]), "board[1][1]: expected an integer, got 1.5"),
    "coordinate-is-bool": (json_puzzle(board=[[0, 0], [0, True]]), "board[1][1]: expected an integer, got true"),
    "coordinate-is-null": (json_puzzle(board=[[0, 0], [0, None]]), "board[1][1]: expected an integer, got null"),
    "coordinate-out-of-range": (
        json_puzzle(board=[[0, 0], [0, 10**7]]),
        "board[1][1]: 10000000 is out of range -1000000..1000000",
    ),
    "cell-1d": (json_puzzle(board=[[0], [1]]), "board[0]: a cell is a list of 2, 3 or 4 integers"),
    "piece-cell-4d": (
        json_puzzle(piece_cells=[[0, 0, 0, 0]]),
        "pieces[0].cells[0]: a square or cube cell is a list of 2 or 3 integers",
    ),
    "mixed-dims": (json_puzzle(board=[[0, 0], [0, 0, 1]]), "board[1]: mixes 2D and 3D cells"),
    "duplicate-cell": (json_puzzle(board=[[0, 0], [0, 0]]), "board: a cell is listed twice"),
    "missing-board": ('{"pieces": [{"cells": [[0, 0]]}]}', 'top level: missing "board"'),
    "missing-pieces": ('{"board": [[0, 0]]}', 'top level: missing "pieces"'),
    "pieces-empty": (json_puzzle(pieces=[]), 'pieces: expected a non-empty list of pieces (or "pentominoes")'),
    "pieces-object": (
        json_puzzle(pieces={"cells": [[0, 0]]}),
        'pieces: expected a non-empty list of pieces (or "pentominoes")',
    ),
    "piece-not-object": (
        json_puzzle(pieces=["D"]),
        "pieces[0]: no \"cells\", and 'D' is no library piece (pentomino letter, Katamino colour or number)",
    ),
    "piece-no-cells": (
        json_puzzle(pieces=[{"name": "D"}]),
        "pieces[0]: no \"cells\", and 'D' is no library piece (pentomino letter, Katamino colour or number)",
    ),
    "piece-cells-empty": (json_puzzle(piece_cells=[]), "pieces[0].cells: expected a non-empty list of cells"),
    "count-negative": (json_puzzle(piece_count=-1), "pieces[0].count: -1 is out of range 1..10000"),
    "count-float": (json_puzzle(piece_count=2.0), "pieces[0].count: expected an integer, got 2.0"),
    "count-true": (json_puzzle(piece_count=True), "pieces[0].count: expected an integer, got true"),
    "count-huge": (
        json_puzzle(piece_count=10**30),
        "pieces[0].count: 1000000000000000000000000000000 is out of range 1..10000",
    ),
    "min-negative": (json_puzzle(piece_min=-1), "pieces[0].min: -1 is out of range 0..2"),
    "min-string": (json_puzzle(piece_min="1"), 'pieces[0].min: expected an integer, got "1"'),
    "reflect-null-string": (json_puzzle(piece_reflect="null"), "pieces[0].reflect: expected true or false"),
    "allow-reflection-1": (json_puzzle(allow_reflection=1), "allow_reflection: expected true or false"),
    "unknown-piece-key": (
        json_puzzle(piece_colour="red"),
        "pieces[0].colour: unknown key (expected one of cells, colors, colours, count, min, name, reflect)",
    ),
    "colours-wrong-length": (
        json_puzzle(colours=["a"]),
        "board.colours: expected a list of 4 non-empty strings, one per cell",
    ),
    "colours-not-strings": (
        json_puzzle(colours=[1, 2, 3, 4]),
        "board.colours: expected a list of 4 non-empty strings, one per cell",
    ),
    "piece-colours-empty-string": (
        json_puzzle(piece_colours=["", "a"]),
        "pieces[0].colours: expected a list of 2 non-empty strings, one per cell",
    ),
    "piece-3d-board-2d": (
        json_puzzle(piece_cells=[[0, 0, 0], [0, 0, 1]]),
        "pieces[0].cells: a 3D piece does not fit a 2D board",
    ),
    "name-not-string": (json_puzzle(piece_name=7), "pieces[0].name: expected a non-empty string"),
    "name-empty": (json_puzzle(piece_name=""), "pieces[0].name: expected a non-empty string"),
    "board-far-apart-3d": (
        json_puzzle(board=[[-(10**6), 0, 0], [10**6, 5, 5]]),
        "board spans 2000001x6x6 cells (bounding box limit 1000000 cells)",
    ),
    "board-too-many-coordinates": (
        json_puzzle(board=[[0, i] for i in range(20_001)]),
        "board: too many cells (20001; limit 20000)",
    ),
    "too-many-pieces": (
        json.dumps({"board": [[0, 0]], "pieces": [{"name": str(i), "cells": [[0, 0]]} for i in range(5_001)]}),
        "pieces: too many pieces (5001; limit 5000)",
    ),
    "too-many-copies-in-all": (
        json.dumps(
            {"board": [[0, 0]], "pieces": [{"name": str(i), "cells": [[0, 0]], "count": 10_000} for i in range(11)]}
        ),
        "pieces[10].count: too many copies in all (over 100000)",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_JSON))
def test_json_wrong_types(tmp_path, case):
    text, message = BAD_JSON[case]
    name = write(tmp_path, f"{case}.json", text)
    assert assert_one_error(run(tmp_path, "count", name)) == f"polytile: {case}.json: {message}"


def test_json_board_of_a_million_cells(tmp_path):
    name = write(tmp_path, "million.json", json_puzzle(board=["X" * 1000] * 1000))
    t0 = time.perf_counter()
    assert (
        assert_one_error(run(tmp_path, "count", name))
        == "polytile: million.json: board: too many cells (1000000; limit 20000)"
    )
    assert time.perf_counter() - t0 < 30  # a deadline (refused before the board is built), not a speed test


# --- the command line itself ------------------------------------------------------

from polytile.cli.main import COMMANDS  # noqa: E402

# the arguments (ok.txt: a good puzzle): the one line on stderr
BAD_COMMAND_LINES = {
    "unknown-option": (["count", "--bogus", "ok.txt"], "polytile count: unrecognized arguments: --bogus"),
    "unknown-command": (
        ["frobnicate", "ok.txt"],  # every command named, in --help's order
        f"polytile: no such command 'frobnicate' (commands: {', '.join(COMMANDS)})",
    ),
    "missing-argument": (["count"], "polytile count: the following arguments are required: PUZZLE"),
    "bad-option-value": (
        ["solve", "ok.txt", "--limit", "many"],
        "polytile solve: argument --limit: 'many' is not a valid int",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_COMMAND_LINES))
def test_bad_command_line(tmp_path, case):
    args, message = BAD_COMMAND_LINES[case]
    write(tmp_path, "ok.txt", "XX\nXX\n" + TILE)
    assert assert_one_error(run(tmp_path, *args)) == message


def test_errors_do_not_import_numba(tmp_path):
    """Parse errors answer before any search: the kernel (numba) is never imported."""
    names = [
        write(tmp_path, "e.txt", ""),
        write(tmp_path, "t.txt", "XXX\n\tX\n"),
        write(tmp_path, "j.json", json_puzzle(piece_count="two")),
        write(tmp_path, "h.txt", ("X" * 1000 + "\n") * 100 + TILE),
    ]
    code = (
        "import sys\nfrom polytile.cli import main\n"
        f"codes = [main(['count', n]) for n in {names!r}] + [main(['count', 'missing'])]\n"
        "print(codes, 'numba' in sys.modules)\n"
    )
    res = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert "Traceback" not in res.stderr
    assert res.stdout.split() == ["[2,", "2,", "2,", "2,", "2]", "False"], res.stdout
    assert len(res.stderr.splitlines()) == 5


# --- not errors: unsolvable puzzles and partial ones --------------------------------


def reason_lines(stderr: str) -> list[str]:
    return [ln for ln in stderr.splitlines() if ln.strip()]


def test_tiles_smaller_than_board_count(tmp_path):
    name = write(tmp_path, "short.txt", "XXX\nXXX\n\nXX\n")  # 6 cells, one domino
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
    text = json.dumps(
        {
            "board": [[0, 0], [0, 1], [1, 0], [1, 1]],  # 2x2
            "pieces": [{"name": "I", "cells": [[0, i] for i in range(5)]}],
        }
    )
    name = write(tmp_path, "tall.json", text)
    res = run(tmp_path, "count", name, "--json")
    assert "Traceback" not in res.stderr
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["solutions"] == 0
    lines = reason_lines(res.stderr)
    assert "warning: not all tiles are used" in lines  # 5 cells of tiles > 4
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
