"""Algorithm C's records (engine/exact/kernel.py): its links and its stack, taken by name
as the tiling kernels take theirs (engine/records.py); where leaves write is the one
`records.Sink`."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class Links(NamedTuple):
    """Knuth's dancing links with colours (built by driver.build_links); the kernel
    unlinks and relinks them in place."""

    top: np.ndarray  # int32 (nodes): a node's item (<= 0: a spacer)
    up: np.ndarray  # int32 (nodes): vertical links
    down: np.ndarray  # int32 (nodes)
    colour: np.ndarray  # int32 (nodes): 0 no colour, > 0 a colour, -1 purified
    length: np.ndarray  # int32 (items + 2): the options left per item
    left: np.ndarray  # int32 (items + 2): the horizontal list of items
    right: np.ndarray  # int32 (items + 2)
    opt_of: np.ndarray  # int32 (nodes): the option of each node


class ExactStack(NamedTuple):
    """The kernel's stack and where it stands between calls."""

    state: np.ndarray  # int64 (2): depth, phase
    item: np.ndarray  # int32 (levels): the item chosen at each level
    x: np.ndarray  # int32 (levels): the node tried at each level
