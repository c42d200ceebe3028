"""Boxing puzzles: fill a W x H box with n-ominoes, each free (or one-sided) shape used
at most K times (and at least M). Also: distinct random solutions.

Random solutions are uniform when the solutions can be counted: count them N, draw
distinct indices 0..N-1 with the seed, and keep those solutions of the (deterministic)
enumeration. When there are too many to enumerate, a randomised search (options in a
random order per seed) gives distinct solutions that are random but not uniform."""

from __future__ import annotations

import numpy as np

from ..errors import PuzzleError
from ..core.polyforms import polyforms
from ..core.puzzle import Board, Piece, Puzzle
from ..core.results import Report, Solution
from .solver import Tiling

ENUMERATE_AT_MOST = 2_000_000  # solutions a uniform sample may enumerate
MAX_CELLS = 4096  # the largest box the command line takes


def box_puzzle(
    order: int, width: int, height: int, max_copies: int, min_copies: int = 0, one_sided: bool = False
) -> Puzzle:
    """The boxing puzzle as an ordinary Puzzle: every n-omino with its copy range on a W x H
    board."""
    if not 1 <= order <= 8:
        raise PuzzleError(f"order {order} is out of range 1..8", "--order")
    if max_copies < 1 or not 0 <= min_copies <= max_copies:
        raise PuzzleError(
            f"copies must satisfy 0 <= min ({min_copies}) <= max ({max_copies}), max >= 1", "--max-copies"
        )
    kind = "one-sided" if one_sided else "free"
    cells = np.array([(r, c) for r in range(height) for c in range(width)], dtype=np.int64)
    board = Board(cells, np.zeros(len(cells), dtype=np.int64))
    pieces = [
        Piece(f.name, f.cells, np.zeros(order, dtype=np.int64), max_copies, min_copies, not one_sided)
        for f in polyforms(order, 2, kind)
    ]
    return Puzzle(
        board,
        pieces,
        not one_sided,
        [""],
        f"{kind} {order}-ominoes, {min_copies}..{max_copies} each, in {width}x{height}",
    )


def box(order: int, size: tuple[int, int], max_copies: int, min_copies: int = 0, one_sided: bool = False) -> Tiling:
    """A boxing puzzle: a size = (width, height) box of `order`-ominoes, each free shape
    (one-sided if asked) used min_copies..max_copies times."""
    return Tiling(box_puzzle(order, size[0], size[1], max_copies, min_copies, one_sided))


def impossible(puzzle: Puzzle, order: int) -> str | None:
    """Why no solution can exist, by arithmetic alone."""
    area = puzzle.board.area
    if area % order:
        return f"the box has {area} cells, not a multiple of {order}"
    most = sum(p.size * p.count for p in puzzle.pieces)
    if most < area:
        return (
            f"{len(puzzle.pieces)} shapes x {puzzle.pieces[0].count} copies x {order} cells "
            f"= {most} cells, fewer than the box's {area}"
        )
    least = sum(p.size * p.least for p in puzzle.pieces)
    if least > area:
        return f"the shapes that must be used cover {least} cells, more than the box's {area}"
    return None


def sample(tiling: Tiling, how_many: int, seed: int, *, time_limit: float = 30.0) -> tuple[Report[Solution], bool]:
    """`how_many` distinct random solutions; True when drawn uniformly from all of them."""
    total = tiling.count(time_limit=time_limit)
    if total.complete and total.solutions <= ENUMERATE_AT_MOST:
        rng = np.random.default_rng(seed)
        picks = rng.choice(total.solutions, size=min(how_many, total.solutions), replace=False)
        r = tiling.solve(limit=None, select=picks)
        order = {int(i): k for k, i in enumerate(np.sort(picks))}
        r.found = [r.found[order[int(i)]] for i in picks]
        return r, True
    try:  # drawn from the frontier's layers (or the Pfaffian's counts), repeats drawn again
        from .sampling import sample as draw

        return draw(tiling, how_many, seed, distinct=True), True
    except PuzzleError:
        pass  # (neither counts this box: a randomised search, not uniform)
    found: list[Solution] = []
    keys: set[frozenset[frozenset[tuple[int, ...]]]] = set()
    nodes, tries = 0, 0
    rng = np.random.default_rng(seed)
    while len(found) < how_many and tries < 20 * how_many:
        tries += 1
        r = tiling.solve(limit=1, shuffle=int(rng.integers(1 << 62)), time_limit=time_limit)
        nodes += r.nodes
        for s in r.found:
            k = frozenset(frozenset(map(tuple, p.cells.tolist())) for p in s.placements)
            if k not in keys:
                keys.add(k)
                found.append(s)
    return Report(solutions=len(found), nodes=nodes, found=found, complete=False), False
