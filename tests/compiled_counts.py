"""One check shared by the compiled set-up's tests (test_orbits, test_placing, test_turning,
test_modelling): a random puzzle counted with the compiled step patched in, against the
brute force of tests/checker.py (which shares no code with polytile)."""

from __future__ import annotations

import json
from typing import Any

import pytest

import polytile
from checker import TooMany, all_solutions, classes


def check_counts(tmp_path_factory: Any, rp: Any, patches: list[tuple[Any, str, Any]]) -> None:
    """count(unique=True) of `rp` with each (object, attribute, value) of `patches` set,
    against the checker's solutions and classes; puzzles with too many solutions for the
    brute force are passed over."""
    try:
        sols = all_solutions(rp.board, rp.pieces, rp.dim, limit=300, max_nodes=50_000)
    except TooMany:
        return
    path = tmp_path_factory.mktemp("p") / "puzzle.json"
    path.write_text(json.dumps(rp.json))
    with pytest.MonkeyPatch.context() as patch:
        for target, name, value in patches:
            patch.setattr(target, name, value)
        report = polytile.load(path).count(unique=True)
    assert report.solutions == len(sols)
    assert report.unique == classes(sols, rp.board, rp.dim)
