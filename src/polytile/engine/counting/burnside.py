"""Counts up to symmetry by Burnside's lemma: the classes of solutions under a group H
number the average, over the motions g of H, of the solutions g maps onto themselves.

A solution fixed by g is a union of whole orbits of placements under <g>: the placements
o, g(o), g^2(o), ... must be pairwise disjoint or equal, and then their union is a union of
orbits of items, each covered once. So the fixed solutions are the exact covers of a
smaller cover: its items the orbits of items, its options the orbits of placements whose
images do not overlap, each using as many copies of its piece as the orbit has placements.
That cover is counted like any other (the frontier, items ordered by their lowest member:
a board folded onto itself).

Knows no geometry: g is a permutation of the items (`perms`), and a placement's image is
the option of the same piece on the image items.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    import numpy as np

    from ...core.cover import Cover


def image_options(cover: Cover, perm: np.ndarray) -> np.ndarray:
    """(n_opt,) the option that is each option's image under the item permutation `perm`,
    -1 where the image is no option (another piece's, or off the options)."""
    import numpy as np

    ptr, items = cover.opt_ptr.astype(np.int64), cover.opt_items.astype(np.int64)
    n_opt = len(ptr) - 1
    lengths = ptr[1:] - ptr[:-1]
    width = int(lengths.max()) if n_opt else 0
    rows = np.full((n_opt, width + 1), -1, dtype=np.int64)
    owner = np.repeat(np.arange(n_opt), lengths)
    col = np.arange(len(items)) - ptr[:-1][owner]
    rows[owner, col] = items
    rows[:, width] = cover.opt_piece
    mapped = np.full_like(rows, -1)
    mapped[owner, col] = perm[items]
    mapped[:, :width] = np.sort(np.where(mapped[:, :width] < 0, np.iinfo(np.int64).max, mapped[:, :width]), axis=1)
    mapped[:, :width][mapped[:, :width] == np.iinfo(np.int64).max] = -1
    mapped[:, width] = cover.opt_piece
    both = np.concatenate([rows, mapped])
    _, inverse = np.unique(both, axis=0, return_inverse=True)
    inverse = inverse.ravel()
    where = np.full(int(inverse.max()) + 1, -1, dtype=np.int64)
    where[inverse[:n_opt]] = np.arange(n_opt)
    image: np.ndarray = where[inverse[n_opt:]]
    return image


def fixed_cover(cover: Cover, perm: np.ndarray) -> tuple[Cover, np.ndarray, np.ndarray] | None:
    """The cover whose exact covers are the solutions `perm` fixes, the copies each of its
    options uses, and the copies each piece could ever place (its original bound); None when
    some placement's image is no placement (then the group does not act on the options)."""
    import numpy as np

    from ...core.cover import Cover

    n = cover.n_items
    image = image_options(cover, perm)
    if (image < 0).any():
        return None
    # orbits of items, numbered by their lowest member
    item_orbit = np.arange(n)
    power = perm.copy()
    order = 1
    while not (power == np.arange(n)).all():
        item_orbit = np.minimum(item_orbit, power)
        power = perm[power]
        order += 1
    lowest = np.unique(item_orbit)
    renumber = np.full(n, -1, dtype=np.int64)
    renumber[lowest] = np.arange(len(lowest))
    orbit_of = renumber[item_orbit]
    ptr, items = cover.opt_ptr.astype(np.int64), cover.opt_items.astype(np.int64)
    n_opt = len(ptr) - 1
    opts_ptr, opts_items, opts_piece, weights = [0], [], [], []
    item_list = [items[ptr[o] : ptr[o + 1]] for o in range(n_opt)]
    for o in range(n_opt):
        members = [o]
        x = int(image[o])
        while x != o:
            members.append(x)
            x = int(image[x])
        if min(members) != o:
            continue
        cells = np.concatenate([item_list[m] for m in members])
        if len(np.unique(cells)) != len(cells):
            continue  # two images overlap: no fixed solution holds o
        orbits = np.unique(orbit_of[cells])
        opts_items.append(orbits)
        opts_ptr.append(opts_ptr[-1] + len(orbits))
        opts_piece.append(int(cover.opt_piece[o]))
        weights.append(len(members))
    if opts_items:
        first = np.array([int(a[0]) for a in opts_items])
        sort = np.argsort(first, kind="stable")
    else:
        sort = np.zeros(0, dtype=np.int64)
    lens = np.array([len(opts_items[k]) for k in sort], dtype=np.int64)
    new_ptr = np.concatenate([[0], np.cumsum(lens)]).astype(np.int64)
    new_items = np.concatenate([opts_items[k] for k in sort]).astype(np.int32) if len(sort) else np.zeros(0, np.int32)
    fixed = Cover(
        n_items=len(lowest),
        opt_ptr=new_ptr,
        opt_items=new_items,
        opt_piece=np.array([opts_piece[k] for k in sort], dtype=np.int32),
        piece_count=cover.piece_count,
        piece_min=cover.piece_min,
        neighbours=np.full((len(lowest), 0), -1, dtype=np.int32),
    )
    most = n // np.maximum(1, cover.piece_size)
    return fixed, np.array([weights[k] for k in sort], dtype=np.int64), most


def classes(
    cover: Cover,
    perms: np.ndarray,
    total: int,
    count: Callable[[Cover, np.ndarray, np.ndarray], int],
) -> int | None:
    """The classes of the `total` solutions under the group `perms` (its rows, identity
    included), by Burnside; `count(cover, weights, most)` counts a fixed cover. None when
    the group does not act on the placements."""
    import numpy as np

    fixed_sum = 0
    identity = np.arange(cover.n_items)
    for perm in perms:
        if (perm == identity).all():
            fixed_sum += total
            continue
        found = fixed_cover(cover, perm)
        if found is None:
            return None
        fixed_sum += count(*found)
    q, r = divmod(fixed_sum, len(perms))
    if r:
        raise AssertionError(f"Burnside's sum {fixed_sum} is not a multiple of the group's order {len(perms)}")
    return q
