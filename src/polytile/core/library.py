"""Named pieces: the 12 pentominoes (Conway's letters) with their Katamino colours."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

PENTOMINO_ROWS = {
    "F": [".XX", "XX.", ".X."],
    "I": ["XXXXX"],
    "L": ["X...", "XXXX"],
    "N": ["XX..", ".XXX"],
    "P": ["XX", "XX", "X."],
    "T": ["XXX", ".X.", ".X."],
    "U": ["X.X", "XXX"],
    "V": ["X..", "X..", "XXX"],
    "W": ["X..", "XX.", ".XX"],
    "X": [".X.", "XXX", ".X."],
    "Y": [".X..", "XXXX"],
    "Z": ["XX.", ".X.", ".XX"],
}

# Katamino colours, numbered 1..12 in this order.
KATAMINO = [
    ("I", "lightbrown", "#c8a165"),
    ("L", "orange", "#f28c28"),
    ("Y", "darkbrown", "#6b3e1e"),
    ("N", "purple", "#8e44ad"),
    ("V", "darkblue", "#1f3a93"),
    ("P", "pink", "#f78fb3"),
    ("U", "yellow", "#f4d03f"),
    ("Z", "lightblue", "#5dade2"),
    ("F", "grey", "#95a5a6"),
    ("T", "darkgreen", "#1e8449"),
    ("W", "lightgreen", "#82e0aa"),
    ("X", "red", "#e74c3c"),
]
COLOUR_OF = {letter: hexcode for letter, _, hexcode in KATAMINO}


def cells_from_rows(rows: list[str]) -> np.ndarray:
    """Cells of a drawing given as rows of text ('.' or ' ' empty): how the library spells its
    pieces."""
    import numpy as np  # here: the names and rows serve the file readers, which check without numpy

    return np.array(
        [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch not in " ."], dtype=np.int64
    )


@lru_cache(maxsize=None)
def _pentomino_keys() -> dict[bytes, str]:
    from . import shape

    return {shape.canonical_key(cells_from_rows(rows)): name for name, rows in PENTOMINO_ROWS.items()}


def pentomino_name(cells: np.ndarray) -> str | None:
    """The letter of a (free) pentomino, or None."""
    if len(cells) != 5 or cells.shape[1] != 2:
        return None
    from . import shape

    return _pentomino_keys().get(shape.canonical_key(cells))


KATAMINO_ALIASES: dict[str, str] = {}
for _number, (_letter, _colour, _) in enumerate(KATAMINO, start=1):
    KATAMINO_ALIASES[_letter.lower()] = _letter
    KATAMINO_ALIASES[_colour] = _letter
    KATAMINO_ALIASES[str(_number)] = _letter


def pentomino(designator: str) -> str | None:
    """The letter of a pentomino named by letter, Katamino colour name or number (1..12)."""
    return KATAMINO_ALIASES.get(designator.strip().lower().replace(" ", "").replace("-", ""))


def pentomino_cells(letter: str) -> np.ndarray:
    """The cells of a pentomino by its letter, as the library draws it."""
    return cells_from_rows(PENTOMINO_ROWS[letter])
