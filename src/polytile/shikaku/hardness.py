"""How hard a Shikaku grid is within its level: a number to climb on (`shikaku.graded`).

`measure` walks the grader's own steps (`shikaku.grading`: levels 1 and 2 to a stall, then
level 3's trial, then level 4's search) and so finds the same level as `grade`, but also
says how near the next level the grid came:

- level 1: the share of numbers not placed by the first round of forced rectangles;
- level 2: the share still open when level 1 stalled;
- level 3: at each stall of levels 1-2, the contradictions a trial could find among the
  numbers with at most TRY rectangles (counted up to SHORT); each stall adds 1 / that count.
  A stall with none is level 4 (when the search finds one solution), so few contradictions
  at many stalls is a grid close to it.

It stops as soon as the level passes `top` (the level asked for): a grid above it is of no
use to the climb, so its search for a second solution is spared. Pure Python: no numpy.
"""

from __future__ import annotations

from .grading import (
    CONTRADICTION,
    SOLVED,
    STUCK,
    TRY,
    Board,
    State,
    core,
    forced,
    no_room,
    one_number,
    place,
    propagate,
    region,
    search,
    start,
)
from .grid import Shikaku

STALL = 0.5  # a level-2 grid's hardness: this for each time level 1 stalls
Measure = tuple[int | None, float, frozenset[tuple[int, int]]]
NO_BLAME: frozenset[tuple[int, int]] = frozenset()
NONE: Measure = (None, 0.0, NO_BLAME)
SHORT = 2  # contradictions counted at a stall (more: the stall is as easy as with 3)


def contradictions(b: Board, st: State, most: int = SHORT) -> list[tuple[int, int]]:
    """Up to `most` (number, rectangle) pairs that a trial rules out, in the order
    `grading.trial` tries them (its first is the one it removes)."""
    found: list[tuple[int, int]] = []
    for k in sorted((k for k in st.open() if len(st.live[k]) <= TRY), key=lambda k: len(st.live[k])):
        for r in st.live[k]:
            trying = st.copy()
            if not place(b, trying, k, r) or propagate(b, trying, 2) == CONTRADICTION:
                found.append((k, r))
                if len(found) >= most:
                    return found
    return found


def _first_round(b: Board, st: State) -> float:
    """The share of numbers one round of forced rectangles leaves open (on a copy)."""
    trying = st.copy()
    forced(b, trying)
    return len(trying.open()) / max(1, len(st.live))


def _level_two(b: Board, st: State) -> tuple[str, int]:
    """`propagate(b, st, 2)` counting its stalls: the times level 1 was stuck and a rule
    of level 2 had to act (each rule's step as `propagate` takes it)."""
    stalls = 0
    while True:
        got = propagate(b, st, 1)
        if got != STUCK:
            return got, stalls
        for rule in (one_number, core, no_room, region):
            done = rule(b, st)
            if done is not None:
                break
        else:
            return STUCK, stalls
        stalls += 1
        if done == CONTRADICTION:
            return CONTRADICTION, stalls


def _trials(b: Board, st: State, top: int) -> Measure:
    """Level 3's trials from a stall of levels 1-2, each stall scored by its contradictions."""
    score, blame = 0.0, set()
    while True:
        found = contradictions(b, st)
        if not found:
            break
        blame |= {b.puzzle.clues[k][:2] for k, _ in found}
        k, r = found[0]
        st.live[k] = [m for m in st.live[k] if m != r]
        score += 1 / len(found)
        got = propagate(b, st, 2)
        if got == SOLVED:
            return 3, score, frozenset(blame)
        if got == CONTRADICTION:
            return NONE
    if top < 4:
        return top + 1, 0.0, NO_BLAME  # above what was asked: no need to know whether it is unique
    return (4, score, NO_BLAME) if len(search(b, st, 2)) == 1 else NONE


def measure(puzzle: Shikaku, top: int = 4) -> Measure:
    """(level, hardness within it, blame); the level is `grade`'s, None when the grid has no
    solution or several, top + 1 when it is above `top` (then unknown whether unique); the
    blame: at level 3, the clue cells (row, column) of the numbers whose trials found the
    contradictions (the ones a climb to level 4 should change)."""
    b = Board(puzzle)
    st = start(b)
    if any(not ms for ms in st.live):
        return NONE
    share = _first_round(b, st)
    got = propagate(b, st, 1)
    if got != STUCK:
        return (1, share, NO_BLAME) if got == SOLVED else NONE
    if top == 1:
        return 2, 0.0, NO_BLAME
    got, stalls = _level_two(b, st)
    if got != STUCK:
        return (2, STALL * stalls, NO_BLAME) if got == SOLVED else NONE
    if top == 2:
        return 3, 0.0, NO_BLAME
    return _trials(b, st, top)
