"""No module outside src/polytile/core/grids/ branches on which grid it is: every layer asks
the grid object (`grid.flat`, `grid.rect_plane`, `grid.corners(cell)` ...), so a new grid is
one module in core/grids (docs/architecture.md, "Adding a grid").

Read from the syntax tree of every module: a comparison (==, !=, in, not in, match) with a
grid's spelling ("square", "triangle", "hex", "cube" and every registered name), a comparison
of some grid's or lattice's `.name`, and a table keyed or listed by two or more spellings
(a dict or tuple of them, as `{"square": 4, "triangle": 6}` was).

The page's scripts (web/static/*.js, index.html) ask the grid's facts from the server
(web/grid_facts.py, static/grids.js) in the same way: outside comments, no string literal is a
grid's spelling (a comparison `grid === "hex"`, a preset's `grid: "triangle"`, a chooser's
`<option value="square">`) and no object is keyed by one (`{ triangle: 6, hex: 4 }`)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from paths import ROOT

from polytile.core import grids

SRC = ROOT / "src" / "polytile"
OWN = SRC / "core" / "grids"
SPELLINGS = {"square", "triangle", "hex", "cube", *grids.names()}
GRID_WORDS = ("grid", "lat", "lattice")
STATIC = SRC / "web" / "static"


def _spelling(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value in SPELLINGS


def _spellings(node: ast.AST) -> list[ast.AST]:
    """The spellings among a literal collection's elements."""
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [e for e in node.elts if _spelling(e)]
    if isinstance(node, ast.Dict):
        return [k for k in node.keys if k is not None and _spelling(k)]
    return []


def _grid_name(node: ast.AST) -> bool:
    """`grid.name`, `lat.name`, `board.grid.name` ..."""
    if not (isinstance(node, ast.Attribute) and node.attr == "name"):
        return False
    inner = node.value
    word = inner.id if isinstance(inner, ast.Name) else inner.attr if isinstance(inner, ast.Attribute) else ""
    return word.lower().endswith(GRID_WORDS)


def branches(path: Path, root: Path = ROOT) -> list[str]:
    """Where a module branches on a grid's name: 'file:line: what'."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        found = ""
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_spelling(s) or len(_spellings(s)) >= 1 for s in sides):
                found = "compares with a grid's spelling"
            elif any(_grid_name(s) for s in sides):
                found = "compares a grid's name"
        elif isinstance(node, ast.match_case) and any(_spelling(p) for p in ast.walk(node.pattern)):
            found = "matches a grid's spelling"
        elif isinstance(node, ast.MatchValue) and _spelling(node.value):
            found = "matches a grid's spelling"
        elif len(_spellings(node)) >= 2:
            found = "a table of grid spellings"
        if found:
            out.append(f"{path.relative_to(root)}:{getattr(node, 'lineno', '?')}: {found}")
    return out


def test_no_module_outside_the_grids_branches_on_a_grid_name():
    modules = [p for p in sorted(SRC.rglob("*.py")) if OWN not in p.parents]
    found = [b for p in modules for b in branches(p)]
    assert found == []


def test_the_check_sees_the_forms_it_forbids(tmp_path):
    """The check itself, on the forms main had (so that it cannot pass by seeing nothing)."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        'if grid == "square": pass\n'
        'if lat.name != "triangle": pass\n'
        'if board.grid in ("hex", "cube"): pass\n'
        'CELLS = {"square": 4, "triangle": 6}\n'
        "if self.grid.name == other: pass\n"
        'ok = data.get("grid", "square")\n'
    )
    lines = {int(b.split(":")[1]) for b in branches(sample, tmp_path)}
    assert lines == {1, 2, 3, 4, 5}


# ---- the page's scripts -----------------------------------------------------------------------

COMMENTS = re.compile(r"<!--.*?-->|/\*.*?\*/|(?<![:\\])//[^\n]*", re.S)


def _spelled() -> str:
    return "|".join(re.escape(s) for s in sorted(SPELLINGS, key=len, reverse=True))


def script_branches(path: Path, root: Path = ROOT) -> list[str]:
    """Where a page script names a grid: 'file:line: what' (comments blanked, lines kept)."""
    text = COMMENTS.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), path.read_text(encoding="utf-8"))
    forms = (
        (re.compile(rf"""(["'`])(?P<name>{_spelled()})\1"""), "a grid's spelling as a string"),
        (re.compile(rf"""[{{,]\s*(?P<name>{_spelled()})\s*:"""), "an object keyed by a grid's spelling"),
    )
    out = []
    for pattern, what in forms:
        for m in pattern.finditer(text):
            line = text.count("\n", 0, m.start("name")) + 1
            out.append(f"{path.relative_to(root)}:{line}: {what}")
    return sorted(out)


def test_no_page_script_names_a_grid():
    pages = [*sorted(STATIC.glob("*.js")), STATIC / "index.html"]
    found = [b for p in pages for b in script_branches(p)]
    assert found == []


def test_the_script_check_sees_the_forms_it_forbids(tmp_path):
    """The forms main's page had, and what it may say (comments, longer strings, a URL)."""
    sample = tmp_path / "sample.js"
    sample.write_text(
        'if (grid === "hex") f();\n'
        "const ORDER = { triangle: 6,\n  hex: 4 };\n"
        "const P = { grid: 'triangle' };\n"
        '<option value="square">square</option>\n'
        '// grid === "hex" in a comment\n'
        'const SVGNS = "http://x/hex"; /* "square" */ const s = "a square grid";\n'
        "const t = `cube`;\n"
    )
    lines = {int(b.split(":")[1]) for b in script_branches(sample, tmp_path)}
    assert lines == {1, 2, 3, 4, 5, 8}
