"""Every public module, class, function and method of the documented packages says why it
exists (a docstring), counted package by package with `ast`. ruff's pydocstyle D1xx rules say the
same in `make lint`; `__init__` and other dunder methods are covered by their class's docstring."""

import ast

from module_graph import module_files

PACKAGES = (
    "core",
    "engine",
    "formats",
    "draw",
    "tiling",
    "shikaku",
    "analysis",
    "web",
    "cli",
    "atomic",
    "budget",
    "errors",
    "__main__",
)

# Modules allowed some missing docstrings for a while, with their count (none now; the test
# fails when a count differs either way).
KNOWN: dict[str, int] = {}


def missing(tree: ast.Module) -> list[str]:
    """The public names without a docstring (the module itself as "<module>")."""
    out = [] if ast.get_docstring(tree) else ["<module>"]

    def visit(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            if node.name.startswith("_"):
                continue
            if ast.get_docstring(node) is None:
                out.append(prefix + node.name)
            if isinstance(node, ast.ClassDef):
                visit(node.body, f"{prefix}{node.name}.")

    visit(tree.body, "")
    return out


def missing_by_module() -> dict[str, list[str]]:
    """Module -> its undocumented public names, for the documented packages."""
    out = {}
    for name, path in module_files().items():
        if name.split(".")[1:2] and name.split(".")[1] in PACKAGES:
            found = missing(ast.parse(path.read_text(encoding="utf-8")))
            if found:
                out[name] = found
    return out


def test_every_public_name_has_a_docstring():
    found = missing_by_module()
    counts = {module: len(names) for module, names in found.items()}
    per_package = {p: sum(n for m, n in counts.items() if m.split(".")[1] == p) for p in PACKAGES}
    unexpected = {m: names for m, names in found.items() if counts[m] != KNOWN.get(m, 0)}
    gone = {m: n for m, n in KNOWN.items() if counts.get(m, 0) != n}
    assert not unexpected and not gone, (per_package, unexpected, gone)


def test_the_count_sees_what_is_missing():
    tree = ast.parse(
        '"""Mod."""\ndef f():\n    pass\nclass C:\n    """C."""\n    def g(self):\n'
        "        pass\n    def _h(self):\n        pass\ndef _k():\n    pass\n"
    )
    assert missing(tree) == ["f", "C.g"]
    assert missing(ast.parse("x = 1\n")) == ["<module>"]
