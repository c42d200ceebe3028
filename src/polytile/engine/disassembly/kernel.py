"""One breadth-first search of a disassembly: from a start state of k pieces, the shortest
sequence of translations to the first state where a group of pieces comes free, found in
the order BurrTools' disassembler_0 finds it (so that its choice on ties is the same).

Geometry arrives as arrays only: `occ[p, x, y, z]` the voxels of piece p in one frame (the
assembly's box, in BurrTools' voxel coordinates), `lo`/`hi` each piece's bounding box
there, `steps` the grid's unit translations (one row each: the directions are +steps[n]
and -steps[n], in that order), `grid` its gap rules. A state is each piece's translation
(sums of steps, `pos[p]`).

The rules, as BurrTools (movementanalysator.cpp, disassembler_0.cpp) has them:

- `gap(i, j, n)`: how far piece i can move along +steps[n] with j fixed (FREE: no end).
  When the steps are the axes (the cube grid): scanning each line that crosses both
  bounding boxes from a voxel of i to the next voxel of j (movementcache_0.cpp); else
  each voxel of i walks step by step until one of the voxels the grid's table names for
  its type (the triangle pointing up or down) is j's (movementcache_1.cpp);
- a move of piece p by s steps in a direction drags along every piece it would hit
  (transitively); it is a move when at most `limit` pieces move;
- the candidates of a state, in order: for each direction and piece, the piece alone
  slides out (s = infinity, at most one piece); then a group of at most k // 2; then, for
  each direction, each piece and s = 1, 2, ... while the move exists, the move, then its
  mergers with the moves found before in this direction (same amount, the union of the
  moved pieces), newest first; a move met before in this direction is skipped;
- when the moving group weighs more than the still one (the heaviest piece of each), the
  still group moves the other way instead;
- states equal up to a common translation are one; the search keeps three fronts (the
  states one step back, on the current front and on the next), so a state older than
  that counts as new again, as in BurrTools;
- the first candidate that separates ends the search.
"""

from __future__ import annotations

import numpy as np

from ..kernels import njit  # numba imported only when its JIT is needed (see kernels.py)

FREE = 32000  # a gap with nothing in the way
OUT = 30000  # the amount of a move that takes pieces out
FOUND, APART_NOT, TOO_BIG, STOPPED = 1, 0, -1, -2  # search's status
_OFF = 1024  # translation offsets in the gap cache's keys: -1024..1023 per axis


@njit(cache=True)
def _filled(occ: np.ndarray, p: int, x: int, y: int, z: int) -> bool:
    if x < 0 or y < 0 or z < 0 or x >= occ.shape[1] or y >= occ.shape[2] or z >= occ.shape[3]:
        return False
    return occ[p, x, y, z] != 0  # type: ignore[no-any-return]


@njit(cache=True)
def _gap_axis(occ: np.ndarray, lo: np.ndarray, hi: np.ndarray, i: int, j: int, r: np.ndarray, a: int) -> int:
    """How far piece i moves along +axis a before it hits piece j (j translated by r
    relative to i): BurrTools' movementCache_0_c::moCalcValues for one axis."""
    b, c = (a + 1) % 3, (a + 2) % 3
    b1, b2 = max(lo[i, b], lo[j, b] + r[b]), min(hi[i, b], hi[j, b] + r[b])
    c1, c2 = max(lo[i, c], lo[j, c] + r[c]), min(hi[i, c], hi[j, c] + r[c])
    a1, a2 = lo[i, a], max(hi[i, a], hi[j, a] + r[a])
    best = FREE
    q = np.zeros(3, np.int64)
    for u in range(b1, b2 + 1):
        for v in range(c1, c2 + 1):
            gap = FREE
            for w in range(a1, a2 + 1):
                q[a], q[b], q[c] = w, u, v
                if _filled(occ, i, q[0], q[1], q[2]):
                    gap = 0
                elif _filled(occ, j, q[0] - r[0], q[1] - r[1], q[2] - r[2]):
                    if gap < best:
                        best = gap
                else:
                    gap += 1
    return best


@njit(cache=True)
def _gap_walk(
    occ: np.ndarray, lo: np.ndarray, hi: np.ndarray, i: int, j: int, r: np.ndarray, grid: np.ndarray, n: int
) -> int:
    """How far piece i moves along +direction n before it hits piece j (j translated by r
    relative to i), by walking each voxel of i one unit step at a time and looking at the
    voxels the grid's table says must be empty: BurrTools' movementCache_1_c::moCalcValues
    (any grid whose steps are not one axis each)."""
    ntypes = grid[0, 0]
    best = FREE
    for x in range(lo[i, 0], hi[i, 0] + 1):
        for y in range(lo[i, 1], hi[i, 1] + 1):
            for z in range(lo[i, 2], hi[i, 2] + 1):
                if occ[i, x, y, z] == 0:
                    continue
                t = (x * grid[0, 1] + y * grid[0, 2] + z * grid[0, 3]) % ntypes
                row = 1 + n * (1 + ntypes) + 1 + t  # this direction's checks for voxel type t
                step = 1 + n * (1 + ntypes)
                xp, yp, zp = x - r[0], y - r[1], z - r[2]
                for d in range(best):
                    if _beyond(grid[step, 1], xp, lo[j, 0], hi[j, 0]):
                        break
                    if _beyond(grid[step, 2], yp, lo[j, 1], hi[j, 1]):
                        break
                    if _beyond(grid[step, 3], zp, lo[j, 2], hi[j, 2]):
                        break
                    for c in range(grid[row, 0]):
                        o = 1 + 3 * c
                        if _filled(occ, j, xp + grid[row, o], yp + grid[row, o + 1], zp + grid[row, o + 2]):
                            if d < best:
                                best = d
                            break
                    xp += grid[step, 1]
                    yp += grid[step, 2]
                    zp += grid[step, 3]
                if best == 0:
                    return 0
    return best


@njit(cache=True)
def _beyond(s: int, v: int, low: int, high: int) -> bool:
    return (s > 0 and v > high + 2) or (s < 0 and v < low - 2)


@njit(cache=True)
def _gaps(
    occ: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    pos: np.ndarray,
    grid: np.ndarray,
    keys: np.ndarray,
    vals: np.ndarray,
    out: np.ndarray,
) -> None:
    """out[n, i, j]: gap(i, j, n) in the state `pos`, through a cache keyed by the pair
    and their relative translation (open addressing in keys/vals; emptied when full)."""
    k = pos.shape[0]
    ndir = out.shape[0]
    line = grid[0, 0] == 0  # the steps are the axes: scan lines (BurrTools' movementCache_0_c)
    r = np.zeros(3, np.int64)
    mask = keys.shape[0] - 1
    for i in range(k):
        for j in range(k):
            if i == j:
                for n in range(ndir):
                    out[n, i, j] = 0
                continue
            inside = True
            for a in range(3):
                r[a] = pos[j, a] - pos[i, a]
                if r[a] < -_OFF or r[a] >= _OFF:
                    inside = False
            key = np.int64(-1)
            slot = 0
            if inside:
                key = (((i * k + j) * 2048 + r[0] + _OFF) * 2048 + r[1] + _OFF) * 2048 + r[2] + _OFF
                slot = (key * 0x9E3779B1) & mask
                while keys[slot] != -1 and keys[slot] != key:
                    slot = (slot + 1) & mask
                if keys[slot] == key:
                    v = vals[slot]
                    for n in range(ndir):
                        out[n, i, j] = (v >> (16 * n)) & 0xFFFF
                    continue
            for n in range(ndir):
                out[n, i, j] = _gap_axis(occ, lo, hi, i, j, r, n) if line else _gap_walk(occ, lo, hi, i, j, r, grid, n)
            if inside:
                if vals[mask + 1] * 10 > 7 * (mask + 1):  # the cache is full: start again
                    keys[:] = -1
                    vals[mask + 1] = 0
                    slot = (key * 0x9E3779B1) & mask
                keys[slot] = key
                v = np.int64(0)
                for n in range(ndir):
                    v |= out[n, i, j] << (16 * n)
                vals[slot] = v
                vals[mask + 1] += 1


@njit(cache=True)
def _drag(g: np.ndarray, p: int, d: int, step: int, limit: int, moving: np.ndarray) -> bool:
    """The pieces that move when piece p moves `step` in direction d (BurrTools'
    checkmovement): False when more than `limit` would."""
    k = moving.shape[0]
    a = d >> 1
    moving[:] = False
    moving[p] = True
    todo = np.empty(k, np.int64)
    todo[0] = p
    n, count = 1, 1
    while n > 0:
        n -= 1
        i = todo[n]
        for j in range(k):
            if moving[j]:
                continue
            free = g[a, i, j] if (d & 1) == 0 else g[a, j, i]
            if step > free:
                count += 1
                if count > limit:
                    return False
                moving[j] = True
                todo[n] = j
                n += 1
    return True


@njit(cache=True)
def _orient(moving: np.ndarray, weight: np.ndarray, d: int) -> int:
    """BurrTools' newNode: when the moving pieces weigh more than the still ones, the still
    ones move the other way (moving flipped in place); the direction that results."""
    move_w, still_w = 0, 0
    for i in range(moving.shape[0]):
        if moving[i]:
            move_w = max(move_w, weight[i])
        else:
            still_w = max(still_w, weight[i])
    if still_w < move_w:
        for i in range(moving.shape[0]):
            moving[i] = not moving[i]
        return d ^ 1
    return d


@njit(cache=True)
def _hash(st: np.ndarray) -> np.int64:
    h = np.int64(0x17FE3B3C)
    for p in range(1, st.shape[0]):
        for a in range(3):
            h = (h * 1000003 + (st[p, a] - st[0, a])) & 0x7FFFFFFFFFFF
    return h


@njit(cache=True)
def _same(s: np.ndarray, t: np.ndarray) -> bool:
    for p in range(1, s.shape[0]):
        for a in range(3):
            if s[p, a] - s[0, a] != t[p, a] - t[0, a]:
                return False
    return True


@njit(cache=True)
def _lookup(table: np.ndarray, pos: np.ndarray, st: np.ndarray, h: np.int64) -> tuple[int, int]:
    """(slot, node) of state st in the node table; node -1 when absent (slot: where it goes)."""
    mask = table.shape[0] - 1
    slot = h & mask
    while table[slot] >= 0:
        if _same(pos[table[slot]], st):
            return slot, table[slot]
        slot = (slot + 1) & mask
    return slot, -1


@njit(cache=True)
def _grow(table: np.ndarray, pos: np.ndarray, count: int) -> np.ndarray:
    """The node table at twice the size, the nodes below `count` entered again (the
    latest of equal states wins, as the table held it)."""
    new = np.full(table.shape[0] * 2, -1, np.int32)
    for t in range(table.shape[0]):
        node = table[t]
        if node >= 0:
            slot, _ = _lookup(new, pos, pos[node], _hash(pos[node]))
            new[slot] = node
    return new


@njit(cache=True)
def _step_state(st: np.ndarray, base: np.ndarray, moving: np.ndarray, steps: np.ndarray, d: int, amount: int) -> None:
    sign = -1 if (d & 1) else 1
    for p in range(st.shape[0]):
        for a in range(3):
            st[p, a] = base[p, a] + (sign * amount * steps[d >> 1, a] if moving[p] else 0)


@njit(cache=True)
def _in_list(found: np.ndarray, nfound: int, st: np.ndarray) -> bool:
    for f in range(nfound):
        if _same(found[f], st):
            return True
    return False


@njit(cache=True, nogil=True)
def search(
    occ: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    weight: np.ndarray,
    steps: np.ndarray,
    grid: np.ndarray,
    start: np.ndarray,
    max_nodes: int,
    control: np.ndarray,
) -> tuple[int, np.ndarray, np.ndarray, int, int]:
    """The first separation from `start` (k, 3): (status, path of states from start to the
    state before the separation (L, k, 3), the pieces that come out (k,), their direction
    (step * 2 + negative), nodes visited). status: FOUND, APART_NOT (no separation
    reachable), TOO_BIG (more than max_nodes states) or STOPPED (control[0] set by another
    thread: the time limit, Ctrl-C). control[1] counts the states entered, for progress.
    `grid`: the grid's gap rules (`table` in tiling/disassembly.py)."""
    k = start.shape[0]
    cap = 1024
    pos = np.empty((cap, k, 3), np.int64)
    parent = np.empty(cap, np.int32)
    depth = np.empty(cap, np.int32)
    table = np.full(4096, -1, np.int32)
    keys = np.full(1 << 14, -1, np.int64)
    vals = np.zeros((1 << 14) + 1, np.int64)
    ndir = steps.shape[0]
    g = np.empty((ndir, k, k), np.int64)
    moving = np.zeros(k, np.bool_)
    merged = np.zeros(k, np.bool_)
    st = np.empty((k, 3), np.int64)
    found = np.empty((64, k, 3), np.int64)  # this direction's moves (state), for mergers
    fmove = np.empty((64, k), np.bool_)  # their moved pieces in the direction d
    famount = np.empty(64, np.int64)
    pos[0] = start
    parent[0], depth[0] = -1, 0
    slot, _ = _lookup(table, pos, start, _hash(start))
    table[slot] = 0
    count, head = 1, 0
    half = k // 2
    while head < count:
        node = head
        head += 1
        if control[0] != 0:
            return STOPPED, pos[:0], moving, 0, count
        control[1] += 1
        base = pos[node]
        _gaps(occ, lo, hi, base, grid, keys, vals, g)
        for limit in (1, half):  # a piece alone, then a group, slides out
            for d in range(2 * ndir):
                for p in range(k):
                    if _drag(g, p, d, OUT, limit, moving):
                        nd = _orient(moving, weight, d)
                        return FOUND, _path(pos, parent, node), moving.copy(), nd, count
        for d in range(2 * ndir):
            nfound = 0
            for p in range(k):
                step = 1
                while _drag(g, p, d, step, half, moving):
                    nd = _orient(moving, weight, d)
                    _step_state(st, base, moving, steps, nd, step)
                    step += 1
                    if _in_list(found, nfound, st):
                        continue
                    if nfound + k + 2 >= found.shape[0]:
                        found, fmove, famount = _more(found, fmove, famount)
                    found[nfound] = st
                    fmove[nfound] = moving if nd == d else ~moving
                    famount[nfound] = step - 1
                    nfound += 1
                    newest = nfound - 1
                    pos, parent, depth, table, count = _enter(pos, parent, depth, table, count, st, node)
                    if count > max_nodes:
                        return TOO_BIG, pos[:0], moving, 0, count
                    for old in range(newest - 1, -1, -1):  # mergers with the moves before, newest first
                        if famount[old] != famount[newest]:
                            continue
                        if not _merge(fmove[newest], fmove[old], merged):
                            continue
                        md = _orient(merged, weight, d)
                        _step_state(st, base, merged, steps, md, famount[newest])
                        if _in_list(found, nfound, st):
                            continue
                        if nfound + k + 2 >= found.shape[0]:
                            found, fmove, famount = _more(found, fmove, famount)
                        found[nfound] = st
                        fmove[nfound] = merged if md == d else ~merged
                        famount[nfound] = famount[newest]
                        nfound += 1
                        pos, parent, depth, table, count = _enter(pos, parent, depth, table, count, st, node)
                        if count > max_nodes:
                            return TOO_BIG, pos[:0], moving, 0, count
    return APART_NOT, pos[:0], moving, 0, count


@njit(cache=True)
def _merge(m0: np.ndarray, m1: np.ndarray, out: np.ndarray) -> bool:
    """BurrTools' newNodeMerge: the union of two moves, when it moves some pieces but not
    all and differs from both."""
    moved, diff0, diff1 = 0, False, False
    for i in range(out.shape[0]):
        out[i] = m0[i] or m1[i]
        moved += out[i]
        diff0 |= m1[i] and not m0[i]
        diff1 |= m0[i] and not m1[i]
    return moved != 0 and moved != out.shape[0] and diff0 and diff1


@njit(cache=True)
def _more(found: np.ndarray, fmove: np.ndarray, famount: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n = found.shape[0]
    f2 = np.empty((2 * n, found.shape[1], 3), np.int64)
    m2 = np.empty((2 * n, found.shape[1]), np.bool_)
    a2 = np.empty(2 * n, np.int64)
    f2[:n], m2[:n], a2[:n] = found, fmove, famount
    return f2, m2, a2


@njit(cache=True)
def _enter(
    pos: np.ndarray, parent: np.ndarray, depth: np.ndarray, table: np.ndarray, count: int, st: np.ndarray, node: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """Add state st reached from `node` unless it is on the previous, this or the next
    front; the arrays (grown when full) and the new count."""
    h = _hash(st)
    slot, known = _lookup(table, pos, st, h)
    if known >= 0 and depth[known] >= depth[node] - 1:
        return pos, parent, depth, table, count
    if count == pos.shape[0]:
        pos2 = np.empty((2 * count, pos.shape[1], 3), np.int64)
        par2 = np.empty(2 * count, np.int32)
        dep2 = np.empty(2 * count, np.int32)
        pos2[:count], par2[:count], dep2[:count] = pos[:count], parent[:count], depth[:count]
        pos, parent, depth = pos2, par2, dep2
    pos[count] = st
    parent[count] = node
    depth[count] = depth[node] + 1
    table[slot] = count
    count += 1
    if count * 2 > table.shape[0]:
        table = _grow(table, pos, count)
    return pos, parent, depth, table, count


@njit(cache=True)
def _path(pos: np.ndarray, parent: np.ndarray, node: int) -> np.ndarray:
    """The states from the start to `node`."""
    n, at = 0, node
    while at >= 0:
        n += 1
        at = parent[at]
    out = np.empty((n, pos.shape[1], 3), np.int64)
    at = node
    for i in range(n - 1, -1, -1):
        out[i] = pos[at]
        at = parent[at]
    return out


def exercise() -> None:
    """Run the search once with the argument types tiling/disassembly.py passes (for the
    ahead-of-time build: aot.py exports each kernel under the types it was called with)."""
    occ = np.zeros((2, 2, 1, 1), np.uint8)
    occ[0, 0, 0, 0] = occ[1, 1, 0, 0] = 1
    lo = np.array([[0, 0, 0], [1, 0, 0]], np.int64)
    start = np.zeros((2, 3), np.int64)
    line = np.zeros((4, 4), np.int64)  # the cube's table: scan lines
    search(
        occ, lo, lo.copy(), np.ones(2, np.int64), np.eye(3, dtype=np.int64), line, start, 1000, np.zeros(2, np.int64)
    )
