"""The web app (Starlette): the static page and a small JSON API over the job manager.

    GET  /                                  the page
    GET  /api/info                          version, limits, the piece library, each grid's facts
    POST /api/check     {puzzle}            the parsed board and pieces, or a 400
    POST /api/jobs      {action, puzzle, options, tab}   start solve|count|hint|stats|slam|sample|generate|tally|
                                            disassemble (opts.placed: the solution to take apart)
                                            (409 while that tab has a job running)
    POST /api/play      {puzzle, placed, finish, tables}    hand play on every grid: the position's
                                            completions (capped), or with finish: one way to finish
                                            it (waits for it); tables: how each piece turns
    GET  /api/jobs/ID?since=N               state, progress, solutions from index N
    DELETE /api/jobs/ID  (or POST .../cancel)   stop the job (its process is killed)
    GET  /api/jobs/ID/solutions/K.svg|png|json|xmpuzzle|stl|obj   one solution to download
    GET  /api/jobs/ID/solutions.json        every listed solution
    POST /api/design/cards, /api/design/calendar; GET /api/jobs/ID/cards.json, cards/K.svg
                                            the Design tab's jobs and downloads (design_api.py)

Every error is JSON {"error": "..."} with a 4xx status (refusals.py); the server never reads files
other than its own static page."""

from __future__ import annotations

import asyncio
import mimetypes
import os
import time
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..budget import PAGE_BYTES
from ..formats import describe
from . import design_api, downloads, grid_facts, page_limits, piece_library, puzzles, reading
from .guard import Guard, host_names
from .jobs import Job, Manager
from .refusals import MAX_BODY, BadRequest, exception_handlers, read_json

ACTIONS = {"solve", "count", "hint", "stats", "slam", "sample", "generate", "tally", "disassemble"}
CALENDAR_ACTIONS = {"solve", "count", "tally", "sample"}  # web/calendar_api.py
TILING_ONLY = {"hint", "stats", "sample", "disassemble"}
PLAY_GRACE = 10.0  # seconds a play answer may take beyond its own search's limit
STATIC = resources.files("polytile.web") / "static"
# ES modules (view3d.js, vendor/three.min.js) load only with a JavaScript type; some systems'
# tables map .js to text/plain
mimetypes.add_type("text/javascript", ".js")


def _parse(spec: Any) -> dict[str, Any]:
    return puzzles.summary(puzzles.parse(spec))


async def summarise(request: Request, spec: Any) -> dict[str, Any]:
    """The page's summary of a request's puzzle: an upload (a file's text or bytes) read in a
    process of its own under the page's budget (reading.py), anything else checked here."""
    if reading.is_upload(spec):
        reader: reading.Reader = request.app.state.reader
        return await run_in_threadpool(reader.summary, spec)
    return await run_in_threadpool(_parse, spec)


def client_of(request: Request) -> str:
    """The client's address: the key of the per-client job limit."""
    return request.client.host if request.client else "unknown"


# ---- endpoints -----------------------------------------------------------------------------------


async def index(request: Request) -> Response:
    """The page itself (static/index.html)."""
    return FileResponse(str(STATIC / "index.html"), media_type="text/html")


async def info(request: Request) -> Response:
    """What the page needs before anything is asked: the version, the limits it must keep to
    (so it can refuse at once), the piece libraries, each grid's facts (grid_facts.py: the page
    asks them, never a grid's name), the Katamino colours, the server's load."""
    from .. import __version__
    from ..core.library import KATAMINO

    m: Manager = request.app.state.manager
    lib = await run_in_threadpool(piece_library.library)
    lattice_lib = await run_in_threadpool(piece_library.lattice_library)
    grids = await run_in_threadpool(grid_facts.all_facts)
    return JSONResponse(
        {
            "version": __version__,
            "limits": {
                "board_cells": puzzles.MAX_BOARD_CELLS,
                "board_side": puzzles.MAX_BOARD_SIDE,
                "file_cells": page_limits.MAX_DRAWN_CELLS,
                "memory_bytes": PAGE_BYTES,
                "shikaku_cells": puzzles.MAX_SHIKAKU_CELLS,
                "box_order": puzzles.MAX_ORDER,
                "body_bytes": MAX_BODY,
                "jobs_per_client": m.per_client,
                "jobs_running": m.max_active,
                "job_seconds": m.seconds,
                "listed_solutions": _max_list(),
            },
            "library": lib,
            "lattice_library": lattice_lib,
            "grids": grids,
            "katamino": [
                {"number": i, "letter": letter, "colour_name": name, "colour": hexcode}
                for i, (letter, name, hexcode) in enumerate(KATAMINO, start=1)
            ],
            "server": m.stats(),
        }
    )


def _max_list() -> int:
    from .worker import MAX_LIST

    return MAX_LIST


async def check(request: Request) -> Response:
    """The parsed board and pieces as the page draws them, or the one line saying what is wrong."""
    data = await read_json(request)
    return JSONResponse(await summarise(request, data.get("puzzle")))


async def start_job(request: Request) -> Response:
    """Start a job (202 with its first state): every option and the puzzle checked first, so a
    bad request costs no process."""
    data = await read_json(request)
    action = data.get("action")
    if not isinstance(action, str) or action not in ACTIONS:  # a list or an object: unhashable
        raise BadRequest(f"unknown action {describe(action)} (one of {', '.join(sorted(ACTIONS))})")
    opts = data.get("options") or {}
    if not isinstance(opts, dict):
        raise BadRequest('"options" must be an object')
    for key in ("unique",):
        if key in opts and not isinstance(opts[key], bool):
            raise BadRequest(f"options.{key} must be true or false")
    if "heartbeat" in opts:
        beat = opts["heartbeat"]
        if isinstance(beat, bool) or not isinstance(beat, (int, float)) or not 1 <= beat <= 600:
            raise BadRequest("options.heartbeat must be a number of seconds 1..600")
    if "limit" in opts:
        limit = opts["limit"]
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= _max_list():
            raise BadRequest(f"options.limit must be an integer 1..{_max_list()}")
    summary = await summarise(request, data.get("puzzle"))
    kind = summary["kind"]
    if action in TILING_ONLY and kind == "shikaku":
        raise BadRequest(f"{action} is for tiling puzzles, not Shikaku")
    if action == "slam" and kind != "katamino":
        raise BadRequest("a slam needs a Katamino puzzle (a list of pieces)")
    if action == "slam" and len(summary.get("letters") or ()) < 3:
        raise BadRequest("a slam list needs at least 3 pieces")
    if action == "generate" and kind != "shikaku":
        raise BadRequest("generate makes Shikaku puzzles (give a grid of the size wanted)")
    if kind == "calendar" and action not in CALENDAR_ACTIONS:
        raise BadRequest(f"{action} is not for calendar puzzles (solve, count, sample or tally)")
    if action == "disassemble" and summary.get("dim") != 3:  # 3D grids: the job says which take it
        raise BadRequest(
            f"taking apart is for 3D puzzles on the cube grid (this puzzle: flat, {summary.get('grid')} grid)"
        )
    if action == "tally" and kind != "calendar":
        raise BadRequest("the year's tally is for calendar puzzles")
    tab = data.get("tab", "")
    if not isinstance(tab, str) or len(tab) > 64:
        raise BadRequest('"tab" must be a string of at most 64 characters')
    m: Manager = request.app.state.manager
    job = m.submit(client_of(request), action, data["puzzle"], opts, summary, tab=tab)
    return JSONResponse(job.view(), status_code=202)


async def play(request: Request) -> Response:
    """A position of hand play, answered at once: a quick job (its own process, the client's
    job slots, killed when it outlasts FINISH_SECONDS + PLAY_GRACE) whose result is the answer."""
    from ..analysis.play import FINISH_SECONDS

    data = await read_json(request)
    finish = data.get("finish", False)
    if not isinstance(finish, bool):
        raise BadRequest('"finish" must be true or false')
    summary = await summarise(request, data.get("puzzle"))
    if summary["kind"] == "shikaku":
        raise BadRequest("hand play is for tiling puzzles, not Shikaku")
    m: Manager = request.app.state.manager
    job = m.submit(
        client_of(request),
        "play",
        data["puzzle"],
        {"placed": data.get("placed") or [], "finish": finish, "tables": data.get("tables") is True},
        summary,
    )
    deadline = time.monotonic() + FINISH_SECONDS + PLAY_GRACE
    while job.active and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    if job.active:
        await run_in_threadpool(m.cancel, job)
    m.forget(job)
    if job.state == "done":
        return JSONResponse(job.result)
    if job.state == "cancelled":
        raise BadRequest(f"time limit: no answer within {FINISH_SECONDS + PLAY_GRACE:.0f} s", 503)
    message = job.error or "the play job failed"
    raise BadRequest(message, 500 if message.startswith("internal error") else 400)


def _job(request: Request) -> Job:
    manager: Manager = request.app.state.manager
    job = manager.get(request.path_params["job"])
    if job is None:
        raise BadRequest("no such job (finished jobs are forgotten after a while)", 404)
    return job


async def job_state(request: Request) -> Response:
    """The job's state as the page polls it (which also keeps a heartbeat job alive)."""
    job = _job(request)
    job.touch()
    since = request.query_params.get("since", "0")
    if not since.isdigit() or int(since) > 10**7:
        raise BadRequest("since must be a non-negative integer")
    return JSONResponse(job.view(int(since)))


async def cancel_job(request: Request) -> Response:
    """Stop the job (its process group is killed) and answer its final state."""
    job = _job(request)
    await run_in_threadpool(request.app.state.manager.cancel, job)
    return JSONResponse(job.view())


def _picture(job: Job, k: int, fmt: str) -> bytes:
    if job.summary["kind"] == "shikaku":
        from ..shikaku.model import Shikaku
        from ..shikaku.draw import png, svg

        p = Shikaku.from_rows(job.summary["rows"])
        rects = [tuple(r) for r in job.solutions[k]["rectangles"]]
        return svg(p, rects).encode() if fmt == "svg" else png(p, rects)
    from ..draw.pictures import draw

    sol = downloads.solution(job, k)
    assert sol.board is not None  # downloads.solution sets it
    return draw([sol], sol.board, fmt)


async def download(request: Request) -> Response:
    """One listed solution as a file: a picture, its JSON, or a BurrTools/STL/OBJ file."""
    job = _job(request)
    k, fmt = request.path_params["k"], request.path_params["fmt"]
    if fmt not in ("svg", "png", "json", *downloads.FORMATS):
        raise BadRequest(f"unknown format {fmt!r} (svg, png, json, {', '.join(downloads.FORMATS)})", 404)
    if not 0 <= k < len(job.solutions):
        raise BadRequest(f"no solution {k} (this job has {len(job.solutions)} listed)", 404)
    name = f"{downloads.file_stem(job)}-solution-{k + 1}.{fmt}"
    headers = {"Content-Disposition": f'attachment; filename="{name}"'}
    if fmt == "xmpuzzle" and reading.is_upload(job.spec):  # the file is read again: not in this process
        data = await run_in_threadpool(request.app.state.reader.xmpuzzle, job, k)
        return Response(data, media_type=downloads.FORMATS[fmt], headers=headers)
    if fmt in downloads.FORMATS:
        data = await run_in_threadpool(downloads.file_bytes, job, k, fmt)
        return Response(data, media_type=downloads.FORMATS[fmt], headers=headers)
    if fmt == "json":
        body = {"puzzle": job.spec, "solution": job.solutions[k]}
        return JSONResponse(body, headers=headers)
    data = await run_in_threadpool(_picture, job, k, fmt)
    return Response(data, media_type="image/svg+xml" if fmt == "svg" else "image/png", headers=headers)


async def download_all(request: Request) -> Response:
    """Every listed solution with the puzzle, as one JSON file the page can open again."""
    job = _job(request)
    headers = {"Content-Disposition": f'attachment; filename="{downloads.file_stem(job)}-solutions.json"'}
    return JSONResponse({"puzzle": job.spec, "solutions": job.solutions}, headers=headers)


# ---- headers, the app --------------------------------------------------------------------


SECURITY = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data: blob:; "
    "style-src 'self' 'unsafe-inline'; connect-src 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class Headers:
    """Security headers on every response (the page loads nothing from elsewhere: scripts, styles,
    pictures and requests from this server only, no inline script); no-store on the API's answers,
    no-cache on the page and its static files (a browser asks again, a 304 when unchanged, so a
    new polytile's scripts are never mixed with an old one's from its cache)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Add the security and cache headers to an HTTP response; other scopes pass through."""
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [(k.lower().encode(), v.encode()) for k, v in SECURITY.items()]
                if scope["path"].startswith("/api/"):
                    headers.append((b"cache-control", b"no-store"))
                else:
                    headers.append((b"cache-control", b"no-cache"))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with)


def create_app(
    *,
    per_client: int = 2,
    max_active: int = 4,
    seconds: float = 600.0,
    count_jobs: int | None = None,
    warm: bool = True,
    hosts: Iterable[str] | None = None,
) -> Starlette:
    """The app. `per_client`, `max_active`: jobs starting or running per client and in all;
    `count_jobs`: a count's workers, its `--jobs` (a pool gives the progress bar an ETA);
    `hosts`: the names it answers to (default: localhost, 127.0.0.1, [::1]; see guard.py)."""
    if count_jobs is None:
        count_jobs = max(1, min(4, os.cpu_count() or 1))
    manager = Manager(per_client=per_client, max_active=max_active, seconds=seconds, count_workers=count_jobs)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if warm:
            manager.start_warming()
        yield
        manager.shutdown()

    routes = [
        Route("/", index),
        Route("/api/info", info),
        Route("/api/check", check, methods=["POST"]),
        Route("/api/jobs", start_job, methods=["POST"]),
        Route("/api/play", play, methods=["POST"]),
        Route("/api/jobs/{job}", job_state, methods=["GET"]),
        Route("/api/jobs/{job}", cancel_job, methods=["DELETE"]),
        Route("/api/jobs/{job}/cancel", cancel_job, methods=["POST"]),
        Route("/api/jobs/{job}/solutions.json", download_all),
        Route("/api/jobs/{job}/solutions/{k:int}.{fmt}", download),
        *design_api.routes(summarise, client_of, _job),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers=exception_handlers(),
    )
    app.state.manager = manager
    app.state.reader = reading.Reader(manager.ctx)
    app.add_middleware(Guard, hosts=hosts if hosts is not None else host_names())
    app.add_middleware(Headers)
    return app
