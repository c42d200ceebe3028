"""The one-word bitboard kernel's records (engine/bitboard/kernel.py): its read-only tables, its
memo table and its stack, by name (see engine/records.py for why NamedTuples)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..records import Sink, place_dtype

# bitboard.run's place in its search, kept between calls (one row, read as work.place[0])
PLACE = place_dtype(
    "depth",  # the depth reached (the stack's top)
    "started",  # 1 while a prefix is being searched below, 0 to begin the next one
    "floor",  # the depth of the current prefix: the search below ends back there
    "next_prefix",  # the row of `prefixes` to begin next
    "memo_second",  # 1: counts are reused below a FREE placement of the second fixed piece
    "marked",  # 1 + the option memo_table.set_bans marked the second piece's placements for
)


class BitboardTables(NamedTuple):
    """What bitboard.kernel.run reads and never writes (built by bitboard.driver.BitboardDriver)."""

    tstart: np.ndarray  # int64 (blocks + 1): where block (t << keys) | P starts (tables.merged_blocks)
    tmask: np.ndarray  # uint64: the items of each placement of the blocks, in block order
    topt: np.ndarray  # int32: the option id of each placement of the blocks
    tbit: np.ndarray  # uint8: the piece bit of each placement of the blocks
    bit_piece: np.ndarray  # int64 (piece bits): the piece each bit of `avail` stands for
    opt_mask: np.ndarray  # uint64 (options): the items an option covers
    opt_border: np.ndarray  # uint64 (options): the items next to an option and not in it
    piece_size: np.ndarray  # int64 (pieces): cells of each piece
    full: np.uint64  # every item
    nb_mask: np.ndarray  # uint64 (items): the neighbours of each item
    shift_d: np.ndarray  # int64: the distinct neighbour differences (empty: too many)
    shift_m: np.ndarray  # uint64: the items that have a neighbour at each difference
    iso: bool  # test for an empty item with no empty neighbour
    flood: bool  # test the sizes of the empty regions next to each placement
    cap: int  # regions larger than this are not flooded further
    uniform: bool  # every piece has one size (then `sizes` holds for every node)
    sizes: np.uint64  # bit s: a region of s items can be filled (uniform pieces)
    key: np.ndarray  # int64 (items, keys): the key items of each item
    keys: int  # key items per item (tables.merged_blocks)
    memo: bool  # counts of sub-problems may be reused
    radix: np.ndarray  # int64 (piece bits): the copies left coded in one integer
    min_empty: int  # the memo is looked up where at least this many items are empty
    ybit: int  # the bit of the second fixed piece, or -1


class MemoTable(NamedTuple):
    """The counts of sub-problems met before (memo_table.slot) and where the stack stands."""

    rows: np.ndarray  # uint64 (slots, 2): a sub-problem's items covered (0: empty row), and
    # its code of the copies left | its count of leaves << CODE_BITS (memo_table.recall, keep)
    code: np.ndarray  # int64 (depth): the code of the copies left at each depth
    entry: np.ndarray  # int64 (depth): leaves counted when a depth was entered, -1: none
    weight: np.ndarray  # int64 (2): solutions and classes each leaf counts for
    memo_at: np.ndarray  # bool (depth): counts below this depth are reused


class BitboardStack(NamedTuple):
    """bitboard.run's stack, written as it searches (one entry per depth d)."""

    place: np.ndarray  # PLACE (1): where the search stands between calls
    cov: np.ndarray  # uint64: the items covered at d
    avail: np.ndarray  # uint64: the piece bits with a copy left at d
    pos: np.ndarray  # int64: 1 + the place (in the blocks) of the option placed at d
    chunk: np.ndarray  # int64: the start of the chunk (<= 64 placements) being tried at d
    stop: np.ndarray  # int64: the end of the block of the item to fill at d
    fit: np.ndarray  # uint64: the chunk's placements that fit and are not tried yet (bits)
    cnt: np.ndarray  # int64 (piece bits): copies left of each piece bit
    chosen: np.ndarray  # int32: the options placed (filled at the leaves)
    left: np.ndarray  # int32 (pieces): copies left (filled at the leaves)
    sink: Sink  # where leaves write
    memo: MemoTable  # the counts reused
    second: np.ndarray  # int8 (options): memo_table.set_bans' marks of the second piece
