"""The command line itself: no option is taken for an abbreviation of another, a misspelt
option, choice or command is answered with the one it most likely meant (one line, exit 2),
and `--version` prints the version without importing numpy."""

from __future__ import annotations

import re

import pytest

from cli_helpers import call_cli
from test_bad_input import assert_one_error
from test_startup import heavy_imports

DOMINOES = "XX\nXX\n\nXX\n\nXX\n"


@pytest.fixture
def puzzle(tmp_path):
    (tmp_path / "p.txt").write_text(DOMINOES)
    return tmp_path


@pytest.mark.parametrize(
    "args, message",
    [
        (["count", "p.txt", "--uniq"], "polytile count: unrecognized option '--uniq' (did you mean --unique?)"),
        (["count", "p.txt", "--uniqe"], "polytile count: unrecognized option '--uniqe' (did you mean --unique?)"),
        (
            ["count", "p.txt", "--time-lmit", "3"],
            "polytile count: unrecognized option '--time-lmit' (did you mean --time-limit?)",
        ),
        (["solve", "p.txt", "--lim", "3"], "polytile solve: unrecognized option '--lim' (did you mean --limit?)"),
        (["solve", "p.txt", "--formt=json"], "polytile solve: unrecognized option '--formt' (did you mean --format?)"),
        (["survey", "holes", "--bord", "3x3"], "polytile survey: unrecognized option '--bord' (did you mean --board?)"),
        (["count", "p.txt", "--bogus"], "polytile count: unrecognized arguments: --bogus"),  # nothing close
        (
            ["count", "p.txt", "--engine", "bitbord"],
            "polytile count: argument --engine: invalid choice: 'bitbord' (did you mean bitboard?) "
            "(choose from 'auto', 'bitboard', 'wide', 'dlx')",
        ),
        (
            ["survey", "hols"],
            "polytile survey: argument SURVEY: invalid choice: 'hols' (did you mean holes?) (choose from 'holes')",
        ),
    ],
)
def test_a_misspelt_option_is_refused_with_a_suggestion(puzzle, args, message):
    assert assert_one_error(call_cli(*args, cwd=puzzle)) == message


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["cuont", "p.txt"], "polytile: no such command 'cuont' (did you mean count?)"),
        (["shikku", "p.txt"], "polytile: no such command 'shikku' (did you mean shikaku?)"),
        (["--verison"], "polytile: no such option '--verison' (did you mean --version?)"),
        (["frobnicate"], "polytile: no such command 'frobnicate' (commands: count, "),
    ],
)
def test_a_misspelt_command_is_refused_with_a_suggestion(puzzle, args, fragment):
    line = assert_one_error(call_cli(*args, cwd=puzzle))
    assert line.startswith(fragment), line


def test_an_abbreviation_is_not_taken_for_the_option(puzzle):
    """`--uniq` was silently `--unique`, `--eng` silently `--engine`."""
    assert_one_error(call_cli("count", "p.txt", "--eng", "dlx", cwd=puzzle), "'--eng'")
    res = call_cli("count", "p.txt", "--unique", cwd=puzzle)
    assert res.returncode == 0 and "unique: 1" in res.stdout, res.stdout + res.stderr


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version_is_printed_without_numpy(tmp_path, flag):
    from polytile import __version__

    res = call_cli(flag)
    assert res.returncode == 0 and res.stderr == ""
    assert re.fullmatch(r"polytile [0-9][^\s]*\n", res.stdout), res.stdout
    assert res.stdout.split()[1] in (__version__, _installed())
    assert heavy_imports(tmp_path, flag) == (0, [])


def _installed() -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("polytile")
    except PackageNotFoundError:
        return None


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e400", "NaN"])
@pytest.mark.parametrize("verb", ["count", "solve", "stats"])
def test_a_time_limit_that_is_no_number_is_refused(puzzle, verb, value):
    """`--time-limit nan` compared false with every bound and meant no limit at all."""
    res = call_cli(verb, "p.txt", f"--time-limit={value}", cwd=puzzle)
    assert_one_error(res, "--time-limit", "is not a finite number")
