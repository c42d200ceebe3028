"""Tables and state for the dancing-links kernel."""

from __future__ import annotations

import numpy as np

from typing import TYPE_CHECKING, Any, NamedTuple

from ...core.cover import Cover
from ..kernels import kernel_module
from ..records import Sink, place_dtype
from ..driver import Driver

if TYPE_CHECKING:
    from ...core.symmetry import Symmetry
    from ..driver import PlanFields

kernel = kernel_module("dlx.kernel")  # compiled ahead of time, or numba's JIT: see engine/kernels.py

# dlx.kernel.run's place in its search, kept between calls (one row, read as work.place[0])
PLACE = place_dtype(
    "depth",  # the depth reached
    "phase",  # dlx.kernel.ENTER, TRY or BACK: what the search does next at that depth
    "floor",  # the depth of the current prefix
    "next_prefix",  # the row of `prefixes` to begin next
    "started",  # 1 while a prefix is being searched below, 0 to begin the next one
    "undone",  # columns the current prefix covered (the length of `undo` in use)
)


class DlxTables(NamedTuple):
    """What dlx.kernel.run reads and never writes."""

    n_items: int  # items (cells); the piece columns follow them
    opt_ptr: np.ndarray  # int64 (options + 1): where each option's items start
    opt_items: np.ndarray  # int32: the options' items


class Links(NamedTuple):
    """The dancing links (build_links): nodes are the item headers (items, then pieces),
    the root, then each kept option's items and its piece."""

    U: np.ndarray  # int32 (nodes): the node above in its column
    D: np.ndarray  # int32 (nodes): the node below
    L: np.ndarray  # int32 (headers + root): the header on the left in the active ring
    R: np.ndarray  # int32 (headers + root): the header on the right
    top: np.ndarray  # int32 (nodes): its column (a header)
    length: np.ndarray  # int32 (headers): the nodes left in each column
    row_start: np.ndarray  # int32 (kept options + 1): the first node of each option's row
    row_of: np.ndarray  # int32 (nodes): the row of a node, -1 for headers
    node_opt: np.ndarray  # int32 (nodes): the option id of a node, -1 for headers


class DlxStack(NamedTuple):
    """dlx.kernel.run's stack (one entry per depth d), its links and scratch."""

    place: np.ndarray  # PLACE (1): where the search stands between calls
    item: np.ndarray  # int32: the column branched on at d
    x: np.ndarray  # int32: the node (option) tried at d
    chosen: np.ndarray  # int32: the option placed at d
    left: np.ndarray  # int32 (pieces): copies left
    sink: Sink  # where leaves write
    links: Links  # written as options are covered and uncovered
    hit: np.ndarray  # bool (items): a prefix's items (clash test)
    undo: np.ndarray  # int64 (items + pieces): the columns a prefix covered, in order


def build_links(
    n_items: int, n_pieces: int, opt_ptr: np.ndarray, opt_items: np.ndarray, opt_piece: np.ndarray, keep: np.ndarray
) -> Links:
    """The Links of the options in `keep`.

    Nodes: the headers (items, then pieces), the root, then each kept option's items and its
    piece. Each column lists its nodes in node order (what appending them one by one gives),
    built with numpy: a stable sort of the nodes by column links each to the next."""
    n_head = n_items + n_pieces
    root = n_head
    opts = np.nonzero(keep)[0]
    sizes = np.diff(opt_ptr)[opts]
    lens = sizes + 1
    n_nodes = root + 1 + int(lens.sum())
    row_start = np.empty(len(opts) + 1, dtype=np.int32)
    row_start[0] = root + 1
    row_start[1:] = root + 1 + np.cumsum(lens)
    top = np.empty(n_nodes, dtype=np.int32)
    top[: root + 1] = np.arange(root + 1)
    body = np.ones(n_nodes - root - 1, dtype=bool)  # an item's node, not the piece's
    body[row_start[1:] - 1 - (root + 1)] = False
    first = np.repeat(opt_ptr[opts] - np.concatenate([[0], np.cumsum(sizes)[:-1]]), sizes)
    top[root + 1 :][body] = opt_items[first + np.arange(int(sizes.sum()))]
    top[row_start[1:] - 1] = n_items + opt_piece[opts]
    node_opt = np.full(n_nodes, -1, dtype=np.int32)
    row_of = np.full(n_nodes, -1, dtype=np.int32)
    node_opt[root + 1 :] = np.repeat(opts, lens)
    row_of[root + 1 :] = np.repeat(np.arange(len(opts), dtype=np.int32), lens)
    U, D, length = _columns(top, root, n_head, n_nodes)
    L = np.arange(root + 1, dtype=np.int32)
    R = np.arange(root + 1, dtype=np.int32)
    ring = np.append(np.arange(n_items, dtype=np.int32), np.int32(root))
    R[ring] = np.roll(ring, -1)
    L[ring] = np.roll(ring, 1)
    return Links(U=U, D=D, L=L, R=R, top=top, length=length, row_start=row_start, row_of=row_of, node_opt=node_opt)


def _columns(top: np.ndarray, root: int, n_head: int, n_nodes: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """U, D, length: every column a circular list of its header and its nodes in node order."""
    U = np.arange(n_nodes, dtype=np.int32)
    D = np.arange(n_nodes, dtype=np.int32)
    nodes = np.arange(root + 1, n_nodes, dtype=np.int32)
    order = nodes[np.argsort(top[root + 1 :], kind="stable")]
    cols = top[order]
    length = np.bincount(cols, minlength=n_head).astype(np.int32)[:n_head]
    if len(order):
        last = np.append(cols[:-1] != cols[1:], True)  # the last node of its column
        first = np.append(True, cols[1:] != cols[:-1])
        D[order] = np.where(last, cols, np.roll(order, -1))
        U[order] = np.where(first, cols, np.roll(order, 1))
        D[cols[first]] = order[first]
        U[cols[last]] = order[last]
    return U, D, length


class DlxDriver(Driver):
    """The dancing-links kernel's driver: its tables, links and stack by name."""

    kernel = kernel
    PLACE = PLACE

    def __init__(
        self, cover: Cover, sym: Symmetry | None, plan: PlanFields, *, store: bool, limit: int, **kw: Any
    ) -> None:
        super().__init__(cover, sym, plan, store=store, limit=limit, **kw)  # (keeps option order)
        self.pristine = build_links(
            cover.n_items, len(cover.piece_count), cover.opt_ptr, cover.opt_items, cover.opt_piece, plan.keep
        )
        self.item = np.zeros(self.depth, dtype=np.int32)
        self.x = np.zeros(self.depth, dtype=np.int32)
        self.hit = np.zeros(cover.n_items, dtype=np.bool_)
        self.undo = np.zeros(cover.n_items + len(cover.piece_count), dtype=np.int64)
        self.tables = DlxTables(n_items=int(cover.n_items), opt_ptr=cover.opt_ptr, opt_items=cover.opt_items)
        self.begin([np.zeros(0, dtype=np.int32)])

    def begin(self, prefixes: list[np.ndarray]) -> None:
        """Fresh links (a search stopped part way leaves some columns covered)."""
        super().begin(prefixes)
        links = Links(*(a.copy() for a in self.pristine))
        self.work = DlxStack(
            place=self.place,
            item=self.item,
            x=self.x,
            chosen=self.chosen,
            left=self.left,
            sink=self.sink,
            links=links,
            hit=self.hit,
            undo=self.undo,
        )
