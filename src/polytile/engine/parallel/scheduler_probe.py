"""A Dask scheduler's address, checked before distributed is handed it: the scheme is
tcp:// (or none), and what answers there opens with a Dask handshake.

distributed trusts its peer: the first eight bytes it reads are a length it allocates (an
HTTP server's `HTTP/1.1` reads as 3.07 EiB), and a peer that says nothing can hold it past
any time limit. The probe here connects, sends a handshake of its own (an HTTP server then
answers at once), and reads at most a few kilobytes within a timeout: a length, the frame
count and sizes that add up, and a msgpack map naming the handshake's fields. Anything else
is refused in one line (PuzzleError) naming the address."""

from __future__ import annotations

import socket
import struct
import sys
import time

from ...errors import PuzzleError

SCHEMES = ("tcp",)  # tls://, ws://, ucx://, inproc:// need settings or libraries polytile does not pass
MOST = 4096  # bytes a handshake may announce: a real one is about 60
FIELDS = (b"\xa6python", b"\xafpickle-protocol")  # msgpack keys every handshake has


def parse_address(address: str) -> tuple[str, int]:
    """(host, port) of `tcp://HOST:PORT`, `HOST:PORT` or `tcp://[IPv6]:PORT`; PuzzleError
    for another scheme or a malformed address."""
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    if scheme.lower() not in SCHEMES:
        raise PuzzleError(f"the {scheme}:// scheme is not supported: give tcp://HOST:PORT", address)
    host, colon, port = rest.rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536 or "/" in host:
        raise PuzzleError("a scheduler address looks like tcp://HOST:PORT", address)
    return host, int(port)


def _handshake() -> bytes:
    """What distributed sends first: a frame of a msgpack map (compression, python version,
    pickle protocol), behind the frame count and sizes, behind their total length."""
    v = sys.version_info
    body = (
        b"\x83\xabcompression\xc0"
        + b"\xa6python\x93"
        + bytes([v.major & 0x7F, v.minor & 0x7F, v.micro & 0x7F])
        + b"\xafpickle-protocol\x05"
    )
    frames = struct.pack("QQ", 1, len(body)) + body
    return struct.pack("Q", len(frames)) + frames


def _read(conn: socket.socket, n: int, deadline: float) -> bytes:
    """Exactly n bytes (n is at most MOST), or socket.timeout / EOFError."""
    data = b""
    while len(data) < n:
        conn.settimeout(max(0.001, deadline - time.monotonic()))
        chunk = conn.recv(n - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


def _is_handshake(body: bytes) -> bool:
    """Whether the bytes after the length are a Dask handshake's frames."""
    (n,) = struct.unpack_from("Q", body)
    if not 1 <= n <= 8 or 8 + 8 * n > len(body):
        return False
    sizes = struct.unpack_from(f"{n}Q", body, 8)
    if 8 + 8 * n + sum(sizes) != len(body):
        return False
    first = body[8 + 8 * n : 8 + 8 * n + sizes[0]]
    return bool(first) and first[0] & 0xF0 == 0x80 and all(f in first for f in FIELDS)


def probe(address: str, timeout: float) -> None:
    """Refuse, within `timeout` seconds, an address where no Dask scheduler answers."""
    host, port = parse_address(address)
    deadline = time.monotonic() + max(0.05, timeout)
    try:
        with socket.create_connection((host, port), timeout=max(0.05, timeout)) as conn:
            conn.sendall(_handshake())
            head = _read(conn, 8, deadline)
            (length,) = struct.unpack("Q", head)
            if not 16 <= length <= MOST:
                begins = head.decode("latin-1").encode("unicode_escape").decode("ascii")
                raise PuzzleError(
                    f"not a Dask scheduler: its first message announces {length} bytes (it begins {begins!r})",
                    address,
                )
            if not _is_handshake(_read(conn, length, deadline)):
                raise PuzzleError("not a Dask scheduler: its first message is no Dask handshake", address)
    except (socket.timeout, TimeoutError):
        raise PuzzleError(f"no Dask scheduler answered within {round(timeout, 1):g} s", address) from None
    except EOFError:
        raise PuzzleError("not a Dask scheduler: it closed the connection without a handshake", address) from None
    except OSError as e:
        reason = e.strerror or " ".join(str(e).split()) or type(e).__name__
        raise PuzzleError(f"cannot reach the Dask scheduler ({reason[:200]})", address) from None
