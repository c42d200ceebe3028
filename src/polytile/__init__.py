"""polytile: solve tiling puzzles fast and exactly.

    >>> import polytile
    >>> t = polytile.load("examples/pentomino-6x10.txt")
    >>> t.count(unique=True).unique
    2339

The names below are imported on first use, so that `import polytile` (and the command line,
which starts with it) does not pay for numpy until something needs it. In a notebook, a
`Solution` shows as a picture (`show_in_jupyter`).
"""

import sys

from .errors import PuzzleError

__all__ = ["load", "box", "disassemble", "Tiling", "Report", "Solution", "PuzzleError"]
__version__ = "0.1.0"
_LAZY = {
    "load": "tiling.solver",
    "Tiling": "tiling.solver",
    "box": "tiling.boxing",
    "disassemble": "tiling.disassembly_run",
    "Report": "core.results",
    "Solution": "core.results",
}


def __getattr__(name: str):
    if name in _LAZY:
        from importlib import import_module

        return getattr(import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


def _solution_svg(solution: object) -> str:
    from .draw.pictures import solution_svg  # matplotlib: only when a solution is shown

    return solution_svg(solution)  # type: ignore[arg-type]


def show_in_jupyter() -> bool:
    """Teach a running IPython to draw a `Solution` as SVG; False outside IPython.

    The formatter learns the type by name, so nothing is imported until a solution is shown,
    and the model (core/) never imports the drawing layer: the top of the package wires them.
    Called on `import polytile`; IPython is looked up, never imported."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is None:
        return False
    svg = shell.display_formatter.formatters["image/svg+xml"]
    svg.for_type_by_name("polytile.core.results", "Solution", _solution_svg)
    return True


show_in_jupyter()
