"""Code says what a thing is or what was wrong, not which issue or defect it came from: no issue
numbers ("issue 28", "Issue 36's") and no defect ids ("D13: was exit 0", "D21 (issue 26)") in
the comments, docstrings and strings of the .py files of src/, tests/ and bench/, nor in test
names (`test_d21_...`). A number means nothing without the tracker; the work logs that tell
the story are docs/history/.

Names that look alike are not ids: dihedral groups (`the group D4`, `D6 symmetry`, `|D4|`),
piece names and copies (`T4`, `I4`, `L4`, `S4`, `O4`, `T1`), ruff's rule codes (`D1xx`), and
code (only comments and strings are read, so a variable `D4` is no id)."""

from __future__ import annotations

import io
import re
import tokenize
from fnmatch import fnmatch
from pathlib import Path

import pytest

from paths import ROOT

FOLDERS = ("src", "tests", "bench")

ALLOWED: set[str] = set()  # paths exempt from the check (none: keep it that way)

ISSUE = re.compile(r"\b[Ii]ssues?\s+#?\s*\d+")
# a D and one or two digits standing alone, unless it names a dihedral group: after
# "dihedral ", "group " or "|", or before "group", "symmetr..." or "|"
DEFECT = re.compile(r"(?<![|\w])(?<!dihedral )(?<!group )D\d{1,2}\b(?!\s*(?:group|symmetr|-symmetric|\|))")
TEST_NAME = re.compile(r"^test_(?:d\d{1,2}_)+|^test_\w*issue_?\d+")  # test_d21_..., test_..._issue26

TEXT_TOKENS = {tokenize.COMMENT, tokenize.STRING} | (
    {tokenize.FSTRING_MIDDLE} if hasattr(tokenize, "FSTRING_MIDDLE") else set()
)


def findings(source: str) -> list[tuple[int, str]]:
    """(line, what) of every issue number or defect id in a module's comments, strings and
    test names."""
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in TEXT_TOKENS:
            for pattern in (ISSUE, DEFECT):
                for m in pattern.finditer(tok.string):
                    out.append((tok.start[0] + tok.string.count("\n", 0, m.start()), m.group(0)))
        elif tok.type == tokenize.NAME and TEST_NAME.match(tok.string):
            out.append((tok.start[0], tok.string))
    return out


def modules() -> list[Path]:
    """The .py files of src/, tests/ and bench/, this one aside (its examples are what it
    looks for)."""
    here = Path(__file__).resolve()
    return sorted(p for folder in FOLDERS for p in (ROOT / folder).rglob("*.py") if p.resolve() != here)


def allowed(path: Path) -> bool:
    rel = path.relative_to(ROOT).as_posix()
    return any(fnmatch(rel, pattern) for pattern in ALLOWED)


def test_no_issue_numbers_or_defect_ids_in_the_code():
    assert len(modules()) > 300  # the folders were found
    found = [
        f"{path.relative_to(ROOT).as_posix()}:{line}: {what}"
        for path in modules()
        if not allowed(path)
        for line, what in findings(path.read_text(encoding="utf-8"))
    ]
    assert found == [], "say what it is or what was wrong, not its number:\n" + "\n".join(found)


@pytest.mark.parametrize(
    "text",
    [
        "# see issue 28 for why",
        '"""Issue 36\'s records."""',
        '"""The set-up\'s shortcuts (issues #19, 27)."""',
        '"""chained (engine/bitboard/chained.py, issue\n28) against"""',
        '"""D13: was exit 0 with the partial count."""',
        'x = 1  # D21 (fixed): "0144" was read as 144',
        '"""Reproducers D1-D6 of the survey."""',
        'CASES = [("D2 superscript", 1)]',
        "def test_d21_an_edited_row_is_refused(): ...",
        "def test_d14_d15_counts(): ...",
        "def test_counts_issue26(): ...",
    ],
)
def test_the_check_sees_issue_numbers_and_defect_ids(text):
    assert findings(text + "\n"), text


@pytest.mark.parametrize(
    "text",
    [
        '"""The board\'s group D4 has 8 motions; the dihedral D6 of the hex grid; |D4| = 8."""',
        "# D4 symmetry, D6-symmetric boards",
        '"""The tetrominoes I4, L4, O4, S4 and T4; copies T1, T2 of a piece."""',
        '"""ruff\'s pydocstyle D1xx rules."""',
        "D4 = 8  # code is no comment",
        'tmp = "d18.json"',
        "def d4(holes): ...",
        "def test_dihedral_group(): ...",
        "def test_the_square_has_d4_symmetry(): ...",
        '"""Items 0..n-1 are the board cells; the 2 issues the page had."""',
    ],
)
def test_the_check_spares_names_that_look_alike(text):
    assert findings(text + "\n") == [], text
