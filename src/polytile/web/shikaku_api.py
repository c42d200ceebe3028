"""The page's Shikaku jobs: a grid counted within the page's memory budget (solve and count
alike: the count is quick, and its solutions are listed for browsing when there are several),
and new puzzles with exactly one solution, the size of the grid shown."""

from __future__ import annotations

from typing import Any

from ..errors import PuzzleError
from .messages import MAX_LISTED_CELLS, Out, big
from .puzzles import Parsed

JSON = dict[str, Any]
SHIKAKU_LIST = 1000  # Shikaku solutions listed for browsing


def count(parsed: Parsed, opts: JSON, out: Out) -> JSON:
    """A Shikaku grid's count within the page's memory budget, and some solutions to browse."""
    from ..budget import PAGE_BYTES, over
    from ..shikaku.model import listing, solve as solve_shikaku

    ans = solve_shikaku(parsed.shikaku, max_memory=PAGE_BYTES)
    if ans.stopped == "memory budget":
        raise over("counting this grid", ans.need, PAGE_BYTES, "shikaku", at_least=True)
    shown = [ans.rectangles] if ans.rectangles else []
    if (ans.solutions or 0) > 1:  # several: list some of them for browsing
        most = max(1, MAX_LISTED_CELLS // max(1, len(parsed.shikaku.clues)))
        shown = listing(parsed.shikaku, min(int(opts.get("limit") or 1000), SHIKAKU_LIST, most))
    if shown:
        out.send("solutions", start=0, solutions=[{"rectangles": [list(r) for r in rects]} for rects in shown])
    return {
        "solutions": big(ans.solutions),
        "listed": len(shown),
        "reasons": [ans.reason] if ans.reason else [],
        "seconds": round(ans.seconds, 6),
        "nodes": ans.nodes,
        "complete": not ans.capped,
    }


def generate(parsed: Parsed, opts: JSON, out: Out) -> JSON:
    """A new Shikaku puzzle with exactly one solution, the size of the given grid."""
    from ..shikaku.formats import to_game_id, to_url
    from ..shikaku.generate import MAX_CELLS, generate as make

    if parsed.kind != "shikaku":
        raise PuzzleError("generate makes Shikaku puzzles", "generate")
    p = parsed.shikaku
    if p.width * p.height > MAX_CELLS:
        raise PuzzleError(f"{p.width}x{p.height} is too large to generate (limit {MAX_CELLS} cells)", "generate")
    seed = opts.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**62):
        raise PuzzleError('"seed" must be an integer 0..2^62', "generate")
    q = make(p.width, p.height, seed)
    return {"width": q.width, "height": q.height, "rows": q.rows(), "game_id": to_game_id(q), "url": to_url(q)}
