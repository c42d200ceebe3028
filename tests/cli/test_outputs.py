"""Files the command writes (`-o`, `convert`, `mesh`): created with the user's umask, an
existing file's mode kept; a folder, a missing folder or a FIFO no one reads refused in one
line; a device or FIFO written through, a symbolic link's target replaced (the link kept)."""

from __future__ import annotations

import contextlib
import os
import select
import stat
from pathlib import Path

import pytest

from cli_helpers import call_cli
from test_bad_input import assert_one_error

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


def test_a_folder_is_refused_in_one_line(tmp_path):
    (tmp_path / "d").mkdir()
    assert_one_error(solve(tmp_path, "d"), "d: cannot write: it is a folder")
    assert (tmp_path / "d").is_dir()


@pytest.mark.parametrize("command", ["solve", "convert", "mesh"])
def test_a_file_in_a_missing_folder_is_refused_in_one_line(tmp_path, command):
    (tmp_path / "p.txt").write_text(DOMINOES)
    out = str(Path("nowhere") / ("out.stl" if command == "mesh" else "out.json"))
    args = ("convert", "p.txt", out) if command == "convert" else (command, "p.txt", "-o", out)
    assert_one_error(call_cli(*args, cwd=tmp_path), f"{out}: cannot write: no such folder")
    assert not (tmp_path / "nowhere").exists()


def test_a_file_under_a_file_is_refused_in_one_line(tmp_path):
    (tmp_path / "f").write_text("")
    assert_one_error(solve(tmp_path, "f/out.txt"), "f/out.txt: cannot write: Not a directory")


@pytest.fixture
def no_replacing_devices(monkeypatch):
    """os.replace and os.rename refuse to put anything over a device or FIFO: a writer that
    would replace /dev/null (as root it can) fails the test instead of breaking the machine."""
    for name in ("replace", "rename"):
        real = getattr(os, name)

        def guarded(src, dst, *args, _real=real, **kwargs):
            if os.path.exists(dst) and not os.path.isfile(dst) and not os.path.isdir(dst):
                raise AssertionError(f"{dst} is not a regular file: it must not be replaced")
            return _real(src, dst, *args, **kwargs)

        monkeypatch.setattr(os, name, guarded)


def test_dev_null_is_written_through_and_stays_a_device(tmp_path, no_replacing_devices):
    res = solve(tmp_path, "/dev/null")
    assert res.returncode == 0, res.stderr
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.txt"]


def test_a_fifo_with_a_reader_gets_the_output_and_stays_a_fifo(tmp_path, no_replacing_devices):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # open before the command writes: it has a reader
    try:
        res = solve(tmp_path, "fifo")  # two lines: they fit the pipe's buffer, the write does not wait
        got = os.read(reader, 1 << 16) if select.select([reader], [], [], 0)[0] else b""
    finally:
        os.close(reader)
    assert res.returncode == 0, res.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert got.count(b"\n") == 2, got


def test_a_fifo_no_one_reads_is_refused_in_one_line(tmp_path, no_replacing_devices):
    os.mkfifo(tmp_path / "fifo")
    assert_one_error(solve(tmp_path, "fifo"), "fifo: cannot write: it is a FIFO that no process reads")
    assert stat.S_ISFIFO(os.lstat(tmp_path / "fifo").st_mode)


@pytest.mark.parametrize("dangling", [False, True])
def test_a_symlink_s_target_is_replaced_and_the_link_kept(tmp_path, dangling):
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "out.txt"
    if not dangling:
        target.write_text("old\n")
        target.chmod(0o640)
    (tmp_path / "link.txt").symlink_to(Path("real") / "out.txt")
    res = solve(tmp_path, "link.txt")
    assert res.returncode == 0, res.stderr
    assert (tmp_path / "link.txt").is_symlink()
    assert target.read_text().count("\n") == 2
    if not dangling:
        assert mode(target) == 0o640
    assert sorted(p.name for p in (tmp_path / "real").iterdir()) == ["out.txt"]


def test_a_folder_is_refused_before_the_search(tmp_path, monkeypatch):
    import polytile.tiling.solver as solver

    def no_search(*args, **kwargs):
        raise AssertionError("searched before refusing the output")

    monkeypatch.setattr(solver.Tiling, "solve", no_search)
    (tmp_path / "d").mkdir()
    assert_one_error(solve(tmp_path, "d"), "d: cannot write: it is a folder")
