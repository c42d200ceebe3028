"""Import discipline: the commands that need no array maths answer without importing numpy,
numba or rich (numpy alone takes longer to import than a small Shikaku takes to solve).

Each case runs the command line in a fresh interpreter and lists the heavy modules loaded
by the time it returns."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import CORPUS

HEAVY = ("numpy", "numba", "rich", "matplotlib")
SHIKAKU = CORPUS / "shikaku"
PROBE = """
import json, sys
from polytile.cli import main
status = main(sys.argv[1:])
sys.stdout.flush()
print(json.dumps([status, sorted(m for m in {heavy} if m in sys.modules)]), file=sys.stderr)
"""


def heavy_imports(tmp_path: Path, *args: str) -> tuple[int, list[str]]:
    """(exit status, heavy modules imported) of `polytile ARGS` in a fresh interpreter."""
    res = subprocess.run(
        [sys.executable, "-c", PROBE.format(heavy=HEAVY), *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    status, loaded = json.loads(res.stderr.splitlines()[-1])
    return status, loaded


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["shikaku", "--help"],
        ["count", "--help"],
        ["shikaku", str(SHIKAKU / "tatham-10x10.txt")],
        ["shikaku", str(SHIKAKU / "tatham-30x30.txt"), "--json"],
        ["shikaku", str(SHIKAKU / "tatham-10x10.txt"), "--grade"],
        ["shikaku", str(SHIKAKU / "domino-10x10.txt"), "--count"],
        ["shikaku", "7x7:a8a4e3a3a2f2c6f5k6_2_2_2_4a"],
    ],
)
def test_answers_without_numpy(tmp_path, args):
    status, loaded = heavy_imports(tmp_path, *args)
    assert status == 0 and loaded == []


BAD_FILES = {
    "drawing.txt": "XXX\n\tX\n",  # a tab
    "drawing-no-tiles.txt": "XXXX\nXXXX\n",
    "puzzle.json": '{"board": [[0, 0], [0, 0]], "pieces": "pentominoes"}',  # a cell twice
    "syntax.json": '{"board": [',
    "big-box.json": '{"board": [[0, 0], [5000, 5000]], "pieces": ["F"]}',
    "shikaku.txt": "3 3\n1 2\n",
    "shikaku.json": '{"shikaku": {"width": 2}}',
}


@pytest.mark.parametrize(
    "command, args",
    [
        ("count", ["missing.txt"]),
        ("count", ["drawing.txt", "--bogus"]),
        ("count", ["drawing.txt", "--engine", "nope"]),
        ("solve", ["drawing.txt", "--limit", "many"]),
        ("nosuchcommand", []),
        *[("count", [name]) for name in BAD_FILES if not name.startswith("shikaku")],
        *[("shikaku", [name]) for name in BAD_FILES if name.startswith("shikaku")],
        ("shikaku", ["missing.txt"]),
        ("shikaku", ["9x9:zzz"]),
    ],
)
def test_bad_input_refused_without_numpy(tmp_path, command, args):
    for name, text in BAD_FILES.items():
        (tmp_path / name).write_text(text)
    status, loaded = heavy_imports(tmp_path, command, *args)
    assert status == 2 and loaded == []
