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
    -1 where the image is no option (another piece's, or off the options). Options are
    looked up by a sum of random words over their items and piece (Zobrist hashing: no
    sort of the rows), every match then checked item by item."""
    import numpy as np

    ptr = cover.opt_ptr.astype(np.int64)
    items = cover.opt_items.astype(np.int64)
    n_opt = len(ptr) - 1
    if n_opt == 0:
        return np.zeros(0, dtype=np.int64)
    rng = np.random.default_rng(0x5EED)
    words = rng.integers(0, 2**63, size=cover.n_items, dtype=np.uint64)
    piece_words = rng.integers(0, 2**63, size=len(cover.piece_count), dtype=np.uint64)
    starts = ptr[:-1]
    keys = np.add.reduceat(words[items], starts) + piece_words[cover.opt_piece]
    moved = np.add.reduceat(words[perm[items]], starts) + piece_words[cover.opt_piece]
    order = np.argsort(keys, kind="stable")
    at = np.minimum(np.searchsorted(keys[order], moved), n_opt - 1)
    image = np.where(keys[order][at] == moved, order[at], -1)
    found = image >= 0
    padded = _padded_items(cover, int((ptr[1:] - starts).max()))
    mapped = np.where(padded >= 0, perm[np.maximum(padded, 0)], np.iinfo(np.int64).max)
    mapped.sort(axis=1)
    mapped[mapped == np.iinfo(np.int64).max] = -1
    same = (padded[np.maximum(image, 0)] == mapped).all(axis=1) & (
        cover.opt_piece[np.maximum(image, 0)] == cover.opt_piece
    )
    if (found & ~same).any():  # a collision of the sums (never seen): look up rows exactly
        return _image_options_exactly(cover, perm)
    result: np.ndarray = image
    return result


def _image_options_exactly(cover: Cover, perm: np.ndarray) -> np.ndarray:
    """image_options by sorting the options' rows (no hashing)."""
    import numpy as np

    n_opt = len(cover.opt_ptr) - 1
    width = int((cover.opt_ptr[1:] - cover.opt_ptr[:-1]).max())
    rows = np.concatenate([_padded_items(cover, width), cover.opt_piece[:, None].astype(np.int64)], axis=1)
    padded = rows[:, :width]
    mapped = np.where(padded >= 0, perm[np.maximum(padded, 0)], np.iinfo(np.int64).max)
    mapped.sort(axis=1)
    mapped[mapped == np.iinfo(np.int64).max] = -1
    both = np.concatenate([rows, np.concatenate([mapped, rows[:, width:]], axis=1)])
    _, inverse = np.unique(both, axis=0, return_inverse=True)
    inverse = inverse.ravel()
    where = np.full(int(inverse.max()) + 1, -1, dtype=np.int64)
    where[inverse[:n_opt]] = np.arange(n_opt)
    image: np.ndarray = where[inverse[n_opt:]]
    return image


def _item_orbits(perm: np.ndarray) -> tuple[np.ndarray, int]:
    """Each item's orbit under <perm>, numbered by the orbits' lowest members, and how many."""
    import numpy as np

    n = len(perm)
    lowest, power = np.arange(n), perm.copy()
    while not (power == np.arange(n)).all():
        lowest = np.minimum(lowest, power)
        power = perm[power]
    ids, orbit_of = np.unique(lowest, return_inverse=True)
    return orbit_of.ravel(), len(ids)


def _option_orbits(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(n_opt, k) the options' orbits under the option permutation `image` (row o: o, its
    image, its image's image...; -1 past the orbit's end) and each orbit's length."""
    import numpy as np

    rows, length = [np.arange(len(image))], np.zeros(len(image), dtype=np.int64)
    at = image.copy()
    while not length.all():
        length[(at == rows[0]) & (length == 0)] = len(rows)
        rows.append(np.where(length == 0, at, -1))
        at = image[at]
    return np.stack(rows[:-1], axis=1), length


def fixed_cover(cover: Cover, perm: np.ndarray) -> tuple[Cover, np.ndarray, Cover] | None:
    """The cover whose exact covers are the solutions `perm` fixes, the copies each of its
    options uses, and `cover` (whose pieces' sizes say which can run out); None when some
    placement's image is no placement (then the group does not act on the options)."""
    import numpy as np

    from ...core.cover import Cover

    image = image_options(cover, perm)
    if (image < 0).any():
        return None
    orbit_of, n_orbits = _item_orbits(perm)
    members, length = _option_orbits(image)
    keep = np.nonzero(np.where(members < 0, len(image), members).min(axis=1) == np.arange(len(image)))[0]
    members, length = members[keep], length[keep]
    width = int((cover.opt_ptr[1:] - cover.opt_ptr[:-1]).max())
    cells = np.full((len(keep), members.shape[1] * width), -1, dtype=np.int64)
    padded = _padded_items(cover, width)
    for k in range(members.shape[1]):
        row = padded[np.maximum(members[:, k], 0)]
        cells[:, k * width : (k + 1) * width] = np.where(members[:, k, None] >= 0, row, -1)
    cells.sort(axis=1)
    repeated = ((cells[:, 1:] == cells[:, :-1]) & (cells[:, 1:] >= 0)).any(axis=1)
    cells, keep, length = cells[~repeated], keep[~repeated], length[~repeated]
    orbits = np.where(cells >= 0, orbit_of[np.maximum(cells, 0)], n_orbits)
    orbits.sort(axis=1)
    orbits[:, 1:][orbits[:, 1:] == orbits[:, :-1]] = n_orbits  # each orbit of items once
    orbits.sort(axis=1)
    order = np.argsort(orbits[:, 0], kind="stable")
    orbits, keep, length = orbits[order], keep[order], length[order]
    sizes = (orbits < n_orbits).sum(axis=1)
    fixed = Cover(
        n_items=n_orbits,
        opt_ptr=np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64),
        opt_items=orbits[orbits < n_orbits].astype(np.int32),
        opt_piece=cover.opt_piece[keep],
        piece_count=cover.piece_count,
        piece_min=cover.piece_min,
        neighbours=np.full((n_orbits, 0), -1, dtype=np.int32),
    )
    return fixed, length, cover


def _padded_items(cover: Cover, width: int) -> np.ndarray:
    """(n_opt, width) each option's items, -1 padded."""
    import numpy as np

    ptr = cover.opt_ptr.astype(np.int64)
    lengths = ptr[1:] - ptr[:-1]
    owner = np.repeat(np.arange(len(lengths)), lengths)
    out = np.full((len(lengths), width), -1, dtype=np.int64)
    out[owner, np.arange(len(owner)) - ptr[:-1][owner]] = cover.opt_items
    return out


def classes(
    cover: Cover,
    perms: np.ndarray,
    total: int,
    count: Callable[[Cover, np.ndarray, Cover], int],
) -> int | None:
    """The classes of the `total` solutions under the group `perms` (its rows, identity
    included), by Burnside; `count(fixed, weights, cover)` counts a fixed cover. None when
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
