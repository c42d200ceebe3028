"""Compile the kernels ahead of time into the extension module polytile.engine._aot
(run by setup.py at `pip install`, or by hand: `python -m polytile.engine.aot [DIR]`).

Nothing here is a second copy of a kernel: numba's pycc compiles the very functions of
engine/<family>/kernel.py and the modules they import. Their signatures are not written
anywhere either: every search entry point is run once on tiny puzzles (in each mode the
commands use), and each kernel is exported under every argument-type signature its dispatcher recorded, so the extension
follows whatever the drivers pass. The extension also exports polytile_meta(): the hash
of the kernel sources (kernels.source_hash) and, per function, the type keys of its
variants, by which kernels.py picks a variant or falls back to the JIT."""
from __future__ import annotations

import json
import os
import sys
from itertools import product
from pathlib import Path

import numpy as np

from . import kernels
from .kernels import FAMILIES, dtype_key, source_hash

MODULE_NAME = "_aot"


def exercise() -> None:
    """Run each engine on tiny 2D and 3D puzzles: counting, listing, with and without
    symmetry (a canonical check and symmetry breaking), so each kernel the drivers call
    records the argument types of every call a command makes. Through the dispatchers:
    an extension built before is not used."""
    os.environ["POLYTILE_JIT"] = "1"
    kernels._table = None
    kernels._loaded.clear()
    from ..core.cover import build
    from ..core.puzzle import Board, Piece, Puzzle
    from ..core.symmetry import analyse
    from .search import search
    from .warm import warm
    for engine in FAMILIES:
        warm(engine, 4, parallel=True)          # parallel: tree.py's kernels too
        for dim in (2, 3):
            cells = np.array([(0, 0, 0), (0, 1, 0), (1, 0, 0), (1, 1, 0)], dtype=np.int64)[:, :dim]
            domino = np.array([(0, 0, 0), (0, 1, 0)], dtype=np.int64)[:, :dim]
            zeros = np.zeros(4, dtype=np.int64)
            puzzle = Puzzle(Board(cells, zeros), [Piece("d", domino, zeros[:2], 2)], dim == 2)
            model = build(puzzle)
            cover, sym = model.cover, analyse(model)
            for with_sym, unique, store, breaking in product((False, True), repeat=4):
                if unique and not with_sym:
                    continue
                search(cover, sym if with_sym else None, unique=unique, store=store,
                       breaking=breaking, engine=engine, limit=1 if store else None)
    from .tally import exercise as exercise_tally
    exercise_tally()                            # the calendars' tally (engine/tally.py)


def numba_key(numba_type):
    """kernels.type_key of a value numba types as `numba_type` (ValueError: a type the
    extension does not take)."""
    from numba.core import types
    from numba.np.numpy_support import as_dtype
    if isinstance(numba_type, types.Array):
        return (dtype_key(as_dtype(numba_type.dtype)), numba_type.ndim, numba_type.layout,
                numba_type.mutable, numba_type.aligned)
    if isinstance(numba_type, types.BaseNamedTuple):
        return ("record", numba_type.instance_class.__name__,
                tuple((name, numba_key(t)) for name, t in zip(numba_type.fields, numba_type.types)))
    if isinstance(numba_type, types.BaseTuple):
        return tuple(numba_key(t) for t in numba_type.types)
    if isinstance(numba_type, types.Boolean):
        return "bool"
    if isinstance(numba_type, (types.Integer, types.Float)):
        return str(numba_type)
    raise ValueError(f"no AOT for arguments of type {numba_type}")


def kernel_functions():
    """(module, name, dispatcher) of each kernel function the drivers called (through
    kernels.load) while exercised."""
    from importlib import import_module
    from numba.core.registry import CPUDispatcher
    for module, name in sorted(kernels.requested):
        value = getattr(import_module(f"polytile.engine.{module}"), name)
        if isinstance(value, CPUDispatcher):
            yield module, name, value
    for kernel in kernels.deferred:                  # called from their module's Python
        if kernel.options.get("inline") != "always" and kernel.dispatcher is not None:
            yield kernel.module, kernel.__name__, kernel.dispatcher


def _release_gil_in_wrappers() -> None:
    """pycc's Python wrappers keep the GIL by default; the parallel count runs kernels on
    threads side by side (their @njit(nogil=True)), so the wrappers release it."""
    import numba.pycc.compiler as pycc_compiler
    from numba.core.compiler import Flags

    class GilFree(Flags):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.release_gil = True

    pycc_compiler.Flags = GilFree


def compiler(output_dir: str | None = None):
    """A numba.pycc.CC exporting every kernel variant and polytile_meta()."""
    import warnings
    warnings.filterwarnings("ignore", message=".*pycc.*")
    from numba.pycc import CC
    _release_gil_in_wrappers()
    cc = CC(MODULE_NAME, kernels)         # the extension sits beside kernels.py (fails at once
    exercise()                            # without a C compiler, before the warm-up)
    if output_dir is not None:
        cc.output_dir = output_dir
    # this machine's instructions, as numba's JIT uses (the generic x86-64 model searches
    # ~25% slower); POLYTILE_AOT_CPU="" for a module to copy to other machines
    cc.target_cpu = os.environ.get("POLYTILE_AOT_CPU", "host")
    exported: dict[str, list] = {}
    for module, name, dispatcher in kernel_functions():
        for i, signature in enumerate(dispatcher.signatures):
            try:
                key = tuple(numba_key(t) for t in signature)
            except ValueError:
                continue
            symbol = f"{module.replace('.', '_')}__{name}__{i}"
            cc.export(symbol, dispatcher.overloads[signature].signature)(dispatcher.py_func)
            exported.setdefault(f"{module}.{name}", []).append([key, symbol])
    meta = json.dumps({"hash": source_hash(), "kernels": exported})
    cc.export("polytile_meta", "unicode_type()")(_constant(meta))
    return cc


def _constant(text: str):
    """A function returning `text` (frozen into the compiled code)."""
    def polytile_meta():
        return text
    return polytile_meta


def main() -> None:
    """Build the extension in place (next to this file), or into the folder given."""
    out = sys.argv[1] if len(sys.argv) > 1 else str(Path(__file__).parent)
    cc = compiler(out)
    cc.compile()
    print(f"{Path(out) / cc.output_file}")


if __name__ == "__main__":
    main()
