"""Tables and state for the several-word bitboard kernel (65 to 256 items)."""

from __future__ import annotations

import numpy as np

from typing import TYPE_CHECKING, Any, NamedTuple

from ...core.cover import Cover
from ..kernels import kernel_module
from ..records import Sink, place_dtype
from ..driver import Driver, pieces_connected, distinct, item_masks, lists_by_first_item, uniform_sizes

if TYPE_CHECKING:
    from ...core.symmetry import Symmetry
    from ..driver import PlanFields

kernel = kernel_module("wide.kernel")  # compiled ahead of time, or numba's JIT: see engine/kernels.py

# wide.kernel.run's place in its search, kept between calls (one row, read as work.place[0])
PLACE = place_dtype(
    "depth",  # the depth reached
    "started",  # 1 while a prefix is being searched below, 0 to begin the next one
    "floor",  # the depth of the current prefix
    "next_prefix",  # the row of `prefixes` to begin next
)


class WideTables(NamedTuple):
    """What wide.kernel.run reads and never writes; masks are rows of W = len(full) words."""

    cell_start: np.ndarray  # int64 (items + 1): where the options whose lowest item is i start
    cell_opts: np.ndarray  # int32: the kept options, by lowest item
    list_mask: np.ndarray  # uint64 (len(cell_opts), W): their items
    list_piece: np.ndarray  # int32: their pieces
    opt_mask: np.ndarray  # uint64 (options, W): every option's items
    piece_size: np.ndarray  # int64 (pieces): cells of each piece
    full: np.ndarray  # uint64 (W): every item
    neighbours: np.ndarray  # int64 (items, degree): each item's neighbours, -1 padded
    opt_border: np.ndarray  # int64 (options, k): items next to an option, not in it, -1 padded
    prune: bool  # test the sizes of the empty regions next to each placement
    cap: int  # regions larger than this are not flooded further
    uniform: bool  # every piece has one size (then `sizes` holds for every node)
    sizes: np.uint64  # bit s: a region of s items can be filled (uniform pieces)


class WideStack(NamedTuple):
    """wide.kernel.run's stack (one entry per depth d) and scratch."""

    place: np.ndarray  # PLACE (1): where the search stands between calls
    pos: np.ndarray  # int64: the next place in cell_opts to try at d
    end: np.ndarray  # int64: the end of the list tried at d
    chosen: np.ndarray  # int32: the option placed at d
    cov: np.ndarray  # uint64 (depth, W): the items covered at d
    left: np.ndarray  # int32 (pieces): copies left
    sink: Sink  # where leaves write
    marks: np.ndarray  # uint64 (2, W): wide.kernel._regions_ok's scratch
    stack: np.ndarray  # int64 (items + 1): wide.kernel._regions_ok's flood stack


def _borders(cover: Cover, masks: np.ndarray) -> np.ndarray:
    """(n_opt, k) items next to each option and not in it, -1 padded."""
    lens = np.diff(cover.opt_ptr)
    owner = np.repeat(np.arange(cover.n_options), lens)
    nb = cover.neighbours[cover.opt_items]  # (total, deg)
    own = np.repeat(owner, nb.shape[1])
    cell = nb.ravel().astype(np.int64)
    ok = cell >= 0
    own, cell = own[ok], cell[ok]
    inside = (masks[own, cell >> 6] >> (cell & 63).astype(np.uint64)) & np.uint64(1)
    own, cell = own[inside == 0], cell[inside == 0]
    pairs = distinct(own * (cover.n_items + 1) + cell)
    own, cell = np.divmod(pairs, cover.n_items + 1)
    counts = np.bincount(own, minlength=cover.n_options)
    out = np.full((cover.n_options, max(1, int(counts.max(initial=0)))), -1, dtype=np.int64)
    col = np.arange(len(own)) - np.repeat(np.cumsum(counts) - counts, counts)
    out[own, col] = cell
    return out


class WideDriver(Driver):
    """The several-word kernel's driver: its tables and stack by name."""

    kernel = kernel
    PLACE = PLACE

    def __init__(
        self,
        cover: Cover,
        sym: Symmetry | None,
        plan: PlanFields,
        *,
        store: bool,
        limit: int,
        prune: bool = True,
        cap_factor: float = 3,
        **kw: Any,
    ) -> None:
        super().__init__(cover, sym, plan, store=store, limit=limit, **kw)
        n = cover.n_items
        words = (n + 63) // 64
        prune = prune and pieces_connected(cover)  # dead ends assume connected pieces
        self.opt_mask = item_masks(cover, words)
        self.cell_opts, self.cell_start = lists_by_first_item(cover, plan.keep, self.shuffle)
        self.list_mask = np.ascontiguousarray(self.opt_mask[self.cell_opts])
        self.list_piece = cover.opt_piece[self.cell_opts]
        self.full = item_masks_of(np.arange(n), words)
        self.neighbours = cover.neighbours.astype(np.int64)
        self.opt_border = _borders(cover, self.opt_mask)
        self.cap = int(cap_factor * max(1, int(self.piece_size.max(initial=1))))
        self.prune = prune
        self.pos = np.zeros(self.depth, dtype=np.int64)
        self.end = np.zeros(self.depth, dtype=np.int64)
        self.cov = np.zeros((self.depth, words), dtype=np.uint64)
        self.marks = np.zeros((2, words), dtype=np.uint64)  # _regions_ok scratch
        self.stack = np.zeros(n + 1, dtype=np.int64)
        self.tables = WideTables(
            cell_start=self.cell_start,
            cell_opts=self.cell_opts,
            list_mask=self.list_mask,
            list_piece=self.list_piece,
            opt_mask=self.opt_mask,
            piece_size=self.piece_size,
            full=self.full,
            neighbours=self.neighbours,
            opt_border=self.opt_border,
            prune=bool(prune),
            cap=self.cap,
            uniform=self.uniform > 0,
            sizes=uniform_sizes(self.uniform),
        )
        self.begin([np.zeros(0, dtype=np.int32)])

    def begin(self, prefixes: list[np.ndarray]) -> None:
        """A fresh stack for these prefixes (the kernel's scratch arrays are reused)."""
        super().begin(prefixes)
        self.work = WideStack(
            place=self.place,
            pos=self.pos,
            end=self.end,
            chosen=self.chosen,
            cov=self.cov,
            left=self.left,
            sink=self.sink,
            marks=self.marks,
            stack=self.stack,
        )


def item_masks_of(items: np.ndarray, words: int) -> np.ndarray:
    """The mask of `items` as `words` uint64 words (item i: bit i % 64 of word i // 64)."""
    out = np.zeros(words, dtype=np.uint64)
    items = np.asarray(items, dtype=np.int64)
    np.bitwise_or.at(out, items >> 6, np.left_shift(np.uint64(1), (items & 63).astype(np.uint64)))
    return out
