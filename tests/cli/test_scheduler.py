"""`count --scheduler ADDRESS` where no Dask scheduler answers: a server sending random bytes,
an HTTP server, a forged Dask frame header, a server that says nothing, and the schemes
polytile does not speak. Each is refused in one line naming the address, exit 2, within the
time limit, and nothing is sized from what the server sends (distributed read `HTTP/1.1` as a
length of 3.07 EiB). The servers listen on 127.0.0.1 in threads of this process; the command
runs in a process of its own, under a timeout."""

from __future__ import annotations

import http.server
import random
import socket
import struct
import threading
import time
from typing import Callable

import pytest

from cli_helpers import run_cli
from paths import EXAMPLES
from test_bad_input import assert_one_error

PUZZLE = str(EXAMPLES / "pentomino-6x10.txt")


class Server:
    """A TCP server on 127.0.0.1 that answers each connection with `answer(conn)` in a thread
    of its own, until closed."""

    def __init__(self, answer: Callable[[socket.socket], None]):
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.sock.settimeout(0.2)
        self.address = f"tcp://127.0.0.1:{self.sock.getsockname()[1]}"
        self.answer, self.stop = answer, threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            threading.Thread(target=self._one, args=(conn,), daemon=True).start()

    def _one(self, conn: socket.socket) -> None:
        with conn:
            conn.settimeout(30)
            try:
                self.answer(conn)
                self.stop.wait(30)  # keep the connection open: the client must not wait for its end
            except OSError:
                pass

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=5)
        self.sock.close()


def random_bytes(conn: socket.socket) -> None:
    conn.sendall(random.Random(20261129).randbytes(4096))


def http_reply(conn: socket.socket) -> None:
    """An HTTP server that answers whatever it is sent with a 400 at once."""
    conn.recv(1024)
    conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")


def forged_frame_count(conn: socket.socket) -> None:
    """A plausible length, then a frame count of 2**62."""
    conn.sendall(struct.pack("QQ", 58, 2**62) + bytes(50))


def forged_frame_size(conn: socket.socket) -> None:
    """A Dask handshake's length and frame count, then one frame of 2**62 bytes."""
    conn.sendall(struct.pack("QQQ", 58, 1, 2**62) + b"\x83\xabcompression\xc0" + bytes(29))


def silent(conn: socket.socket) -> None:
    pass


def refused(address: str, *extra: str, limit: float = 3.0) -> str:
    t0 = time.monotonic()
    res = run_cli("count", PUZZLE, "--scheduler", address, "--time-limit", limit, *extra, timeout=90)
    took = time.monotonic() - t0
    line = assert_one_error(res, address)
    assert took < limit + 20, took  # the limit, and an interpreter's start-up on a busy machine
    return line


@pytest.mark.parametrize(
    "answer, fragment",
    [
        (random_bytes, "not a Dask scheduler: its first message announces"),
        (
            http_reply,
            "not a Dask scheduler: its first message announces 3543824036068086856 bytes (it begins 'HTTP/1.1')",
        ),
        (forged_frame_count, "not a Dask scheduler: its first message is no Dask handshake"),
        (forged_frame_size, "not a Dask scheduler: its first message is no Dask handshake"),
        (silent, "no Dask scheduler answered within"),
    ],
)
def test_a_server_that_is_no_dask_scheduler_is_refused(answer, fragment):
    """A server that answers at once is refused at once: a long time limit, so that a start-up
    on a loaded machine does not spend it before the probe (the silent one waits out 3 s)."""
    server = Server(answer)
    try:
        assert fragment in refused(server.address, limit=3.0 if answer is silent else 60.0)
    finally:
        server.close()


def test_a_real_http_server_is_refused_within_the_time_limit():
    """http.server waits for a whole request line: the probe's timeout (the time limit) ends it."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    try:
        line = refused(f"tcp://127.0.0.1:{httpd.server_address[1]}", limit=2.0)
        assert "not a Dask scheduler" in line or "no Dask scheduler answered within 2 s" in line, line
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.mark.parametrize("scheme", ["tls", "ws", "wss", "ucx", "inproc", "http"])
def test_a_scheme_polytile_does_not_speak_is_refused_by_name(scheme):
    address = f"{scheme}://127.0.0.1:8786"
    line = refused(address)
    assert f"the {scheme}:// scheme is not supported" in line


@pytest.mark.parametrize("address", ["tcp://127.0.0.1", "tcp://127.0.0.1:99999", "tcp://:8786", "127.0.0.1:port"])
def test_a_malformed_address_is_refused(address):
    assert "a scheduler address looks like tcp://HOST:PORT" in refused(address)
