"""Count every solution through the orbits of the options covering one item.

Symmetry breaking (engine/geometry/breaking.py) needs a piece that every solution uses exactly
once. Many counts have none: pieces that may be left out or used many times (boxing
puzzles, distinct rectangles, dominoes). They still have this: every solution covers a
chosen item c exactly once, so it holds exactly one option of S_c, the options covering c,
and the solutions number the sum over p in S_c of f(p), the solutions holding p. A motion g
of H (the motions that map the solution set onto itself, see core.symmetry) maps the
solutions holding p one to one onto those holding g(p), so f is constant on each orbit of H:

    solutions = sum over the orbits O of H meeting S_c of |O & S_c| * f(one option of O & S_c),

an exact count with one option per orbit placed first, the others never tried: up to |H|
times less search (the centre cell of an odd square board, which every motion fixes: 8;
an even one's central cells: nearly as much, through the options covering several of
them). Solutions are not listed this way (a listed solution would stand for several), so
only counts use it. Knows no geometry: the motions come as permutations of the items and
images of the options' labels.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .records import NODES, SOLUTIONS

if TYPE_CHECKING:
    from ..core.cover import Cover
    from ..core.results import Report
    from ..core.symmetry import Symmetry
    from .driver import Driver

CANDIDATES = 16  # orbits of items tried: the smallest, then those whose items most options cover


def orbit_split(cover: Cover, sym: Symmetry) -> tuple[list[np.ndarray], np.ndarray] | None:
    """(one prefix per orbit met: an option of it covering the chosen item, the weight of
    each option: how many options of its orbit cover the item, 1 elsewhere), or None when no
    item gains (H trivial, or every orbit meets S_c once)."""
    h = sym.h_rows
    if len(h) <= 1 or cover.n_options == 0:
        return None
    perms = np.sort(sym.perms[h], axis=0)  # each item's orbit, sorted down the column
    orbit = 1 + (perms[1:] != perms[:-1]).sum(axis=0)
    covering = np.bincount(cover.opt_items, minlength=cover.n_items)
    owner = np.repeat(np.arange(cover.n_options), np.diff(cover.opt_ptr))
    best: tuple[float, int, np.ndarray, np.ndarray] | None = None
    alone = np.flatnonzero(perms[0] == np.arange(cover.n_items))  # one item per orbit: its least
    for c in alone[np.lexsort((-covering[alone], orbit[alone]))][:CANDIDATES].tolist():
        found = _orbits(cover, sym, owner[cover.opt_items == c])
        if found is None:
            continue
        reps, sizes = found
        gain = covering[c] / len(reps)
        if gain > 1 and (best is None or (gain, -len(reps)) > (best[0], -best[1])):
            best = (gain, len(reps), reps, sizes)
    if best is None:
        return None
    _, _, reps, sizes = best
    weights = np.ones(cover.n_options, dtype=np.int64)
    weights[reps] = sizes
    return [np.array([o], dtype=np.int32) for o in reps.tolist()], weights


def _orbits(cover: Cover, sym: Symmetry, options: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """(one option of each orbit of H among `options`, how many of them each orbit holds),
    or None when two options share a label (no orbit can be told apart then). Of an orbit's
    options the one whose last item comes first is searched: the fill then meets it soonest
    (7x7 distinct rectangles: 10.6 million nodes, against 14.7 million for the one whose
    first item comes first and 20.5 million for the one ending last)."""
    labels = sym.opt_label[options]
    if len(options) == 0 or len(np.unique(labels)) != len(labels):
        return None
    key = sym.label_img[sym.h_rows][:, labels].min(axis=0)  # the least label of each orbit
    last = cover.opt_items[cover.opt_ptr[options + 1] - 1]
    order = np.lexsort((options, last, key))
    key = key[order]
    first = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
    return options[order[first]], np.diff(np.r_[first, len(key)]).astype(np.int64)


class Weighted:
    """A driver searching the orbits' options in groups of equal weight, each solution
    counted weight times (what search.search drives in place of the driver)."""

    def __init__(self, driver: Driver, prefixes: list[np.ndarray], weights: np.ndarray):
        self.driver = driver
        self.groups = weight_groups(prefixes, weights)
        self.done = 0  # weighted solutions of the finished groups
        self.weight, self.mark = 1, 0
        self._next()

    def _next(self) -> None:
        self.weight, group = self.groups.pop(0)
        self.driver.begin(group)
        self.mark = int(self.driver.stats[SOLUTIONS])

    def _here(self) -> int:
        return self.weight * (int(self.driver.stats[SOLUTIONS]) - self.mark)

    def advance(self, budget: int) -> str:
        """As Driver.advance; 'done' after the last group. A group that ends within the
        budget hands what is left of it to the next, as one driver's search would: a count
        that fits one slice is then the same count of nodes whatever the clock says."""
        while True:
            nodes = int(self.driver.stats[NODES])
            code = self.driver.advance(budget)
            if code != "done" or not self.groups:
                return code
            budget -= int(self.driver.stats[NODES]) - nodes
            self.done += self._here()
            self._next()
            if budget <= 0:
                return "paused"

    def collect(self, res: Report[np.ndarray], store: bool) -> None:
        """As Driver.collect, the solutions weighted."""
        self.driver.collect(res, store)
        res.solutions = self.done + self._here()


def weight_groups(prefixes: list[np.ndarray], weights: np.ndarray) -> list[tuple[int, list[np.ndarray]]]:
    """The prefixes grouped by the weight of their first option, in their order within a group."""
    groups: dict[int, list[np.ndarray]] = {}
    for pre in prefixes:
        groups.setdefault(int(weights[pre[0]]) if len(pre) else 1, []).append(pre)
    return sorted(groups.items())
