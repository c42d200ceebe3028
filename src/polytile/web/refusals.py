"""How the API refuses: every refusal is JSON {"error": one line} with its status, whether it
comes from a check of the request (BadRequest), bad input (PuzzleError, as the CLI says it), a
job limit (429, 409), Starlette itself (no route, wrong method) or a bug (500, the exception's
type only). The request body is read here too, bounded, as the one JSON object the API takes."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, cast

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ExceptionHandler

from ..errors import PuzzleError, one_line
from .jobs import Busy, Duplicate
from .reading import Refused

MAX_BODY = 1_000_000  # bytes of a request body


class BadRequest(Exception):
    """A request the API refuses (a 4xx status): its message is the JSON error's one line."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.message, self.status = message, status


def error(message: str, status: int) -> JSONResponse:
    """Every refusal's one shape, {"error": one line}, so the page shows any of them as it is."""
    return JSONResponse({"error": one_line(message)}, status_code=status)


async def read_json(request: Request) -> dict[str, Any]:
    """The body as a JSON object, at most MAX_BODY bytes."""
    length = request.headers.get("content-length")
    if length is not None:
        if not length.isdigit():
            raise BadRequest("bad Content-Length header")
        if int(length) > MAX_BODY:
            raise BadRequest(f"request too large ({int(length)} bytes; limit {MAX_BODY})", 413)
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise BadRequest(f"request too large (more than {MAX_BODY} bytes)", 413)
    if not body.strip():
        raise BadRequest("empty request body: expected a JSON object")
    try:
        data = json.loads(body.decode("utf-8"))
    except UnicodeDecodeError:
        raise BadRequest("the request body is not UTF-8 text") from None
    except RecursionError:
        raise BadRequest("malformed JSON: nested too deeply") from None
    except ValueError as e:
        raise BadRequest(f"malformed JSON: {e}") from None
    if not isinstance(data, dict):
        raise BadRequest("expected a JSON object")
    return data


async def on_bad_request(request: Request, exc: BadRequest) -> Response:
    """A refused request: its own status and line."""
    return error(exc.message, exc.status)


async def on_puzzle_error(request: Request, exc: PuzzleError) -> Response:
    """Bad input, as the CLI says it (what and where): a 400."""
    return error(str(exc), 400)


async def on_busy(request: Request, exc: Busy) -> Response:
    """Over a job limit: 429, the client should wait or cancel a job."""
    return error(str(exc), 429)


async def on_duplicate(request: Request, exc: Duplicate) -> Response:
    """The tab's job is still active (a double click): 409."""
    return error(str(exc), 409)


async def on_refused(request: Request, exc: Refused) -> Response:
    """An upload its reader refused (reading.py): its own status and line."""
    return error(exc.message, exc.status)


async def on_http(request: Request, exc: HTTPException) -> Response:
    """Starlette's own refusals (no route, wrong method) in the API's JSON shape."""
    messages = {404: "not found", 405: "method not allowed"}
    return error(messages.get(exc.status_code, str(exc.detail)), exc.status_code)


async def on_crash(request: Request, exc: Exception) -> Response:
    """A bug: a 500 naming the exception's type only (no traceback reaches the client)."""
    return error(f"internal error: {type(exc).__name__}", 500)


E = TypeVar("E", bound=Exception)


def _handler(on: Callable[[Request, E], Awaitable[Response]]) -> ExceptionHandler:
    """A handler of one exception type as Starlette's table types them (any exception: the
    table's key says which reaches it)."""
    return cast(ExceptionHandler, on)


def exception_handlers() -> dict[Any, ExceptionHandler]:
    """Starlette's table: each refusal's exception and its handler, any other exception a 500."""
    return {
        BadRequest: _handler(on_bad_request),
        PuzzleError: _handler(on_puzzle_error),
        Busy: _handler(on_busy),
        Duplicate: _handler(on_duplicate),
        Refused: _handler(on_refused),
        HTTPException: _handler(on_http),
        Exception: on_crash,
    }
