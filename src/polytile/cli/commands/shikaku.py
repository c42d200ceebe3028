"""`polytile shikaku [FILE|-]`: count the solutions of a Shikaku puzzle and show one;
`--grade` says how hard it is (level 1..4 and the rules it needed); `--generate WxH` makes a
puzzle with exactly one solution (`--difficulty L`: of exactly that level)."""

from __future__ import annotations

import sys
from argparse import ArgumentParser
from typing import TYPE_CHECKING, NoReturn

from ...errors import PuzzleError
from .args import Exit, bounded, flag, max_memory, parse_size
from .output import check_file, check_format

if TYPE_CHECKING:
    from ...shikaku.model import ShikakuReport, Shikaku

FORMATS = ("text", "nanakin", "json", "svg", "png")


def arguments(p: ArgumentParser) -> None:
    """Declare `shikaku`'s options (called only when the verb is named)."""
    p.add_argument(
        "puzzle",
        nargs="?",
        default="-",
        metavar="PUZZLE",
        help="Puzzle file (`W H` then rows, a Rectangles game id, a puzz.link URL or "
        "polytile JSON); - reads stdin; a URL or game id may also be given directly.",
    )
    flag(p, "--count", "Print only the number of solutions.")
    flag(p, "--json", 'One object {"solutions", "rectangles", "seconds", "complete"}.', dest="as_json")
    p.add_argument(
        "--format",
        dest="fmt",
        default="text",
        help="text (the count, then a solution), nanakin (the same with nanakin's "
        "`1 solution` / `N solutions` heading), json, svg or png.",
    )
    p.add_argument("-o", "--output", metavar="FILE", help="Write the picture here.")  # a str: no pathlib
    p.add_argument("--generate", metavar="WxH", help="Make a WxH puzzle with one solution.")
    p.add_argument("--seed", type=int, help="Seed of --generate.")
    flag(p, "--grade", "Print the grid's level 1..4 and the rules it needed (text or json).")
    p.add_argument(
        "--difficulty",
        type=bounded(int, 1, 4),
        metavar="LEVEL",
        help="With --generate: a puzzle of exactly this level (1 forced .. 4 deeper trial).",
    )
    p.add_argument(
        "--time-limit",
        type=bounded(float, 0),
        metavar="SECONDS",
        help="Stop counting (or grading) after this many seconds.",
    )
    max_memory(p)
    p.set_defaults(run=shikaku)


def shikaku(
    puzzle: str,
    count: bool,
    as_json: bool,
    fmt: str,
    output: str | None,
    generate: str | None,
    seed: int | None,
    grade: bool,
    difficulty: int | None,
    time_limit: float | None,
    max_memory: int,
) -> None:
    """Shikaku: divide the grid into rectangles, each holding one number equal to its area.
    (Start-up is most of a typical run: json, pathlib and the solver load only when used.)"""
    check_format(fmt, FORMATS)
    if difficulty is not None and generate is None:
        raise PuzzleError("--difficulty needs --generate WxH", "--difficulty")
    if grade and (count or fmt not in ("text", "json") or generate is not None):
        raise PuzzleError("--grade prints text or json, of a puzzle given (not with --count or --generate)", "--grade")
    if generate is not None:
        _generate(generate, seed, difficulty, as_json or fmt == "json")
        return
    if grade:
        _grade(puzzle, as_json or fmt == "json", time_limit)
        return
    import gc

    collecting = gc.isenabled()
    gc.disable()  # reading and counting make no reference cycles: ~1 ms of a 40 ms run
    try:
        _count_and_show(puzzle, count, as_json, fmt, output, time_limit, max_memory)
    finally:
        if collecting:
            gc.enable()


def _count_and_show(
    puzzle: str, count: bool, as_json: bool, fmt: str, output: str | None, time_limit: float | None, max_memory: int
) -> None:
    from ...shikaku.formats import load
    from ...shikaku.model import letters

    p = load(puzzle)
    ans = _solve(p, puzzle, as_json or not count, time_limit, max_memory)
    if ans.solutions is None:
        _stopped(ans, as_json or fmt == "json")
    if ans.solutions == 0 and ans.reason:
        print(f"no solution: {ans.reason}", file=sys.stderr)
    if as_json or fmt == "json":
        import json

        print(json.dumps(ans.to_json()))
    elif count:
        print(ans.solutions)
    elif fmt in ("svg", "png"):
        _picture(p, ans, fmt, output)
    else:
        print(heading(ans.solutions) if fmt == "nanakin" else ans.solutions)
        if ans.rectangles:
            sys.stdout.write("\n".join(letters(p, ans.rectangles)) + "\n")


def _solve(p: Shikaku, source: str, solution: bool, time_limit: float | None, budget: int) -> ShikakuReport:
    """The count within the limits; Ctrl-C stops it like a limit (the answer says so)."""
    from ...shikaku.model import ShikakuReport, solve

    try:
        ans = solve(p, solution=solution, time_limit=time_limit, max_memory=budget)
    except KeyboardInterrupt:
        ans = ShikakuReport(None)
        ans.stopped = "interrupted"
    if ans.stopped == "memory budget":
        from ...budget import over

        raise over("counting this grid", ans.need, budget, source, at_least=True)
    return ans


def _stopped(ans: ShikakuReport, as_json: bool) -> NoReturn:
    """A stopped count: a memoised count has no partial figure, and says so on stdout."""
    if as_json:
        import json

        print(json.dumps(ans.to_json()))
    else:
        print(f"solutions: unknown ({ans.stopped}; a memoised count has no partial figure)")
    what = "interrupted" if ans.stopped == "interrupted" else "time limit reached"
    print(f"{what}: no count (incomplete)", file=sys.stderr)
    raise Exit(130 if ans.stopped == "interrupted" else 124)


def heading(n: int) -> str:
    """The first line nanakin/shikaku-solver prints: `1 solution`, `N solutions`."""
    return f"{n} solution{'' if n == 1 else 's'}"


def _picture(p: Shikaku, ans: ShikakuReport, fmt: str, output: str | None) -> None:
    from ...shikaku.draw import svg

    text = svg(p, ans.rectangles)
    if fmt == "svg":
        if output is None:
            sys.stdout.write(text)
        else:
            from ...atomic import write_text

            write_text(output, text)
        return
    check_file(fmt, output)
    assert output is not None  # check_file refused PNG to the terminal
    from ...shikaku.draw import png
    from ...atomic import write_bytes

    write_bytes(output, png(p, ans.rectangles))


def _grade(puzzle: str, as_json: bool, time_limit: float | None) -> None:
    """The level and the rules counted by kind and depth; no level (several solutions or
    none): exit 1; the time limit: exit 124."""
    from ...shikaku.formats import load
    from ...shikaku.grading import LEVELS, RULES, grade

    g = grade(load(puzzle), time_limit=time_limit)
    if as_json:
        import json

        print(json.dumps(g.to_json()))
    elif g.level is None:
        print(f"level: none ({g.reason})")
    else:
        print(f"level {g.level}: {LEVELS[g.level]}")
        print("count depth rule")
        for kind, depth, n in g.rules():
            print(f"{n:>5} {depth:>5} {RULES[kind][1]}")
    if g.level is None:
        raise Exit(124 if g.reason == "time limit" else 1)


def _generate(size: str, seed: int | None, difficulty: int | None, as_json: bool) -> None:
    import json

    from ...shikaku.formats import to_game_id, to_url
    from ...shikaku.generate import MAX_CELLS, generate
    from ...shikaku.graded import MAX_CELLS as MAX_GRADED_CELLS
    from ...shikaku.graded import generate_graded

    most = MAX_CELLS if difficulty is None else MAX_GRADED_CELLS
    w, h = parse_size(size, "--generate", most, "puzzle to generate")
    if difficulty is None:
        p = generate(w, h, seed)
    else:
        found = generate_graded(w, h, difficulty, seed)
        if found is None:
            from ...shikaku.graded import TRIES

            print(
                f"polytile shikaku: no {w}x{h} puzzle of level {difficulty} found in {TRIES[difficulty]} tries "
                "(levels 3 and 4 are rare; another seed or size may have one)",
                file=sys.stderr,
            )
            raise Exit(1)
        p = found
    if as_json:
        out: dict[str, object] = {"shikaku": {"width": p.width, "height": p.height, "rows": p.rows()}}
        out.update(game_id=to_game_id(p), url=to_url(p))
        if difficulty is not None:
            out["level"] = difficulty
        print(json.dumps(out))
    else:
        sys.stdout.write(p.text())
        print(f"game id: {to_game_id(p)}", file=sys.stderr)
