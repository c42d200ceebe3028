"""Count the exact covers of one part by a frontier (transfer-matrix) dynamic programme.

Why: the memoised counter (`memo.Part`) keeps every sub-problem it has seen, so on dense
grids with astronomically many solutions its memory, not its time, runs out. This sweeps the
items in cover order instead and keeps only the current layer: before item p, every item < p
is covered and a state is the set of covered items p..p+63 (a uint64, bit 0 = item p) with
the number of ways to reach it. Item p covered: the state moves on (shifted by one); free:
each option whose first item is p and that misses the state covers it. Equal states are
merged (sorted, summed), so a layer holds at most the distinct frontiers -- the states of a
transfer matrix over the narrow side of a grid, as a ZDD frontier method enumerates them.

Vectorised with numpy: masks are a uint64 array, counts rows of 32-bit limbs in a uint64
array (exact at any size: a limb is added when the largest count needs it). One solution is read backwards from the layers, kept only when asked.
Needs every option within 64 consecutive items and no secondary items (`fits`).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    import numpy as np


WINDOW = 64
LIMB = 32  # bits per limb of a count


class Stopped(Exception):
    """Raised with `reason` "time limit" or "memory budget"; `states`, `need` as memo's."""

    def __init__(self, reason: str, states: int, need: int = 0):
        super().__init__(reason)
        self.reason, self.states, self.need = reason, states, need


class Counted(NamedTuple):
    """A frontier count's answer: the number, and a witness when one was asked for."""

    solutions: int
    found: list[int] | None  # option ids of one solution (when asked and there is one)
    states: int  # the states of the widest layer


def fits(first: list[list[tuple[int, int]]], n_bits: int) -> bool:
    """Every option's items within the window from its first one, all of them primary."""
    for b, opts in enumerate(first):
        for mask, _ in opts:
            if mask.bit_length() > n_bits or mask.bit_length() - b > WINDOW:
                return False
    return True


def count(
    first: list[list[tuple[int, int]]],
    *,
    solution: bool = False,
    deadline: float | None = None,
    memory: int | None = None,
) -> Counted:
    """The exact covers of items 0..len(first)-1 by the options `first[b]` ((mask, option)
    pairs whose lowest item is b). For a solution, every `stride`-th layer's masks are kept
    (about the square root of the items), the others recomputed on the way back."""
    import numpy as np

    steps = [_step(opts, b) for b, opts in enumerate(first)]
    stride = max(1, int(len(steps) ** 0.5))
    masks = np.zeros(1, dtype=np.uint64)
    counts = np.ones((1, 1), dtype=np.uint64)
    kept: dict[int, np.ndarray] = {}
    widest = 1
    for p, (rel, _) in enumerate(steps):
        if solution and p % stride == 0:
            kept[p] = masks
        masks, counts = _advance(masks, counts, rel)
        widest = max(widest, len(masks))
        _check(len(masks), counts.shape[1], sum(map(len, kept.values())) + stride * widest, deadline, memory)
        if not len(masks):
            return Counted(0, None, widest)
    total = value(counts[0]) if len(masks) else 0
    found = _walk_back(kept, stride, steps) if solution and total else None
    return Counted(total, found, widest)


def _step(opts: list[tuple[int, int]], b: int) -> tuple[np.ndarray, list[int]]:
    """The options of item b as masks relative to b (bit 0 set), and their ids."""
    import numpy as np

    return (np.array([m >> b for m, _ in opts], dtype=np.uint64), [o for _, o in opts])


def _children(masks: np.ndarray, rel: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(mask, parent) of every child: covered item p passes on, a free one takes each option
    that misses the state."""
    import numpy as np

    one = np.uint64(1)
    covered = (masks & one).astype(bool)
    index = np.arange(len(masks))
    free_i = index[~covered]
    free_m = masks[free_i]
    parts_m, parts_i = [masks[covered] >> one], [index[covered]]
    for m in rel:
        ok = (free_m & m) == 0
        parts_m.append((free_m[ok] | m) >> one)
        parts_i.append(free_i[ok])
    return np.concatenate(parts_m), np.concatenate(parts_i)


def _advance(masks: np.ndarray, counts: np.ndarray, rel: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The next layer: the children sorted, equal ones merged, their parents' counts summed."""
    import numpy as np

    new_m, parent = _children(masks, rel)
    if len(new_m) == 0:
        return new_m, counts[:0]
    order = np.argsort(new_m)
    new_m, parent = new_m[order], parent[order]
    starts = np.flatnonzero(np.concatenate(([True], new_m[1:] != new_m[:-1])))
    return new_m[starts], _carry(np.add.reduceat(counts[parent], starts, axis=0))


def _carry(limbs: np.ndarray) -> np.ndarray:
    """Counts as rows of base-2**32 limbs (uint64, least significant first), normalised:
    every limb below 2**32 again after a sum, with a limb more when the top one overflows.
    Sums of fewer than 2**32 such limbs cannot wrap a uint64."""
    import numpy as np

    shift, low = np.uint64(LIMB), np.uint64((1 << LIMB) - 1)
    if (limbs[:, -1] >> shift).any():
        limbs = np.concatenate([limbs, np.zeros((len(limbs), 1), dtype=np.uint64)], axis=1)
    for k in range(limbs.shape[1] - 1):
        carry = limbs[:, k] >> shift
        if carry.any():
            limbs[:, k] &= low
            limbs[:, k + 1] += carry
    return limbs


def value(limbs: np.ndarray) -> int:
    """The Python integer of one row of limbs."""
    return sum(int(x) << (LIMB * k) for k, x in enumerate(limbs.tolist()))


def _check(states: int, limbs: int, kept: int, deadline: float | None, memory: int | None) -> None:
    """Stop at the deadline, or when a layer (and the masks kept for a solution) would pass
    the memory budget. A layer costs a mask and its limbs per state, and while it grows its
    children (about twice its states: a mask, a parent index, gathered limbs) coexist."""
    need = states * (8 + 8 * limbs) * 4 + 8 * kept
    if memory is not None and need > memory:
        raise Stopped("memory budget", states, need)
    if deadline is not None and time.perf_counter() > deadline:
        raise Stopped("time limit", states)


def _walk_back(kept: dict[int, np.ndarray], stride: int, steps: list[tuple[np.ndarray, list[int]]]) -> list[int]:
    """One solution: from the empty final state, at each item the state before it that leads
    here (a covered item passed on, or an option placed), found in the sorted layer; each
    stretch of layers recomputed from the kept one before it."""
    import numpy as np

    found: list[int] = []
    target = 0
    for start in sorted(kept, reverse=True):
        layers = [kept[start]]
        for p in range(start, min(start + stride, len(steps)) - 1):
            layers.append(np.unique(_children(layers[-1], steps[p][0])[0]))
        for p in range(start + len(layers) - 1, start - 1, -1):
            target = _back_one(layers[p - start], steps[p], target, found)
    assert target == 0
    return sorted(found)


def _back_one(layer: np.ndarray, step: tuple[np.ndarray, list[int]], target: int, found: list[int]) -> int:
    """The state of `layer` that leads to `target` (the option it places joins `found`)."""
    here = (target << 1) | 1
    if _holds(layer, here):
        return here
    rel, ids = step
    for m, o in zip(rel.tolist(), ids):
        if m & here == m and _holds(layer, here & ~m):
            found.append(o)
            prev: int = here & ~m
            return prev
    raise AssertionError("a counted state has a predecessor")


def _holds(layer: np.ndarray, mask: int) -> bool:
    """Whether the sorted layer holds `mask`."""
    import numpy as np

    if mask >= 1 << WINDOW:
        return False
    k = int(np.searchsorted(layer, np.uint64(mask)))
    return k < len(layer) and int(layer[k]) == mask
