"""All n-ominoes (2D) and n-cubes (3D): free, one-sided and fixed.

Kinds (what identifies two shapes):
  free       every rotation and reflection (8 motions in 2D, 48 in 3D)
  one-sided  rotations only (4 in 2D, 24 in 3D): a chiral shape and its mirror image differ
  fixed      translations only: every distinct orientation counts

Method. Free forms grow one cell at a time: every neighbour cell of every free (n-1)-form
is added and the result is reduced to its canonical form, then duplicates are dropped.
This finds every free n-form, because removing a leaf of a spanning tree of its cells
leaves a connected (n-1)-form. One-sided and fixed forms are then the distinct images of
the free forms under rotations. All of it runs on whole batches in numpy.

Data layout. A form of n cells is a sorted row of n integer cell codes, code = the cell's
coordinates (each in 0..n-1 after translating to the origin) read as digits in base n, so
sorted codes are the cells in lexicographic order. The canonical form of a shape is the
image, among those allowed, whose sorted code row is lexicographically smallest.

Order and names (stable: they depend only on n, dim and kind):
  free       sorted by canonical form; named f"{n}-{i}" with i = 1, 2, ... in that order,
             except the 2D pentominoes, which take Conway's letters (F, I, L, ...).
  one-sided  each free form in order; a chiral one is followed by its mirror image, whose
             name gets a prime: "F", "F'", "4-3", "4-3'". The unprimed one is the rotation
             class holding the free canonical form.
  fixed      each one-sided form's distinct orientations, sorted by form, named
             f"{one_sided_name}#{k}", k = 1, 2, ...; "#1" is the one-sided canonical form.
Cells are (row, col) in 2D and (row, col, layer) in 3D, normalised (minimum 0 on each
axis) and sorted, as in `shape.normalise`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from . import library, shape

KINDS = ("free", "one-sided", "fixed")
# The largest n each dimension finishes for in seconds (fixed 12-ominoes: 505,861 forms;
# fixed 8-cubes: 162,913). The generator itself accepts any n.
MAX_N = {2: 12, 3: 8}
_BUDGET = 1 << 22  # integers per batch of images (about 32 MB): bounds memory at large n


@dataclass(frozen=True, eq=False)
class Polyform:
    """One n-omino or n-cube: its name and its normalised, sorted (n, dim) cells."""

    name: str
    cells: np.ndarray

    @property
    def n(self) -> int:
        """The number of cells."""
        return len(self.cells)

    @property
    def dim(self) -> int:
        """Coordinates per cell: 2 for polyominoes and n-hexes, 3 for polycubes and n-iamonds."""
        return int(self.cells.shape[1])


def polyforms(n: int, dim: int = 2, kind: str = "free") -> list[Polyform]:
    """Every n-omino (dim 2) or n-cube (dim 3) of the kind, in the documented order."""
    return list(_polyforms(*_check(n, dim, kind)))


def count(n: int, dim: int = 2, kind: str = "free") -> int:
    """How many there are, without building the Polyform objects."""
    n, dim, kind = _check(n, dim, kind)
    if kind == "free":
        return len(_free(n, dim))
    if kind == "one-sided":
        return len(_one_sided(n, dim)[0])
    return len(_fixed(n, dim)[0])


def _check(n: int, dim: int, kind: str) -> tuple[int, int, str]:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"n must be a positive integer, not {n!r}")
    if dim not in (2, 3):
        raise ValueError(f"dim must be 2 or 3, not {dim!r}")
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    return int(n), int(dim), kind


# --- codes <-> cells ------------------------------------------------------------------


def _weights(base: int, dim: int) -> np.ndarray:
    return base ** np.arange(dim - 1, -1, -1, dtype=np.int64)


def _decode(codes: np.ndarray, dim: int) -> np.ndarray:
    """(..., n) codes of n-forms -> (..., n, dim) cells."""
    base = codes.shape[-1]
    return np.asarray((codes[..., None] // _weights(base, dim)) % base)


def _encode_images(cells: np.ndarray, mats: np.ndarray) -> np.ndarray:
    """(B, n, d) cells and (M, d, d) signed permutations -> (B, M, n) sorted codes of each
    normalised image. Axis e of an image is +-axis p of the shape, so it is normalised by
    the shape's min (or max) on axis p: no image array is ever built."""
    b, n, d = cells.shape
    axes = [cells[:, :, i] for i in range(d)]
    lo = [a.min(axis=1, keepdims=True) for a in axes]
    hi = [a.max(axis=1, keepdims=True) for a in axes]
    codes = np.empty((b, len(mats), n), dtype=np.int64)
    for m, mat in enumerate(mats):
        code = np.zeros((b, n), dtype=np.int64)
        for e in range(d):
            p = int(np.flatnonzero(mat[e])[0])
            code *= n
            code += axes[p] - lo[p] if mat[e, p] > 0 else hi[p] - axes[p]
        codes[:, m] = code
    codes.sort(axis=2)
    return codes


def _lexmin(codes: np.ndarray) -> np.ndarray:
    """(B, M, n) -> (B,) index along M of the lexicographically smallest row."""
    alive = np.ones(codes.shape[:2], dtype=bool)
    big = np.iinfo(codes.dtype).max
    for j in range(codes.shape[2]):
        col = np.where(alive, codes[:, :, j], big)
        alive &= col == col.min(axis=1, keepdims=True)
    return np.asarray(alive.argmax(axis=1))


def _canonical(cells: np.ndarray, mats: np.ndarray) -> np.ndarray:
    """(B, n, d) cells -> (B, n) canonical codes under the motions, in batches."""
    out = np.empty(cells.shape[:2], dtype=np.int64)
    step = _batch(cells.shape, len(mats))
    for lo in range(0, len(cells), step):
        codes = _encode_images(cells[lo : lo + step], mats)
        out[lo : lo + step] = codes[np.arange(len(codes)), _lexmin(codes)]
    return out


def _batch(shape_: tuple[int, ...], motions: int) -> int:
    """How many shapes of (n, d) cells to transform at once under so many motions."""
    _, n, d = shape_
    return max(1, _BUDGET // (motions * n * d))


def _rotations(dim: int) -> np.ndarray:
    return np.stack(shape.rotations(dim))


def _isometries(dim: int) -> np.ndarray:
    return np.stack(shape.isometries(dim))


def _mirror(cells: np.ndarray) -> np.ndarray:
    """Reflect in the last axis (any one reflection serves)."""
    out = cells.copy()
    out[..., -1] *= -1
    return out


# --- generation -----------------------------------------------------------------------


@lru_cache(maxsize=None)
def _free(n: int, dim: int) -> np.ndarray:
    """(count, n) canonical codes of the free n-forms, sorted."""
    if n == 1:
        return _frozen(np.zeros((1, 1), dtype=np.int64))
    cells = _decode(_free(n - 1, dim), dim) + 1  # room for a neighbour at -1
    return _frozen(np.unique(_canonical(_grow(cells), _isometries(dim)), axis=0))


def _grow(cells: np.ndarray) -> np.ndarray:
    """(K, m, d) forms (coordinates >= 1) -> (B, m+1, d): each form plus one new neighbour."""
    k, m, d = cells.shape
    steps = np.concatenate([np.eye(d, dtype=np.int64), -np.eye(d, dtype=np.int64)])
    new = (cells[:, :, None, :] + steps).reshape(k, m * 2 * d, d)
    weights = _weights(m + 2, d)
    new_codes = new @ weights
    old_codes = cells @ weights
    fresh = ~(new_codes[:, :, None] == old_codes[:, None, :]).any(axis=2)
    order = np.argsort(new_codes, axis=1, kind="stable")  # drop repeats within a form
    sorted_codes = np.take_along_axis(new_codes, order, axis=1)
    first = np.ones_like(fresh)
    np.put_along_axis(first, order[:, 1:], sorted_codes[:, 1:] != sorted_codes[:, :-1], axis=1)
    form, slot = np.nonzero(fresh & first)
    return np.concatenate([cells[form], new[form, slot][:, None, :]], axis=1)


@lru_cache(maxsize=None)
def _one_sided(n: int, dim: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(codes, free index, is mirror) of the one-sided n-forms in the documented order."""
    free = _free(n, dim)
    cells = _decode(free, dim)
    rots = _rotations(dim)
    plain = _canonical(cells, rots)
    mirror = _canonical(_mirror(cells), rots)
    chiral = (plain != mirror).any(axis=1)
    codes = np.stack([plain, mirror], axis=1)  # (F, 2, n)
    keep = np.stack([np.ones_like(chiral), chiral], axis=1)  # (F, 2)
    source, primed = np.nonzero(keep)
    return _frozen(codes[source, primed]), _frozen(source), _frozen(primed.astype(bool))


@lru_cache(maxsize=None)
def _fixed(n: int, dim: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(codes, one-sided index, orientation number 1..) of the fixed n-forms."""
    sided = _one_sided(n, dim)[0]
    rots = _rotations(dim)
    parts = []
    step = _batch((0, n, dim), len(rots))
    for lo in range(0, len(sided), step):
        imgs = _encode_images(_decode(sided[lo : lo + step], dim), rots)  # (B, R, n)
        b, r, _ = imgs.shape
        owner = np.repeat(np.arange(lo, lo + b), r)[:, None]
        parts.append(np.unique(np.concatenate([owner, imgs.reshape(b * r, n)], axis=1), axis=0))
    rows = np.concatenate(parts)
    owner, codes = rows[:, 0], rows[:, 1:]
    starts = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]])
    number = np.arange(len(owner)) - np.repeat(starts, np.diff(np.r_[starts, len(owner)])) + 1
    return _frozen(codes), _frozen(owner), _frozen(number)


def _frozen(a: np.ndarray) -> np.ndarray:
    """Memoised arrays are shared: make them read-only."""
    a.setflags(write=False)
    return a


# --- names and objects ----------------------------------------------------------------


def _free_names(n: int, dim: int, cells: np.ndarray) -> list[str]:
    if n == 5 and dim == 2:
        return [library.pentomino_name(c) or f"5-{i}" for i, c in enumerate(cells, start=1)]
    return [f"{n}-{i}" for i in range(1, len(cells) + 1)]


@lru_cache(maxsize=None)
def _polyforms(n: int, dim: int, kind: str) -> tuple[Polyform, ...]:
    free_codes = _free(n, dim)
    names = _free_names(n, dim, _decode(free_codes, dim))
    if kind == "free":
        return _build(free_codes, names, dim)
    codes, source, primed = _one_sided(n, dim)
    names = [names[s] + ("'" if p else "") for s, p in zip(source.tolist(), primed.tolist())]
    if kind == "one-sided":
        return _build(codes, names, dim)
    codes, owner, number = _fixed(n, dim)
    names = [f"{names[o]}#{k}" for o, k in zip(owner.tolist(), number.tolist())]
    return _build(codes, names, dim)


def _build(codes: np.ndarray, names: list[str], dim: int) -> tuple[Polyform, ...]:
    cells = _frozen(_decode(codes, dim))
    return tuple(Polyform(name, c) for name, c in zip(names, cells))
