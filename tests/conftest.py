import json
import os
import re
import tempfile
from pathlib import Path

import pytest

# checkpoint rows are signed with a per-user key: the tests' own, never the user's
os.environ.setdefault("POLYTILE_CHECKPOINT_KEY", str(Path(tempfile.mkdtemp(prefix="polytile-key-")) / "checkpoint.key"))

CORPUS = Path(__file__).parent / "corpus"

# Markers by module (pyproject.toml registers them; `make test-fast` leaves all three out):
# fuzz     the hypothesis fuzz and differential suites and the Ctrl-C trials (`make fuzz`
#          runs their long profiles);
# browser  a module that drives chromium (selenium, web_helpers.chrome or chromium_available),
#          found by reading its source, so a new page test is marked without a list to keep;
# slow     the modules that take longest without being either (seconds measured on 2 busy
#          cores with `pytest --durations=0`, all tests of the module summed).
FUZZ_MODULES = {"test_fuzz", "test_fuzz_resources", "test_differential", "test_interrupt_trials"}
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
}
BROWSER = re.compile(r"\bchrome\(|chromium_available|selenium")


def _uses_browser(path: Path, seen: dict[Path, bool] = {}) -> bool:  # noqa: B006 (a cache)
    if path not in seen:
        seen[path] = bool(BROWSER.search(path.read_text(encoding="utf-8")))
    return seen[path]


def pytest_collection_modifyitems(config, items):
    for item in items:
        module = item.path.stem
        if module in FUZZ_MODULES:
            item.add_marker(pytest.mark.fuzz)
        if _uses_browser(item.path):
            item.add_marker(pytest.mark.browser)
        if module in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)


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
