"""Counting the solutions of a cover without listing them, by the method that suits it.

- `frontier` (frontier.py, kernel sweep.py): a transfer-matrix sweep along the items, any
  number of copies; exact at any size (residues and the CRT, exact.py);
- `pfaffian` (pfaffian.py): Kasteleyn's determinant, when the only piece is a domino;
- `memo`: the memoised counter (engine/memo.py), pieces used at most once;
- `enumerate`: the search kernels, which visit every solution (and can list them).
`burnside.py` turns any of the first three into counts up to symmetry. `choose` names the
method `auto` takes and says why a forced one cannot apply.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, NamedTuple

if TYPE_CHECKING:
    import numpy as np

    from ...core.cover import Cover

METHODS = ("auto", "frontier", "pfaffian", "memo", "enumerate")
MOST_TRACKED = 64  # combinations of the limited pieces' copies past which auto enumerates
AUTO_WINDOW = 32  # mask bits past which auto enumerates (the frontier's layers could pass any
# budget: 20x20 by P pentominoes spans 42 cells; the table's boards 13-25)


class Refused(ValueError):
    """A forced method that cannot count this puzzle: the message says why."""


class Counted(NamedTuple):
    """A count by a method that does not enumerate."""

    solutions: int
    unique: int | None
    method: str
    states: int  # the widest layer (frontier), memoised states (memo), 0 (pfaffian)


def warm() -> None:
    """The methods' kernels loaded (or compiled), before a count's clock starts."""
    import numpy as np

    from .banded import exercise as warm_pfaffian
    from .frontier import exercise as warm_frontier

    warm_frontier()
    warm_pfaffian()
    np.unique(np.zeros(2, np.int64), return_inverse=True)  # (its first call imports numpy.ma: 50 ms)


def _dominoes(cover: Cover, plane: np.ndarray | None) -> str | None:
    """Why the Pfaffian cannot count the cover (None: it can): one piece, a domino with
    copies for every cell, on a square plane grid (`plane`: the items' (x, y), or None)."""
    if plane is None:
        return "the Pfaffian counts dominoes on the square grid's plane boards"
    if len(cover.piece_count) != 1 or int(cover.piece_size[0]) != 2:
        return "the Pfaffian counts tilings by dominoes alone"
    if int(cover.piece_count[0]) * 2 < cover.n_items or int(cover.piece_min[0]) * 2 > cover.n_items:
        return "the Pfaffian needs a domino for every two cells"
    cells = {(int(x), int(y)) for x, y in plane.tolist()}
    pairs = sum(((x + 1, y) in cells) + ((x, y + 1) in cells) for x, y in cells)
    if len(cover.opt_piece) != pairs:  # colours (or anything else) keep the domino off some pairs
        return "the Pfaffian counts boards where the domino fits every two neighbouring cells"
    return None


def _memo(cover: Cover) -> str | None:
    """Why the memo cannot count the cover (None: it can)."""
    import numpy as np

    per_piece = np.bincount(cover.opt_piece, minlength=len(cover.piece_count))
    free = (cover.piece_count >= per_piece) & (cover.piece_min == 0)
    if (cover.piece_min > 1).any() or ((cover.piece_count != 1) & ~free).any():
        return "the memo counts pieces used at most once"
    return None


def _combinations(cover: Cover) -> int:
    """How many ways the copies of the pieces that can run out may be used (the frontier's
    states multiply by it)."""
    sizes = cover.piece_size.tolist()
    total = 1
    for count, size in zip(cover.piece_count.tolist(), sizes):
        if size and count < cover.n_items // size:
            total *= count + 1
    return total


def choose(cover: Cover, method: str, *, plane: np.ndarray | None = None, unique: bool = False) -> str:
    """The method that counts `cover` (Refused when a forced one cannot). `plane`: the items'
    coordinates when they are squares of a plane board (the Pfaffian's embedding)."""
    from . import frontier

    if method == "enumerate":
        return method
    reasons = {
        "pfaffian": _dominoes(cover, plane),
        "frontier": frontier.why_not(cover),
        "memo": _memo(cover),
    }
    if method != "auto":
        if reasons[method] is not None:
            raise Refused(f"--method {method}: {reasons[method]}")
        return method
    if reasons["pfaffian"] is None and not unique:
        return "pfaffian"
    if reasons["frontier"] is None and _combinations(cover) <= MOST_TRACKED and _window(cover) <= AUTO_WINDOW:
        return "frontier"
    return "enumerate"


def _window(cover: Cover) -> int:
    """The frontier's mask bits for this cover: its states can number 2**window."""
    from . import frontier

    return frontier.plan(cover).window


def count(
    cover: Cover,
    method: str,
    *,
    perms: np.ndarray | None = None,
    plane: np.ndarray | None = None,
    deadline: float | None = None,
    memory: int | None = None,
    progress: Callable[[float], None] | None = None,
    checkpoint: str | None = None,
) -> Counted:
    """Count by `method` (not "enumerate"); with `perms` (a group of item permutations that
    maps the solutions onto themselves), the classes too, by Burnside's lemma.
    limits.Stopped at the deadline or the memory budget. `checkpoint`: the frontier's file
    to save its sweep in and resume it from (resume.CheckpointError: another count's)."""
    states = 0

    def by_method(c: Cover, weights: np.ndarray | None = None, base: Cover | None = None) -> int:
        nonlocal states
        if method == "pfaffian" and weights is None:
            from .pfaffian import count_dominoes

            assert plane is not None
            return count_dominoes([tuple(p) for p in plane.tolist()], deadline=deadline, memory=memory)
        if method == "memo" and weights is None:
            from ..limits import Limits
            from .memo import count_options
            from .propagation import options_of

            found = count_options(options_of(c), solution=False, limits=Limits(deadline, memory))
            states = max(states, found.nodes)
            return found.solutions
        from . import frontier

        saved = checkpoint if weights is None else None
        got = frontier.count(
            c, weights=weights, base=base, deadline=deadline, memory=memory, progress=progress, checkpoint=saved
        )
        states = max(states, got.states)
        return got.solutions

    total = by_method(cover)
    unique = None
    if perms is not None:
        from .burnside import classes

        unique = classes(cover, perms, total, by_method)
        if unique is None:
            raise Refused(
                f"--unique by the {method} method: the board's motions do not map the placements onto placements"
            )
    return Counted(total, unique, method, states)
