"""A long-lived process for the resource fuzz profile (tests/formats/test_fuzz_resources.py): its
address space capped (RLIMIT_AS), it reads one JSON request a line from stdin, runs the
polytile command (or the web page's parser) on it in-process (the file's "text", or its bytes
as base64 "data"; "{file}" in the arguments is its path, "{dir}" the work folder), and
answers one JSON line:
{"status": exit status, "seconds": wall time, "error": a foreign exception or null}."""

from __future__ import annotations

import base64
import contextlib
import io
import json
import os
import resource
import sys
import tempfile
import time
import traceback


def handle(request: dict, workdir: str) -> dict:
    from polytile.cli.main import main

    t = time.perf_counter()
    error = None
    status = 0
    try:
        if request["family"] == "web":
            from polytile.errors import PuzzleError
            from polytile.web import puzzles

            try:
                spec = json.loads(request["text"])  # as the app reads a body
            except (ValueError, RecursionError):
                spec, status = None, 2  # the app's 400
            try:
                if status == 0:
                    puzzles.summary(puzzles.parse(spec))
            except PuzzleError:
                status = 2
        else:
            path = os.path.join(workdir, request["name"])
            if "data" in request:  # bytes (a gzip file), base64
                with open(path, "wb") as f:
                    f.write(base64.b64decode(request["data"]))
            else:
                with open(path, "w", encoding="utf-8", errors="surrogatepass") as f:
                    f.write(request["text"])
            out, err = io.StringIO(), io.StringIO()
            args = [path if a == "{file}" else a.replace("{dir}", workdir) for a in request["args"]]
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                status = main(args)
            if "Traceback" in err.getvalue():
                error = err.getvalue()[-6000:]
    except BaseException:  # MemoryError, RecursionError, anything foreign
        error = traceback.format_exc()[-6000:]
    return {"status": status, "seconds": time.perf_counter() - t, "error": error}


def serve(limit: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    import polytile.cli.main  # noqa: F401  (imported once, outside the timed requests)

    with tempfile.TemporaryDirectory() as workdir:
        print(json.dumps({"ready": True}), flush=True)
        for line in sys.stdin:
            print(json.dumps(handle(json.loads(line), workdir)), flush=True)


if __name__ == "__main__":
    serve(int(sys.argv[1]))
