"""Count the exact covers of a tiling cover by a frontier (transfer-matrix) sweep.

The items (a board's cells, numbered along its short side) are swept in order; a state is
which of the next 64 items are already covered, plus the copies used of every piece that
can run out (its copies times its size below the items) or must be used a least number of
times. Pieces with enough copies cost the state nothing, which is what makes "any number
of each piece" countable: 6x10 with the 12 pentominoes, 7,845,888,732 tilings, in one
sweep of 60 layers.

Exactness: the kernel (sweep.py) keeps each count modulo two primes below 2**61 and as a
float64. The float is a proven upper bound once inflated: a state's float is the sum, over
the paths that reach it, of 1 times a factor (1 + d), |d| <= u = 2**-53, for each rounded
addition the path's share went through; no share goes through more additions than the
sweep makes (T, counted, plus the final sum's), so the true count is at most the float
over (1 - u)**(2T), below exp(4uT) times it. When that bound is below the primes'
product, the CRT of the residues is the count; otherwise a second sweep keeps the count
modulo as many more primes as the bound needs. (A float that overflows falls back to the
product over the items of their option counts, which bounds the number of choice
sequences.)
"""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING, Callable, NamedTuple

from ..limits import Stopped
from . import exact

if TYPE_CHECKING:
    import numpy as np

    from ...core.cover import Cover
    from .resume import Checkpoint

WINDOW = 64
STATE_BYTES = 8 + 8 + 8  # key, float, a slot of the hash table (per prime: 8 more)
TABLE_FACTOR = 3  # the kernel's arrays and hash table while a layer grows, over one layer
FIRST_PRIMES = 2  # primes of the first sweep: counts below ~2**121 (6x30 by pentominoes) in one
# sweep; a residue more costs a few ns a transition, a second sweep all of them
SAVE_EVERY = 30.0  # seconds between two saves of a running sweep to its checkpoint
HASHED_STATES = 1 << 15  # layers up to this many states through a hash table (in the caches),
# larger ones merged in order (sweep.py; 20x20 dominoes' 184,756 states: 38 s hashed, 9 s merged)


class Plan(NamedTuple):
    """A cover in the sweep's terms (see sweep.py)."""

    n_items: int
    first: np.ndarray  # (n+1,) int64: options of item p are first[p]:first[p+1]
    rel: np.ndarray  # uint64 masks relative to their first item
    opt_field: np.ndarray  # int64: the tracked field of the option's piece, -1: none
    opt_w: np.ndarray  # int64: copies the option uses
    fields: np.ndarray  # (k, 4) int64 rows: shift, mask, cap, hard (shifts above the window)
    least: list[int]  # per field: copies that must be used
    order: np.ndarray  # the plan's option k is the cover's option order[k]
    window: int  # bits of a state's mask: the widest placement's span
    low: int  # bits of the soft fields, below the mask


class Counted(NamedTuple):
    """A sweep's answer."""

    solutions: int
    states: int  # the widest layer
    transitions: int
    primes: int  # how many primes the count needed


def why_not(cover: Cover) -> str | None:
    """Why the frontier cannot count this cover (None: it can)."""
    try:
        plan(cover)
    except ValueError as e:
        return str(e)
    return None


def plan(cover: Cover, weights: np.ndarray | None = None, base: Cover | None = None) -> Plan:
    """The sweep's data for `cover` (ValueError saying why there is none). `weights`: copies
    each option uses (1 by default; an orbit of placements uses one per placement); `base`:
    the cover whose pieces' sizes and items say which pieces can run out (by default
    `cover`; Burnside's fixed covers pass the board's)."""
    import numpy as np

    n = cover.n_items
    ptr = cover.opt_ptr.astype(np.int64)
    items = cover.opt_items.astype(np.int64)
    n_opt = len(ptr) - 1
    w = np.ones(n_opt, dtype=np.int64) if weights is None else weights.astype(np.int64)
    if n_opt == 0:
        empty = np.zeros(0, np.int64)
        return Plan(
            n, np.zeros(n + 1, np.int64), np.zeros(0, np.uint64), empty, w, np.zeros((0, 4), np.int64), [], empty, 1, 0
        )
    lengths = ptr[1:] - ptr[:-1]
    lo = items[ptr[:-1]]
    hi = items[ptr[1:] - 1]
    span = int((hi - lo).max()) + 1
    if span > WINDOW:
        raise ValueError(f"a placement spans {span} items in the sweep's order (the frontier holds {WINDOW})")
    owner = np.repeat(np.arange(n_opt), lengths)
    bits = np.left_shift(np.uint64(1), (items - lo[owner]).astype(np.uint64))
    rel = np.bitwise_or.reduceat(bits, ptr[:-1]) if len(bits) else np.zeros(0, np.uint64)
    order = np.argsort(lo, kind="stable")
    first = np.searchsorted(lo[order], np.arange(n + 1)).astype(np.int64)
    fields, least, field_of, low = _fields(cover, base if base is not None else cover, span)
    opt_field = field_of[cover.opt_piece.astype(np.int64)][order]
    rel = rel[order].astype(np.uint64) << np.uint64(low)
    return Plan(n, first, rel, opt_field, w[order], fields, least, order, span, low)


def _fields(cover: Cover, base: Cover, window: int) -> tuple[np.ndarray, list[int], np.ndarray, int]:
    """The tracked pieces' bit fields: a piece that can run out (hard: at most its copies,
    above the mask) or must be used a least number of times that the other pieces do not
    force (soft: saturates at its minimum, below the mask; see sweep.py for why); and the
    soft fields' bits."""
    import numpy as np

    sizes = base.piece_size.astype(np.int64)
    count, least = base.piece_count.astype(np.int64), base.piece_min.astype(np.int64)
    n = base.n_items
    most = np.minimum(count, n // np.maximum(1, sizes))  # copies that could ever be placed
    area = most * sizes
    placed = np.bincount(cover.opt_piece, minlength=len(count)) > 0
    tracked = []  # (piece, hard, cap, least)
    for k in range(len(count)):
        hard = bool(count[k] < n // max(1, int(sizes[k])))
        forced = int(area.sum() - area[k]) + (int(least[k]) - 1) * int(sizes[k]) < n  # (the others fall short)
        if placed[k] and (hard or (least[k] > 0 and not forced)):
            tracked.append((k, hard, int(count[k]) if hard else int(least[k]), 0 if forced else int(least[k])))
    low = sum(max(1, cap.bit_length()) for _, hard, cap, _ in tracked if not hard)
    rows: list[tuple[int, int, int, int]] = []
    mins: list[int] = []
    field_of = np.full(len(count), -1, dtype=np.int64)
    shifts = [0, low + window]  # next soft, next hard
    for k, hard, cap, need in sorted(tracked, key=lambda t: t[1]):
        width = max(1, cap.bit_length())
        field_of[k] = len(rows)
        rows.append((shifts[hard], (1 << width) - 1, cap, int(hard)))
        mins.append(need)
        shifts[hard] += width
    if shifts[1] > 64:
        raise ValueError(f"a state needs {shifts[1]} bits: the placements' span and the pieces' copies (64 at most)")
    return np.array(rows, dtype=np.int64).reshape(-1, 4), mins, field_of, low


def count(
    cover: Cover,
    *,
    weights: np.ndarray | None = None,
    base: Cover | None = None,
    deadline: float | None = None,
    memory: int | None = None,
    progress: Callable[[float], None] | None = None,
    checkpoint: str | None = None,
) -> Counted:
    """The exact number of exact covers of `cover` (Stopped at the deadline or the budget).
    `checkpoint`: a file where the sweep saves the layer it has reached (every
    resume.SAVE_EVERY seconds, and when stopped), and from which it resumes."""
    pl = plan(cover, weights, base)
    import numpy as np

    placed = np.bincount(cover.opt_piece, minlength=len(cover.piece_count)) > 0
    if (cover.piece_min[~placed] > 0).any():  # a piece that must be used has no place
        return Counted(0, 0, 0, 1)
    saved = None
    if checkpoint is not None:
        from .resume import Checkpoint, fingerprint

        data = (pl.first, pl.rel, pl.opt_field, pl.opt_w, pl.fields)
        saved = Checkpoint(checkpoint, fingerprint(data, f"{pl.n_items} {pl.window} {pl.low} {pl.least}"))
    first = exact.primes(FIRST_PRIMES)
    residues, approx, transitions, widest = _sweep(pl, first, deadline, memory, progress, 0.5, saved=saved, tag="a")
    k = exact.needed(_bound(pl, approx, transitions))
    if k <= FIRST_PRIMES:
        return Counted(exact.crt(residues, first), widest, transitions, FIRST_PRIMES)
    more = exact.primes(k)[FIRST_PRIMES:]
    rest, _, t2, _ = _sweep(pl, more, deadline, memory, progress, 0.5, 0.5, saved=saved, tag="b")
    value = exact.crt([*residues, *rest], exact.primes(k))
    return Counted(value, widest, transitions + t2, k)


def _bound(pl: Plan, approx: float, transitions: int) -> int:
    """A proven upper bound on the count (see the module's doc)."""
    if math.isfinite(approx):
        inflated = approx * math.exp(4.0 * transitions * 2.0**-53) * (1 + 2.0**-50)
        if math.isfinite(inflated):
            return int(inflated) + 1
    sizes = (pl.first[1:] - pl.first[:-1]).tolist()
    product = 1
    for s in sizes:
        product *= max(1, s)
    return product


def _sweep(
    pl: Plan,
    primes: tuple[int, ...],
    deadline: float | None,
    memory: int | None,
    progress: Callable[[float], None] | None,
    share: float,
    done_before: float = 0.0,
    hashed: int | None = None,
    saved: Checkpoint | None = None,
    tag: str = "",
) -> tuple[list[int], float, int, int]:
    """One sweep keeping counts modulo `primes`: the final residues, the float sum, the
    transitions made and the widest layer (`hashed`: layers up to this many states through
    the hash table, by default HASHED_STATES)."""
    import numpy as np

    n = pl.n_items
    keys = np.zeros(1, np.uint64)  # nothing covered, no copies used
    res = np.ones((1, len(primes)), np.uint64)
    approx = np.ones(1, np.float64)
    p_arr = np.array(primes, dtype=np.uint64)
    per_state = STATE_BYTES + 8 * len(primes)
    max_states = (1 << 62) if memory is None else max(1024, memory // (TABLE_FACTOR * per_state))
    transitions, widest, p, step, ordered = 0, 1, 0, 16, True
    if saved is not None:
        done = saved.result(tag)
        if done is not None:
            return done
        layer = saved.layer(tag)
        if layer is not None:
            p, keys, res, approx, transitions, widest = layer
            ordered = False
    last_save = time.perf_counter()
    try:
        while p < n:
            keys, res, approx, p, step, ordered, transitions, widest = _layers(
                pl, keys, res, approx, p, step, ordered, transitions, widest, p_arr, max_states, per_state, hashed
            )
            if len(keys) == 0:
                p = n
                break
            if deadline is not None and time.perf_counter() > deadline:
                raise Stopped("time limit", widest)
            if progress is not None:
                progress(done_before + share * p / n)
            if saved is not None and time.perf_counter() - last_save > SAVE_EVERY:
                saved.save_layer(tag, p, keys, res, approx, transitions, widest)
                last_save = time.perf_counter()
    except (Stopped, KeyboardInterrupt) as stop:
        if saved is not None and not (isinstance(stop, Stopped) and stop.reason == "memory budget"):
            saved.save_layer(tag, p, keys, res, approx, transitions, widest)
        raise
    total, approx_sum = _final(pl, keys, res, approx, primes)
    if saved is not None:
        saved.save_result(tag, total, approx_sum, transitions, widest)
    return total, approx_sum, transitions, widest


def _layers(
    pl: Plan,
    keys: np.ndarray,
    res: np.ndarray,
    approx: np.ndarray,
    p: int,
    step: int,
    ordered: bool,
    transitions: int,
    widest: int,
    p_arr: np.ndarray,
    max_states: int,
    per_state: int,
    hashed: int | None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, int, bool, int, int]:
    """One call of a kernel: about 20-100 ms of layers from item p (the step adapts), through
    the hash table or merged (layers past `hashed` states, sorted first)."""
    import numpy as np

    from .sweep import advance, advance_hashed  # (kernels.Deferred: the compiled variants when built)

    n = pl.n_items
    t = time.perf_counter()
    end = min(n, p + step)
    merging = len(keys) > (HASHED_STATES if hashed is None else hashed)
    if merging and not ordered:
        order = np.argsort(keys, kind="stable")
        keys, res, approx = keys[order], res[order], approx[order]
    kernel = advance if merging else advance_hashed
    keys, res, approx, reached, moved, wide = kernel(
        keys,
        res,
        approx,
        pl.first,
        pl.rel,
        pl.opt_field,
        pl.opt_w,
        pl.fields,
        pl.low,
        pl.window,
        p_arr,
        p,
        end,
        max_states,
    )
    transitions += moved
    widest = max(widest, wide)
    if reached < end:
        raise Stopped("memory budget", widest, widest * per_state * TABLE_FACTOR)
    spent = time.perf_counter() - t
    step = max(1, min(n, step * 2 if spent < 0.02 else step // 2 if spent > 0.1 else step))
    return keys, res, approx, reached, step, merging, transitions, widest


def _final(
    pl: Plan, keys: np.ndarray, res: np.ndarray, approx: np.ndarray, primes: tuple[int, ...]
) -> tuple[list[int], float]:
    """The residues and the float of the final states whose pieces reached their minimums."""
    if len(keys) == 0:
        return [0] * len(primes), 0.0
    ok = _complete(keys, pl)
    total = [int(x) % q for x, q in zip(res[ok].astype(object).sum(axis=0).tolist(), primes)]
    return total, float(approx[ok].sum())


def _complete(codes: np.ndarray, pl: Plan) -> np.ndarray:
    """The final states whose tracked pieces reached their minimums."""
    import numpy as np

    ok = np.ones(len(codes), dtype=bool)
    for (shift, mask, _, _), least in zip(pl.fields.tolist(), pl.least):
        if least:
            ok &= ((codes >> np.uint64(shift)) & np.uint64(mask)) >= np.uint64(least)
    return ok


def exercise() -> None:
    """A tiny sweep with one prime and with two, a piece tracked and not (the kernel's
    argument types as a count passes them): the ahead-of-time build's exercise, and the
    warm-up before a count's clock starts."""
    import numpy as np

    from ...core.cover import Cover

    for copies in (2, 1):  # 2 x 2 dominoes: every copy needed, then too few
        cover = Cover(
            n_items=4,
            opt_ptr=np.array([0, 2, 4, 6, 8], dtype=np.int64),
            opt_items=np.array([0, 1, 0, 2, 1, 3, 2, 3], dtype=np.int32),
            opt_piece=np.zeros(4, dtype=np.int32),
            piece_count=np.array([copies], dtype=np.int32),
            piece_min=np.zeros(1, dtype=np.int32),
            neighbours=np.full((4, 0), -1, dtype=np.int32),
        )
        pl = plan(cover)
        for hashed in (HASHED_STATES, 0):  # through the hash table, then merged
            _sweep(pl, exact.primes(1), None, None, None, 1.0, hashed=hashed)
            _sweep(pl, exact.primes(3)[1:], None, None, None, 1.0, hashed=hashed)
