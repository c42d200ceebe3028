"""Tables and state for the one-word bitboard kernel (covers of at most 64 items)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ...core.cover import Cover
from .records import PLACE, BitboardStack, BitboardTables, MemoTable
from ..kernels import kernel_module, type_id
from ..driver import Driver, lists_by_first_item, uniform_sizes
from ..records import NODES
from ..status import PAUSED

if TYPE_CHECKING:
    from ...core.symmetry import Symmetry
    from ..driver import PlanFields

kernel = kernel_module("bitboard.kernel")  # compiled ahead of time, or numba's JIT: see engine/kernels.py
build = kernel_module("bitboard.tables")  # the tables built in compiled code
chained = kernel_module("bitboard.chained")  # ... chained in one call
memo_table = kernel_module("bitboard.memo_table")  # the memo table's rehash


MAX_SHIFTS = 8  # more distinct neighbour differences: grow regions cell by cell


def one_per_piece(cover: Cover) -> np.ndarray:
    """One option of each piece that has any (which one is left to numpy)."""
    pick = np.full(len(cover.piece_count), -1, dtype=np.int64)
    pick[cover.opt_piece] = np.arange(cover.n_options)
    return pick[pick >= 0]


def option_span(cover: Cover) -> float:
    """The mean over the options of their last item minus their first (0 without options):
    the width of the frontier between covered and empty items (narrow_frontier)."""
    if cover.n_options == 0:
        return 0.0
    ptr = cover.opt_ptr
    spans = int(cover.opt_items[ptr[1:] - 1].sum()) - int(cover.opt_items[ptr[:-1]].sum())
    return spans / cover.n_options


def narrow_frontier(cover: Cover) -> bool:
    """Whether an option spans fewer than MEMO_SPAN items on average (its last item minus
    its first, in the cell order that fills the board along its short side): the width of
    the frontier between the covered items and the empty ones. Where it is narrow (the 2D
    boards: 7-16) the same sub-problems recur and the memo pays; on the 4x4x4 cube (24) they
    almost never do, and its bookkeeping cost 16% a node for 2% fewer nodes (Bedlam,
    docs/history/parts/bedlam8.md)."""
    if cover.n_options == 0:
        return True
    items, ptr = cover.opt_items, cover.opt_ptr  # (one difference and one add.reduce: two
    spans = int(np.add.reduce(items[ptr[1:] - 1] - items[ptr[:-1]]))  # .sum() calls cost ~2 us
    return spans < MEMO_SPAN * cover.n_options  # more warm; the mean below MEMO_SPAN: numpy's mean ~5 us)


# The kernel's settings (module variables, so that tests can run every combination):
KEYS = 5  # items next to the one to fill whose occupancy picks a sub-block
KEYS_WIDE = 7  # ... where the frontier is wide (narrow_frontier: the 4x4x4 cube, 7% a node)
MEMO = True  # reuse the counts of sub-problems met before (counting only)
MEMO_BITS = 16  # log2 of the memo table's rows (16 bytes each, buckets of memo_table.WAYS) at most
MEMO_START_BITS = 12  # it starts with 2^12 rows (64 KB)
MEMO_NARROW_SPAN = 8.0  # ... or, where the options span fewer items than this on average (a
MEMO_NARROW_START_BITS = 10  # frontier of ~3 cells: 3xN boards), 2^10 rows (16 KB), and no
# spare taken for growth: few sub-problems recur there (3x20 keeps its 3,779 nodes with
# 2^10 rows as with 2^12; 4x15, span 9.1, would lose 2%: 64,442 nodes for 63,063)
MEMO_GROWTH = ((1 << 13, 14), (1 << 18, 16))  # ... and grows (rehashed: nothing lost) to 2^bits
# rows (at most 2^MEMO_BITS) once the search has run this many nodes. A fresh page costs
# 1.5-8 us on first touch here (a 2 MB table: ~1 ms), so the large table comes only where
# the search is long (kernel9.md: 1 MB at 2^17 nodes made the 8x8 board with a centre hole,
# 166,000 nodes, 10% slower for 0.1% fewer nodes; at 2^18 nodes 6x10 runs 1,092,763 nodes
# instead of 1,069,865; 2 MB saved 6x10 7% more nodes and no time)
MEMO_MAX_CODE = 1 << 24  # codes of the copies left must be below memo_table.MAX_CODE
MEMO_PIECES = 3  # looked up where at least this many pieces' worth of items is empty
MEMO_SPAN = 20.0  # the memo only where the options span fewer items than this on average
FLOOD = False  # region sizes by flood fill after each placement (measured: on the
# corpus's boards it costs more than the nodes it saves)


RADIX_CAP = 1 << 62  # codes of the copies left stop growing here (far above MEMO_MAX_CODE)


def mixed_radix(counts: list[int], bit_piece: list[int]) -> tuple[list[int], int]:
    """(radix, codes): the copies left of the pieces, in piece bit order (bit_piece),
    coded as one integer in mixed radix (radix[b]: the place of bit b's piece) and how many
    codes there are (capped at RADIX_CAP, so that every place fits in int64)."""
    places, place = [], 1
    for piece in bit_piece:
        places.append(place)
        place = min(place * (counts[piece] + 1), RADIX_CAP)
    return places, place


def table_buffer(rows: int) -> np.ndarray:
    """Memory for a memo table of `rows` rows (table_rows), not yet written."""
    return np.empty(2 * rows + 6, dtype=np.uint64)


def table_rows(rows: int, buf: np.ndarray | None = None) -> np.ndarray:
    """An empty memo table of `rows` rows (uint64 pairs) in `buf` (table_buffer) or new
    memory, from a 64-byte boundary, so that each bucket is one cache line (numpy aligns
    to 16 bytes). Written now rather than np.zeros: a fresh page that the search first
    reads (a look-up) and then writes (a count kept) faults twice, the zero page first
    (1 MB: ~450 us written now, ~700 in the search)."""
    if buf is None or len(buf) < 2 * rows + 6:
        buf = table_buffer(rows)
    buf.fill(0)
    skip = (-buf.ctypes.data % 64) // 8
    return buf[skip : skip + 2 * rows].reshape(rows, 2)


class BitboardDriver(Driver):
    """The one-word kernel's driver: its tables and stack as bitboard/records.py names them."""

    kernel = kernel
    PLACE = PLACE
    radix: np.ndarray | None = None  # the memo's mixed radix (mixed_radix), and its codes
    codes = 0

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
        sizes = self.piece_size.tolist()  # (a dozen pieces: Python's ints beat numpy's calls)
        self.largest = max(1, max(sizes, default=1))  # (piece_size.max(initial=1))
        self.cap = int(cap_factor * self.largest)
        if self.shuffle is None:  # every table in one compiled call; piece bit = piece
            self.bit_piece = opt_bit = np.arange(len(sizes), dtype=np.int64)
            prune = self._all_tables(plan.keep, prune, opt_bit, keys)
        else:  # a random order of the pieces too
            self.bit_piece = np.random.default_rng(self.shuffle).permutation(len(sizes)).astype(np.int64)
            opt_bit = np.zeros(len(sizes), dtype=np.int64)
            opt_bit[self.bit_piece] = np.arange(len(sizes))
            self._choose_keys(keys)
            prune = self._tables(plan.keep, prune, opt_bit)
        self.prune = prune
        iso = prune and all(s > 1 for s, c in zip(sizes, cover.piece_count.tolist()) if c > 0)
        self.flood = prune and (FLOOD if flood is None else flood)
        self.cov = np.zeros(self.depth, dtype=np.uint64)
        self.avail = np.zeros(self.depth, dtype=np.uint64)
        self.pos = np.zeros(self.depth, dtype=np.int64)
        self.chunk = np.zeros(self.depth, dtype=np.int64)
        self.stop = np.zeros(self.depth, dtype=np.int64)
        self.fit = np.zeros(self.depth, dtype=np.uint64)
        self.cnt = np.zeros(max(1, len(self.bit_piece)), dtype=np.int64)
        self.tables = self._kernel_tables(
            store, limit, iso, int(opt_bit[plan.sym_piece2]) if plan.sym_piece2 >= 0 else -1, self.narrow
        )
        self.second = np.zeros(cover.n_options, dtype=np.int8)
        # an empty prefix, and search.search begins again with the plan's: beginning with
        # them here and not again measured ~0.1 ms slower on 4x15 (where the place and the
        # prefixes then sit in memory: 31 alternating counts, 2.48 vs 2.59 ms)
        self.begin([np.zeros(0, dtype=np.int32)])

    def _choose_keys(self, keys: int | None) -> None:
        """`narrow` (narrow_frontier) and the key items per item: `keys`, else KEYS on a
        narrow frontier and KEYS_WIDE on a wide one (chained.build chooses them itself)."""
        self.narrow = narrow_frontier(self.cover)
        self.span = option_span(self.cover)
        self.keys = (KEYS if self.narrow else KEYS_WIDE) if keys is None else keys

    def _all_tables(self, keep: np.ndarray, prune: bool, opt_bit: np.ndarray, keys: int | None = None) -> bool:
        """The tables of `_tables` in one compiled call (bitboard/chained.py), `narrow` and
        `keys` as _choose_keys sets them; whether the dead-end tests hold (prune, and every
        piece connected)."""
        cover = self.cover
        found = chained.build(
            cover.n_items,
            cover.opt_ptr,
            cover.opt_items,
            cover.neighbours,
            cover.opt_piece,
            cover.piece_count,
            self.piece_size,
            keep,
            opt_bit,
            len(self.bit_piece),
            KEYS if keys is None else keys,
            KEYS_WIDE if keys is None else keys,
            MEMO_SPAN,
            MAX_SHIFTS,
            prune,
            self.cap,
        )
        self.opt_mask, self.nb_mask, self.opt_border, self.shift_d, self.shift_m, pruning = found[:6]
        self.topt, self.tbit, self.tstart, self.key, self.tmask, narrow, self.keys, self.span = found[6:14]
        self.radix, self.codes = found[14:]
        self.narrow = bool(narrow)
        return bool(pruning)

    def _tables(self, keep: np.ndarray, prune: bool, opt_bit: np.ndarray) -> bool:
        """The kernel's tables step by step (the options in a random order: `shuffle`);
        whether the dead-end tests hold (prune, and every piece connected)."""
        cover = self.cover
        self.opt_mask, self.nb_mask, self.opt_border = build.board_masks(
            cover.n_items, cover.opt_ptr, cover.opt_items, cover.neighbours
        )
        self.shift_d, self.shift_m = build.neighbour_shifts(cover.neighbours, MAX_SHIFTS)
        # the dead-end tests assume connected pieces (a piece may be given in parts); a
        # piece's placements are congruent, so one of each is enough
        prune = prune and build.connected(self.opt_mask[one_per_piece(cover)], self.nb_mask, self.shift_d, self.shift_m)
        cell_opts, cell_start = self._lists(keep, prune)
        self.topt, self.tbit, self.tstart, self.key = build.merged_blocks(
            cover.n_items,
            cell_start,
            cell_opts,
            self.opt_mask,
            opt_bit[cover.opt_piece],
            len(self.bit_piece),
            self.keys,
        )
        self.tmask = self.opt_mask[self.topt]
        return prune

    def _kernel_tables(self, store: bool, limit: int, iso: bool, ybit: int, narrow: bool) -> BitboardTables:
        """The kernel's read-only tables from what __init__ built; ybit: the piece bit of
        symmetry breaking's second piece, or -1; narrow: narrow_frontier(cover)."""
        memo, radix, min_empty = self._memo_tables(store, limit, narrow)
        return BitboardTables(
            tstart=self.tstart,
            tmask=self.tmask,
            topt=self.topt,
            tbit=self.tbit,
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
        if self.radix is None:  # (chained.build's, else step by step)
            places, self.codes = mixed_radix(self.cover.piece_count.tolist(), self.bit_piece.tolist())
            self.radix = np.array(places, dtype=np.int64)
        radix, place = self.radix, self.codes
        plan, sym = self.plan, self.sym  # the record: without idle motions (engine/idle_motions.py)
        alike = plan.sym_mode == 0 or (plan.sym_mode == 2 and bin(int(sym.h_mask)).count("1") == sym.label_img.shape[0])
        memo = (
            MEMO
            and self.memo
            and alike
            and not store
            and limit == 0
            and self.select is None
            and place <= MEMO_MAX_CODE
            and narrow
        )  # alike: leaves may all count alike (memo_weights)
        self.memo_rows = 1 << max(2, MEMO_BITS) if memo else 4  # one bucket at least
        few = self.span < MEMO_NARROW_SPAN  # few sub-problems: a small table, no spare
        size = min(self.memo_rows, 1 << max(2, MEMO_NARROW_START_BITS if few else MEMO_START_BITS))
        self.table = MemoTable(
            rows=memo_table.new_rows(size),
            code=np.zeros(self.depth, np.int64),
            entry=np.full(self.depth, -1, np.int64),
            weight=np.zeros(2, np.int64),
            memo_at=np.zeros(self.depth, np.bool_),
        )
        # the first larger table's memory taken now, with the set-up's (often memory freed
        # there: no fresh pages), and written only if the search grows the table
        grow = None if few else self._growth()
        self.spare: np.ndarray | None = table_buffer(grow[1]) if grow is not None else None
        return memo, radix, MEMO_PIECES * self.largest

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

    def _growth(self) -> tuple[int, int] | None:
        """(nodes, rows): the memo table's next size and when, or None (at its full size)."""
        for at, bits in MEMO_GROWTH:
            rows = min(self.memo_rows, 1 << bits)
            if rows > len(self.table.rows):
                return at, rows
        return None

    def call(self, budget: int) -> int:
        """One call of the kernel; the call that passes a size step of MEMO_GROWTH stops
        there, the memo table grows (its rows rehashed into the new one), and the call goes
        on with the rest of its budget."""
        grow, before = self._growth(), int(self.stats[NODES])
        if grow is None or before + budget <= grow[0]:
            return int(super().call(budget))
        first = max(0, grow[0] - before)
        code = int(super().call(first)) if first > 0 else PAUSED
        if code != PAUSED:
            return code
        rows = table_rows(grow[1], self.spare)
        self.spare = None
        memo_table.rehash(self.table.rows, rows)
        self.table = self.table._replace(rows=rows)
        self.work = self.work._replace(memo=self.table)
        return self.call(budget - (int(self.stats[NODES]) - before))

    def bind_key(self) -> tuple[Any, ...]:
        """Driver.bind's key: the records' values this driver does not make itself with a
        fixed dtype (the cover's and the symmetry's arrays in `rules` and `sym`, whose
        dtype `left` shares, and the tables' scalars); every other array is made here or
        by the compiled tables call, always C-ordered, aligned and writeable."""
        t = self.tables
        scalars = (t.iso, t.flood, t.cap, t.keys, t.memo, t.min_empty, t.ybit, t.full, t.sizes, t.uniform)
        return (type(self), self.kernel.run, type_id(self.rules), type_id(self.sym), type_id(scalars))

    def begin(self, prefixes: list[np.ndarray]) -> None:
        """A fresh stack for these prefixes, and no placement marked by the symmetry bans."""
        super().begin(prefixes)  # a fresh place: no placement marked (set_bans)
        self.second[:] = 0
        self.work = BitboardStack(
            place=self.place,
            cov=self.cov,
            avail=self.avail,
            pos=self.pos,
            chunk=self.chunk,
            stop=self.stop,
            fit=self.fit,
            cnt=self.cnt,
            chosen=self.chosen,
            left=self.left,
            sink=self.sink,
            memo=self.table,
            second=self.second,
        )
