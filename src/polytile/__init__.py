"""polytile: solve tiling puzzles fast and exactly.

    >>> import polytile
    >>> t = polytile.load("examples/pentomino-6x10.txt")
    >>> t.count(unique=True).unique
    2339

The names below are imported on first use, so that `import polytile` (and the command line,
which starts with it) does not pay for numpy until something needs it.
"""
from .errors import PuzzleError

__all__ = ["load", "box", "Tiling", "Report", "Solution", "PuzzleError"]
__version__ = "0.1.0"
_LAZY = {"load": "tiling.solver", "Tiling": "tiling.solver", "box": "tiling.boxing",
         "Report": "core.results", "Solution": "core.results"}


def __getattr__(name: str):
    if name in _LAZY:
        from importlib import import_module
        return getattr(import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
