"""Uniform random solutions drawn from the counted structure: exactly uniform, independent
draws (with replacement), by exact integer weights.

- Frontier: the sweep's layers are kept (every state's count modulo enough primes for the
  CRT to give it exactly). A draw starts from a final state chosen in proportion to its
  count and walks back: the states of the layer before that lead here (the item passed
  on, or an option placed) are weighed by their counts, one is chosen, its option kept.
  Each step picks a predecessor with probability count(pred) / count(state), so a whole
  solution comes with probability 1 / (all solutions).
- Self-reduction (the Pfaffian's dominoes): the first free item's options are weighed by
  the count of what is left once each is placed.
Knows no geometry.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Callable, Iterator

from . import exact
from .frontier import Plan, _bound, _complete, _sweep, plan

if TYPE_CHECKING:
    import numpy as np

    from ...core.cover import Cover

LAYER_BYTES = 8 + 8  # a kept state: its key, and per prime a residue


class Layers:
    """Every layer of a sweep, sorted, with residues modulo `primes`: exact counts on demand."""

    def __init__(self, pl: Plan, primes: tuple[int, ...], memory: int | None):
        import numpy as np

        from .sweep import advance_hashed

        self.pl, self.primes = pl, primes
        keys = np.zeros(1, np.uint64)
        res = np.ones((1, len(primes)), np.uint64)
        approx = np.ones(1, np.float64)
        p_arr = np.array(primes, dtype=np.uint64)
        self.keys: list[np.ndarray] = []
        self.res: list[np.ndarray] = []
        held = 0
        for p in range(pl.n_items):
            order = np.argsort(keys, kind="stable")
            keys, res, approx = keys[order], res[order], approx[order]
            self.keys.append(keys)
            self.res.append(res)
            held += len(keys) * (8 + 8 * len(primes))
            if memory is not None and held > memory:
                from ..limits import Stopped

                raise Stopped("memory budget", len(keys), held)
            keys, res, approx, _, _, _ = advance_hashed(
                keys,
                res,
                approx,
                pl.first,
                pl.rel,
                pl.opt_field,
                pl.opt_w,
                pl.fields,
                pl.low,
                pl.window,
                p_arr,
                p,
                p + 1,
                1 << 62,
            )
        ok = _complete(keys, pl)
        self.final = [(int(k), self._value(r)) for k, r in zip(keys[ok].tolist(), res[ok].tolist())]
        self.final = [(k, v) for k, v in self.final if v]
        self.total = sum(v for _, v in self.final)
        self._seen: dict[tuple[int, int], int] = {}

    def _value(self, residues: list[int]) -> int:
        return exact.crt(residues, self.primes)

    def count(self, p: int, key: int) -> int:
        """The exact count of state `key` before item p (0 when the layer has no such state)."""
        import numpy as np

        found = self._seen.get((p, key))
        if found is None:
            layer = self.keys[p]
            i = int(np.searchsorted(layer, np.uint64(key)))
            found = self._value(self.res[p][i].tolist()) if i < len(layer) and int(layer[i]) == key else 0
            self._seen[(p, key)] = found
        return found

    def draw(self, rng: random.Random) -> list[int]:
        """One solution, uniformly: its options (the cover's ids)."""
        key = self.final[pick(rng, [w for _, w in self.final])][0]
        chosen = []
        for p in range(self.pl.n_items - 1, -1, -1):
            options = list(_predecessors(self.pl, p, key))
            key, o = options[pick(rng, [self.count(p, prev) for prev, _ in options])]
            if o >= 0:
                chosen.append(int(self.pl.order[o]))
        return sorted(chosen)


def pick(rng: random.Random, weights: list[int]) -> int:
    """An index chosen with probability weights[i] / sum(weights), exactly (integers)."""
    at = rng.randrange(sum(weights))
    for i, w in enumerate(weights):
        if at < w:
            return i
        at -= w
    raise AssertionError("at < sum(weights)")


def _predecessors(pl: Plan, p: int, key: int) -> Iterator[tuple[int, int]]:
    """(state before item p, plan option or -1) of every move that leads to `key` (the state
    before item p + 1)."""
    lowbit = 1 << pl.low
    mask_bits = ((1 << (pl.low + pl.window)) - 1) & ~(lowbit - 1)
    shifted = ((key & mask_bits) << 1) & mask_bits
    rest = key & ~mask_bits & ((1 << 64) - 1)
    yield shifted | lowbit | rest, -1
    here = shifted | lowbit
    for o in range(int(pl.first[p]), int(pl.first[p + 1])):
        m = int(pl.rel[o])
        if m & here != m:
            continue
        for prev_rest in _unused(pl, int(pl.opt_field[o]), int(pl.opt_w[o]), rest):
            yield (here & ~m) | prev_rest, o


def _unused(pl: Plan, f: int, w: int, rest: int) -> list[int]:
    """The fields before an option of field f's piece (w copies) was placed, given after."""
    if f < 0:
        return [rest]
    shift, mask, cap, hard = (int(x) for x in pl.fields[f])
    now = (rest >> shift) & mask
    clear = rest & ~(mask << shift)
    if hard or now < cap:
        return [clear | ((now - w) << shift)] if now >= w else []
    return [clear | (u << shift) for u in range(max(0, cap - w), cap + 1)]


def frontier_sampler(cover: Cover, memory: int | None) -> Layers:
    """The layers a uniform draw walks back through (limits.Stopped over the budget)."""
    pl = plan(cover)
    residue, approx, transitions, _ = _sweep(pl, exact.primes(1), None, memory, None, 1.0)
    k = exact.needed(_bound(pl, approx, transitions))
    return Layers(pl, exact.primes(k), memory)


def reduction_draw(cover: Cover, count: Callable[[list[int]], int], total: int, rng: random.Random) -> list[int]:
    """One uniform solution by self-reduction: at the first free item, each option that fits is
    weighed by `count(items left once it is placed)` (the last one by what remains of the
    total)."""
    ptr, items = cover.opt_ptr.tolist(), cover.opt_items.tolist()
    by_first: dict[int, list[int]] = {}
    for o in range(len(ptr) - 1):
        by_first.setdefault(items[ptr[o]], []).append(o)
    free = set(range(cover.n_items))
    chosen = []
    while free:
        item = min(free)
        fits = [o for o in by_first.get(item, []) if free.issuperset(items[ptr[o] : ptr[o + 1]])]
        pick = rng.randrange(total)
        for k, o in enumerate(fits):
            left = sorted(free.difference(items[ptr[o] : ptr[o + 1]]))
            weight = count(left) if k < len(fits) - 1 else total
            if pick < weight:
                break
            pick -= weight
            total -= weight
        chosen.append(o)
        free.difference_update(items[ptr[o] : ptr[o + 1]])
        total = weight
    return sorted(chosen)
