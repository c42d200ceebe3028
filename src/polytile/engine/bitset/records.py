"""The bit-set kernel's records (engine/bitset/kernel.py): its read-only tables, each
option's primary items, its stack. The kernel takes them by name, as the tiling kernels
take theirs (engine/records.py); where leaves write is the one `records.Sink`."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class BitsetTables(NamedTuple):
    """What bitset.kernel.run reads and never writes (built by driver.bitset_tables)."""

    kill: np.ndarray  # uint64 (kill rows, words): the options each row removes
    kill_lo: np.ndarray  # int64 (kill rows): the first nonzero word of each row
    kill_hi: np.ndarray  # int64 (kill rows): one past its last
    item_opts: np.ndarray  # uint64 (primary items, words): each primary item's options
    item_lo: np.ndarray  # int64 (primary items): their spans, as kill_lo
    item_hi: np.ndarray  # int64 (primary items)
    entry_ptr: np.ndarray  # int64 (options + 1): where each option's entries start
    entry_kill: np.ndarray  # int32 (entries): the kill row of each entry
    opt_prim: np.ndarray  # uint64 (options, primary words): each option's primary items


class Counting(NamedTuple):
    """Each option's primary items, for the counts of active options per item."""

    prim_ptr: np.ndarray  # int64 (options + 1)
    prim_items: np.ndarray  # int32


class BitsetStack(NamedTuple):
    """bitset.kernel.run's stack, one row per level, and where it stands between calls."""

    state: np.ndarray  # int64 (2): depth, phase
    active: np.ndarray  # uint64 (levels + 1, words): the options still possible
    covered: np.ndarray  # uint64 (levels + 1, primary words): the items covered
    cand: np.ndarray  # uint64 (levels, words): the chosen item's options left to try
    pos: np.ndarray  # int64 (levels): the word tried at each level
    end: np.ndarray  # int64 (levels): one past the chosen item's last word
    chosen: np.ndarray  # int64 (levels): the option placed at each level
    cnt: np.ndarray  # int32 (levels + 1, primary items or 0): active options per item
