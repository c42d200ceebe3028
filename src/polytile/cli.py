"""The `polytile` command. Bad input: one line on stderr, exit 2. Numba is imported only
when a search starts, so --help and input errors answer at once."""
from __future__ import annotations

import json
import os
import sys
from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from .errors import PuzzleError

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Solve tiling puzzles fast and exactly.")


class Fmt(str, Enum):
    text = "text"
    json = "json"
    svg = "svg"
    png = "png"


class Engine(str, Enum):
    auto = "auto"
    bitboard = "bitboard"
    wide = "wide"
    dlx = "dlx"


def _err(msg: str) -> None:
    print(msg, file=sys.stderr)


def _load(path: Path, no_reflect: bool):
    from .solver import load
    tiling = load(path)
    for note in tiling.notes:
        _err(note)
    return tiling.no_reflect() if no_reflect else tiling


def _finish(report, what: str) -> None:
    for r in report.reasons:
        _err(f"no solution: {r}")
    if report.interrupted:
        _err(f"interrupted: {what} so far (incomplete)")
        raise typer.Exit(130)
    if report.timed_out:
        _err(f"time limit reached: {what} so far (incomplete)")
        raise typer.Exit(124)


PuzzleArg = typer.Argument(..., help="Puzzle file: an ASCII drawing or polytile JSON.",
                           show_default=False)
NoReflect = typer.Option(False, "--no-reflect", help="Pieces may be rotated but not flipped.")
UniqueOpt = typer.Option(False, "--unique", help="Up to the board's symmetry.")
TimeLimit = typer.Option(None, "--time-limit", help="Stop after this many seconds.", min=0)
EngineOpt = typer.Option(Engine.auto, "--engine", help="Search kernel.")


@app.command()
def count(puzzle: Path = PuzzleArg, unique: bool = UniqueOpt, no_reflect: bool = NoReflect,
          as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
          time_limit: Optional[float] = TimeLimit, engine: Engine = EngineOpt,
          jobs: Optional[int] = typer.Option(None, "--jobs", min=0, show_default=False,
                                             help="Workers (default: every core; 1: no threads)."),
          checkpoint: Optional[Path] = typer.Option(None, "--checkpoint", help="SQLite file: record "
                                                    "finished parts, resume an interrupted count."),
          scheduler: Optional[str] = typer.Option(None, "--scheduler", metavar="ADDRESS",
                                                  help="Count on a Dask cluster (tcp://HOST:PORT)."),
          dask: bool = typer.Option(False, "--dask", help="Count on a Dask LocalCluster of --jobs "
                                    "worker processes.")) -> None:
    """Count all solutions (and unique ones with --unique), on every core."""
    tiling = _load(puzzle, no_reflect)
    if scheduler and dask:
        raise PuzzleError("--scheduler and --dask: choose one", "--dask")
    if scheduler is not None and "://" not in scheduler and ":" not in scheduler:
        raise PuzzleError("a scheduler address looks like tcp://HOST:PORT", scheduler)
    parallel = jobs not in (None, 1) or checkpoint or scheduler or dask
    if time_limit is not None:
        if parallel:
            raise PuzzleError("--time-limit works with one job, no checkpoint and no cluster",
                              "--time-limit")
        jobs = 1
    from .progress import counting
    with counting() as progress:
        report = tiling.count(unique=unique, time_limit=time_limit, engine=engine.value,
                              jobs=0 if jobs is None else jobs,
                              checkpoint=str(checkpoint) if checkpoint else None, progress=progress,
                              scheduler="local" if dask else scheduler)
    if as_json:
        print(json.dumps(report.to_json()))
    else:
        print(f"solutions: {report.solutions}")
        if report.unique is not None and unique:
            print(f"unique: {report.unique}")
        print(f"seconds: {report.seconds:.4f}")
        print(f"nodes: {report.nodes}")
    _finish(report, f"{report.solutions} solutions")


@app.command()
def solve(puzzle: Path = PuzzleArg,
          limit: int = typer.Option(1, "--limit", min=1, help="Show at most N solutions."),
          all_: bool = typer.Option(False, "--all", help="Show every solution."),
          unique: bool = UniqueOpt, no_reflect: bool = NoReflect,
          fmt: Fmt = typer.Option(Fmt.text, "--format", help="text, json, svg or png (png needs -o)."),
          output: Optional[Path] = typer.Option(None, "-o", "--output", help="Write to FILE."),
          time_limit: Optional[float] = TimeLimit, engine: Engine = EngineOpt) -> None:
    """Show solutions (exit 1 when there is none)."""
    if fmt is Fmt.png and output is None:
        raise PuzzleError("--format png needs -o FILE", "solve")
    tiling = _load(puzzle, no_reflect)
    report = tiling.solve(limit=None if all_ else limit, unique=unique, time_limit=time_limit,
                          engine=engine.value)
    board = tiling.model().cells
    if fmt is Fmt.json:
        text = json.dumps({"solutions": [s.to_json() for s in report.found]}) + "\n"
    elif fmt is Fmt.text:
        from .render import text_lines
        blocks = ["\n".join(text_lines(s, board)) for s in report.found]
        text = "\n\n".join(blocks) + ("\n" if blocks else "")
    if fmt in (Fmt.svg, Fmt.png):
        from .pictures import draw, to_file
        picture = draw(report.found, board, fmt=fmt.value)
        if output is None:
            sys.stdout.buffer.write(picture)
        else:
            to_file(output, picture)
    elif output is not None:
        from .atomic import write_text
        write_text(output, text)
    elif fmt is Fmt.text and sys.stdout.isatty():
        from rich.console import Console
        from .render import rich_text
        console = Console(highlight=False)
        for i, s in enumerate(report.found):
            if i:
                console.print()
            console.print(rich_text(s, board), end="")
    else:
        sys.stdout.write(text)
    n = len(report.found)
    _err(f"{n} solution{'s' if n != 1 else ''}{' (unique)' if unique else ''} "
         f"in {report.seconds:.4f} s, {report.nodes} nodes")
    _finish(report, f"{n} solutions")
    if n == 0:
        raise typer.Exit(1)


def _register_commands() -> None:
    import importlib
    for name in ("pieces", "katamino", "stats", "hint", "box", "shikaku", "survey", "serve"):
        try:
            module = importlib.import_module(f".commands.{name}", __package__)
        except ModuleNotFoundError as e:
            if e.name != f"{__package__}.commands.{name}":
                raise
            continue
        module.register(app)


_register_commands()


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; return the exit status. Errors of any kind become one line on stderr."""
    command = typer.main.get_command(app)
    try:
        status = command.main(args=argv, prog_name="polytile", standalone_mode=False)
    except PuzzleError as e:
        _err(f"polytile: {e}")
        return 2
    except typer.Exit as e:
        return e.exit_code
    except (typer.Abort, KeyboardInterrupt):
        _err("polytile: interrupted")
        return 130
    except BrokenPipeError:
        return 0
    except Exception as e:   # the option parser's usage errors (typer's click)
        if not hasattr(e, "format_message"):
            raise
        ctx = getattr(e, "ctx", None)
        if type(e).__name__ == "NoArgsIsHelpError":
            return 2                                         # the help is already printed
        where = f"polytile {ctx.info_name}" if ctx is not None and ctx.info_name != "polytile" else "polytile"
        _err(f"{where}: {' '.join(e.format_message().split())}")
        return int(getattr(e, "exit_code", 2) or 2)
    # without standalone mode, click returns a typer.Exit's code instead of raising it
    return status if isinstance(status, int) else 0


def entry() -> None:
    code = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:
        pass
    os._exit(code)   # skip interpreter teardown (numba/llvm): ~0.1 s of a short run
