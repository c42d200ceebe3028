import json
import os
import tempfile
from pathlib import Path

import pytest

# checkpoint rows are signed with a per-user key: the tests' own, never the user's
os.environ.setdefault("POLYTILE_CHECKPOINT_KEY",
                      str(Path(tempfile.mkdtemp(prefix="polytile-key-")) / "checkpoint.key"))

CORPUS = Path(__file__).parent / "corpus"


def tiling_cases():
    return json.loads((CORPUS / "tiling" / "manifest.json").read_text())


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    return CORPUS


@pytest.fixture(scope="module")
def client():
    """A TestClient on the web app, one per test module (tests/test_web_*.py)."""
    from web_api_helpers import TestClient, create_app
    app = create_app(per_client=2, running=4, seconds=120, count_jobs=2)
    with TestClient(app, base_url="http://127.0.0.1") as c:
        yield c
