"""`polytile survey holes`: every board with k holes, up to symmetry, tiled and counted."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer


survey_app = typer.Typer(add_completion=False, no_args_is_help=True,
                         help="Surveys over many boards.")


@survey_app.command("holes")
def holes(board: str = typer.Option("8x8", "--board", help="Board WxH."),
          n_holes: int = typer.Option(4, "--holes", min=1, help="Holes per board."),
          pieces: str = typer.Option("pentominoes", "--pieces",
                                     help="dominoes..hexominoes (one of each), or a puzzle file "
                                          "whose pieces are used."),
          db: Optional[Path] = typer.Option(None, "--db", help="SQLite file: results, and resume "
                                            "an interrupted survey."),
          csv_out: Optional[Path] = typer.Option(None, "--csv", help="Write every board to a CSV file."),
          jobs: int = typer.Option(0, "--jobs", min=0, help="Workers (0: every core)."),
          as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON.")) -> None:
    """Every placement of the holes up to symmetry: each board tiled and counted, or why not."""
    from .. import survey
    from ..boxing import parse_size
    width, height = parse_size(board, "--board")
    from ..progress import counting

    with counting() as bar:
        def progress(done, total, fraction, nodes):
            if bar is not None:
                bar(_Partial(nodes), done, total, fraction)
        result = survey.run(width, height, n_holes, pieces, jobs=jobs,
                            db=str(db) if db else None, progress=progress)
    if not result.complete:
        print(f"interrupted after {result.seconds:.1f} s"
              + (f"; run the same command to resume ({db})" if db else ""), file=sys.stderr)
        raise typer.Exit(130)
    if csv_out is not None:
        from ..atomic import write_text
        write_text(csv_out, result.to_csv())
    s = result.summary()
    if as_json:
        print(json.dumps(s))
        return
    bad = s["not_tileable"]
    print(f"board {s['board']}, {s['holes']} holes, {s['pieces']}")
    print(f"hole placements: {s['hole_sets']:,}; up to symmetry: {s['classes']:,}")
    print(f"tileable: {s['tileable']:,}")
    print(f"not tileable: {sum(bad.values()):,} (cell cut off {bad['cut off']:,}, region of the "
          f"wrong size {bad['region size']:,}, by search {bad['search']:,})")
    print(f"tilings, all boards: {s['tilings_all_boards']:,}")
    for k in ("most", "least"):
        if s[k]:
            print(f"{k} tilings: {s[k]['tilings']:,} with holes at "
                  + " ".join(f"({r},{c})" for r, c in s[k]["holes"]))
    print(f"seconds: {s['seconds']:.1f}; nodes: {s['nodes']:,}")


class _Partial:
    """What the progress bar shows of a survey (tilings are known only at the end)."""

    def __init__(self, nodes: int):
        self.nodes = nodes
        self.solutions = 0
        self.seconds = 0.0
        self.info = f"{nodes:,} nodes"


def register(app: typer.Typer) -> None:
    app.add_typer(survey_app, name="survey")
