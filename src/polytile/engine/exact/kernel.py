"""Knuth's Algorithm C (TAOCP 7.2.2.1): exact cover with secondary items and colours, for
any matrix (`polytile cover`). The tiling kernels (bitboard, wide, dlx) count copies of
pieces; this one knows only items, so it solves what a DLX file can say.

Layout, as in Knuth's dlx1/dlx2: item i (1..N) has a header node i; nodes N+1.. are the
options, each a run of nodes between two spacers. A spacer's `top` is <= 0, its `up` the
first node of the option before it and its `down` the last node of the option after it.
`up`/`down` link the nodes of an item (circularly, through its header); `left`/`right` link
the active primary items around the root 0 (the secondary items hang on a second ring, so
covering them unlinks them the same way). `colour` is 0 for "no colour", > 0 for a colour,
and -1 for a node whose item already has its option's colour (purified).

Choosing item i: cover i; trying option x: commit every other node of x (cover a primary
or colourless secondary item; purify a coloured one, i.e. hide the options of another
colour there); a solution is reached when no primary item is left. Branching takes the
primary item with the fewest options (the first of them on ties, as dlx1 does).

The stack is explicit (`item`, `x`, `state`), so a call runs at most `budget` tries and the
next call resumes: time limits and Ctrl-C are kept by the Python driver (exact.driver)."""

from __future__ import annotations

import numpy as np

from ..bits import njit
from ..records import NODES, SOLUTIONS, STORED, Sink
from .records import ExactStack, Links
from ..status import BUFFER_FULL, DONE, LIMIT, PAUSED

ENTER, TRY, LEAVE = np.int64(0), np.int64(1), np.int64(2)


@njit(cache=True, inline="always")
def _hide(p: int, top: np.ndarray, up: np.ndarray, down: np.ndarray, colour: np.ndarray, length: np.ndarray) -> None:
    q = p + 1
    while q != p:
        x = top[q]
        if x <= 0:
            q = up[q]  # a spacer: back to the option's first node
        elif colour[q] < 0:
            q += 1  # purified: already out of its list
        else:
            u, d = up[q], down[q]
            down[u] = d
            up[d] = u
            length[x] -= 1
            q += 1


@njit(cache=True, inline="always")
def _unhide(p: int, top: np.ndarray, up: np.ndarray, down: np.ndarray, colour: np.ndarray, length: np.ndarray) -> None:
    q = p - 1
    while q != p:
        x = top[q]
        if x <= 0:
            q = down[q]  # a spacer: on to the option's last node
        elif colour[q] < 0:
            q -= 1
        else:
            u, d = up[q], down[q]
            down[u] = q
            up[d] = q
            length[x] += 1
            q -= 1


@njit(cache=True)
def _cover(i: int, links: Links) -> None:
    top, up, down, colour = links.top, links.up, links.down, links.colour
    length, left, right = links.length, links.left, links.right
    p = down[i]
    while p != i:
        _hide(p, top, up, down, colour, length)
        p = down[p]
    a, b = left[i], right[i]
    right[a] = b
    left[b] = a


@njit(cache=True)
def _uncover(i: int, links: Links) -> None:
    top, up, down, colour = links.top, links.up, links.down, links.colour
    length, left, right = links.length, links.left, links.right
    a, b = left[i], right[i]
    right[a] = i
    left[b] = i
    p = up[i]
    while p != i:
        _unhide(p, top, up, down, colour, length)
        p = up[p]


@njit(cache=True)
def _purify(p: int, links: Links) -> None:
    """Keep only the options that give item top[p] the colour of node p."""
    top, up, down, colour, length = links.top, links.up, links.down, links.colour, links.length
    c = colour[p]
    i = top[p]
    q = down[i]
    while q != i:
        if colour[q] != c:
            _hide(q, top, up, down, colour, length)
        elif q != p:  # p keeps its colour: _unpurify reads it
            colour[q] = -1
        q = down[q]


@njit(cache=True)
def _unpurify(p: int, links: Links) -> None:
    top, up, down, colour, length = links.top, links.up, links.down, links.colour, links.length
    c = colour[p]
    i = top[p]
    q = up[i]
    while q != i:
        if colour[q] < 0:
            colour[q] = c
        elif q != p:
            _unhide(q, top, up, down, colour, length)
        q = up[q]


@njit(cache=True)
def _commit(x: int, links: Links) -> None:
    """Take option x (node x's item is already covered): commit its other nodes."""
    top, up, colour = links.top, links.up, links.colour
    p = x + 1
    while p != x:
        j = top[p]
        if j <= 0:
            p = up[p]
        else:
            if colour[p] == 0:
                _cover(j, links)
            elif colour[p] > 0:
                _purify(p, links)
            p += 1


@njit(cache=True)
def _uncommit(x: int, links: Links) -> None:
    """Undo _commit(x), in the reverse order."""
    top, down, colour = links.top, links.down, links.colour
    p = x - 1
    while p != x:
        j = top[p]
        if j <= 0:
            p = down[p]
        else:
            if colour[p] == 0:
                _uncover(j, links)
            elif colour[p] > 0:
                _unpurify(p, links)
            p -= 1


@njit(cache=True)
def _choose(links: Links) -> tuple[int, int]:
    """The active primary item with the fewest options (the first on ties), and how many."""
    length, right = links.length, links.right
    best, best_len = -1, 1 << 30
    i = right[0]
    while i != 0:
        if length[i] < best_len:
            best, best_len = i, length[i]
            if best_len == 0:
                break
        i = right[i]
    return best, best_len


@njit(cache=True)
def _visit(d: int, x: np.ndarray, links: Links, sink: Sink, limit: int) -> int:
    """Count the solution x[0:d]; keep its options when there is a buffer. Returns the
    status to stop with, or -1 to go on."""
    stats, out = sink.stats, sink.out
    opt_of = links.opt_of
    stats[SOLUTIONS] += 1
    if out.shape[0] > 0:
        row = out[stats[STORED]]
        row[:] = -1
        for k in range(d):
            row[k] = opt_of[x[k]]
        stats[STORED] += 1
    if limit > 0 and stats[SOLUTIONS] >= limit:
        return LIMIT
    if out.shape[0] > 0 and stats[STORED] == out.shape[0]:
        return BUFFER_FULL
    return -1


@njit(cache=True, nogil=True)
def run(links: Links, work: ExactStack, sink: Sink, limit: int, budget: int) -> int:
    """Run at most `budget` tries. links: records.Links as exact.driver.build_links makes
    them; work: records.ExactStack (state [depth, phase], item, x); sink: engine.records.Sink
    (stats NODES, SOLUTIONS, STORED; out: rows of option numbers, -1 padded, or no rows to
    only count); limit: stop after that many solutions (0: never)."""
    state, item, x = work.state, work.item, work.x
    down = links.down
    stats = sink.stats
    d = state[0]
    phase = state[1]
    spent = 0
    while True:
        if phase == ENTER:
            if links.right[0] == 0:  # no primary item left: a solution
                phase = LEAVE
                stop = _visit(d, x, links, sink, limit)
                if stop >= 0:
                    state[0], state[1] = d, phase
                    return stop
                continue
            best, best_len = _choose(links)
            if best_len == 0:
                phase = LEAVE
                continue
            _cover(best, links)
            item[d] = best
            x[d] = down[best]
            phase = TRY
        elif phase == TRY:
            if x[d] == item[d]:
                _uncover(item[d], links)
                phase = LEAVE
                continue
            if spent >= budget:
                state[0], state[1] = d, phase
                return PAUSED
            spent += 1
            stats[NODES] += 1
            _commit(x[d], links)
            d += 1
            phase = ENTER
        else:
            if d == 0:
                state[0], state[1] = d, phase
                return DONE
            d -= 1
            _uncommit(x[d], links)
            x[d] = down[x[d]]
            phase = TRY
