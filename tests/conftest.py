import json
import os
import re
import sys
import tempfile
from pathlib import Path

import pytest

# checkpoint rows are signed with a per-user key: the tests' own, never the user's
os.environ.setdefault("POLYTILE_CHECKPOINT_KEY", str(Path(tempfile.mkdtemp(prefix="polytile-key-")) / "checkpoint.key"))
# no progress lines on the commands' stderr (off a terminal they come every few seconds, so
# a slow machine would add them to what a test reads); tests/cli/test_progress.py turns them on
os.environ.setdefault("POLYTILE_PROGRESS", "0")

CORPUS = Path(__file__).parent / "corpus"

# Markers by module (pyproject.toml registers them; `make test-fast` leaves all three out):
# fuzz     the hypothesis fuzz and differential suites and the Ctrl-C trials (`make fuzz`
#          runs their long profiles);
# browser  a module that drives chromium (selenium, web_helpers.chrome or chromium_available),
#          found by reading its source, and any test using web_browser's page fixtures, so a
#          new page test is marked without a list to keep;
# slow     the modules that take longest without being either (seconds measured on 2 busy
#          cores with `pytest --durations=0`, all tests of the module summed).
FUZZ_MODULES = {"test_fuzz", "test_fuzz_resources", "test_differential", "test_orbit_split", "test_interrupt_trials"}
SLOW_MODULES = {
    "test_corpus",  # 76 s: the published counts of the whole corpus
    "test_parallel",  # 48 s: counts on threads, checkpoints, Dask
    "test_stealing",  # 40 s: random puzzles split and stolen, against the checker
    "test_interrupts",  # 20 s: Ctrl-C and time limits in subprocesses
    "test_aot",  # 17 s: fresh interpreters with and without the compiled kernels
    "test_mesh",  # 15 s
    "test_mesh_cli",  # its half that runs the command line
    "test_dlx",  # 13 s with test_dlx_random
    "test_dlx_random",
    "test_repro_resources",  # 10 s: parsers under resource limits
    "test_repro_hostile",  # 28 s: the newer formats' reproducers, memory measured in subprocesses
    "test_properties_parsers",  # 10 s: hypothesis round trips
    "test_calendar",  # 9 s
    "test_scheduler",  # 20 s: a process per address refused (servers that are no Dask scheduler)
    "test_time_limits",  # 25 s: counts of a 25x25x25 box, each in a process of its own
    "test_web_disassembly",  # 12 s: the page's take-apart (tiling/test_disassembly.py samples the family)
    "test_disassembly_limits",  # 8 s: time limits and Ctrl-C on disassembly, in subprocesses
}
# ... of which these tests stay in the fast set, a sample of each family (seconds, not minutes):
# every corpus count against the manifest, the calendar's published table of all 366 dates,
# Knuth's DLX examples, queens and Langford pairs.
FAST_SAMPLES = {
    "test_corpus": {"test_counts"},
    "test_calendar": {
        "test_every_date_of_the_classic_puzzle_matches_the_published_table",
        "test_the_printed_solution_shows_the_open_labels",
    },
    "test_dlx": {
        "test_knuth_examples_solutions_as_in_dlx1_and_dlx2",
        "test_queens_with_secondary_diagonals",
        "test_langford_pairs",
    },
}
BROWSER = re.compile(r"\bchrome\(|chromium_available|selenium|\bopen_page\(")
BROWSER_FIXTURES = {"page", "page_url"}  # tests/web_browser.py

pytest_plugins = ["web_browser"]  # the browser tests' page fixtures


def _uses_browser(path: Path, seen: dict[Path, bool] = {}) -> bool:  # noqa: B006 (a cache)
    if path not in seen:
        seen[path] = bool(BROWSER.search(path.read_text(encoding="utf-8")))
    return seen[path]


def pytest_collection_modifyitems(config, items):
    for item in items:
        module = item.path.stem
        if module in FUZZ_MODULES:
            item.add_marker(pytest.mark.fuzz)
        if _uses_browser(item.path) or BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)
        if module in SLOW_MODULES and getattr(item, "originalname", item.name) not in FAST_SAMPLES.get(module, ()):
            item.add_marker(pytest.mark.slow)


def pytest_terminal_summary(terminalreporter):
    """How many of the docs' commands ran (tests/project/test_docs_examples.py), when it ran."""
    docs = sys.modules.get("test_docs_examples")
    if docs is not None:
        terminalreporter.write_line(docs.summary())


def tiling_cases():
    return json.loads((CORPUS / "tiling" / "manifest.json").read_text())


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    return CORPUS


@pytest.fixture(scope="module")
def client():
    """A TestClient on the web app, one per test module (tests/web/test_web_*.py)."""
    from web_api_helpers import TestClient, create_app

    app = create_app(per_client=2, max_active=4, seconds=120, count_jobs=2)
    with TestClient(app, base_url="http://127.0.0.1") as c:
        yield c
