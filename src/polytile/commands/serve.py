"""`polytile serve`: the web page (draw a puzzle, watch it solve, browse its solutions)."""
from __future__ import annotations

import typer

from ..errors import PuzzleError


def serve(port: int = typer.Option(8765, "--port", help="TCP port."),
          host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (127.0.0.1: "
                                   "this computer only)."),
          open_browser: bool = typer.Option(False, "--open", help="Open the page in a browser."),
          jobs_per_client: int = typer.Option(2, "--jobs-per-client", min=1, max=64,
                                              help="Jobs one client may run at once."),
          count_jobs: int = typer.Option(0, "--count-jobs", min=0, max=256,
                                         help="Processes per count (0: up to 4 cores)."),
          job_seconds: float = typer.Option(600.0, "--job-seconds", min=1.0,
                                            help="Stop any job after this many seconds.")) -> None:
    """Start the web page: tiling, Katamino, boxing and Shikaku, solved in the background."""
    if not 0 <= port <= 65535:
        raise PuzzleError(f"port {port} is out of range 0..65535", "--port")
    import socket
    import threading
    import webbrowser

    import uvicorn

    from ..web.app import create_app
    from ..web.guard import host_names
    try:
        with socket.create_server((host, port)):
            pass
    except OSError as e:
        raise PuzzleError(f"cannot listen on {host}:{port}: {e.strerror}", "--port") from None
    app = create_app(per_client=jobs_per_client, running=max(4, jobs_per_client),
                     seconds=job_seconds, count_jobs=count_jobs or None, hosts=host_names(host))
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    print(f"polytile serve: {url}  (Ctrl-C stops)", flush=True)
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    uvicorn.run(app, host=host, port=port, log_level="warning")


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
