"""The code's shape stays as the standards say: no function over MAX_LINES lines in src/,
except the numba kernels (decorated with njit), whose loops read best whole."""

from __future__ import annotations

import ast
from pathlib import Path

import paths

SRC = paths.SRC / "polytile"
MAX_LINES = 60


def _is_kernel(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any("njit" in ast.unparse(d) for d in fn.decorator_list)


def long_functions(root: Path = SRC, limit: int = MAX_LINES) -> list[str]:
    """'path:name (n lines)' of every function (methods and nested ones too) over `limit`
    lines, njit kernels left out."""
    out = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not _is_kernel(node):
                lines = node.end_lineno - node.lineno + 1
                if lines > limit:
                    out.append(f"{path.relative_to(root).as_posix()}:{node.name} ({lines} lines)")
    return out


def test_no_function_over_60_lines_outside_the_kernels():
    assert long_functions() == []


def test_the_check_sees_long_functions_and_spares_kernels(tmp_path):
    body = "".join(f"    x{i} = {i}\n" for i in range(MAX_LINES))
    (tmp_path / "m.py").write_text(
        f"def long():\n{body}\n\ndef short():\n    return 1\n\n\n@njit(cache=True)\ndef kernel():\n{body}"
    )
    assert long_functions(tmp_path) == [f"m.py:long ({MAX_LINES + 1} lines)"]
