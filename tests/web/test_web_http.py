"""Slow, malformed and too many requests at the HTTP layer: a real uvicorn server with
polytile's protocol (web/http.py) on a free port. Slow requests are closed with a 408, an
unparsable one gets a 400, a connection over the cap a 503, all in the API's JSON error shape;
a normal request is answered meanwhile, and a long game id does not stall the others."""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.error
import urllib.request

import pytest

from web_api_helpers import create_app


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    import uvicorn

    from polytile.web.http import guarded

    port = _free_port()
    app = create_app(per_client=2, max_active=4, seconds=60, count_jobs=1)
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        log_level="critical",
        http=guarded(header_seconds=1.0, body_seconds=1.0, max_connections=20),
    )
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    for _ in range(100):
        if srv.started:
            break
        time.sleep(0.05)
    yield port
    srv.should_exit = True
    thread.join(timeout=10)


def _answer(sock: socket.socket, wait: float = 5.0) -> tuple[int, dict]:
    """Status and JSON body of the response read from `sock` until the server closes it."""
    sock.settimeout(wait)
    data = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)


def _info(port: int) -> float:
    t = time.perf_counter()
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/info", timeout=5) as r:
        assert r.status == 200 and "version" in json.loads(r.read())
    return time.perf_counter() - t


def test_slow_headers_are_closed_with_a_408_while_others_are_served(server):
    slow = []
    for _ in range(10):
        s = socket.create_connection(("127.0.0.1", server))
        s.sendall(b"POST /api/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the rest
        slow.append(s)
    assert _info(server) < 1.0  # answered at once, the slow ones still open
    t = time.perf_counter()
    for s in slow:
        status, body = _answer(s)
        assert status == 408 and "did not arrive in time" in body["error"]
        s.close()
    assert time.perf_counter() - t < 4.0


def test_a_slow_body_is_closed_with_a_408(server):
    s = socket.create_connection(("127.0.0.1", server))
    s.sendall(
        b"POST /api/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b'Content-Length: 100\r\n\r\n{"puz'
    )
    status, body = _answer(s)
    assert status == 408 and "body" in body["error"]


def test_a_bad_content_length_is_a_json_400(server):
    s = socket.create_connection(("127.0.0.1", server))
    s.sendall(b"POST /api/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n{}")
    status, body = _answer(s)
    assert status == 400 and body["error"].startswith("malformed HTTP request")


def test_connections_beyond_the_cap_get_a_503(server):
    held = [socket.create_connection(("127.0.0.1", server)) for _ in range(20)]
    try:
        time.sleep(0.2)
        extra = socket.create_connection(("127.0.0.1", server))
        status, body = _answer(extra)
        assert status == 503 and "too many open connections" in body["error"]
    finally:
        for s in held:
            s.close()
    time.sleep(0.3)
    assert _info(server) < 1.0  # the cap frees as connections close


def test_a_long_game_id_does_not_stall_other_requests(server):
    """`1x` and 100,000 digits (a 199 KB request) stalled the whole server for 36 s."""
    body = json.dumps({"puzzle": {"kind": "shikaku", "text": "1x" + "1" * 100_000}}).encode()
    answers: list[int] = []

    def post():
        req = urllib.request.Request(
            f"http://127.0.0.1:{server}/api/check", data=body, headers={"Content-Type": "application/json"}
        )
        try:
            urllib.request.urlopen(req, timeout=10)
        except urllib.error.HTTPError as e:
            answers.append(e.code)

    t = time.perf_counter()
    threads = [threading.Thread(target=post) for _ in range(3)]
    for th in threads:
        th.start()
    assert _info(server) < 1.0
    for th in threads:
        th.join(timeout=10)
    assert answers == [400, 400, 400] and time.perf_counter() - t < 5
