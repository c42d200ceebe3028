import json
from pathlib import Path

import pytest

CORPUS = Path(__file__).parent / "corpus"


def tiling_cases():
    return json.loads((CORPUS / "tiling" / "manifest.json").read_text())


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    return CORPUS
