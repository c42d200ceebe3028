"""An independent checker of disassembly plans for the tests: it shares no code with
polytile. It replays a plan (the moves of `solve --disassemble --format json`: pieces, a
vector, whether they leave) on the assembly's voxels, as sets of (x, y, z) cubes or
(a, b, c, z) triangular prisms (tests/disassembly_prisms.py: the prisms as solids);

- every move translates pieces of one part (the pieces still together) along one unit
  translation of the grid (an axis; on prisms also the three edge directions of the
  triangles), one unit step at a time, and no voxel of a moved piece ever meets a voxel
  of a piece of the same part that stays (prisms: nor on the way between two steps);
- a move out takes its pieces away for good: along its direction, nothing of the rest of
  their part lies ahead of any of their voxels; the part splits in two;
- at the end every part is one piece (or a set the caller says may stay together);
- the level string, rebuilt from the plan (moves of each part until it splits; the part
  that stays, then the part that leaves, each when it holds a separation of more than one
  move, as BurrTools prints it), is the one given."""

from __future__ import annotations

import disassembly_prisms


def _ray_clear(moving: set, still: set, v: tuple[int, int, int]) -> bool:
    """Nothing of `still` lies ahead of `moving` along v (a unit vector), ever."""
    axis = next(a for a in range(3) if v[a])
    sign = v[axis]
    for c in moving:
        for s in still:
            if all(s[a] == c[a] for a in range(3) if a != axis) and (s[axis] - c[axis]) * sign > 0:
                return False
    return True


def _shift(cells: set, v: tuple[int, ...]) -> set:
    return {tuple(x + d for x, d in zip(c, v)) for c in cells}


def check(pieces: dict[str, list], moves: list[dict], level: str, together: list[set] | None = None) -> None:
    """Replay `moves` on `pieces` (name -> cells); AssertionError on the first fault."""
    cells = {n: {tuple(c) for c in cs} for n, cs in pieces.items()}
    parts = [set(cells)]  # the pieces still together
    record: list[dict] = [{"names": set(cells), "moves": 0, "left": None, "out": None}]
    open_of = {0: 0}  # index in parts -> record index
    for m in moves:
        names, v = set(m["pieces"]), tuple(m["vector"])
        prisms = len(v) == 4
        if not prisms:
            assert sum(1 for c in v if c) == 1, f"not along one axis: {m}"
        owner = [i for i, p in enumerate(parts) if names <= p]
        assert len(owner) == 1, f"the moved pieces are not of one part: {m}"
        i = owner[0]
        rest = parts[i] - names
        moving = set().union(*(cells[n] for n in names))
        still = set().union(*(cells[n] for n in rest)) if rest else set()
        rec = record[open_of[i]]
        rec["moves"] += 1
        if m["out"]:
            unit = tuple((c > 0) - (c < 0) for c in v)
            assert rest, f"a move out of a part of its own: {m}"
            if prisms:
                assert disassembly_prisms.unit(v) == v, f"not a unit translation: {m}"
                assert disassembly_prisms.out_clear(moving, still, v), f"blocked on its way out: {m}"
            else:
                assert _ray_clear(moving, still, unit), f"blocked on its way out: {m}"
            parts[i] = rest
            parts.append(names)
            for side, key in ((rest, "left"), (names, "out")):
                record.append({"names": side, "moves": 0, "left": None, "out": None})
                rec[key] = len(record) - 1
            open_of[i] = rec["left"]
            open_of[len(parts) - 1] = rec["out"]
            continue
        steps = max(abs(c) for c in v)
        unit = tuple(c // steps for c in v)
        if prisms:
            assert disassembly_prisms.unit(unit) == unit and tuple(steps * c for c in unit) == v, (
                f"not a unit translation: {m}"
            )
        for _ in range(steps):
            if prisms:
                assert disassembly_prisms.step_clear(moving, still, unit), f"pieces meet during {m}"
            moving = _shift(moving, unit)
            assert not (moving & still), f"pieces overlap during {m}"
            for n in names:
                cells[n] = _shift(cells[n], unit)
    for p in parts:
        assert len(p) == 1 or (together is not None and p in together), f"still together at the end: {sorted(p)}"
    assert _level(record, 0) == level, (_level(record, 0), level)


def _multi(record: list[dict], i: int | None) -> bool:
    if i is None:
        return False
    r = record[i]
    return r["moves"] > 1 or _multi(record, r["left"]) or _multi(record, r["out"])


def _level(record: list[dict], i: int) -> str:
    r = record[i]
    out = str(r["moves"])
    for sub in (r["left"], r["out"]):
        if _multi(record, sub):
            out += "." + _level(record, sub)  # type: ignore[arg-type]
    return out
