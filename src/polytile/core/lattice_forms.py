"""All n-iamonds (triangle grid) and n-hexes (hex grid): free, one-sided and fixed.

The kinds, order and names follow `polyforms` (free forms sorted by canonical form and
named f"{n}-{i}", a chiral one-sided form followed by its mirror image with a prime, fixed
forms f"{one_sided}#{k}"), with the field's names where it has them (the 12 hexiamonds,
the 7 tetrahexes). Cells are in the coordinates of `lattice`, normalised and sorted.

Method: free forms grow one cell at a time from the free (n-1)-forms (every neighbour of
every cell, reduced to its canonical form: the least sorted normalised image under the 12
motions). Plain Python on tuples: the sizes asked for (hundreds of forms) take
milliseconds to a few seconds.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

import numpy as np

from .grids import Form, Grid
from .grids.moves import canonical, image
from .lattice_names import free_names
from .polyforms import KINDS, Polyform


def _grow(grid: Grid, form: Form) -> set[Form]:
    """Every free form of one more cell containing `form`."""
    have = set(form)
    out = set()
    for cell in form:
        for step in grid.steps:
            new = tuple(x + s for x, s in zip(cell, step))
            if new not in have and grid.holds(new):
                out.add(canonical(grid, form + (new,)))
    return out


@lru_cache(maxsize=None)
def _free(grid: Grid, n: int) -> tuple[Form, ...]:
    if n == 1:
        return (canonical(grid, (grid.origin_cell,)),)
    found: set[Form] = set()
    for form in _free(grid, n - 1):
        found |= _grow(grid, form)
    return tuple(sorted(found))


def _mirror(grid: Grid, form: Form) -> Form:
    return tuple(image(grid.motions[grid.n_rotations], list(form)))


@lru_cache(maxsize=None)
def _one_sided(grid: Grid, n: int) -> tuple[tuple[Form, int, bool], ...]:
    """(form, free index, is the mirror image) in the documented order."""
    out = []
    for i, form in enumerate(_free(grid, n)):
        plain = canonical(grid, form, reflect=False)
        mirror = canonical(grid, _mirror(grid, form), reflect=False)
        out.append((plain, i, False))
        if mirror != plain:
            out.append((mirror, i, True))
    return tuple(out)


@lru_cache(maxsize=None)
def _fixed(grid: Grid, n: int) -> tuple[tuple[Form, int, int], ...]:
    """(form, one-sided index, orientation number 1..)."""
    out: list[tuple[Form, int, int]] = []
    for i, (form, _, _) in enumerate(_one_sided(grid, n)):
        images = {tuple(sorted(grid.shift_to_origin(image(m, list(form))))) for m in grid.chosen_motions(False)}
        images.discard(form)
        out.extend((f, i, k) for k, f in enumerate([form, *sorted(images)], start=1))
    return tuple(out)


def check(n: int, grid: Grid, kind: str) -> None:
    """Refuse a bad grid, size or kind in one line before any enumeration starts."""
    if not grid.max_form_cells:
        raise ValueError(f"the {grid.title} has no enumeration of forms here")
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be a positive integer, not {n!r}")
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")


def count(n: int, grid: Grid, kind: str = "free") -> int:
    """How many n-iamonds or n-hexes of a kind there are, without building their Polyforms."""
    check(n, grid, kind)
    table = {"free": _free, "one-sided": _one_sided, "fixed": _fixed}[kind]
    return len(table(grid, n))


def polyforms(n: int, grid: Grid, kind: str = "free") -> list[Polyform]:
    """Every n-iamond or n-hex of the kind, in the documented order."""
    check(n, grid, kind)
    free = _free(grid, n)
    names = free_names(grid, free)
    if kind != "free":
        sided = _one_sided(grid, n)
        sided_names = [names[i] + ("'" if primed else "") for _, i, primed in sided]
    pairs: Iterable[tuple[str, Form]]
    if kind == "free":
        pairs = zip(names, free)
    elif kind == "one-sided":
        pairs = zip(sided_names, (f for f, _, _ in sided))
    else:
        pairs = ((f"{sided_names[i]}#{k}", f) for f, i, k in _fixed(grid, n))
    return [Polyform(name, np.array(f, dtype=np.int64)) for name, f in pairs]
