"""`polytile shikaku [FILE|-]`: count the solutions of a Shikaku puzzle and show one;
`--generate WxH` makes a puzzle with exactly one solution."""

from __future__ import annotations

import sys
from argparse import ArgumentParser
from typing import TYPE_CHECKING, NoReturn

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
    p.add_argument(
        "--time-limit", type=bounded(float, 0), metavar="SECONDS", help="Stop counting after this many seconds."
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
    time_limit: float | None,
    max_memory: int,
) -> None:
    """Shikaku: divide the grid into rectangles, each holding one number equal to its area.
    (Start-up is most of a typical run: json, pathlib and the solver load only when used.)"""
    check_format(fmt, FORMATS)
    if generate is not None:
        _generate(generate, seed, as_json or fmt == "json")
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


def _generate(size: str, seed: int | None, as_json: bool) -> None:
    import json

    from ...shikaku.formats import to_game_id, to_url
    from ...shikaku.generate import MAX_CELLS, generate

    w, h = parse_size(size, "--generate", MAX_CELLS, "puzzle to generate")
    p = generate(w, h, seed)
    if as_json:
        print(
            json.dumps(
                {
                    "shikaku": {"width": p.width, "height": p.height, "rows": p.rows()},
                    "game_id": to_game_id(p),
                    "url": to_url(p),
                }
            )
        )
    else:
        sys.stdout.write(p.text())
        print(f"game id: {to_game_id(p)}", file=sys.stderr)
