"""Files the command writes (`-o`, `convert`, `mesh`): created with the user's umask, an
existing file's mode kept; a folder, a missing folder or a FIFO no one reads refused in one
line; a device or FIFO written through, a symbolic link's target replaced (the link kept)."""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

import pytest

from cli_helpers import call_cli

DOMINOES = "XX\nXX\n\nXX\n\nXX\n"  # a 2x2 board and two dominoes


@contextlib.contextmanager
def umask(mask: int):
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def solve(tmp_path: Path, output: str | Path):
    (tmp_path / "p.txt").write_text(DOMINOES)
    return call_cli("solve", "p.txt", "-o", output, cwd=tmp_path)


@pytest.mark.parametrize("mask, expected", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_a_new_file_gets_the_umask_s_mode(tmp_path, mask, expected):
    with umask(mask):
        res = solve(tmp_path, "out.txt")
    assert res.returncode == 0, res.stderr
    assert mode(tmp_path / "out.txt") == expected
    assert (tmp_path / "out.txt").read_text().count("\n") == 2


@pytest.mark.parametrize("existing", [0o644, 0o640, 0o604])
def test_an_existing_file_keeps_its_mode(tmp_path, existing):
    out = tmp_path / "out.txt"
    out.write_text("old\n")
    out.chmod(existing)
    with umask(0o077):
        res = solve(tmp_path, "out.txt")
    assert res.returncode == 0, res.stderr
    assert mode(out) == existing and out.read_text() != "old\n"


def test_convert_and_mesh_write_with_the_umask(tmp_path):
    (tmp_path / "p.txt").write_text(DOMINOES)
    with umask(0o022):
        for args in (
            ("convert", "p.txt", "p.json"),
            ("mesh", "p.txt", "-o", "p.stl"),
            ("mesh", "p.txt", "-o", "p.obj"),
        ):
            res = call_cli(*args, cwd=tmp_path)
            assert res.returncode == 0, (args, res.stderr)
    for name in ("p.json", "p.stl", "p.obj", "p.mtl"):
        assert mode(tmp_path / name) == 0o644, name


def test_no_temporary_file_is_left_beside_the_output(tmp_path):
    solve(tmp_path, "out.txt")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt", "p.txt"]
