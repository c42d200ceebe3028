"""The page's progress bar and time left (web/eta.py), without a browser:
recorded traces of real parallel counts (tests/web-eta, with the commands that made them)
replayed figure by figure. The expected value is the time each count really had left (its
recorded end), not anything our estimate computes. The page's side (the bar drawn never
shrinks) is in test_web_defects.py."""

from __future__ import annotations

import json
import time

import pytest
from paths import TESTS

from polytile.web.eta import Eta
from polytile.web.jobs import Job

TRACES = sorted((TESTS / "web-eta").glob("*.json"))


def replay(trace: dict):
    """(when, share, the bar, what the page is told, the true time left) per figure."""
    eta = Eta()
    for when, spent, share in trace["figures"]:
        bar = eta.fraction(share)
        eta.add(when, spent, share)
        yield when, share, bar, eta.left(when), trace["end"] - when


@pytest.mark.parametrize("path", TRACES, ids=lambda p: p.stem)
def test_bar_never_goes_back_and_the_time_left_is_within_3x(path):
    trace = json.loads(path.read_text())
    bars, shown = [], []
    for when, _share, bar, told, true_left in replay(trace):
        bars.append(bar)
        if "eta" in told and true_left >= 1.0:  # the page never says less than 1 s
            ratio = max(told["eta"] / true_left, true_left / told["eta"])
            assert ratio <= 3.0, f"at {when} s: told {told['eta']} s left, {true_left:.1f} s true"
            shown.append(when)
        if "eta_low" in told:
            assert told["eta_low"] <= told["eta_high"]
    assert bars == sorted(bars)
    assert shown and shown[0] < 0.6 * trace["end"], "the time left was never (or only late) shown"


def test_the_skewed_trace_is_skewed():
    """The 11x5 trace is a fair test: its gauge falls back and the plain ETA is off by > 3x."""
    trace = json.loads((TESTS / "web-eta" / "box-pentominoes-11x5.json").read_text())
    shares = [s for _, _, s in trace["figures"]]
    assert any(b < a for a, b in zip(shares, shares[1:]))
    plain = [
        max(x / (trace["end"] - w), (trace["end"] - w) / x)
        for w, spent, s in trace["figures"]
        if trace["end"] - w >= 1.0
        for x in [spent * (1 - s) / s]
    ]
    assert max(plain) > 3.0


def test_falling_figures_hold_the_bar_and_say_estimating():
    """The cornucopia's first figures, which fell: 26.1%, 22.0%, ..., 3.3%."""
    eta = Eta()
    for when, share in ((8.0, 0.261), (9.0, 0.22), (20.0, 0.10), (52.0, 0.033)):
        assert eta.fraction(share) == 0.261
        eta.add(when, when, share)
        told = eta.left(when)
        assert "eta" not in told


def test_a_job_view_never_goes_back():
    job = Job("j", "me", "count", {}, {}, {}, state="running", started=time.time() - 10)
    seen = []
    for k, share in enumerate((0.30, 0.25, 0.10, 0.35)):
        job.progress = {"share": share, "elapsed": 1.0 + k, "seconds": 1.0 + k}
        seen.append(job.view()["progress"]["fraction"])
    assert seen == [0.30, 0.30, 0.30, 0.35]
