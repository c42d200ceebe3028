"""`--disassemble` of `count` and `solve`: which BurrTools assemblies come apart, as
`burrTxt -d` answers it (tiling/disassembly_run.py), and their plans."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional

from ...errors import PuzzleError
from .args import Exit

if TYPE_CHECKING:
    from ...tiling.disassembly_run import Outcome, Result
    from ...tiling.solver import Tiling

NODE_BYTES = 64  # a search state's memory per piece, roughly (positions, links, its table slot)


def check_grid(tiling: Tiling) -> None:
    """Refuse --disassemble on a grid without unit translations (one line, exit 2)."""
    from ...tiling.disassembly_run import refuse_grid

    refuse_grid(tiling.puzzle)


def run(
    tiling: Tiling,
    path: Path,
    problem: Optional[str],
    time_limit: Optional[float],
    budget: Optional[int],
    jobs: int = 0,
) -> tuple[Outcome, bool]:
    """Every assembly taken apart, on `jobs` threads (0: every core): (the outcome,
    whether Ctrl-C stopped it)."""
    from ...tiling.disassembly import MAX_NODES
    from ...tiling.disassembly_run import Outcome, disassemble_puzzle, file_rules

    weights, groups = file_rules(tiling.puzzle, path, problem)
    pieces = max(1, len(tiling.puzzle.pieces))
    nodes = MAX_NODES if budget is None else max(1000, min(MAX_NODES, budget // (NODE_BYTES * pieces)))
    from ..progress import counting

    outcome = Outcome([])
    try:
        with counting() as progress:  # a line every few seconds off a terminal, as counts show
            disassemble_puzzle(
                tiling.puzzle, weights, groups, time_limit, nodes, outcome, tiling, jobs, progress=progress
            )
    except KeyboardInterrupt:
        return outcome, True
    return outcome, False


def stop(outcome: Outcome, interrupted: bool) -> None:
    """Exit 130 after Ctrl-C, 124 after the time limit (what was done is printed)."""
    what = f"{outcome.disassemblable} of {outcome.assemblies} assemblies come apart so far (incomplete)"
    if interrupted:
        print(f"interrupted: {what}", file=sys.stderr)
        raise Exit(130)
    if outcome.timed_out:
        print(f"time limit reached: {what}", file=sys.stderr)
        raise Exit(124)


def count_figures(
    tiling: Tiling,
    path: Path,
    problem: Optional[str],
    clock: tuple[Optional[float], float],
    budget: Optional[int],
    figures: dict[str, Any],
    jobs: Optional[int] = None,
) -> Callable[[], None]:
    """`count --disassemble`: the BurrTools assemblies and those that come apart, into
    figures; `clock`: the command's time limit and when its count started (time.monotonic);
    `jobs`: --jobs (threads; None: every core).
    Returns what ends the command once the figures are printed (`stop`)."""
    limit, t0 = clock
    left = None if limit is None else max(0.0, limit - (time.monotonic() - t0))
    outcome, interrupted = run(tiling, path, problem, left, budget, 0 if jobs is None else jobs)
    figures["burrtools"] = outcome.assemblies
    figures["disassemblable"] = outcome.disassemblable
    return lambda: stop(outcome, interrupted)


def show_plans(
    tiling: Tiling,
    path: Path,
    problem: Optional[str],
    options: dict[str, Any],
    other: object = None,
) -> None:
    """`solve --disassemble`: the plans of the assemblies that come apart (the first, or
    --limit N, or --all; --sort level|moves puts the hardest first). `other`: --random or
    --unique, refused with it."""
    from ...tiling.disassembly_run import sort_results

    if other:
        raise PuzzleError("--disassemble shows BurrTools assemblies: not with --random or --unique", "--disassemble")

    fmt, output = options["fmt"], options["output"]
    if fmt not in ("text", "json"):
        raise PuzzleError(f"--disassemble writes text or json, not {fmt}", "--format")
    t0 = time.perf_counter()
    outcome, interrupted = run(tiling, path, problem, options["time_limit"], options["budget"])
    chosen = sort_results(outcome.results, options["sort"])
    if not options["all_"]:
        chosen = chosen[: options["limit"]]
    text = json.dumps([r.to_json() for r in chosen]) + "\n" if fmt == "json" else _text(chosen)
    if output is not None:
        from ...atomic import write_text

        write_text(output, text)
    else:
        sys.stdout.write(text)
    print(
        f"{outcome.disassemblable} of {outcome.assemblies} assemblies come apart; {len(chosen)} shown "
        f"in {time.perf_counter() - t0:.4f} s, {outcome.nodes} states",
        file=sys.stderr,
    )
    stop(outcome, interrupted)
    if not chosen:
        raise Exit(1)


def _text(results: list[Result]) -> str:
    lines = []
    for i, r in enumerate(results, 1):
        lines.append(f"disassembly {i}: level {r.level}")
        lines.extend(f"  {n}. {m.text()}" for n, m in enumerate(r.moves(), 1))
    return "\n".join(lines) + ("\n" if lines else "")
