"""Hole surveys: every placement of k holes in a board, up to the board's symmetry, each
board checked for tilability and its tilings counted.

One search does it all: the holes are k monominoes placed along with the pieces, so the
search lists every tiling of every board with k holes at once, and the tilings are
tallied by where the holes went (engine/grouped.py). Board symmetry cuts the work: one
piece is placed only in one position per orbit (as in symmetry breaking) and each tiling
found stands for its orbit's size in tilings; a class of hole sets then has
N(H) = (weighted tilings in the class) / |orbit(H)| tilings per board, an integer that
is checked. Boards without tilings get a reason: a region cut off (smaller than every
piece), a region of a size no choice of pieces fills, or the search.

Results go to SQLite as the search goes (one transaction per finished task, so a killed
survey resumes), then to a `boards` table and, if asked, a CSV file."""

from __future__ import annotations

import hashlib
import itertools
import math
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import numpy as np
from numba import njit

from ..core.cover import Cover, Model
from ..errors import PuzzleError
from ..core.puzzle import Board, Piece, Puzzle
from ..core.polyforms import polyforms
from ..formats import load
from ..engine.grouped import decode, tally_task
from ..engine.model import build_model
from ..engine.parallel.dealing import RESUMABLE_WORKERS, make_tasks
from ..engine.parallel.tasks import CountSetup, fingerprint
from ..engine.parallel.threads import on_threads
from ..engine.search import choose_engine, Plan, plan
from ..engine.warm import warm
from ..core.symmetry import Symmetry, analyse
from .survey_results import STATUS, BoardResult, Checkpoint, Survey, opened_checkpoint

PIECE_SETS = {"dominoes": 2, "trominoes": 3, "tetrominoes": 4, "pentominoes": 5, "hexominoes": 6}
MAX_HOLE_SETS = 5_000_000  # placements of the holes before symmetry
HOLE = "hole"
REASONS = {
    0: "",
    1: "a region is cut off (smaller than every piece)",
    2: "a region has a size no choice of pieces fills",
    3: "search: no tiling",
}


def piece_set(spec: str) -> list[Piece]:
    """A named set (one of each free n-omino: "pentominoes", ...) or a puzzle file's pieces."""
    if spec in PIECE_SETS:
        n = PIECE_SETS[spec]
        return [Piece(f.name, f.cells, np.zeros(n, dtype=np.int64)) for f in polyforms(n)]
    if not Path(spec).exists():
        raise PuzzleError(f"unknown piece set (expected {', '.join(PIECE_SETS)} or a puzzle file)", spec)
    return load(spec).pieces


def rectangle(width: int, height: int) -> np.ndarray:
    """The cells of a width x height board, row by row (the survey's boards are rectangles)."""
    return np.array([(r, c) for r in range(height) for c in range(width)], dtype=np.int64)


def hole_classes(perms: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Every k-set of items up to the permutations `perms` (|G|, n), which include the
    identity: (reps (m, k) ascending item indices, the smallest code of its class;
    orbit sizes (m,))."""
    n = perms.shape[1]
    total = math.comb(n, k)
    if total > MAX_HOLE_SETS:
        raise PuzzleError(f"{total:,} placements of {k} holes in {n} cells (limit {MAX_HOLE_SETS:,})", "--holes")
    sets = np.fromiter(
        itertools.chain.from_iterable(itertools.combinations(range(n), k)), dtype=np.int64, count=total * k
    ).reshape(total, k)
    codes = np.stack([encode(np.sort(p[sets], axis=1), n) for p in perms])  # (|G|, total)
    canon = codes.min(axis=0)
    is_rep = codes[0] == canon  # perms[0] is the identity
    ordered = np.sort(codes[:, is_rep], axis=0)
    orbit = 1 + (ordered[1:] != ordered[:-1]).sum(axis=0)
    return sets[is_rep], orbit


def encode(sets: np.ndarray, n: int) -> np.ndarray:
    """Ascending item sets (m, k) as integers (base n)."""
    code = np.zeros(len(sets), dtype=np.int64)
    for j in range(sets.shape[1]):
        code = code * n + sets[:, j]
    return code


F = TypeVar("F", bound=Callable[..., Any])


def compiled(fn: F) -> F:
    """numba's njit(cache=True), typed as the function it compiles (numba ships no types, so
    mypy would otherwise see the kernel as untyped)."""
    return cast(F, njit(cache=True)(fn))


@compiled
def _regions(sets: np.ndarray, neighbours: np.ndarray, size_ok: np.ndarray, smallest: int) -> np.ndarray:
    """Per hole set: 1 if a region is smaller than every piece, else 2 if a region has a
    size no choice of pieces fills, else 0."""
    n = neighbours.shape[0]
    out = np.zeros(len(sets), np.int8)
    seen = np.zeros(n, np.int64)
    stack = np.empty(n, np.int64)
    for s in range(len(sets)):
        stamp = 2 * s + 2
        for h in sets[s]:
            seen[h] = stamp + 1  # holes: never entered
        status = 0
        for start in range(n):
            if seen[start] >= stamp:
                continue
            seen[start] = stamp
            stack[0] = start
            top, size = 1, 0
            while top:
                top -= 1
                c = stack[top]
                size += 1
                for nb in neighbours[c]:
                    if nb >= 0 and seen[nb] < stamp:
                        seen[nb] = stamp
                        stack[top] = nb
                        top += 1
            if size < smallest:
                status = 1
                break
            if not size_ok[size]:
                status = 2
        out[s] = status
    return out


def fillable_sizes(pieces: list[Piece], n: int) -> np.ndarray:
    """Region sizes 0..n some choice of the pieces covers exactly."""
    sums = 1
    for p in pieces:
        for _ in range(min(p.count, n // max(1, p.size))):
            sums |= (sums << p.size) & ((2 << n) - 1)
    return np.array([(sums >> s) & 1 for s in range(n + 1)], dtype=np.bool_)


def survey_puzzle(cells: np.ndarray, pieces: list[Piece], holes: int) -> Puzzle:
    """The board with the holes as a piece of `holes` monominoes, so that one search places
    the holes with the pieces (a monomino piece would be told from a hole by nothing)."""
    if any(p.size == 1 for p in pieces):
        raise PuzzleError("monomino pieces cannot be told from holes", "--pieces")
    area = sum(p.size * p.count for p in pieces)
    if area + holes != len(cells):
        raise PuzzleError(
            f"the pieces cover {area} cells; the board less {holes} holes has {len(cells) - holes}", "--holes"
        )
    zeros = np.zeros(len(cells), dtype=np.int64)
    hole = Piece(HOLE, np.zeros((1, cells.shape[1]), dtype=np.int64), zeros[:1], holes, holes)
    return Puzzle(Board(cells, zeros), [*pieces, hole], True, [""], "survey")


def _survey_model(cells: np.ndarray, pieces_spec: str, holes: int) -> tuple[list[Piece], Model]:
    """The pieces and the model of the board with `holes` holes (refused when too many)."""
    if holes < 1:
        raise PuzzleError("at least one hole", "--holes")
    if math.comb(len(cells), holes) > MAX_HOLE_SETS:
        raise PuzzleError(
            f"{math.comb(len(cells), holes):,} placements of {holes} holes in "
            f"{len(cells)} cells (limit {MAX_HOLE_SETS:,})",
            "--holes",
        )
    pieces = piece_set(pieces_spec)
    model = build_model(survey_puzzle(cells, pieces, holes))
    if model.cover.n_options**holes >= 2**62:
        raise PuzzleError(f"too many holes to tally ({holes}) on a board of {len(cells)} cells", "--holes")
    return pieces, model


def run(
    width: int,
    height: int,
    holes: int,
    pieces_spec: str = "pentominoes",
    *,
    jobs: int = 0,
    db: str | None = None,
    progress: Callable[[int, int, float, int], None] | None = None,
) -> Survey:
    """Survey the width x height board with `holes` holes. `db`: the SQLite file (resumed
    when it exists); `progress(done, total, fraction, nodes)` after each task."""
    t0 = time.perf_counter()
    cells = rectangle(width, height)
    pieces, model = _survey_model(cells, pieces_spec, holes)
    cover = model.cover
    warm("auto", cover.n_items, parallel=True)
    sym = analyse(model)
    motions = sym.perms[sym.h_rows]  # the board symmetries that keep the puzzle
    reps, orbit = hole_classes(motions, holes)
    size_ok = fillable_sizes(pieces, len(cells))
    smallest = min(p.size for p in pieces)
    status = _regions(reps, cover.neighbours.astype(np.int64), size_ok, smallest)

    survey_plan, weight = _weighted_plan(cover, sym)
    tasks, sizes = make_tasks(cover, survey_plan, RESUMABLE_WORKERS)
    key = fingerprint(cover, survey_plan) + hashlib.sha256(weight.tobytes()).hexdigest()[:16] + f":{len(tasks)}"
    with opened_checkpoint(db, key) as checkpoint:
        result = Survey(
            width,
            height,
            holes,
            pieces_spec,
            hole_sets=int(orbit.sum()),
            tasks=len(tasks),
            resumed_tasks=len(checkpoint.finished),
        )
        setup = CountSetup(cover, None, survey_plan, choose_engine("auto", cover.n_items, len(cover.piece_count)), key)
        hole_piece = [p.name for p in model.puzzle.pieces].index(HOLE)
        _tally_tasks(setup, tasks, sizes, hole_piece, weight, checkpoint, result, jobs, progress)
        if result.complete:
            result.boards = _boards(model, motions, checkpoint.tally(), reps, orbit, status, holes)
            checkpoint.save_boards(result.boards)
    result.seconds = time.perf_counter() - t0
    return result


def _tally_tasks(
    setup: CountSetup,
    tasks: list[Any],
    sizes: list[float],
    hole_piece: int,
    weight: np.ndarray,
    checkpoint: Checkpoint,
    result: Survey,
    jobs: int,
    progress: Callable[[int, int, float, int], None] | None,
) -> None:
    """Search the tasks not yet in the checkpoint on `jobs` threads (0: every core), recording
    each task's tally as it finishes; Ctrl-C leaves the result incomplete."""
    result.nodes = sum(checkpoint.finished.values())
    whole = sum(sizes) or 1.0
    work = sum(sizes[i] for i in checkpoint.finished)
    n_done = len(checkpoint.finished)

    def done(i: int | None, out: tuple[dict[int, int], int], show: bool = True) -> None:
        nonlocal work, n_done
        tally, nodes = out
        if i is None:  # an interrupted task: thrown away
            return
        checkpoint.record(i, tally, nodes)
        result.nodes += nodes
        n_done += 1
        work += sizes[i]
        if progress is not None and show:
            progress(n_done, len(tasks), work / whole, result.nodes)

    def task(
        setup: CountSetup, chunk: list[np.ndarray], stop: threading.Event
    ) -> tuple[tuple[dict[int, int], int], bool]:
        tally, nodes, finished = tally_task(setup, chunk, hole_piece, weight, stop)
        return (tally, nodes), finished

    todo = [i for i in range(len(tasks)) if i not in checkpoint.finished]
    try:
        on_threads(setup, tasks, todo, jobs or os.cpu_count() or 1, done, task)
    except KeyboardInterrupt:
        result.complete = False


def _weighted_plan(cover: Cover, sym: Symmetry) -> tuple[Plan, np.ndarray]:
    """Symmetry breaking's first piece in one position per orbit, as a count places it,
    but every tiling listed (no canonical check) and weighted by its orbit's size:
    (the plan, the weight of each option)."""
    broken = plan(cover, sym, unique=False, store=False, second=False)
    weight = np.ones(cover.n_options, dtype=np.int64)
    if broken.sym_mode == 2:
        first = np.array([int(pre[0]) for pre in broken.prefixes])
        images = sym.label_img[sym.h_rows][:, sym.opt_label[first]]  # (|H|, reps)
        weight[first] = [len(set(col)) for col in images.T.tolist()]  # orbit sizes
    return Plan(broken.keep, 0, -1, False, broken.prefixes), weight


def _boards(
    model: Model,
    perms: np.ndarray,
    tally: dict[int, int],
    reps: np.ndarray,
    orbit: np.ndarray,
    status: np.ndarray,
    holes: int,
) -> list[BoardResult]:
    """Weighted tilings by hole set -> tilings per board of each class."""
    cover = model.cover
    n = cover.n_items
    class_of = {int(c): i for i, c in enumerate(encode(reps, n).tolist())}
    weighted = np.zeros(len(reps), dtype=object)
    weighted[:] = 0
    for key, w in tally.items():
        items = sorted(int(cover.opt_items[cover.opt_ptr[o]]) for o in decode(key, cover.n_options, holes))
        sets = np.sort(perms[:, items], axis=1)
        code = int(encode(sets, n).min())
        weighted[class_of[code]] += w
    out = []
    for i in range(len(reps)):
        tilings, rest = divmod(int(weighted[i]), int(orbit[i]))
        if rest:
            raise RuntimeError(f"survey tally not divisible by the orbit ({weighted[i]} / {orbit[i]})")
        why = int(status[i]) if not tilings else 0
        if not tilings and why == 0:
            why = 3
        if tilings and status[i]:
            raise RuntimeError("a board with a region that cannot be filled was tiled")
        cells = sorted(tuple(int(x) for x in model.cells[j]) for j in reps[i])
        out.append(BoardResult(cells, int(orbit[i]), tilings, STATUS[why]))
    return out
