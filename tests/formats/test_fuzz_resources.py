"""The fuzz suite's resource profile: generated inputs of every family run through
the real command (`count` for tilings with a time limit, `shikaku --count`, the page's
parser for request specs; for the formats added last `count` and `convert` on BurrTools
files, `cover` on DLX matrices, `calendar` on board files and dates, `mesh` with hostile
options) in a long-lived process capped at 1 GB of address space; each must finish within
5 s, and a MemoryError or any other foreign exception is a failure. The newer families mix
random mutations of real files with the red team's structured kinds (tests/hostile.py).

The page's file opening too: mutated BurrTools files (gzip or plain XML), random bytes and
pasted texts posted to the app's /api/check, as the page uploads them: no server error (5xx),
no overrun (an answer after UPLOAD_SECONDS, a reading process beyond the page's budget, the
server's own memory growing: uploads are read outside it, web/reading.py).

A few dozen inputs per family by default; `POLYTILE_FUZZ=long` (`make fuzz`) runs 10,000 per
family and prints the counts."""

from __future__ import annotations

import base64
import gzip
import json
import os
import resource
import subprocess
import sys
import threading
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

import hostile
from dlx_cases import KNUTH, KNUTH_COLOURS, langford, queens
from paths import EXAMPLES as EXAMPLE_DIR
from paths import TESTS
from polytile.budget import PAGE_BYTES
from polytile.formats.calendar_board import CLASSIC, WEEKDAY
from test_fuzz import (
    ASCII_SEEDS,
    GAME_ID_SEEDS,
    POLYJSON_SEEDS,
    SHIKAKU_JSON_SEEDS,
    SHIKAKU_TEXT_SEEDS,
    URL_SEEDS,
    WEB_SEEDS,
    _dumps,
    mutated_json,
    mutated_text,
)
from hypothesis import HealthCheck, settings

LONG = os.environ.get("POLYTILE_FUZZ") == "long"
LIMIT = 1 << 30  # address space of the worker
BUDGET = 5.0  # seconds per input
EXAMPLES = int(os.environ.get("POLYTILE_FUZZ_EXAMPLES", 10_000 if LONG else 25))
PROFILE = settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
TALLY: dict[str, dict[str, int]] = {}


class Worker:
    """tests/fuzz_worker.py in a process of its own, restarted after a failure."""

    def __init__(self):
        self.proc = None

    def start(self):
        worker = TESTS / "fuzz_worker.py"
        self.proc = subprocess.Popen(
            [sys.executable, str(worker), str(LIMIT)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=TESTS,
        )
        assert json.loads(self.ask_line(60))["ready"]

    def ask_line(self, timeout: float) -> str:
        box: list[str] = []
        reader = threading.Thread(target=lambda: box.append(self.proc.stdout.readline()), daemon=True)
        reader.start()
        reader.join(timeout)
        if not box or not box[0]:
            self.proc.kill()
            self.proc = None
            return ""
        return box[0]

    def run(self, request: dict) -> dict:
        if self.proc is None:
            self.start()
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.ask_line(BUDGET + 5)
        return json.loads(line) if line else {"status": None, "seconds": None, "error": "overrun"}

    def close(self):
        if self.proc is not None:
            self.proc.stdin.close()
            self.proc.wait(timeout=10)


@pytest.fixture(scope="module")
def worker():
    w = Worker()
    yield w
    w.close()
    if LONG:
        for family, counts in sorted(TALLY.items()):
            print(f"\nresource fuzz {family}: {counts}")


def check(worker: Worker, family: str, request: dict) -> None:
    res = worker.run(dict(request, family=family))
    counts = TALLY.setdefault(family, {"inputs": 0, "foreign": 0, "overruns": 0})
    counts["inputs"] += 1
    overrun = res["seconds"] is None or res["seconds"] > BUDGET
    counts["overruns"] += overrun
    counts["foreign"] += res["error"] is not None and res["error"] != "overrun"
    if res["error"] is not None:
        pytest.fail(f"{request!r}\n{res['error']}", pytrace=False)
    assert not overrun, (request, res["seconds"])
    assert res["status"] in (0, 1, 2, 124), (request, res)


COUNT = ["count", "{file}", "--time-limit", "1", "--jobs", "1", "--json", "--max-memory", "512M"]
SHIKAKU = ["shikaku", "--count", "{file}", "--time-limit", "1", "--max-memory", "512M"]


@PROFILE
@given(text=st.one_of(mutated_text(ASCII_SEEDS), st.text(alphabet="XXXB .\n\t\u00b2", max_size=200)))
def test_resources_ascii(worker, text):
    check(worker, "ascii", {"name": "fuzz.txt", "text": text, "args": COUNT})


@PROFILE
@given(text=st.one_of(mutated_text(POLYJSON_SEEDS), mutated_json(POLYJSON_SEEDS).map(_dumps)))
def test_resources_polytile_json(worker, text):
    check(worker, "polytile-json", {"name": "fuzz.json", "text": text, "args": COUNT})


@PROFILE
@given(
    text=st.one_of(
        mutated_text(SHIKAKU_TEXT_SEEDS),
        mutated_text(GAME_ID_SEEDS),
        mutated_text(URL_SEEDS),
        mutated_text(SHIKAKU_JSON_SEEDS),
        mutated_json(SHIKAKU_JSON_SEEDS).map(_dumps),
    )
)
def test_resources_shikaku(worker, text):
    check(worker, "shikaku", {"name": "fuzz.txt", "text": text, "args": SHIKAKU})


@PROFILE
@given(spec=mutated_json(WEB_SEEDS))
def test_resources_web_specs(worker, spec):
    check(worker, "web", {"text": _dumps(spec)})


# ---- the page's file opening (web/reading.py) ------------------------------------------------------

UPLOAD_SECONDS = 20.0  # an answer, on a busy machine
XML_SEEDS = [
    gzip.decompress(path.read_bytes()).decode("utf-8", "replace")
    for path in sorted((TESTS / "xmpuzzle").glob("*.xmpuzzle"))
    if path.stat().st_size < 4000
] + [
    '<puzzle><gridType type="0"/><colors>' + '<color red="1" green="1" blue="1"/>' * 2000 + "</colors><shapes>"
    '<voxel x="2" y="2" z="1" type="0">#1##_</voxel><voxel x="3" y="3" z="1" type="0">#########</voxel></shapes>'
    '<problems><problem><shapes><shape id="0" min="0" max="1000000000"/></shapes><result id="1"/>'
    '<bitmap><pair piece="0" result="0"/></bitmap></problem></problems></puzzle>',
]


@st.composite
def uploads(draw) -> dict:
    """A puzzle as the page sends a file: a mutated .xmpuzzle (gzip or plain), random bytes, or
    a pasted text."""
    kind = draw(st.sampled_from(["xml", "xml", "xml", "bytes", "text"]))
    if kind == "text":
        return {"kind": "tiling", "text": draw(mutated_text(ASCII_SEEDS + POLYJSON_SEEDS)), "name": "fuzz.txt"}
    if kind == "bytes":
        data = draw(st.binary(min_size=1, max_size=600))
    else:
        data = draw(mutated_text(XML_SEEDS)).encode("utf-8", "surrogatepass") or b" "
    if draw(st.booleans()):
        data = gzip.compress(data)
    problem = draw(st.one_of(st.just(1), st.integers(-2, 4), st.sampled_from(["2", None, 1.5, True])))
    spec = {"kind": "tiling", "xmpuzzle": base64.b64encode(data).decode(), "name": "fuzz.xmpuzzle"}
    return dict(spec, problem=problem)


@pytest.fixture(scope="module")
def page_app(client):
    """The app's test client, its upload reader warmed (the fork server's first start is not an overrun)."""
    soma = (TESTS / "xmpuzzle" / "soma-3x3x3.xmpuzzle").read_bytes()
    r = client.post("/api/check", json={"puzzle": {"kind": "tiling", "xmpuzzle": base64.b64encode(soma).decode()}})
    assert r.status_code == 200, r.text
    return client, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss << 10


@PROFILE
@given(spec=uploads())
def test_resources_page_uploads(page_app, spec):
    client, rss = page_app
    counts = TALLY.setdefault("page uploads", {"inputs": 0, "server errors": 0, "overruns": 0})
    counts["inputs"] += 1
    t0 = time.monotonic()
    r = client.post("/api/check", json={"puzzle": spec})
    seconds = time.monotonic() - t0
    grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss << 10) - rss
    reader = client.app.state.reader
    overrun = seconds > UPLOAD_SECONDS or reader.grew > PAGE_BYTES or grown > 256 << 20
    counts["server errors"] += r.status_code >= 500
    counts["overruns"] += overrun
    assert r.status_code < 500, (spec, r.text)
    assert not overrun, (spec, seconds, reader.grew, grown)
    if r.status_code != 200:
        message = r.json()["error"]
        assert "\n" not in message and "Traceback" not in message, message


# ---- the formats added last ---------------------------------------------------------------------


def _xml(path) -> str:
    return gzip.decompress(path.read_bytes()).decode("utf-8", errors="replace")


BURR_SEEDS = [t for t in map(_xml, sorted((TESTS / "xmpuzzle").glob("*.xmpuzzle"))) if len(t) <= 12_000] + [
    hostile.square_of(),
    hostile.burr_xml([hostile.SQUARE, (1, 1, 1, "#1")], [(1, 4)], 0, colours=1, pairs=[(0, 0)]),
]
DLX_SEEDS = [KNUTH, KNUTH_COLOURS, queens(5), langford(3), "a b | c\na c:x\nb c:x\nb\n"]
CALENDAR_SEEDS = [CLASSIC, WEEKDAY, "# a small board\nJan Feb\n1 2 3\n* * *\npieces: 2x3\n"]
DATES = ["Nov 25", "2026-11-25", "Wed Nov 25", "25 Nov", "November 25th", "today", "Feb 29"]
MESH_PUZZLES = sorted(p for p in EXAMPLE_DIR.glob("*") if p.suffix in (".txt", ".json") and p.stat().st_size < 3000)
MESH_OPTIONS = ["--unit", "--gap", "--bevel", "--solution", "--time-limit"]
MESH_VALUES = ["nan", "inf", "-inf", "1e308", "1e-300", "-0", "0", "0.5", "2", "10", "1000", "1001", "\u00b2", "\u0661"]
MESH_VALUES += ["1" * 5000, "10001", "3", "\x00", "", "1_0", "0x10"]


def _file(name: str, content: str | bytes) -> dict:
    if isinstance(content, bytes):
        return {"name": name, "data": base64.b64encode(content).decode("ascii")}
    return {"name": name, "text": content}


BURR_COMMANDS = st.sampled_from(
    [
        COUNT,
        [*COUNT, "--problem", "\u00b2"],
        [*COUNT, "--problem", "2"],
        ["count", "{file}", "--problem", "list"],
        ["solve", "{file}", "--time-limit", "1", "--max-memory", "512M"],
        ["convert", "{file}", "{dir}/out.dlx"],
        ["mesh", "{file}", "-o", "{dir}/out.stl", "--time-limit", "1"],
    ]
)


@PROFILE
@given(
    content=st.one_of(
        mutated_text(BURR_SEEDS),
        mutated_text(BURR_SEEDS).map(lambda t: gzip.compress(t.encode())),
        hostile.hostile_burr(),
    ),
    args=BURR_COMMANDS,
)
def test_resources_xmpuzzle(worker, content, args):
    check(worker, "xmpuzzle", {**_file("fuzz.xmpuzzle", content), "args": args})


COVER = ["cover", "{file}", "--time-limit", "1", "--jobs", "1", "--json", "--max-memory", "512M"]


@PROFILE
@given(
    text=st.one_of(mutated_text(DLX_SEEDS), hostile.hostile_dlx()),
    extra=st.sampled_from(
        [
            [],
            ["--limit", "3"],
            ["--engine", "bitset"],
            ["--engine", "links"],
            ["--engine", "bitboard"],
            ["--method", "frontier"],
        ]
    ),
)
def test_resources_dlx(worker, text, extra):
    check(worker, "dlx", {"name": "fuzz.dlx", "text": text, "args": COVER + extra})


@PROFILE
@given(
    board=st.one_of(mutated_text(CALENDAR_SEEDS), st.sampled_from(CALENDAR_SEEDS)),
    date=st.one_of(mutated_text(DATES), st.sampled_from(DATES)),
    extra=st.sampled_from([["--count"], ["--solve", "2"], ["--format", "json"]]),
)
def test_resources_calendar(worker, board, date, extra):
    args = ["calendar", "--board", "{file}", "--date", date, *extra]
    check(worker, "calendar", {"name": "board.txt", "text": board, "args": args})


@PROFILE
@given(
    puzzle=st.sampled_from(MESH_PUZZLES + [None]),
    mutate=st.booleans(),
    data=st.data(),
    options=st.one_of(
        st.just([]),
        st.lists(st.tuples(st.sampled_from(MESH_OPTIONS), st.sampled_from(["0.2", "0.5", "1", "10", "2"])), max_size=3),
        st.lists(st.tuples(st.sampled_from(MESH_OPTIONS), st.sampled_from(MESH_VALUES)), max_size=3),
    ),
)
def test_resources_mesh(worker, puzzle, mutate, data, options):
    """Example puzzles (or hostile ones: big pieces, many copies), mutated or not, with
    option values of every kind."""
    text = data.draw(hostile.hostile_mesh_puzzle()) if puzzle is None else puzzle.read_text()
    if mutate:
        text = data.draw(mutated_text([text]))
    flags = [f"{option}={value}" for option, value in options]
    args = ["mesh", "{file}", "-o", "{dir}/out.stl", "--time-limit", "1", *flags]
    suffix = ".json" if puzzle is None else puzzle.suffix
    check(worker, "mesh", {"name": "fuzz" + suffix, "text": text, "args": args})
