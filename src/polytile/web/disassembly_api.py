"""The page's "Take apart": the shown solution of a cube-grid puzzle taken apart as `burrTxt -d`
does it (tiling/disassembly.py), in a job of its own (web/worker.py: time limit, memory, Cancel).

    opts = {"placed": [{"piece": "S3", "cells": [[x, y, z], ...]}, ...]}   the solution shown

The answer names each move's pieces by their index in "placed", so the page moves the pieces
it draws: {"apart": true, "level": "98.2.4.2", "names": [...], "moves": [{"pieces": [1, 6],
"vector": [-1, 0, 0], "out": false, "text": "S3, S8 -x 1"}, ...]}; {"apart": false} when the
assembly does not come apart. A BurrTools file's weights and piece groups are honoured."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import PuzzleError

if TYPE_CHECKING:
    from ..core.puzzle import Puzzle
    from ..tiling.disassembly import Groups
    from .messages import Out
    from .puzzles import Parsed

JSON = dict[str, Any]


def _placed(opts: JSON, puzzle: Puzzle) -> list[tuple[str, list[tuple[int, ...]]]]:
    """opts["placed"] checked: (piece name, cells) per piece of the solution shown."""
    from . import page_limits

    placed = opts.get("placed")
    most = page_limits.MAX_DRAWN_CELLS
    if not isinstance(placed, list) or not placed or len(placed) > most:
        raise PuzzleError(f'"placed" must be a list of at most {most} pieces', "disassemble")
    out = []
    for i, p in enumerate(placed):
        cells = p.get("cells") if isinstance(p, dict) else None
        name = p.get("piece") if isinstance(p, dict) else None
        if (
            not isinstance(name, str)
            or not isinstance(cells, list)
            or not cells
            or len(cells) > most
            or not all(
                isinstance(c, list)
                and len(c) == puzzle.dim
                and all(isinstance(x, int) and not isinstance(x, bool) and abs(x) < 1 << 31 for x in c)
                for c in cells
            )
        ):
            raise PuzzleError(f"placed[{i}] must be a piece's name and its cells", "disassemble")
        out.append((name, [tuple(c) for c in cells]))
    return out


def _rules(spec: JSON, puzzle: Puzzle, k: int) -> tuple[list[int], Groups]:
    """Each part's weight and the piece groups: from the BurrTools file the page sent, else none."""
    from ..tiling.disassembly import Groups

    if spec.get("xmpuzzle") is None:
        return [1] * k, Groups([[] for _ in range(k)])
    from ..formats import xmpuzzle
    from . import burrfile

    name = burrfile.file_name(spec)
    burr = xmpuzzle.read_xml(xmpuzzle.unpack(burrfile.file_bytes(spec, name), name, burrfile.MAX_XML), name)
    prob = burr.problems[xmpuzzle.choose(burr, str(burrfile.problem_number(spec, name)), name)]
    kept = [(sid, g) for (sid, _, hi), g in zip(prob.parts, prob.groups) if hi > 0]
    return [burr.shapes[sid].weight for sid, _ in kept], Groups([g for _, g in kept])


def _items(puzzle: Puzzle, placed: list[tuple[str, list[tuple[int, ...]]]]) -> list[tuple[int, tuple[int, ...]]]:
    """(part, cell indices) of each piece shown, in the order shown (copies of a part: the
    parts of their congruence class in turn)."""
    from ..tiling.burr import _as_3d, parts_of

    parts = parts_of(puzzle)
    index = {tuple(c): i for i, c in enumerate(_as_3d(puzzle.board.cells).tolist())}
    slots = {name: [m for m in members for _ in range(parts.high[m])] for name, members in parts.of_class.items()}
    alias = {parts.names[m]: name for name, members in parts.of_class.items() for m in members}
    items = []
    for i, (name, piece) in enumerate(placed):
        if name not in alias:
            raise PuzzleError(f"placed[{i}]: no piece {name!r} in this puzzle", "disassemble")
        if not slots[alias[name]]:
            raise PuzzleError(f"placed[{i}]: more pieces {name!r} than the puzzle has", "disassemble")
        at = [index.get(tuple(c) + (0,) * (3 - len(c))) for c in piece]
        if any(j is None for j in at):
            raise PuzzleError(f"placed[{i}]: a cell off the board", "disassemble")
        items.append((slots[alias[name]].pop(0), tuple(sorted(j for j in at if j is not None))))
    return items


def _frame(chosen: list[np.ndarray], shown: list[np.ndarray]) -> tuple[np.ndarray, list[int]]:
    """The turn (a 3x3 matrix) that takes BurrTools' member of the class (`chosen`, the pieces
    it takes apart) onto the assembly shown, and which shown piece each chosen piece becomes."""
    from ..tiling.burr_order import MATRICES

    where = {frozenset(map(tuple, c.tolist())): i for i, c in enumerate(shown)}
    low = np.concatenate(shown).min(axis=0)
    for m in MATRICES:
        turned = [c @ m.T for c in chosen]
        shift = low - np.concatenate(turned).min(axis=0)
        found = [where.get(frozenset(map(tuple, (c + shift).tolist()))) for c in turned]
        if None not in found:
            return m, [int(i) for i in found if i is not None]
    raise PuzzleError("the solution shown is not an assembly of this puzzle", "disassemble")


def take_apart(parsed: Parsed, opts: JSON, spec: JSON, out: Out) -> JSON:
    """The shown solution's disassembly as burrTxt makes it (on BurrTools' member of the
    solution's class, turned back onto the one shown): its level and moves, or that it does
    not come apart."""
    from functools import partial

    from ..tiling.burr import _as_3d, _image, parts_of
    from ..tiling.burr_order import Chooser
    from ..tiling.disassembly import Disassembler, Move
    from ..tiling.disassembly_run import _names, refuse_grid
    from .messages import ticking

    if parsed.kind not in ("tiling", "box", "katamino"):
        raise PuzzleError("taking apart is for cube-grid puzzles", "disassemble")
    puzzle = parsed.tiling.puzzle
    grid = refuse_grid(puzzle)
    if not grid.boxes:  # (the page turns plans in the cube's frame; prisms: the command line)
        raise PuzzleError(
            f"taking apart on the page is for cube-grid puzzles (the {grid.title}: use `polytile solve --disassemble`)",
            "disassemble",
        )
    steps = np.array(grid.disassembly_steps(), np.int64)
    items = _items(puzzle, _placed(opts, puzzle))
    parts = parts_of(puzzle)
    weights, groups = _rules(spec, puzzle, len(parts.names))
    board = _as_3d(puzzle.board.cells)
    board = board - board.min(axis=0)
    used = [sum(p == q for q, _ in items) for p in range(len(parts.names))]
    ordered = Chooser(puzzle, board, parts.mirrors, partial(_image, parts)).choose(items, used)
    names = _names(parts.names, [p for p, _ in ordered], parts.high)
    chosen = [board[list(c)] for _, c in ordered]
    turn, shown = _frame(chosen, [board[list(c)] for _, c in items])
    pieces = [p for p, _ in ordered]
    dis = Disassembler(chosen, pieces, [weights[p] for p in pieces], groups, steps)
    with ticking(out, "taking apart"):
        sep = dis.run()
    if sep is None:
        return {"apart": False, "nodes": dis.nodes}
    at = dict(zip(names, shown))
    moves = []
    for m in sep.plan(names):
        turned = Move(m.pieces, tuple(int(x) for x in turn @ np.array(m.vector)), m.out)
        moves.append(
            {"pieces": [at[n] for n in m.pieces], "vector": list(turned.vector), "out": m.out, "text": turned.text()}
        )
    return {"apart": True, "level": sep.level(), "names": names, "moves": moves, "nodes": dis.nodes}
