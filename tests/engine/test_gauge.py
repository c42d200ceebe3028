"""The ETA of parallel counts: the gauge's share of the work done, and the bar."""

from __future__ import annotations

import io

import numpy as np
import pytest

from polytile.engine.parallel.gauge import Gauge
from polytile.cli.progress import time_left


def test_unknown_until_a_part_has_finished():
    gauge = Gauge(None, None, [[]] * 6, sizes=np.array([10.0] * 5 + [20.0]))
    assert gauge.share({0: 5, 1: 5}) is None
    for part in range(3):
        gauge.finished(part, 5)  # the kernel searched half of Knuth's figure
        assert gauge.share({}) is None  # not enough parts yet to trust the scale
    gauge.finished(3, 5)
    # scale 0.5: 1 searched of 5 for part 4 (4 left), part 5 not begun (10 left)
    assert gauge.share({4: 1}) == pytest.approx(21 / (21 + 4 + 10))


def test_never_done_while_a_part_runs_beyond_its_estimate():
    gauge = Gauge(None, None, [[]] * 5, sizes=np.array([10.0] * 5))
    for part in range(4):
        gauge.finished(part, 10)
    share = gauge.share({4: 50})  # five times its estimate, still running
    assert share == pytest.approx(90 / (90 + 5))


def test_time_left_reads_estimating_then_the_pace():
    assert time_left(3.0, None) == "estimating..."
    assert time_left(30.0, 0.25) == "0:01:30 left"
    assert time_left(7200.0, 0.5) == "2:00:00 left"


def test_the_bar_keeps_its_times_at_80_columns(monkeypatch):
    from rich.console import Console

    from polytile.core.results import Report
    from polytile.cli.progress import counting

    screen = io.StringIO()
    monkeypatch.setattr("rich.console.Console", lambda **kw: Console(file=screen, width=80, force_terminal=True))
    with counting(enabled=True, after=0.0) as update:
        update(Report(solutions=123_456_789, nodes=9_876_543_210, seconds=65.0), 12, 345, 0.25)
    shown = screen.getvalue()
    assert "0:03:15 left" in shown
    assert "0:0…" not in shown


def test_the_time_left_goes_at_the_pace_of_the_search_not_of_the_set_up():
    from polytile.engine.parallel.gauge import time_share

    # 2 s of set-up, then half the nodes in 1 s: 1 s left, so 3 s of 4 done
    assert time_share(0.5, 1.0, 3.0) == pytest.approx(0.75)
    assert time_share(None, 1.0, 3.0) is None
    assert time_share(1.0, 1.0, 3.0) == 1.0
