"""The dancing-links tables built with numpy (engine/dlx/driver.build_links) against the
plain way they replace: appending every node to its column one by one (random covers)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from polytile.engine.dlx.driver import build_links


def plain_links(n_items, n_pieces, opt_ptr, opt_items, opt_piece, keep):
    """The loop version: each kept option's nodes appended to their columns in order."""
    n_head = n_items + n_pieces
    root = n_head
    opts = np.nonzero(keep)[0]
    lens = np.diff(opt_ptr)[opts] + 1
    n_nodes = root + 1 + int(lens.sum())
    top = np.empty(n_nodes, dtype=np.int32)
    top[: root + 1] = np.arange(root + 1)
    row_start = np.empty(len(opts) + 1, dtype=np.int32)
    row_start[0] = root + 1
    row_start[1:] = root + 1 + np.cumsum(lens)
    node_opt = np.full(n_nodes, -1, dtype=np.int32)
    row_of = np.full(n_nodes, -1, dtype=np.int32)
    for k, o in enumerate(opts):
        a, b = row_start[k], row_start[k + 1]
        row_of[a:b] = k
        top[a : b - 1] = opt_items[opt_ptr[o] : opt_ptr[o + 1]]
        top[b - 1] = n_items + opt_piece[o]
        node_opt[a:b] = o
    U = np.arange(n_nodes, dtype=np.int32)
    D = np.arange(n_nodes, dtype=np.int32)
    last = np.arange(n_head, dtype=np.int32)
    length = np.zeros(n_head, dtype=np.int32)
    for node in range(root + 1, n_nodes):
        c = top[node]
        U[node] = last[c]
        D[last[c]] = node
        last[c] = node
        length[c] += 1
    for c in range(n_head):
        D[last[c]] = c
        U[c] = last[c]
    L = np.arange(root + 1, dtype=np.int32)
    R = np.arange(root + 1, dtype=np.int32)
    ring = list(range(n_items)) + [root]
    for k, h in enumerate(ring):
        R[h] = ring[(k + 1) % len(ring)]
        L[h] = ring[k - 1]
    return U, D, L, R, top, length, row_start, row_of, node_opt


@st.composite
def covers(draw):
    n_items = draw(st.integers(1, 12))
    n_pieces = draw(st.integers(1, 5))
    options = draw(
        st.lists(
            st.tuples(st.sets(st.integers(0, n_items - 1), min_size=1), st.integers(0, n_pieces - 1), st.booleans()),
            max_size=25,
        )
    )
    ptr, items = [0], []
    for cells, _, _ in options:
        items += sorted(cells)
        ptr.append(len(items))
    return (
        n_items,
        n_pieces,
        np.array(ptr, dtype=np.int64),
        np.array(items, dtype=np.int32),
        np.array([p for _, p, _ in options], dtype=np.int32),
        np.array([k for _, _, k in options], dtype=bool),
    )


@settings(max_examples=300, deadline=None)
@given(covers())
def test_links_equal_the_plain_way(cover):
    for ours, plain in zip(build_links(*cover), plain_links(*cover)):
        assert ours.dtype == plain.dtype and np.array_equal(ours, plain)
