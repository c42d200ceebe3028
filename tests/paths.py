"""Where the tests' shared files are. The test modules live one folder down, by layer
(tests/core, tests/engine, tests/formats, tests/draw, tests/families, tests/cli, tests/web,
tests/project); their helpers (checker.py, ...) and fixture folders (corpus/, repro/, ...) stay
in tests/, so a module names them from here rather than from its own `__file__`."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent  # tests/: helpers and fixture folders
ROOT = TESTS.parent  # the repository
EXAMPLES = ROOT / "examples"
DOCS = ROOT / "docs"
SRC = ROOT / "src"
