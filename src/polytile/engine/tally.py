"""Every packing of a set of pieces into a frame, tallied by the items it leaves open.

A calendar puzzle asks the same question for hundreds of dates: which packings of all the
pieces leave exactly this month, this day (and this weekday) open? Rather than one search
per date, one search visits every packing that leaves exactly one item of each *group*
open (one month, one day, ...) and adds it to the count of its open set: a packing is a
solution of exactly one date, so the tallies of all dates cost one tree.

The data, knowing no geometry (at most 64 items, as bits of a uint64):
- `full`: the items to fill; `init`: those filled before the search (the open cells of a
  date when one date is counted; 0 for a tally);
- options sorted by their lowest item: `start[i]..start[i+1]` are those whose lowest item
  is i, `masks[o]` their items, `piece[o]` their piece (each piece placed once);
- `group[i]`: the group of item i (-1: it must be covered), `weight[i]`: its place in the
  tally (rank in its group times the group's stride), so that the open set of a packing
  is the sum of its open items' weights, an index into `counts`.

The search fills the lowest empty item; there it either leaves the item open (when it is
in a group that has none open yet) or places an option whose lowest item it is. A leaf
(no empty item) is a packing: every piece is placed and every group has one item open
when the areas agree (the caller checks: pieces' area = items - groups). `stored` keeps
the option ids of the first packings found (for drawing them), -1 padded.
"""
from __future__ import annotations

import numpy as np

from .kernels import njit     # numba imported only when its JIT is needed (see kernels.py)


@njit(cache=True, inline="always")
def _lowest(bits):
    """The index of the lowest set bit of a non-zero uint64."""
    i = 0
    while (bits & np.uint64(0xFFFF)) == np.uint64(0):
        bits >>= np.uint64(16)
        i += 16
    while (bits & np.uint64(1)) == np.uint64(0):
        bits >>= np.uint64(1)
        i += 1
    return i


@njit(cache=True, inline="always")
def _grow(region, empty, shift, shift_mask):
    """`region` grown by one step to its neighbours inside `empty`."""
    out = region
    for k in range(len(shift)):
        moved = region & shift_mask[k]
        out |= (moved << np.uint64(shift[k])) if shift[k] > 0 else (moved >> np.uint64(-shift[k]))
    return out & empty


@njit(cache=True, inline="always")
def feasible(empty, opened, shift, shift_mask, group_mask):
    """A cheap dead-end test: every empty item without an empty neighbour (no piece can
    cover it) must be one that may stay open: in a group not yet open, at most one per
    group; and every group not yet open must keep an empty item."""
    one = np.uint64(1)
    alone = empty & ~_grow(np.uint64(0), empty, shift, shift_mask)
    for k in range(len(shift)):
        moved = empty & shift_mask[k]
        alone &= ~((moved << np.uint64(shift[k])) if shift[k] > 0 else (moved >> np.uint64(-shift[k])))
    for g in range(len(group_mask)):
        inside = alone & group_mask[g]
        if (opened >> np.uint64(g)) & one != np.uint64(0):
            if inside != np.uint64(0):
                return False
        elif empty & group_mask[g] == np.uint64(0) or inside & (inside - one) != np.uint64(0):
            return False
        alone &= ~inside
    return alone == np.uint64(0)


@njit(cache=True, nogil=True)
def tally(words, start, masks, piece, group, weight, counts, stored, stats,
          shift, shift_mask, group_mask):
    """Count every packing by its open set into `counts`; keep the first len(stored) in
    `stored`; stats = [nodes, packings stored]. words = [full, init]. Dead ends are cut
    by `feasible` (neighbours: item bits moved by `shift[k]` after `& shift_mask[k]`)."""
    full, init = words[0], words[1]
    one = np.uint64(1)
    levels = stored.shape[1] + 64 if stored.shape[0] > 0 else 128
    cell = np.zeros(levels, np.int64)
    nxt = np.zeros(levels, np.int64)          # next option to try; start[c] - 1: the open choice
    took = np.full(levels, -2, np.int64)      # option placed (-1: left open, -2: nothing yet)
    covered, used, opened, key, nodes, kept = init, np.uint64(0), np.uint64(0), 0, 0, 0
    if covered == full:
        counts[0] += 1
        stats[0], stats[1] = 0, 0
        return 0
    cell[0] = _lowest(full & ~covered)
    nxt[0] = start[cell[0]] - 1
    d = 0
    while d >= 0:
        c = cell[d]
        t = took[d]                            # undo this level's last choice
        if t == -1:
            covered ^= one << np.uint64(c)
            opened ^= one << np.uint64(group[c])
            key -= weight[c]
        elif t >= 0:
            covered ^= masks[t]
            used ^= one << np.uint64(piece[t])
        took[d] = -2
        o = nxt[d]
        if o == start[c] - 1:
            o += 1
            g = group[c]
            if g >= 0 and (opened >> np.uint64(g)) & one == np.uint64(0):
                took[d], nxt[d] = -1, o
                covered |= one << np.uint64(c)
                opened |= one << np.uint64(g)
                key += weight[c]
        if took[d] == -2:
            end = start[c + 1]
            while o < end and ((masks[o] & covered) != np.uint64(0)
                               or (used >> np.uint64(piece[o])) & one != np.uint64(0)):
                o += 1
            if o == end:
                d -= 1
                continue
            took[d], nxt[d] = o, o + 1
            covered |= masks[o]
            used |= one << np.uint64(piece[o])
        nodes += 1
        if covered != full and not feasible(full & ~covered, opened, shift, shift_mask, group_mask):
            continue
        if covered == full:
            counts[key] += 1
            if kept < stored.shape[0]:
                j = 0
                for e in range(d + 1):
                    if took[e] >= 0 and j < stored.shape[1]:
                        stored[kept, j] = took[e]
                        j += 1
                kept += 1
            continue
        d += 1
        cell[d] = _lowest(full & ~covered)
        nxt[d] = start[cell[d]] - 1
        took[d] = -2
    stats[0], stats[1] = nodes, kept
    return nodes
