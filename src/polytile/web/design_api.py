"""The page's Design tab: challenge cards of the puzzle on the page (analysis/design.py, as
`polytile design cards` makes them) and the check of a calendar piece set over every date
(the year's tally, its spread: analysis/spread.py). Both run as jobs (web/jobs.py: their own
process, the page's time limit, Cancel), started here and polled as every job is:

    POST /api/design/cards     {puzzle, tab, options: {cards: 1..40, levels: 1..4, seed}}
    POST /api/design/calendar  {puzzle: {kind: "calendar", board, date, pieces: [...]}, tab}
    GET  /api/jobs/ID/cards.json           the cards as `design cards --format json` writes them
    GET  /api/jobs/ID/cards/K.svg          page K of the printable sheet (odd: cards, even: solutions)

The cards' result: {"complete", "cards": [{level, placed, puzzle, solution}], "colours":
{letter: colour}, "pages"}; the check's: the tally's summary (calendar_api.tally) with
"spread" ({min, max, mean, unsolvable, gini}). The routes take the app's own helpers
(`routes`), so this module needs nothing of app.py; the jobs themselves: design_jobs.py."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .refusals import BadRequest, read_json

if TYPE_CHECKING:
    from .jobs import Job, Manager

JSON = dict[str, Any]

MAX_CARDS = 40  # cards one job makes (the CLI takes more; the page's jobs share the server)
CARD_KINDS = ("tiling", "katamino", "box")  # as design_jobs.CARD_KINDS
MARGIN = 0.9  # share of the page's job time the cards search takes (then it hands over what it has)


# ---- the endpoints (in the server) ---------------------------------------------------------------

Summarise = Callable[[Request, Any], Awaitable[JSON]]


def _whole(opts: JSON, key: str, low: int, high: int, default: int) -> int:
    value = opts.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadRequest(f"options.{key} must be an integer {low}..{high}")
    return value


def _tab(data: JSON) -> str:
    tab = data.get("tab", "")
    if not isinstance(tab, str) or len(tab) > 64:
        raise BadRequest('"tab" must be a string of at most 64 characters')
    return tab


def _options(data: JSON) -> JSON:
    opts = data.get("options") or {}
    if not isinstance(opts, dict):
        raise BadRequest('"options" must be an object')
    out: JSON = {}
    if "heartbeat" in opts:
        beat = opts["heartbeat"]
        if isinstance(beat, bool) or not isinstance(beat, (int, float)) or not 1 <= beat <= 600:
            raise BadRequest("options.heartbeat must be a number of seconds 1..600")
        out["heartbeat"] = beat
    return {**opts, **out}


def _exact(summary: JSON) -> None:
    """Refuse a puzzle whose pieces, all used, do not cover the board exactly (no card has one
    completion then); the job checks it again on the puzzle itself."""
    if summary["kind"] not in CARD_KINDS:
        raise BadRequest(f"cards are made of tiling puzzles, not of a {summary['kind']} puzzle")
    pieces = summary.get("pieces") or []
    if any(p["min"] != p["count"] for p in pieces) or summary.get("tiles_area") != summary.get("area"):
        raise BadRequest(
            f"cards need pieces that, all used, cover the board exactly (the board has {summary.get('area')} "
            f"cells, the pieces {summary.get('tiles_area')}{'' if all(p['min'] == p['count'] for p in pieces) else ', some optional'})"
        )


def routes(summarise: Summarise, client_of: Callable[[Request], str], job_of: Callable[[Request], Job]) -> list[Route]:
    """The Design tab's routes, with the app's own summary of a request's puzzle, its client's
    key and its lookup of a job (404 when unknown)."""

    async def start_cards(request: Request) -> Response:
        """Cards of the page's puzzle, as a job (202 and its first state)."""
        data = await read_json(request)
        opts = _options(data)
        n, levels = _whole(opts, "cards", 1, MAX_CARDS, 8), _whole(opts, "levels", 1, 4, 4)
        seed = _whole(opts, "seed", 0, 2**31 - 1, 0)
        summary = await summarise(request, data.get("puzzle"))
        _exact(summary)
        m: Manager = request.app.state.manager
        opts = {**opts, "cards": n, "levels": levels, "seed": seed, "seconds": m.seconds * MARGIN}
        job = m.submit(client_of(request), "cards", data["puzzle"], opts, summary, tab=_tab(data))
        return JSONResponse(job.view(), status_code=202)

    async def start_check(request: Request) -> Response:
        """Every date of a calendar board with a piece set, as a job (202 and its first state)."""
        data = await read_json(request)
        opts = _options(data)
        spec = data.get("puzzle")
        if not isinstance(spec, dict) or spec.get("kind") != "calendar":
            raise BadRequest('the check of a piece set needs a calendar puzzle ({"kind": "calendar", ...})')
        summary = await summarise(request, spec)  # a wrong area: one line, 400
        m: Manager = request.app.state.manager
        job = m.submit(client_of(request), "calendar_check", spec, opts, summary, tab=_tab(data))
        return JSONResponse(job.view(), status_code=202)

    return [
        Route("/api/design/cards", start_cards, methods=["POST"]),
        Route("/api/design/calendar", start_check, methods=["POST"]),
        Route("/api/jobs/{job}/cards.json", _cards_json(job_of)),
        Route("/api/jobs/{job}/cards/{k:int}.svg", _cards_svg(job_of)),
    ]


def _cards_of(job: Job) -> list[JSON]:
    if job.action != "cards":
        raise BadRequest("this job made no cards", 404)
    if job.state != "done" or job.result is None:
        raise BadRequest(f"the cards are not made yet (the job is {job.state})", 404)
    cards: list[JSON] = job.result["cards"]
    return cards


def _cards_json(job_of: Callable[[Request], Job]) -> Callable[[Request], Awaitable[Response]]:
    async def cards_json(request: Request) -> Response:
        """The cards as `design cards --format json` writes them, named after the puzzle."""
        from .downloads import file_stem

        job = job_of(request)
        cards = _cards_of(job)
        assert job.result is not None
        headers = {"Content-Disposition": f'attachment; filename="{file_stem(job)}-cards.json"'}
        return JSONResponse({"complete": job.result["complete"], "cards": cards}, headers=headers)

    return cards_json


def _cards_svg(job_of: Callable[[Request], Job]) -> Callable[[Request], Awaitable[Response]]:
    async def cards_svg(request: Request) -> Response:
        """Page K of the printable sheet (A4; ?paper=letter), named after the puzzle."""
        from ..draw.cards import PAPERS, sheet
        from .downloads import file_stem

        job = job_of(request)
        cards = _cards_of(job)
        paper = request.query_params.get("paper", "a4")
        if paper not in PAPERS:
            raise BadRequest(f"unknown paper {paper[:20]!r} (a4 or letter)")
        assert job.result is not None
        if not job.result["pages"]:
            raise BadRequest("no sheet: the printable sheet draws cards of flat square boards only", 404)
        pages, k = sheet(cards, paper), request.path_params["k"]
        if not 1 <= k <= len(pages):
            raise BadRequest(f"no page {k} (this sheet has {len(pages)})", 404)
        data = pages[k - 1]
        headers = {"Content-Disposition": f'attachment; filename="{file_stem(job)}-cards-{k}.svg"'}
        return Response(data.encode(), media_type="image/svg+xml", headers=headers)

    return cards_svg
