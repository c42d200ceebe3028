"""The progress bar and the time left of a running count, as the page shows them: a bar that
never jumps back and a time left that does not swing with every early, noisy figure.

The count's gauge (engine/parallel/gauge.py) gives the share of the search done. Early on it is
noisy: on a skewed count (the hexomino cornucopia) it fell from 26% to 3% as parts turned out
bigger than their estimates, and an ETA read off each figure swung from 20 s to 2 h. So:

* the bar never goes backwards: it shows the largest share seen so far (it waits, still, while
  the gauge catches up);
* every new figure gives a projected end time, now + spent x (1 - share) / share. The time
  left is shown only when the projected ends of the last WINDOW seconds (at least MIN_SAMPLES
  figures over at least MIN_SPAN seconds) agree: their spread is at most SPREAD of the time
  left. Before that, the page says "estimating"; when they disagree, it shows the range
  "between lo and hi" of the recent projections instead of one number. Once shown, a number
  gives way to the range again only when the spread grows past LOOSE (hysteresis, so the
  text does not flicker)."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

WINDOW = 6.0  # seconds of projections compared ...
WINDOW_SHARE = 0.25  # ... or this share of the elapsed time, when longer
MIN_SAMPLES = 5
MIN_SPAN = 2.0  # seconds the compared projections must span
SPREAD = 0.5  # max - min of the projected ends, as a share of the time left: stable
LOOSE = 1.0  # ... and unstable again past this


@dataclass
class Eta:
    """One running count's bar and time left, fed by every figure of its gauge (see above)."""

    top: float = 0.0  # the largest share shown
    ends: deque[tuple[float, float]] = field(default_factory=deque)  # (when, projected end), seconds
    stable: bool = False
    last: float | None = None  # the `when` of the last figure taken

    def fraction(self, share: float) -> float:
        """The bar: never less than before."""
        self.top = max(self.top, min(1.0, share))
        return self.top

    def add(self, when: float, spent: float, share: float) -> None:
        """A new figure of the gauge: `spent` seconds of search gave `share` of it, at `when`
        (seconds on the job's clock)."""
        if share <= 0 or when == self.last:
            return
        self.last = when
        self.ends.append((when, when + spent * (1 - share) / share))
        keep = max(WINDOW, WINDOW_SHARE * when)
        while self.ends and self.ends[0][0] < when - keep:
            self.ends.popleft()

    def left(self, now: float) -> dict[str, float]:
        """{"eta": seconds} when stable, {"eta_low", "eta_high"} when the projections
        disagree, {} while there are too few of them ("estimating")."""
        ends = list(self.ends)  # one step (the job's thread appends while a request reads)
        if len(ends) < MIN_SAMPLES or ends[-1][0] - ends[0][0] < MIN_SPAN:
            return {}
        projected = sorted(end for _, end in ends)
        low, high = projected[0] - now, projected[-1] - now
        middle = projected[len(projected) // 2] - now
        spread = (high - low) / max(middle, 1.0)
        self.stable = spread <= (LOOSE if self.stable else SPREAD)
        if self.stable:
            return {"eta": round(max(1.0, middle), 1)}
        return {"eta_low": round(max(1.0, low), 1), "eta_high": round(max(1.0, high), 1)}
