"""`polytile serve`: the web page (draw a puzzle, watch it solve, browse its solutions)."""

from __future__ import annotations

from argparse import ArgumentParser

from ...errors import PuzzleError
from .args import bounded, flag


def arguments(p: ArgumentParser) -> None:
    """Declare `serve`'s options (called only when the verb is named)."""
    p.add_argument("--port", type=int, default=8765, help="TCP port.")
    p.add_argument("--host", default="127.0.0.1", help="Address to listen on (127.0.0.1: this computer only).")
    flag(p, "--open", "Open the page in a browser.", dest="open_browser")
    p.add_argument("--jobs-per-client", type=bounded(int, 1, 64), default=2, help="Jobs one client may run at once.")
    p.add_argument("--count-jobs", type=bounded(int, 0, 256), default=0, help="Processes per count (0: up to 4 cores).")
    p.add_argument(
        "--job-seconds", type=bounded(float, 1.0), default=600.0, help="Stop any job after this many seconds."
    )
    p.set_defaults(run=serve)


def serve(port: int, host: str, open_browser: bool, jobs_per_client: int, count_jobs: int, job_seconds: float) -> None:
    """Start the web page: tiling, Katamino, boxing and Shikaku, solved in the background."""
    if not 0 <= port <= 65535:
        raise PuzzleError(f"port {port} is out of range 0..65535", "--port")
    import socket
    import threading
    import webbrowser

    import uvicorn

    from ...web.app import create_app
    from ...web.guard import host_names

    try:
        with socket.create_server((host, port)):
            pass
    except OSError as e:
        raise PuzzleError(f"cannot listen on {host}:{port}: {e.strerror}", "--port") from None
    app = create_app(
        per_client=jobs_per_client,
        max_active=max(4, jobs_per_client),
        seconds=job_seconds,
        count_jobs=count_jobs or None,
        hosts=host_names(host),
    )
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    print(f"polytile serve: {url}  (Ctrl-C stops)", flush=True)
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    from ...web.http import guarded

    uvicorn.run(app, host=host, port=port, log_level="warning", http=guarded())
