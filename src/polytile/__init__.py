"""polytile: solve tiling puzzles fast and exactly.

    >>> import polytile
    >>> t = polytile.load("examples/pentomino-6x10.txt")
    >>> t.count(unique=True).unique
    2339
"""
from .errors import PuzzleError
from .solver import Report, Solution, Tiling, box, load

__all__ = ["load", "box", "Tiling", "Report", "Solution", "PuzzleError"]
__version__ = "0.1.0"
