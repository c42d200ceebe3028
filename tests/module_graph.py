"""polytile's modules and the imports between them, read from the source with `ast` (no import
of polytile, no grimp: the tests check the linter's contract with an independent reading).

Every import counts: at the top, inside functions, and under `if TYPE_CHECKING:` (a cycle
that only the type checker sees is still two modules that each need the other to be read).
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
ROOT = "polytile"


def module_files() -> dict[str, Path]:
    """Dotted module name -> file, packages named by their __init__.py."""
    out = {}
    for path in sorted((SRC / ROOT).rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def packages() -> set[str]:
    """The dotted names of polytile's packages (directories with an __init__.py)."""
    return {name for name, path in module_files().items() if path.name == "__init__.py"}


def _base(module: str, is_package: bool, level: int, target: str | None) -> str:
    """The absolute name a relative import `from ...target import x` starts from."""
    parts = module.split(".")
    if not is_package:
        parts.pop()
    if level > 1:
        parts = parts[: len(parts) - (level - 1)]
    return ".".join(parts + ([target] if target else []))


def _imported(module: str, path: Path, known: set[str]) -> set[str]:
    """The polytile modules this module imports (a name imported from a package counts as
    the submodule when one of that name exists, else as the package)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    is_package = path.name == "__init__.py"
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = _base(module, is_package, node.level, node.module)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in known else base)
    return {_owner(name, known) for name in found if name == ROOT or name.startswith(ROOT + ".")} - {module}


def _owner(name: str, known: set[str]) -> str:
    """The longest known module a dotted name lies in."""
    while name not in known and "." in name:
        name = name.rsplit(".", 1)[0]
    return name


def import_graph() -> dict[str, set[str]]:
    """Module -> the polytile modules it imports."""
    files = module_files()
    known = set(files)
    return {name: _imported(name, path, known) for name, path in files.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    comp.append(member)
                    if member == node:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return sorted(out)
