"""`polytile stats`: counts, where each piece goes, the hardest cells and the search's size."""

from __future__ import annotations

import json
import sys
from argparse import ArgumentParser
from pathlib import Path
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...errors import PuzzleError
from .args import Exit, bounded, flag, max_memory, no_reflect

if TYPE_CHECKING:
    import numpy as np
    from rich.console import Console

    from ...analysis.stats import Stats


def _cells(cells: Sequence[Sequence[int]] | np.ndarray) -> str:
    return " ".join("(" + ",".join(str(int(x)) for x in c) + ")" for c in cells)


def _share(n: int | None, total: int) -> str:
    if n is None:
        return "-"
    return f"{n} ({100 * n / total:.1f}%)" if total else str(n)


def _boundary_note(dim: int) -> str:
    if dim >= 3:
        return (
            "corner: a cell missing a neighbour along all three axes; edge: along at least two; "
            "face: along at least one (outside the board or a hole)"
        )
    return "corner: a cell missing a neighbour along both axes; edge: along at least one (outside the board or a hole)"


def _heading(con: Console, text: str) -> None:
    con.print()
    con.print(f"[bold]{text}[/]")


def render(st: Stats) -> None:
    """The figures as headed tables on the terminal."""
    from rich.console import Console

    con = Console(highlight=False)
    shape = " x ".join(map(str, st.shape))
    b = st.boundary_cells
    faces = f", {b['face']} on faces" if b["face"] is not None else ""
    flips = "may be mirrored" if st.reflect else "rotate only"
    con.print(
        f"[bold]{st.source}[/]: board {shape}, {st.cells} cells ({b['corner']} corners, "
        f"{b['edge']} on edges{faces}); {len(st.pieces)} piece{'s' if len(st.pieces) != 1 else ''}"
        f", {flips}"
    )
    so_far = "" if st.counted else " so far (the count stopped at the time limit)"
    con.print(f"solutions: [bold]{st.solutions}[/]   unique: [bold]{st.unique}[/]{so_far}")
    _pieces_table(con, st)
    _hardest_table(con, st)
    _difficulty_table(con, st)
    con.print("[dim]seconds: " + ", ".join(f"{k} {v:.3f}" for k, v in st.seconds.items()) + "[/]")


def _pieces_table(con: Console, st: Stats) -> None:
    """Where each piece goes, then its most frequent placements."""
    from rich.table import Table

    over = f"all {st.solutions} solutions" if st.complete else f"the first {st.examined} of {st.solutions} solutions"
    _heading(con, f"Pieces: in how many of {over} they touch a corner, an edge" + (", a face" if st.dim >= 3 else ""))
    table = Table()
    copies = any(p.copies > 1 for p in st.pieces)
    kinds = ["corner", "edge"] + (["face"] if st.dim >= 3 else [])
    partial = any(p.used < st.examined for p in st.pieces)
    cols = ["piece", "name"] + (["copies"] if copies else []) + ["placements"]
    cols += (["used"] if partial else []) + kinds
    for c in cols:
        table.add_column(c, justify="left" if c in ("piece", "name") else "right")
    for p in st.pieces:
        row = [p.letter, p.piece] + ([str(p.copies)] if copies else []) + [str(p.placements)]
        row += [_share(p.used, st.examined)] if partial else []
        table.add_row(*row, *[_share(p.touches[k], st.examined) for k in kinds])
    con.print(table)
    con.print(f"[dim]{_boundary_note(st.dim)}[/]")

    if st.examined:
        _heading(con, "Most frequent placements (one per class under the board's symmetries)")
        table = Table()
        for c in ("piece", "solutions", "images", "cells"):
            table.add_column(c, justify="left" if c in ("piece", "cells") else "right")
        for p in st.pieces:
            for i, (cells, n, m) in enumerate(p.top):
                table.add_row(p.letter if i == 0 else "", str(n), str(m), _cells(cells))
        con.print(table)
        con.print("[dim]solutions: how many use the placement; images: placements the board's symmetries make of it[/]")


def _hardest_table(con: Console, st: Stats) -> None:
    from rich.table import Table

    _heading(con, "Hardest cells (fewest placements covering them)")
    table = Table()
    table.add_column("cell")
    table.add_column("placements", justify="right")
    for cell, n in st.hardest:
        table.add_row(_cells([cell]), str(n))
    con.print(table)


def _difficulty_table(con: Console, st: Stats) -> None:
    from rich.table import Table

    e = st.estimate
    _heading(con, "Difficulty (the search fills the first empty cell)")
    table = Table(show_header=False)
    table.add_column("what")
    table.add_column("value", justify="right")
    first = "nodes to the first solution" if st.solutions else "nodes to prove there is no solution"
    table.add_row(first, f"{st.first_nodes:,} ({st.first_seconds * 1000:.1f} ms)")
    rel = f" ± {100 * e.stderr / e.nodes:.0f}%" if e.nodes else ""
    table.add_row(f"search tree, Knuth's estimate ({e.probes} probes, seed {e.seed})", f"{e.nodes:,.0f}{rel}")
    if st.tree_nodes is not None:
        how = {
            "dlx": "fewest-options branching, another tree",
            "wide": "dead regions pruned",
            "bitboard": "isolated cells pruned",
        }.get(st.engine, "")
        table.add_row(f"search tree, counted ({st.engine} kernel, {how})", f"{st.tree_nodes:,}")
    else:
        table.add_row("search tree, counted", "not run (too large, or refuted without search)")
    con.print(table)


def arguments(p: ArgumentParser) -> None:
    """Declare `stats`' options (called only when the verb is named)."""
    p.add_argument(
        "puzzle",
        type=Path,
        metavar="PUZZLE",
        help="Puzzle file: an ASCII drawing, polytile JSON or BurrTools .xmpuzzle (its first problem).",
    )
    no_reflect(p)
    flag(p, "--json", "Print one JSON object.", dest="as_json")
    p.add_argument(
        "--max-solutions",
        type=bounded(int, 1),
        default=200_000,
        metavar="N",
        help="Per-piece figures over at most N solutions.",
    )
    p.add_argument("--probes", type=bounded(int, 1), default=10_000, help="Random paths for the tree estimate.")
    p.add_argument("--seed", type=int, default=0, help="Seed of the random paths.")
    p.add_argument(
        "--time-limit",
        type=bounded(float, 0),
        metavar="SECONDS",
        help="Stop the searches after this many seconds in all: the figures so far (exit 124).",
    )
    max_memory(p)
    p.set_defaults(run=stats)


def stats(
    puzzle: Path,
    no_reflect: bool,
    as_json: bool,
    max_solutions: int,
    probes: int,
    seed: int,
    time_limit: float | None,
    max_memory: int,
) -> None:
    """Statistics: solutions, where each piece goes, the hardest cells, the search's size."""
    from ...tiling.solver import Tiling, load
    from ...analysis.stats import Interrupted, collect

    tiling = Tiling(load(puzzle).puzzle, max_memory)
    if not tiling.puzzle.board.grid.boxes:  # corners and edges are square-grid notions
        raise PuzzleError(
            f"stats works on the square grid only, not on the {tiling.puzzle.board.grid} grid", str(puzzle)
        )
    for note in tiling.notes:
        print(note, file=sys.stderr)
    if no_reflect:
        tiling = tiling.no_reflect()
    try:
        st = collect(tiling, max_solutions, probes, seed, time_limit)
    except Interrupted:
        print("polytile stats: interrupted", file=sys.stderr)
        raise Exit(130) from None
    for r in st.reasons:
        print(f"no solution: {r}", file=sys.stderr)
    if as_json:
        print(json.dumps(st.to_json()))
    else:
        render(st)
    if st.timed_out:
        print("polytile stats: time limit reached: the figures so far (incomplete)", file=sys.stderr)
        raise Exit(124)
