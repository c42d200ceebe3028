"""`polytile survey holes`: every board with k holes, up to symmetry, tiled and counted."""

from __future__ import annotations

import json
import sys
from argparse import ArgumentParser
from pathlib import Path
from typing import Optional

from .args import Exit, Parser, bounded, flag, parse_size


def arguments(p: ArgumentParser) -> None:
    """Declare `survey`'s sub-surveys and their options (called only when the verb is named)."""
    p.set_defaults(run=surveys)
    kinds = p.add_subparsers(title="surveys", metavar="SURVEY", required=True, parser_class=Parser)
    h = kinds.add_parser("holes", help=holes.__doc__, description=holes.__doc__)
    h.add_argument("--board", default="8x8", metavar="WxH", help="Board WxH.")
    h.add_argument("--holes", dest="n_holes", type=bounded(int, 1), default=4, metavar="N", help="Holes per board.")
    h.add_argument(
        "--pieces",
        default="pentominoes",
        help="dominoes..hexominoes (one of each), or a puzzle file whose pieces are used.",
    )
    h.add_argument("--db", type=Path, metavar="FILE", help="SQLite file: results, and resume an interrupted survey.")
    h.add_argument("--csv", dest="csv_out", type=Path, metavar="FILE", help="Write every board to a CSV file.")
    h.add_argument("--jobs", type=bounded(int, 0), default=0, metavar="N", help="Workers (0: every core).")
    flag(h, "--json", "Print the summary as JSON.", dest="as_json")
    h.set_defaults(run=holes)


def surveys() -> None:
    """Surveys over many boards."""


def holes(
    board: str, n_holes: int, pieces: str, db: Optional[Path], csv_out: Optional[Path], jobs: int, as_json: bool
) -> None:
    """Every placement of the holes up to symmetry: each board tiled and counted, or why not."""
    from ...analysis import survey
    from ...tiling.boxing import MAX_CELLS

    width, height = parse_size(board, "--board", MAX_CELLS)
    from ..progress import counting

    with counting() as bar:

        def progress(done: int, total: int, fraction: float | None, nodes: int) -> None:
            if bar is not None:
                bar(_Partial(nodes), done, total, fraction)

        result = survey.run(width, height, n_holes, pieces, jobs=jobs, db=str(db) if db else None, progress=progress)
    if not result.complete:
        print(
            f"interrupted after {result.seconds:.1f} s" + (f"; run the same command to resume ({db})" if db else ""),
            file=sys.stderr,
        )
        raise Exit(130)
    if csv_out is not None:
        from ...atomic import write_text

        write_text(csv_out, result.to_csv())
    s = result.summary()
    if as_json:
        print(json.dumps(s))
        return
    bad = s["not_tileable"]
    print(f"board {s['board']}, {s['holes']} holes, {s['pieces']}")
    print(f"hole placements: {s['hole_sets']:,}; up to symmetry: {s['classes']:,}")
    print(f"tileable: {s['tileable']:,}")
    print(
        f"not tileable: {sum(bad.values()):,} (cell cut off {bad['cut off']:,}, region of the "
        f"wrong size {bad['region size']:,}, by search {bad['search']:,})"
    )
    print(f"tilings, all boards: {s['tilings_all_boards']:,}")
    for k in ("most", "least"):
        if s[k]:
            print(f"{k} tilings: {s[k]['tilings']:,} with holes at " + " ".join(f"({r},{c})" for r, c in s[k]["holes"]))
    print(f"seconds: {s['seconds']:.1f}; nodes: {s['nodes']:,}")


class _Partial:
    """What the progress bar shows of a survey (tilings are known only at the end)."""

    def __init__(self, nodes: int):
        self.nodes = nodes
        self.solutions = 0
        self.seconds = 0.0
        self.info = f"{nodes:,} nodes"
