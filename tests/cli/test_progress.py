"""Honest progress: off a terminal a plain line on stderr every few seconds (a survey printed
nothing for 24 minutes), whether or not the count has called back since; on a terminal a
time left that is not absurdly optimistic (a survey's read `0:00:01 left` for 20 s: it keeps
no seconds of its own) and, while the share of the work is unknown, the parts done."""

from __future__ import annotations

import io
import re
import time
import types

import pytest

from cli_helpers import call_cli
from polytile.cli import progress
from polytile.core.results import Report


class Clock:
    """A perf_counter the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def perf_counter(self) -> float:
        return self.now


class Stderr:
    """What the command writes to stderr (pytest's capture: no terminal), read as it comes."""

    def __init__(self, capsys) -> None:
        self.capsys, self.text = capsys, ""

    def lines(self, n: int, timeout: float = 10.0) -> list[str]:
        """The progress lines so far, once there are n of them (waiting at most `timeout`)."""
        end = time.monotonic() + timeout
        while True:
            self.text += self.capsys.readouterr().err
            lines = [line for line in self.text.splitlines() if line.startswith("polytile: ")]
            if len(lines) >= n:
                return lines
            if time.monotonic() > end:
                raise AssertionError(f"fewer than {n} progress lines: {self.text!r}")
            time.sleep(0.01)


@pytest.fixture
def off_terminal(monkeypatch, capsys):
    monkeypatch.delenv("POLYTILE_PROGRESS", raising=False)  # (the suite turns progress off)
    monkeypatch.setattr(progress, "PLAIN_EVERY", 0.05)
    return Stderr(capsys)


def test_off_a_terminal_a_plain_line_comes_every_few_seconds(off_terminal):
    with progress.counting() as update:
        assert update is not None
        first = off_terminal.lines(1)[0]  # before any call back: the count has begun
        assert first.endswith("elapsed, counting...")
        update(Report(solutions=1234, nodes=56789, seconds=3.0), 256, 4077, None)
        seen = len(off_terminal.lines(1))
        lines = off_terminal.lines(seen + 2)  # and again, with nothing new said
    assert "estimating..., 256/4,077 tasks (6%), 1,234 solutions" in lines[-1]
    assert "\x1b" not in off_terminal.text  # plain text, no terminal codes


def test_a_log_with_lines_ends_with_the_last_word(off_terminal, monkeypatch):
    """Once a line is out, what the count said last is the last line, though it came after
    the last tick (a run that ends between two lines); a run too short for a line prints none."""
    with progress.counting() as update:
        off_terminal.lines(1)
        monkeypatch.setattr(progress, "PLAIN_EVERY", 3600.0)  # no tick after this one
        off_terminal.lines(2)
        update(Report(solutions=4321, nodes=99, seconds=1.0))
    off_terminal.text += off_terminal.capsys.readouterr().err  # the last line is out on leaving
    lines = [line for line in off_terminal.text.splitlines() if line.startswith("polytile: ")]
    assert "4,321 solutions" in lines[-1] and all("4,321" not in line for line in lines[:-1])
    off_terminal.text = ""
    monkeypatch.setattr(progress, "PLAIN_EVERY", 3600.0)
    with progress.counting() as update:
        update(Report(solutions=7, nodes=1, seconds=0.0))
    assert "polytile: " not in off_terminal.text + off_terminal.capsys.readouterr().err


def test_progress_can_be_turned_off(off_terminal, monkeypatch):
    monkeypatch.setenv("POLYTILE_PROGRESS", "0")
    with progress.counting() as update:
        assert update is None


def test_a_survey_off_a_terminal_says_how_far_it_is(monkeypatch):
    monkeypatch.delenv("POLYTILE_PROGRESS", raising=False)
    monkeypatch.setattr(progress, "PLAIN_EVERY", 0.05)
    res = call_cli("survey", "holes", "--board", "6x4", "--holes", 4, "--pieces", "tetrominoes", "--jobs", 1)
    assert res.returncode == 0, res.stderr
    lines = [line for line in res.stderr.splitlines() if line.startswith("polytile: ")]
    assert lines and all(" elapsed" in line for line in lines), res.stderr
    assert any("tasks (" in line for line in lines), res.stderr


def bar_text(monkeypatch, clock: Clock, calls) -> str:
    """What the bar shows after `calls` (clock time, the callback's arguments), at 120 columns."""
    from rich.console import Console

    screen = io.StringIO()
    monkeypatch.setattr("rich.console.Console", lambda **kw: Console(file=screen, width=120, force_terminal=True))
    monkeypatch.setattr(progress, "time", types.SimpleNamespace(perf_counter=clock.perf_counter))
    with progress.counting(enabled=True, after=0.0) as update:
        for at, args in calls:
            clock.now = 1000.0 + at
            update(*args)
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", screen.getvalue())  # the text, without its colours


def test_a_survey_s_time_left_goes_by_the_display_s_clock(monkeypatch):
    """A survey's result keeps no seconds (0.0): the time left came out as 1 s, whatever the
    share done. 30% done after 20 s: 47 s left."""
    survey = types.SimpleNamespace(solutions=0, seconds=0.0, nodes=5, info="5 nodes")
    shown = bar_text(monkeypatch, Clock(), [(20.0, (survey, 3, 10, 0.3))])
    assert "0:00:20 0:00:47 left" in shown
    assert "0:00:01 left" not in shown


def test_the_time_left_waits_for_a_pace(monkeypatch):
    shown = bar_text(monkeypatch, Clock(), [(0.5, (Report(seconds=0.5), 1, 10, 0.5))])
    assert "estimating..." in shown and " left" not in shown


def test_the_parts_done_show_while_the_share_is_unknown(monkeypatch):
    shown = bar_text(monkeypatch, Clock(), [(9.0, (Report(solutions=2240, seconds=9.0), 256, 4077, None))])
    assert "estimating... 256/4,077 tasks (6%)" in shown
