"""`polytile count` and `polytile solve`: a tiling puzzle from a file."""

from __future__ import annotations

import json
import sys
import time
from argparse import ArgumentParser
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from ...errors import PuzzleError
from .args import Exit, bounded, flag, max_memory, no_reflect
from .output import FORMATS, check_file, check_format, piece_ids, show

if TYPE_CHECKING:
    from ...core.results import Report, Solution
    from ...tiling.solver import Tiling

ENGINES = ("auto", "bitboard", "wide", "dlx")
METHODS = ("auto", "frontier", "pfaffian", "memo", "enumerate")  # engine.counting.METHODS


def _err(msg: str) -> None:
    print(msg, file=sys.stderr)


def _load(
    path: Path, no_reflect: bool, problem: Optional[str] = None, budget: Optional[int] = None, disassemble: bool = False
) -> Tiling:
    from ...formats import load  # a file that cannot be read is refused before numpy loads

    if problem == "list":
        from .burr import list_problems

        list_problems(path)
    puzzle = load(path, problem=problem)
    from ...tiling.solver import Tiling

    tiling = Tiling(puzzle, budget)
    if disassemble:  # refused on a grid without unit translations, before any work
        from .disassemble import check_grid

        check_grid(tiling)
    for note in tiling.notes:
        _err(note)
    return tiling.no_reflect() if no_reflect else tiling


def _finish(report: Report[Solution], what: str) -> None:
    for r in report.reasons:
        _err(f"no solution: {r}")
    if report.interrupted:
        _err(f"interrupted: {what} so far (incomplete)")
        raise Exit(130)
    if report.timed_out:
        _err(f"time limit reached: {what} so far (incomplete)")
        raise Exit(124)


def _common(p: ArgumentParser) -> None:
    p.add_argument(
        "puzzle",
        type=Path,
        metavar="PUZZLE",
        help="Puzzle file: an ASCII drawing, polytile JSON or BurrTools .xmpuzzle.",
    )
    flag(p, "--unique", "Up to the board's symmetry.")
    no_reflect(p)
    p.add_argument(
        "--problem",
        metavar="N|NAME",
        help="Which problem of a BurrTools file: a number from 1 or a name (default the first; 'list' lists them).",
    )


def _search_options(p: ArgumentParser) -> None:
    p.add_argument("--time-limit", type=bounded(float, 0), metavar="SECONDS", help="Stop after this many seconds.")
    p.add_argument("--engine", choices=ENGINES, default="auto", help="Search kernel.")
    max_memory(p)


def count_arguments(p: ArgumentParser) -> None:
    """Declare `count`'s options: the puzzle, --json, --burr and the search's limits."""
    _common(p)
    flag(p, "--json", "Print one JSON object.", dest="as_json")
    flag(p, "--burr", "Also count assemblies as BurrTools does (lists every solution).")
    flag(p, "--disassemble", "Also count the BurrTools assemblies that come apart (burrTxt -d's solutions).")
    _search_options(p)
    p.add_argument(
        "--jobs",
        type=bounded(int, 0),
        metavar="N",
        help="Workers of an enumeration (default: every core; 1: no threads; N >= 2 enumerates).",
    )
    p.add_argument(
        "--checkpoint",
        type=Path,
        metavar="FILE",
        help="Resume file: enumerate's finished tasks (SQLite), or the frontier's sweep (--method frontier).",
    )
    p.add_argument("--scheduler", metavar="ADDRESS", help="Count on a Dask cluster (tcp://HOST:PORT).")
    p.add_argument(
        "--method",
        choices=METHODS,
        default="auto",
        help="How to count: frontier (a sweep, any number of copies), pfaffian (dominoes), memo (pieces used "
        "at most once), enumerate (visit every solution, on --engine's kernel); auto chooses.",
    )
    flag(p, "--dask", "Count on a Dask LocalCluster of --jobs worker processes.")
    p.set_defaults(run=count)


def count(
    puzzle: Path,
    unique: bool,
    no_reflect: bool,
    as_json: bool,
    time_limit: Optional[float],
    engine: str,
    jobs: Optional[int],
    checkpoint: Optional[Path],
    scheduler: Optional[str],
    dask: bool,
    problem: Optional[str] = None,
    burr: bool = False,
    max_memory: Optional[int] = None,
    method: str = "auto",
    disassemble: bool = False,
) -> None:
    """Count all solutions (and unique ones with --unique), on every core."""
    if scheduler and dask:
        raise PuzzleError("--scheduler and --dask: choose one", "--dask")
    if scheduler is not None:
        from ...engine.parallel.scheduler_probe import parse_address

        parse_address(scheduler)
    tiling = _load(puzzle, no_reflect, problem, max_memory, disassemble)
    t0 = time.monotonic()
    from ..progress import counting

    with counting() as progress:
        report = tiling.count(
            unique=unique,
            time_limit=time_limit,
            engine=engine,
            jobs=0 if jobs is None else jobs,
            checkpoint=str(checkpoint) if checkpoint else None,
            progress=progress,
            scheduler="local" if dask else scheduler,
            method=_method(method, engine, jobs, checkpoint, scheduler, dask, burr or disassemble),
        )
    figures = report.to_json()
    apart = None
    if disassemble and report.complete:
        from .disassemble import count_figures

        apart = count_figures(tiling, puzzle, problem, (time_limit, t0), max_memory, figures, jobs)
    elif burr and report.complete:
        from .burr import burr_figure

        figures["burrtools"] = burr_figure(tiling.puzzle, report.unique if unique else None)
    if as_json:
        print(json.dumps(figures))
    else:
        print("\n".join(report.text_lines(unique)))
        for key in ("burrtools", "disassemblable"):
            if key in figures:
                print(f"{key}: {figures[key]}")
    _finish(report, f"{report.solutions} solutions" if report.counted else f"no count (the {report.method} method)")
    if apart is not None:
        apart()  # exit 124 or 130 when the disassembly stopped early


def _method(
    method: str,
    engine: str,
    jobs: Optional[int],
    checkpoint: Optional[Path],
    scheduler: Optional[str],
    dask: bool,
    burr: bool,
) -> str:
    """The counting method: what lists or splits the tree (a kernel named by --engine, a
    checkpoint, a cluster, BurrTools' listing) enumerates; a forced method with any of them
    is refused."""
    wants_tree = engine != "auto" or scheduler is not None or dask or burr
    if method == "auto":
        return "enumerate" if wants_tree or checkpoint is not None else "auto"
    if method != "enumerate" and (wants_tree or (checkpoint is not None and method != "frontier")):
        raise PuzzleError(
            f"--method {method} counts on one thread without a search tree: "
            "--engine, --scheduler, --dask and --burr need --method enumerate "
            "(--checkpoint: enumerate's tasks, or the frontier's sweep)",
            "--method",
        )
    return method


def solve_arguments(p: ArgumentParser) -> None:
    """Declare `solve`'s options: the puzzle, how many solutions, how they are written."""
    _common(p)
    p.add_argument("--limit", type=bounded(int, 1), default=1, metavar="N", help="Show at most N solutions.")
    flag(p, "--all", "Show every solution.", dest="all_")
    p.add_argument(
        "--random",
        type=bounded(int, 1),
        metavar="N",
        help="Show N solutions drawn independently and exactly uniformly (with replacement) from all of them.",
    )
    p.add_argument("--seed", type=int, metavar="S", help="The random draws' seed (--random).")
    p.add_argument(
        "--format",
        dest="fmt",
        choices=FORMATS,
        default="text",
        help="text, json, matrix (piece numbers in the file's order), svg or png (png needs -o).",
    )
    p.add_argument("-o", "--output", type=Path, metavar="FILE", help="Write to FILE.")
    flag(p, "--disassemble", "Show how the BurrTools assemblies come apart (the moves; burrTxt -d -p).")
    p.add_argument(
        "--sort", choices=("level", "moves"), help="With --disassemble: the hardest first, by level or by moves."
    )
    _search_options(p)
    p.set_defaults(run=solve)


def solve(
    puzzle: Path,
    limit: int,
    all_: bool,
    unique: bool,
    no_reflect: bool,
    fmt: str,
    output: Optional[Path],
    time_limit: Optional[float],
    engine: str,
    problem: Optional[str] = None,
    max_memory: Optional[int] = None,
    random: Optional[int] = None,
    seed: Optional[int] = None,
    disassemble: bool = False,
    sort: Optional[str] = None,
) -> None:
    """Show solutions (exit 1 when there is none)."""
    check_format(fmt)
    check_file(fmt, output)
    if sort is not None and not disassemble:
        raise PuzzleError("--sort orders disassemblies: it needs --disassemble", "--sort")
    if disassemble:
        from .disassemble import show_plans

        opts = dict(fmt=fmt, output=output, time_limit=time_limit, budget=max_memory, sort=sort, all_=all_, limit=limit)
        show_plans(_load(puzzle, no_reflect, problem, max_memory, True), puzzle, problem, opts, random or unique)
        return
    if random is not None and (all_ or unique):
        raise PuzzleError("--random draws from all the solutions: not with --all or --unique", "--random")
    tiling = _load(puzzle, no_reflect, problem, max_memory)
    if random is not None:
        from ...tiling.sampling import sample

        report = sample(tiling, random, seed)
    else:
        report = tiling.solve(limit=None if all_ else limit, unique=unique, time_limit=time_limit, engine=engine)
    from ...formats.xmpuzzle import strip_fillers  # variable voxels left empty: no piece

    show(
        strip_fillers(report.found),
        tiling.model().cells if report.found else tiling.puzzle.board.cells,  # (not built when time ran out)
        fmt,
        output,
        piece_ids(tiling.model().puzzle) if report.found else None,
    )
    n = len(report.found)
    _err(
        f"{n} solution{'s' if n != 1 else ''}{' (unique)' if unique else ''} "
        f"in {report.seconds:.4f} s, {report.nodes} nodes"
    )
    _finish(report, f"{n} solutions")
    if n == 0:
        raise Exit(1)
