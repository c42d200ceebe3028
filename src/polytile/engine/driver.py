"""What every kernel driver shares: symmetry tables, counters, the solution buffer."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Protocol

import numpy as np

from ..core.cover import Cover
from .idle_motions import without_idle
from .kernels import bind
from .records import N_STATS, NODES, SOLUTIONS, STORED, UNIQUE, Rules, Sink, SymmetryTables, new_place, place_dtype
from .status import CODES

if TYPE_CHECKING:
    from ..core.results import Report
    from ..core.symmetry import Symmetry


class PlanFields(Protocol):
    """What the drivers read of a search.Plan: its fields, named here so that the drivers,
    which search.py imports, need not import search.py."""

    keep: np.ndarray
    sym_mode: int
    sym_piece: int
    canonical_only: bool
    prefixes: list[np.ndarray]
    sym_piece2: int
    ban_ptr: np.ndarray | None
    ban_opts: np.ndarray | None


def symmetry_record(plan: PlanFields, sym: Symmetry | None, cover: Cover) -> SymmetryTables:
    """The SymmetryTables record of `plan` and the analysis `sym` (None: no symmetry),
    without the motions that never map a solution to a solution (engine/idle_motions.py)."""
    n_opt = cover.n_options
    if plan.ban_ptr is None or plan.ban_opts is None:  # set together (Plan's second piece)
        ban_ptr, ban_opts = np.zeros(n_opt + 1, np.int64), np.zeros(0, np.int32)
    else:
        ban_ptr, ban_opts = plan.ban_ptr, plan.ban_opts
    if sym is None:
        label = (
            np.zeros(n_opt, np.int32),
            np.zeros((1, 1), np.int32),
            np.zeros(1, np.int32),
            np.uint64(1),
            np.zeros(n_opt, np.uint64),
        )
    else:
        img, mask, stab = without_idle(
            sym.label_img, sym.opt_label, sym.label_piece, sym.h_mask, sym.opt_stab, cover.opt_piece, cover.piece_min
        )
        label = (sym.opt_label, img, sym.label_piece, np.uint64(mask), stab)
    opt_label, label_img, label_piece, h_mask, opt_stab = label
    return SymmetryTables(
        mode=int(plan.sym_mode),
        piece=int(plan.sym_piece),
        opt_label=opt_label,
        label_img=label_img,
        label_piece=label_piece,
        h_mask=h_mask,
        opt_stab=opt_stab,
        canonical_only=bool(plan.canonical_only),
        piece2=int(plan.sym_piece2),
        ban_ptr=ban_ptr,
        ban_opts=ban_opts,
    )


class Driver:
    """Subclasses name their kernel module (`kernel`, from kernels.kernel_module), the fields of
    its place in the search (`PLACE`, see records.place_dtype), and build its read-only
    tables and its stack (`tables`, `work`: records of their own); `call(budget)` is one
    call of the kernel's `run(tables, rules, sym, work, prefixes, budget)`, returning its
    status code. The records every kernel shares (engine/records.py), built once here:
      rules  Rules: what a solution is and when to stop;
      sym    SymmetryTables: the symmetry tables of leaf.on_leaf;
      sink   Sink: counters, the solution buffer, leaf.classify's scratch (in `work`).
    Every kernel runs the rows of `prefixes` itself, one after another (`begin`), so a
    slice of the search is one call whatever the number of prefixes."""

    kernel: Any = None  # the kernel module, from kernels.kernel_module
    PLACE: np.dtype = place_dtype("depth")
    tables: Any  # the kernel's read-only tables (a record)
    work: Any  # its stack (a record holding `place` and `sink`)
    prefixes: np.ndarray
    place: np.ndarray
    begun: list[np.ndarray] | None = None  # the prefixes of the last `begin`
    _run: Callable[..., int] | None = None

    def __init__(
        self,
        cover: Cover,
        sym: Symmetry | None,
        plan: PlanFields,
        *,
        store: bool,
        limit: int,
        select: np.ndarray | None = None,
        shuffle: int | None = None,
        memo: bool = True,
    ):
        self.cover = cover
        self.select = select  # sorted indices of the solutions to keep (None: all)
        self.seen = 0  # solutions drained from the buffer so far
        self.shuffle = shuffle  # seed for a random order of the options, or None
        self.memo = memo  # counting may reuse counts of sub-problems (bitboard)
        self.plan = plan
        self.limit = limit
        counts, mins = cover.piece_count.tolist(), cover.piece_min.tolist()  # (a few dozen
        self.depth = min(cover.n_items, sum(counts)) + 2  # pieces: Python's ints beat numpy's calls)
        self.chosen = np.zeros(self.depth, dtype=np.int32)
        self.stats = np.zeros(N_STATS, dtype=np.int64)  # records.NODES ...: see records.Sink
        self.out = np.zeros((1024 if store else 0, self.depth), dtype=np.int32)
        self.left = cover.piece_count.copy()
        self.piece_size = cover.piece_size  # (int64, a new array each time)
        sizes = {s for s, c in zip(self.piece_size.tolist(), counts) if c > 0}
        self.uniform = sizes.pop() if len(sizes) == 1 else 0
        need_min = any(m < c for m, c in zip(mins, counts))
        self.rules = Rules(
            opt_piece=cover.opt_piece,
            piece_count=cover.piece_count,
            piece_min=cover.piece_min,
            need_min=need_min,
            stop_after=int(limit),
        )
        self.sym = symmetry_record(plan, sym, cover)
        self.base = np.zeros(self.depth, dtype=np.int64)  # leaf.classify's scratch
        self.img = np.zeros(3 * self.depth, dtype=np.int64)
        self.tally = np.zeros(len(cover.piece_count), dtype=np.int64)

    def begin(self, prefixes: list[np.ndarray]) -> None:
        """Search below these prefixes (options placed first), one after another; the
        subclass then builds `work` around the fresh `place`. The kernel bound to the
        arguments' types (`bind`) is kept: a fresh place, prefixes and stack have the types
        of the last ones (an int32 matrix, the same dtypes and records)."""
        k = max([1] + [len(p) for p in prefixes])
        self.prefixes = np.full((len(prefixes), k), -1, dtype=np.int32)
        for i, p in enumerate(prefixes):
            self.prefixes[i, : len(p)] = p
        self.place = new_place(self.PLACE)
        self.begun = prefixes  # (search.search begins again only with other prefixes)
        # built here, not once: a caller may give the driver a larger `out` (engine/grouped.py)
        self.sink = Sink(stats=self.stats, out=self.out, base=self.base, img=self.img, tally=self.tally)

    def advance(self, budget: int) -> str:
        """Run for about `budget` nodes: 'paused', 'done' (all prefixes), 'buffer' or 'limit'."""
        return CODES[self.call(budget)]

    def bind(self) -> Callable[..., int]:
        """The kernel's `run` for this driver's argument types, matched once (kernels.bind);
        at the first call unless asked before. Where the driver has a `bind_key` (the
        types of the few arguments it does not make itself), the match is kept per process
        under that key: a count's records hold ~70 values, which kernels.bind reads one by
        one (~15 us warm, ~25 in a fresh process), while the key reads a few dozen."""
        if self._run is None:
            key = self.bind_key()
            run = None if key is None else _RUNS.get(key)
            if run is None:
                run = bind(self.kernel.run, self.tables, self.rules, self.sym, self.work, self.prefixes, 0)
                if key is not None:
                    _RUNS[key] = run
            self._run = run
        return self._run

    def bind_key(self) -> tuple[Any, ...] | None:
        """A key that determines the types of the kernel's arguments (equal keys, equal
        types: tests/engine/test_setup_cache.py checks it), or None: every value read
        (kernels.bind). A subclass whose records hold mostly arrays it makes itself, with
        fixed dtypes, keys on the others."""
        return None

    def call(self, budget: int) -> int:
        """One call of the kernel's `run`."""
        return self.bind()(self.tables, self.rules, self.sym, self.work, self.prefixes, budget)

    def collect(self, res: Report[np.ndarray], store: bool) -> None:
        """Copy the counters into `res` and drain the solution buffer into `res.found`
        (only the selected ones), so the kernel can fill it again."""
        res.nodes = int(self.stats[NODES])
        res.solutions = int(self.stats[SOLUTIONS])
        if res.unique is not None:
            res.unique = int(self.stats[UNIQUE])
        k = int(self.stats[STORED])
        rows = range(k)
        if self.select is not None:
            lo, hi = np.searchsorted(self.select, [self.seen, self.seen + k])
            rows = (self.select[lo:hi] - self.seen).tolist()
        for i in rows:
            row = self.out[i]
            res.found.append(row[row >= 0].copy())
        self.seen += k
        self.stats[STORED] = 0


_RUNS: dict[tuple[Any, ...], Callable[..., int]] = {}  # Driver.bind's, by bind_key


def distinct(values: np.ndarray) -> np.ndarray:
    """The sorted distinct values of an integer array: np.unique without its check for
    masked arrays, which imports numpy.ma (about 20 ms of a small command's start-up)."""
    ordered = np.sort(values, axis=None)
    keep = np.ones(len(ordered), dtype=bool)
    keep[1:] = ordered[1:] != ordered[:-1]
    return ordered[keep]


def pieces_connected(cover: Cover) -> bool:
    """Every piece's cells are connected through `cover.neighbours`: what the kernels' dead-end
    tests (an empty item with no empty neighbour, a region no set of pieces fills) assume.
    A piece's placements are congruent, so one of each is enough."""
    if cover.n_options == 0:
        return True
    order = np.argsort(cover.opt_piece, kind="stable")
    piece = cover.opt_piece[order]
    firsts = order[np.concatenate([[True], piece[1:] != piece[:-1]])]
    for o in firsts.tolist():
        items = set(cover.opt_items[cover.opt_ptr[o] : cover.opt_ptr[o + 1]].tolist())
        todo = [next(iter(items))]
        seen = set(todo)
        while todo:
            for j in cover.neighbours[todo.pop()].tolist():
                if j in items and j not in seen:
                    seen.add(j)
                    todo.append(j)
        if seen != items:
            return False
    return True


def uniform_sizes(uniform: int) -> np.uint64:
    """The region sizes (bit s: size s < 64) that pieces all of size `uniform` make; 0 when
    their sizes differ (then the kernels find the sizes from the pieces left). Kept per
    size (a numpy scalar: immutable)."""
    found = _UNIFORM.get(uniform)
    if found is None:
        sizes = 0
        if uniform > 0:
            for s in range(0, 64, uniform):
                sizes |= 1 << s
        found = _UNIFORM[uniform] = np.uint64(sizes)
    return found


_UNIFORM: dict[int, np.uint64] = {}  # uniform_sizes


def item_masks(cover: Cover, words: int) -> np.ndarray:
    """(n_opt, words) uint64: bit i of an option's mask is set when it covers item i."""
    items = cover.opt_items.astype(np.int64)
    masks = np.zeros((cover.n_options, words), dtype=np.uint64)
    if cover.n_options == 0:
        return masks
    bits = np.left_shift(np.uint64(1), (items & 63).astype(np.uint64))
    for w in range(words):
        masks[:, w] = np.bitwise_or.reduceat(np.where(items >> 6 == w, bits, np.uint64(0)), cover.opt_ptr[:-1])
    return masks


def lists_by_first_item(cover: Cover, keep: np.ndarray, shuffle: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Kept options grouped by their lowest item (cover order inside a group, or a random
    order from the seed `shuffle`): (options, starts)."""
    kept = np.nonzero(keep)[0]
    if shuffle is not None:
        kept = np.random.default_rng(shuffle).permutation(kept)
    first = cover.opt_items[cover.opt_ptr[kept]]
    opts = kept[np.argsort(first, kind="stable")].astype(np.int32)
    return opts, np.searchsorted(np.sort(first), np.arange(cover.n_items + 1)).astype(np.int64)
