"""The HTTP layer under the page's API: uvicorn's h11 protocol with the bounds it lacks.

uvicorn closes idle keep-alive connections but waits for ever on a request that arrives a
byte at a time (slowloris), and answers a request it cannot parse (a bad Content-Length)
in plain text. Here every connection must deliver its request line and headers within
`header_seconds` and its body within `body_seconds`, the server keeps at most
`max_connections` open (every tab and every local program is the same 127.0.0.1, so the
cap is global), and those refusals are the API's JSON error shape."""

from __future__ import annotations

import asyncio
import json

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_SECONDS = 10.0  # to send the request line and the headers
BODY_SECONDS = 30.0  # to send the body, from the end of the headers
MAX_CONNECTIONS = 64  # open connections, all clients together


def _json_bytes(message: str) -> bytes:
    return json.dumps({"error": message}).encode()


class GuardedH11(H11Protocol):
    """H11Protocol with header and body deadlines, a connection cap and JSON refusals."""

    header_seconds = HEADER_SECONDS
    body_seconds = BODY_SECONDS
    max_connections = MAX_CONNECTIONS

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """A new connection: refused at once over the cap, else its headers' deadline set."""
        super().connection_made(transport)
        self._deadline: asyncio.TimerHandle | None = None
        if len(self.connections) > self.max_connections:
            self._refuse(503, "too many open connections; try again in a moment")
            return
        self._arm(self.header_seconds, "the request's headers did not arrive in time")

    def connection_lost(self, exc: Exception | None) -> None:
        """The deadline goes with the connection (it would fire on a closed transport)."""
        self._disarm()
        super().connection_lost(exc)

    def handle_events(self) -> None:
        """uvicorn's handling, with the deadlines moved along as the request arrives: the
        headers' deadline ends with the headers, the body's with the body."""
        before = self.conn.their_state
        super().handle_events()
        after = self.conn.their_state
        if before is h11.IDLE and after is h11.SEND_BODY:
            self._arm(self.body_seconds, "the request's body did not arrive in time")
        if after is h11.DONE or (before is h11.IDLE and after is not h11.IDLE and after is not h11.SEND_BODY):
            self._disarm()

    def on_response_complete(self) -> None:
        """A kept-alive connection waits for its next request under the headers' deadline."""
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:  # keep-alive
            self._arm(self.header_seconds, "the request's headers did not arrive in time")

    def send_400_response(self, msg: str) -> None:
        """A request h11 cannot parse (a bad Content-Length, a broken request line)."""
        self._refuse(400, "malformed HTTP request (" + msg.rstrip(".").lower() + ")")

    def _arm(self, seconds: float, why: str) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(seconds, self._expire, why)

    def _disarm(self) -> None:
        deadline: asyncio.TimerHandle | None = getattr(self, "_deadline", None)  # None before connection_made
        if deadline is not None:
            deadline.cancel()
            self._deadline = None

    def _expire(self, why: str) -> None:
        self._deadline = None
        if self.cycle is not None and self.cycle.response_started:
            self.transport.close()
            return
        self._refuse(408, why)

    def _refuse(self, status: int, message: str) -> None:
        """Answer with the API's JSON error, then close the connection."""
        self._disarm()
        body = _json_bytes(message)
        phrase = {400: "Bad Request", 408: "Request Timeout", 503: "Service Unavailable"}[status]
        head = (
            f"HTTP/1.1 {status} {phrase}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
        ).encode()
        if not self.transport.is_closing():
            self.transport.write(head + body)
            self.transport.close()


def guarded(
    header_seconds: float = HEADER_SECONDS, body_seconds: float = BODY_SECONDS, max_connections: int = MAX_CONNECTIONS
) -> type[GuardedH11]:
    """The protocol class with these bounds (uvicorn.Config(http=...))."""
    return type(
        "GuardedH11",
        (GuardedH11,),
        {"header_seconds": header_seconds, "body_seconds": body_seconds, "max_connections": max_connections},
    )
