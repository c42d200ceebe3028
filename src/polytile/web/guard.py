"""Who may talk to the local server: only pages the server itself served.

Any web site the user visits can make the browser send requests to 127.0.0.1, so the server
refuses (as JSON errors, before any route runs):
- a Host header that is not one of the server's own names (403): DNS rebinding, where a
  foreign name resolves to this machine;
- an Origin header that is not the server's own origin (403): a foreign page's request;
- a POST body that is not `application/json` (415): the "simple" cross-site requests
  (text/plain, forms) that browsers send without asking first."""

from __future__ import annotations

from collections.abc import Iterable

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from ..errors import one_line

LOCAL_HOSTS = ("localhost", "127.0.0.1", "[::1]")
ANY_ADDRESS = ("", "0.0.0.0", "::", "[::]")


def host_names(bound: str | None = None) -> tuple[str, ...]:
    """The names the server answers to: this computer's, and the address it is bound to."""
    names = list(LOCAL_HOSTS)
    if bound and bound not in ANY_ADDRESS:
        names.append(f"[{bound}]" if ":" in bound and not bound.startswith("[") else bound)
    return tuple(dict.fromkeys(name.lower() for name in names))


def host_name(header: str) -> str | None:
    """The name in a Host header (`name`, `name:port`, `[v6]:port`), or None when malformed."""
    header = header.strip().lower()
    if header.startswith("["):
        end = header.find("]")
        if end < 0:
            return None
        name, rest = header[: end + 1], header[end + 1 :]
    else:
        name, _, port = header.partition(":")
        rest = f":{port}" if _ else ""
    if rest and not (rest.startswith(":") and rest[1:].isascii() and rest[1:].isdigit()):
        return None
    return name or None


def _has_body(headers: dict[str, str]) -> bool:
    return headers.get("content-length", "0") not in ("", "0") or "transfer-encoding" in headers


def refusal(method: str, scheme: str, headers: dict[str, str], hosts: tuple[str, ...]) -> tuple[str, int] | None:
    """Why a request is refused (message, status), or None when it may go on."""
    host = headers.get("host", "")
    if host_name(host) not in hosts:
        return f"this server answers only to {', '.join(hosts)}, not to the host {host!r}", 403
    origin = headers.get("origin")
    if origin is not None and origin.lower() != f"{scheme}://{host.strip().lower()}":
        return f"requests from other sites are refused (origin {origin!r})", 403
    if method == "POST" and _has_body(headers):
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            return f"the request body must be application/json, not {kind or 'untyped'!r}", 415
    return None


class Guard:
    """ASGI middleware: refuse foreign hosts, foreign origins and non-JSON bodies."""

    def __init__(self, app: ASGIApp, hosts: Iterable[str]):
        self.app = app
        self.hosts = tuple(h.lower() for h in hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Refuse an HTTP request from a host or origin not allowed; pass the rest on."""
        if scope["type"] == "http":
            headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
            why = refusal(scope["method"], scope.get("scheme", "http"), headers, self.hosts)
            if why is not None:
                response = JSONResponse({"error": one_line(why[0])}, status_code=why[1])
                return await response(scope, receive, send)
        await self.app(scope, receive, send)
