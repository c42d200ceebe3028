"""The records every kernel takes, by name: what a solution is (`Rules`), the symmetry
tables of leaf.on_leaf (`SymmetryTables`), where leaves write (`Sink`), and the
counters' names.

A record is a typing.NamedTuple of arrays and scalars: numba compiles attribute access
on it to the same code as the positional tuples it replaces (a field is a member of one
LLVM structure), and numba's pycc takes it in exported signatures, so the kernels
compiled ahead of time (engine/aot.py) take the very records the drivers build. A
kernel's place in its search, which it keeps between calls, is one row of a structured
array (`place_dtype`): numba reads and writes its fields by name, in place.

Each kernel family adds its own tables and stack next to its driver
(bitboard/records.py, wide/driver.py, dlx/driver.py).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

# stats[...] of a Sink: the counters a kernel adds to, a vector so that callers can
# subtract two readings (engine/parallel/counts.py)
NODES = 0  # placements tried
SOLUTIONS = 1  # solutions counted (under symmetry breaking, each leaf's orbit)
UNIQUE = 2  # symmetry classes counted
STORED = 3  # rows of `out` filled and not yet drained by the driver
ACCEPTED = 4  # leaves accepted (what `stop_after` counts)
N_STATS = 5


class Rules(NamedTuple):
    """What a solution is and when to stop; read only."""

    opt_piece: np.ndarray  # int32 (options): the piece each option places
    piece_count: np.ndarray  # int32 (pieces): copies of each piece on offer
    piece_min: np.ndarray  # int32 (pieces): copies a solution must use
    need_min: bool  # some piece_min < piece_count: leaves check the minimums
    stop_after: int  # stop after this many accepted leaves (0: never)


class SymmetryTables(NamedTuple):
    """The symmetry tables of leaf.on_leaf (see core.symmetry); read only."""

    mode: int  # 0 none, 1 canonical check over G, 2 symmetry breaking
    piece: int  # the piece placed first, one placement per orbit (mode 2)
    opt_label: np.ndarray  # int32 (options): the label of an option's cell set
    label_img: np.ndarray  # int32 (motions, labels): a label's image under each motion
    label_piece: np.ndarray  # int32 (labels): the piece a cell set is a placement of, or -1
    h_mask: np.uint64  # bit g: motion g is in the group H the breaking works under
    opt_stab: np.ndarray  # uint64 (options): bit g when motion g fixes the option
    canonical_only: bool  # count (and store) only the canonical leaf of a class
    piece2: int  # the second piece broken under the first's symmetries, or -1
    ban_ptr: np.ndarray  # int64 (options + 1): CSR start of each option's bans
    ban_opts: np.ndarray  # int32: placements of `piece2` banned under an option


class Sink(NamedTuple):
    """Where leaves write: the counters, the solution buffer, leaf.classify's scratch."""

    stats: np.ndarray  # int64 (N_STATS): NODES, SOLUTIONS, UNIQUE, STORED, ACCEPTED
    out: np.ndarray  # int32 (buffer rows, depth): stored solutions, -1 padded
    base: np.ndarray  # int64 (depth): a solution's sorted labels
    img: np.ndarray  # int64 (3 depth): an image, the least under H, the least outside
    tally: np.ndarray  # int64 (pieces): copies used by an image


def no_leaf_scratch(stats: np.ndarray, out: np.ndarray) -> Sink:
    """The Sink of a kernel that writes only counters and solutions (the `cover` kernels,
    engine/bitset/ and engine/exact/: no symmetry classes, so no leaf scratch)."""
    empty = np.zeros(0, dtype=np.int64)
    return Sink(stats=stats, out=out, base=empty, img=empty, tally=empty)


def place_dtype(*names: str) -> np.dtype:
    """An aligned record of int64 fields: a kernel's place in its search (one row)."""
    return np.dtype([(name, np.int64) for name in names], align=True)


def new_place(dtype: np.dtype) -> np.ndarray:
    """One zeroed row of `dtype` (a kernel reads it as `work.place[0]`)."""
    return np.zeros(1, dtype)
