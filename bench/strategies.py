"""How the search strategies of competition Katamino solvers compare: node counts and times.

    .venv/bin/python bench/strategies.py [--budget 20] [--json OUT] [--plot docs/strategies.png]

Every strategy counts ALL solutions of an exact tiling (each piece used once, the pieces'
area equal to the board's), so their node counts are comparable. A node is one placement
made (a piece put on the board where it fits, i.e. overlaps nothing placed); the root is
not counted. polytile's kernel counts nodes the same way. None of the four Python
strategies prunes dead regions or uses symmetry: they differ only in what they branch on.

1. brute force over piece orders: for each of the n! orders of the pieces, place the
   pieces in that order, each at every position and orientation that fits (no rule about
   which cell to fill). Every solution is found once per order, so the count is the
   number of complete boards divided by n!; nodes are summed over all orders.
2. first empty cell: always fill the lowest empty cell of the board (cells in polytile's
   fill order: down the short side first), trying every placement of every unused piece
   that covers it. A placement covering the lowest empty cell cannot cover a lower cell
   (it is already covered), so the candidates are the placements whose first cell it is.
3. fewest options: Knuth's minimum-remaining-values rule over both kinds of items. Among
   the empty cells AND the unused pieces, take the one with the fewest placements that
   still fit (ties: cells before pieces, lowest cell / first piece), and branch on those
   placements; an item with none ends the branch. Keeps the list of placements still
   fitting and filters it after each choice.
4. greedy piece ordering: order the pieces once, by fewest placements on the empty board
   (ties: list order), then place them in that fixed order, each at every position and
   orientation that fits (brute force with one order instead of n!).
5. polytile: `Tiling.count()`, the compiled bitboard kernel: first empty cell, plus
   dead-region pruning (every empty region next to the new piece must have a size the
   remaining pieces can make) and symmetry breaking (one piece placed once per orbit of
   the board's symmetry group, each solution weighted by its orbit), so its nodes are
   roughly a quarter of an unbroken search's on a 5 x n board. The column "polytile
   no-sym" is the same kernel with `count(breaking=False)`: every solution visited.

Cases: (a) every 4-subset of the 12 pentominoes on the 5 x 4 rectangle (495 subsets), with
total, median and max over all subsets; (b) the Katamino slam lists of the corpus,
tests/corpus/tiling/katamino-slam{1,2}-N.txt for N = 3..11, checked against the manifest.
Each strategy stops on a case after --budget seconds (shown as '>' with the nodes so far);
after a stop it is not run on the longer prefixes of the same list ('-').

Seconds: for the four Python strategies, search time only (their tables of placements are
built from polytile's model beforehand); for polytile, `Report.seconds` (model, symmetry
and search, about 1 ms of set-up per case). The Python strategies are interpreted, so
their seconds compare with each other; nodes are what compares with the compiled engine.
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import polytile
from polytile.tiling import katamino
from polytile.core.library import KATAMINO

sys.path.insert(0, str(Path(__file__).resolve().parent))
from strategies_search import STRATEGIES, Clock, OutOfTime, Placements, placements  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus" / "tiling"


@dataclass
class Run:
    solutions: int | None = None  # None: stopped by the budget
    nodes: int = 0
    seconds: float = 0.0
    skipped: bool = False

    def to_json(self) -> dict:
        return {
            "solutions": self.solutions,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "complete": self.solutions is not None,
            "skipped": self.skipped,
        }


ENGINE = "polytile"
NO_SYM = "polytile no-sym"  # the same kernel with count(breaking=False)
COLUMNS = [*STRATEGIES, ENGINE, NO_SYM]


def run_strategy(name: str, pl: Placements, budget: float) -> Run:
    clock = Clock(budget)
    t0 = time.perf_counter()
    try:
        solutions = STRATEGIES[name](pl, clock)
    except OutOfTime:
        solutions = None
    return Run(solutions, clock.nodes, time.perf_counter() - t0)


def run_engines(tiling: polytile.Tiling, case: "Case") -> None:
    for name, breaking in ((ENGINE, True), (NO_SYM, False)):
        r = polytile.Tiling(tiling.puzzle).count(breaking=breaking)  # fresh: no cached model
        case.runs[name] = Run(r.solutions, r.nodes, r.seconds)


# ---- cases


@dataclass
class Case:
    name: str
    runs: dict[str, Run] = field(default_factory=dict)
    expected: int | None = None


def check(case: Case) -> list[str]:
    """Every complete count must equal polytile's (and the manifest's, when given)."""
    want = case.expected if case.expected is not None else case.runs[ENGINE].solutions
    return [
        f"{case.name}: {name} counts {r.solutions}, expected {want}"
        for name, r in case.runs.items()
        if r.solutions is not None and r.solutions != want
    ]


def subsets(budget: float) -> list[Case]:
    letters = [letter for letter, _, _ in KATAMINO]
    out = []
    for four in itertools.combinations(letters, 4):
        tiling = katamino.tiling(list(four), 5, 4)
        case = Case("".join(four))
        pl = placements(tiling)
        for name in STRATEGIES:
            case.runs[name] = run_strategy(name, pl, budget)
        run_engines(tiling, case)
        out.append(case)
    return out


def slam(budget: float, lists=(1, 2), sizes=range(3, 12)) -> list[Case]:
    manifest = {c["id"]: c for c in json.loads((CORPUS / "manifest.json").read_text())}
    out = []
    for k in lists:
        stopped: set[str] = set()
        for n in sizes:
            ident = f"katamino-slam{k}-{n}"
            tiling = polytile.load(CORPUS / manifest[ident]["file"])
            case = Case(f"slam{k} n={n}", expected=manifest[ident]["solutions"])
            pl = placements(tiling)
            for name in STRATEGIES:
                if name in stopped:
                    case.runs[name] = Run(skipped=True)
                    continue
                case.runs[name] = run_strategy(name, pl, budget)
                if case.runs[name].solutions is None:
                    stopped.add(name)
            run_engines(tiling, case)
            out.append(case)
            print(row(case.name, case.runs[ENGINE].solutions, case.runs), flush=True)
    return out


# ---- output


def fmt_nodes(r: Run) -> str:
    if r.skipped:
        return "-"
    return (">" if r.solutions is None else "") + f"{r.nodes:,}"


def fmt_seconds(r: Run) -> str:
    if r.skipped:
        return "-"
    return (">" if r.solutions is None else "") + (f"{r.seconds:.3f}" if r.seconds < 10 else f"{r.seconds:.1f}")


WIDTHS = (17, 9) + (11, 6) * len(COLUMNS)


def line(cells: list[str]) -> str:
    return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, WIDTHS)))


def header() -> str:
    top = " " * (WIDTHS[0] + WIDTHS[1] + 4) + "  ".join(name.center(19) for name in COLUMNS)
    return top + "\n" + line(["case", "solutions"] + ["nodes", "s"] * len(COLUMNS))


def row(name: str, solutions, runs: dict[str, Run]) -> str:
    return line([name, str(solutions)] + [x for c in COLUMNS for x in (fmt_nodes(runs[c]), fmt_seconds(runs[c]))])


def aggregate(cases: list[Case]) -> dict[str, dict[str, Run]]:
    """total, median and max over the cases, per strategy (a stopped run makes them lower bounds)."""
    out: dict[str, dict[str, Run]] = {"total": {}, "median": {}, "max": {}}
    for c in COLUMNS:
        runs = [case.runs[c] for case in cases]
        done = all(r.solutions is not None for r in runs)
        nodes = [r.nodes for r in runs]
        secs = [r.seconds for r in runs]
        sol = 0 if done else None
        out["total"][c] = Run(sol, sum(nodes), sum(secs))
        out["median"][c] = Run(sol, int(statistics.median(nodes)), statistics.median(secs))
        out["max"][c] = Run(sol, max(nodes), max(secs))
    return out


def plot(cases: list[Case], path: Path, budget: float) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    styles = {
        "brute force": ("#c0392b", "s"),
        "first empty cell": ("#2471a3", "o"),
        "fewest options": ("#229954", "D"),
        "greedy order": ("#d68910", "v"),
        ENGINE: ("#222222", "*"),
        NO_SYM: ("#888888", "*"),
    }
    labels = {ENGINE: "polytile (compiled, pruning, symmetry breaking)", NO_SYM: "polytile without symmetry breaking"}
    fig, axes = plt.subplots(1, 2, figsize=(11, 5.4), sharey=True)
    for ax, k in zip(axes, (1, 2)):
        mine = [c for c in cases if c.name.startswith(f"slam{k} ")]
        for name in COLUMNS:
            colour, marker = styles[name]
            done = [
                (int(c.name.split("=")[1]), c.runs[name].nodes)
                for c in mine
                if c.runs[name].solutions is not None and c.runs[name].nodes > 0
            ]
            cut = [
                (int(c.name.split("=")[1]), c.runs[name].nodes)
                for c in mine
                if c.runs[name].solutions is None and not c.runs[name].skipped
            ]
            style = "--" if name == NO_SYM else "-"
            if done:
                ax.plot(
                    *zip(*done),
                    color=colour,
                    marker=marker,
                    ls=style,
                    lw=1.6,
                    ms=6,
                    label=labels.get(name, name) if k == 1 else None,
                )
            for n, nodes in cut:
                if done:  # a dotted line up to the lower bound
                    ax.plot([done[-1][0], n], [done[-1][1], nodes], color=colour, ls=":", lw=1.2)
                ax.plot([n], [nodes], color=colour, marker="^", ms=9, mfc="none", ls="none")
                ax.annotate(
                    f">{budget:g} s", (n, nodes), textcoords="offset points", xytext=(6, -3), fontsize=7, color=colour
                )
        ax.set_yscale("log")
        ax.set_title(f"Katamino slam list {k} (5 x n, first n pieces)")
        ax.set_xlabel("n (pieces)")
        ax.set_xticks(range(3, 12))
        ax.grid(True, which="major", alpha=0.3)
    axes[0].set_ylabel("search nodes (placements made)")
    axes[0].plot(
        [],
        [],
        color="grey",
        marker="^",
        mfc="none",
        ls="none",
        label=f"stopped after {budget:g} s: nodes so far (a lower bound)",
    )
    fig.legend(loc="lower center", ncol=4, fontsize=8.5, frameon=False)
    fig.suptitle("Counting all solutions of Katamino slam lists: search nodes per strategy", fontsize=12)
    fig.tight_layout(rect=(0, 0.12, 1, 1))
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--budget", type=float, default=20.0, help="seconds per strategy and case")
    ap.add_argument("--json", type=Path, help="write every run to this file")
    ap.add_argument("--plot", type=Path, default=ROOT / "docs" / "strategies.png")
    ap.add_argument("--no-subsets", action="store_true", help="only the slam lists")
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    polytile.load(CORPUS / "katamino-slam1-4.txt").count()  # load the kernels
    print(header(), flush=True)
    groups: dict[str, dict] = {}
    errors: list[str] = []
    four = [] if args.no_subsets else subsets(args.budget)
    if four:
        solvable = [c for c in four if c.runs[ENGINE].solutions]
        agg = aggregate(four)
        for stat in ("total", "median", "max"):
            print(
                row(
                    f"5x4 4-sets {stat}",
                    sum(c.runs[ENGINE].solutions for c in four) if stat == "total" else "",
                    agg[stat],
                ),
                flush=True,
            )
        print(
            f"  {len(solvable)} of {len(four)} sets of 4 pentominoes tile 5 x 4 "
            f"({', '.join(c.name for c in solvable)})",
            flush=True,
        )
        groups["5x4"] = {
            "solvable": len(solvable),
            "sets": len(four),
            "aggregate": {s: {c: r.to_json() for c, r in a.items()} for s, a in agg.items()},
            "cases": {c.name: {k: r.to_json() for k, r in c.runs.items()} for c in four},
        }
        errors += [e for c in four for e in check(c)]
    slams = slam(args.budget)
    errors += [e for c in slams for e in check(c)]
    groups["slam"] = {c.name: {"expected": c.expected, **{k: r.to_json() for k, r in c.runs.items()}} for c in slams}
    plot(slams, args.plot, args.budget)
    took = time.perf_counter() - t0
    print(f"plot: {args.plot}   total {took:.0f} s   budget {args.budget:g} s per strategy and case")
    if args.json:
        args.json.write_text(json.dumps({"budget": args.budget, "seconds": round(took, 1), **groups}, indent=1))
    for e in errors:
        print("MISMATCH", e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
