"""Tables and state for the one-word bitboard kernel (covers of at most 64 items)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ...core.cover import Cover
from .records import PLACE, BitboardStack, BitboardTables, MemoTable
from ..kernels import kernel_module
from ..driver import Driver, lists_by_first_item, uniform_sizes

if TYPE_CHECKING:
    from ...core.symmetry import Symmetry
    from ..driver import PlanFields

kernel = kernel_module("bitboard.kernel")  # compiled ahead of time, or numba's JIT: see engine/kernels.py
build = kernel_module("bitboard.tables")  # the tables built in compiled code


MAX_SHIFTS = 8  # more distinct neighbour differences: grow regions cell by cell


def one_per_piece(cover: Cover) -> np.ndarray:
    """One option of each piece that has any (which one is left to numpy)."""
    pick = np.full(len(cover.piece_count), -1, dtype=np.int64)
    pick[cover.opt_piece] = np.arange(cover.n_options)
    return pick[pick >= 0]


def narrow_frontier(cover: Cover) -> bool:
    """Whether an option spans fewer than MEMO_SPAN items on average (its last item minus
    its first, in the cell order that fills the board along its short side): the width of
    the frontier between the covered items and the empty ones. Where it is narrow (the 2D
    boards: 7-16) the same sub-problems recur and the memo pays; on the 4x4x4 cube (24) they
    almost never do, and its bookkeeping cost 16% a node for 2% fewer nodes (Bedlam,
    docs/parts/bedlam8.md)."""
    if cover.n_options == 0:
        return True
    first = cover.opt_items[cover.opt_ptr[:-1]]
    last = cover.opt_items[cover.opt_ptr[1:] - 1]
    return float((last - first).mean()) < MEMO_SPAN


# The kernel's settings (module variables, so that tests can run every combination):
KEYS = 5  # items next to the one to fill whose occupancy picks a sub-block
KEYS_WIDE = 7  # ... where the frontier is wide (narrow_frontier: the 4x4x4 cube, 7% a node)
MEMO = True  # reuse the counts of sub-problems met before (counting only)
MEMO_BITS = 13  # log2 of the memo table's entries
MEMO_PIECES = 4  # looked up where at least this many pieces' worth of items is empty
MEMO_SPAN = 20.0  # ... and only where the options span fewer items than this on average
FLOOD = False  # region sizes by flood fill after each placement (measured: on the
# corpus's boards it costs more than the nodes it saves)


class BitboardDriver(Driver):
    """The one-word kernel's driver: its tables and stack as bitboard/records.py names them."""

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
        flood: bool | None = None,
        keys: int | None = None,
        **kw: Any,
    ) -> None:
        super().__init__(cover, sym, plan, store=store, limit=limit, **kw)
        n = cover.n_items
        assert n <= 64 and len(cover.piece_count) <= 64
        self.opt_piece = cover.opt_piece
        self.full = np.uint64((1 << n) - 1) if n < 64 else np.uint64(0xFFFFFFFFFFFFFFFF)
        self.opt_mask, self.nb_mask, self.opt_border = build.board_masks(
            n, cover.opt_ptr, cover.opt_items, cover.neighbours
        )
        self.shift_d, self.shift_m = build.neighbour_shifts(cover.neighbours, MAX_SHIFTS)
        # the dead-end tests assume connected pieces (a piece may be given in parts); a
        # piece's placements are congruent, so one of each is enough
        prune = prune and build.connected(self.opt_mask[one_per_piece(cover)], self.nb_mask, self.shift_d, self.shift_m)
        self.cap = int(cap_factor * max(1, int(self.piece_size.max(initial=1))))
        cell_opts, cell_start = self._lists(plan.keep, prune)
        pieces = np.arange(len(cover.piece_count))
        if self.shuffle is not None:  # a random order of the pieces too
            pieces = np.random.default_rng(self.shuffle).permutation(pieces)
        self.bit_piece = pieces.astype(np.int64)
        narrow = narrow_frontier(cover)
        self.keys = (KEYS if narrow else KEYS_WIDE) if keys is None else keys
        opt_bit = np.zeros(len(cover.piece_count), dtype=np.int64)
        opt_bit[self.bit_piece] = np.arange(len(self.bit_piece))
        self.topt, self.tstart, self.key, self.nonempty = build.piece_blocks(
            n, cell_start, cell_opts, self.opt_mask, opt_bit[cover.opt_piece], len(self.bit_piece), self.keys
        )
        self.prune = prune
        iso = prune and bool((self.piece_size[cover.piece_count > 0] > 1).all())
        self.flood = prune and (FLOOD if flood is None else flood)
        self.cov = np.zeros(self.depth, dtype=np.uint64)
        self.avail = np.zeros(self.depth, dtype=np.uint64)
        self.rem = np.zeros(self.depth, dtype=np.uint64)
        self.pos = np.zeros(self.depth, dtype=np.int64)
        self.end = np.zeros(self.depth, dtype=np.int64)
        self.fit = np.zeros(self.depth, dtype=np.uint64)
        self.block = np.zeros(self.depth, dtype=np.int64)
        self.bit = np.zeros(self.depth, dtype=np.int64)
        self.cnt = np.zeros(max(1, len(self.bit_piece)), dtype=np.int64)
        self.tables = self._kernel_tables(
            store, limit, iso, int(opt_bit[plan.sym_piece2]) if plan.sym_piece2 >= 0 else -1, narrow
        )
        self.second = np.zeros(cover.n_options, dtype=np.int8)
        self.begin([np.zeros(0, dtype=np.int32)])

    def _kernel_tables(self, store: bool, limit: int, iso: bool, ybit: int, narrow: bool) -> BitboardTables:
        """The kernel's read-only tables from what __init__ built; ybit: the piece bit of
        symmetry breaking's second piece, or -1; narrow: narrow_frontier(cover)."""
        memo, radix, min_empty = self._memo_tables(store, limit, narrow)
        return BitboardTables(
            tstart=self.tstart,
            tmask=self.opt_mask[self.topt],
            topt=self.topt,
            bit_piece=self.bit_piece,
            opt_mask=self.opt_mask,
            opt_border=self.opt_border,
            piece_size=self.piece_size,
            full=self.full,
            nb_mask=self.nb_mask,
            shift_d=self.shift_d,
            shift_m=self.shift_m,
            iso=iso,
            flood=self.flood,
            cap=self.cap,
            uniform=self.uniform > 0,
            sizes=uniform_sizes(self.uniform),
            key=self.key,
            keys=self.keys,
            nonempty=self.nonempty,
            memo=memo,
            radix=radix,
            min_empty=min_empty,
            ybit=ybit,
        )

    def _memo_tables(self, store: bool, limit: int, narrow: bool) -> tuple[bool, np.ndarray, int]:
        """(memo, radix, min_empty) for the kernel, and the memo table: counting only (no
        solution kept, no limit), on a narrow frontier, the copies left coded in one integer
        (mixed radix), the table looked up where at least MEMO_PIECES pieces' worth of items
        is empty."""
        radix = np.zeros(len(self.bit_piece), dtype=np.int64)
        place = 1
        for k, piece in enumerate(self.bit_piece):
            radix[k] = place
            place *= int(self.cover.piece_count[piece]) + 1
        plan, sym = self.plan, self.sym  # the record: without idle motions (engine/idle_motions.py)
        alike = plan.sym_mode == 0 or (plan.sym_mode == 2 and bin(int(sym.h_mask)).count("1") == sym.label_img.shape[0])
        memo = (
            MEMO
            and self.memo
            and alike
            and not store
            and limit == 0
            and self.select is None
            and place < 1 << 62
            and narrow
        )  # alike: leaves may all count alike (memo_weights)
        size = 1 << MEMO_BITS if memo else 1
        self.table = MemoTable(
            m_cov=np.zeros(size, np.uint64),
            m_code=np.zeros(size, np.int64),
            m_val=np.full(size, -1, np.int64),
            code=np.zeros(self.depth, np.int64),
            entry=np.full(self.depth, -1, np.int64),
            weight=np.zeros(2, np.int64),
            memo_at=np.zeros(self.depth, np.bool_),
        )
        min_empty = MEMO_PIECES * int(self.piece_size.max(initial=1))
        return memo, radix, min_empty

    def _lists(self, keep: np.ndarray, prune: bool) -> tuple[np.ndarray, np.ndarray]:
        """The options the search tries, grouped by lowest item: those of `keep` that
        placed alone cut off no region no set of the pieces can fill (the kernel would
        reject them at every try), in cover order, or a random order (`shuffle`)."""
        cover = self.cover
        if prune:
            sizes = kernel.reachable_sizes(cover.piece_count.astype(np.int64), self.piece_size)
            keep = build.useful(
                keep,
                self.opt_mask,
                self.opt_border,
                self.full,
                self.nb_mask,
                self.shift_d,
                self.shift_m,
                sizes,
                self.cap,
            )
        if self.shuffle is not None:
            return lists_by_first_item(cover, keep, self.shuffle)
        lists: tuple[np.ndarray, np.ndarray] = build.lists_by_first_item(
            cover.n_items, cover.opt_ptr, cover.opt_items, keep
        )
        return lists

    def begin(self, prefixes: list[np.ndarray]) -> None:
        """A fresh stack for these prefixes, and no placement marked by the symmetry bans."""
        super().begin(prefixes)  # a fresh place: no placement marked (set_bans)
        self.second[:] = 0
        self.work = BitboardStack(
            place=self.place,
            cov=self.cov,
            avail=self.avail,
            rem=self.rem,
            pos=self.pos,
            end=self.end,
            fit=self.fit,
            block=self.block,
            bit=self.bit,
            cnt=self.cnt,
            chosen=self.chosen,
            left=self.left,
            sink=self.sink,
            memo=self.table,
            second=self.second,
        )
