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
from collections.abc import Iterator
from typing import Any, Callable, cast

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
        warm(engine, 4, parallel=True)  # parallel: tree.py's kernels too
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
                search(
                    cover,
                    sym if with_sym else None,
                    unique=unique,
                    store=store,
                    breaking=breaking,
                    engine=engine,
                    limit=1 if store else None,
                )
            if engine == "bitboard":
                exercise_dynamic(cover, sym)
    from .tally import exercise as exercise_tally

    exercise_tally()  # the calendars' tally (engine/tally.py)
    from .counting.frontier import exercise as exercise_frontier

    exercise_frontier()  # the frontier sweep (engine/counting/sweep.py)
    from .counting.banded import exercise as exercise_banded

    exercise_banded()  # the Pfaffian's determinant (engine/counting/banded.py)
    from .disassembly.kernel import exercise as exercise_disassembly

    exercise_disassembly()  # the disassembler's search (engine/disassembly/kernel.py)
    rows = np.zeros((8, 2), dtype=np.uint64)  # the bitboard memo table's growth (bitboard/driver.py)
    kernels.kernel_module("bitboard.memo_table").rehash(rows[:4], rows)


def exercise_dynamic(cover: Any, sym: Any) -> None:
    """The dynamic bitboard kernel (bitboard/dynamic_driver.py) on a tiny cover: counting
    and listing, with and without symmetry, paused once (its driver is called by name)."""
    from .bitboard.dynamic_driver import DynamicDriver
    from .search import plan

    for with_sym, store in product((False, True), repeat=2):
        s = sym if with_sym else None
        p = plan(cover, s, unique=with_sym, store=store)
        driver = DynamicDriver(cover, s, p, store=store, limit=1 if store else 0)
        driver.begin(p.prefixes)
        while driver.advance(1) == "paused":
            pass


def numba_key(numba_type: Any) -> Any:
    """kernels.type_key of a value numba types as `numba_type` (ValueError: a type the
    extension does not take)."""
    from numba.core import types
    from numba.core.types.containers import BaseNamedTuple, BaseTuple  # not in types.__all__
    from numba.np.numpy_support import as_dtype

    if isinstance(numba_type, types.Array):
        return (
            dtype_key(as_dtype(numba_type.dtype)),
            numba_type.ndim,
            numba_type.layout,
            numba_type.mutable,
            numba_type.aligned,
        )
    if isinstance(numba_type, BaseNamedTuple):
        return (
            "record",
            numba_type.instance_class.__name__,
            tuple((name, numba_key(t)) for name, t in zip(numba_type.fields, numba_type.types)),
        )
    if isinstance(numba_type, BaseTuple):
        return tuple(numba_key(t) for t in numba_type.types)
    if isinstance(numba_type, types.Boolean):
        return "bool"
    if isinstance(numba_type, (types.Integer, types.Float)):
        return str(numba_type)
    raise ValueError(f"no AOT for arguments of type {numba_type}")


def kernel_functions() -> Iterator[tuple[str, str, Any]]:
    """(module, name, dispatcher) of each kernel function the drivers called (through
    kernels.kernel_module) while exercised."""
    from importlib import import_module
    from numba.core.registry import CPUDispatcher

    for module, name in sorted(kernels.requested):
        value = getattr(import_module(f"polytile.engine.{module}"), name)
        if isinstance(value, CPUDispatcher):
            yield module, name, value
    for kernel in kernels.deferred:  # called from their module's Python
        if kernel.options.get("inline") != "always" and kernel.dispatcher is not None:
            yield kernel.module, kernel.__name__, kernel.dispatcher


def _pycc_cc() -> Any:
    """numba.pycc's public CC class. Importing numba.pycc warns NumbaPendingDeprecationWarning
    ("The 'pycc' module is pending deprecation. Replacement technology is being developed."):
    known (numba 0.68 has no replacement; numba is bounded below 0.69 in pyproject.toml;
    docs/history/aot.md), so that one warning is ignored for this import alone: any other
    warning of the build shows, and nothing is filtered once the build is done."""
    import warnings
    from numba.core.errors import NumbaPendingDeprecationWarning

    with warnings.catch_warnings():
        warnings.filterwarnings(
            "ignore", message="The 'pycc' module is pending deprecation", category=NumbaPendingDeprecationWarning
        )
        from numba.pycc import CC
    return CC


def _thread_state_calls() -> tuple[Callable[..., Any], Callable[..., Any]]:
    """save_thread() and restore_thread(state): CPython's PyEval_SaveThread (the GIL let go,
    the thread's state returned) and PyEval_RestoreThread (the GIL taken back) as numba
    intrinsics (numba.extending.intrinsic, public), callable from compiled code. The extension
    loads into the interpreter, which has both symbols."""
    from llvmlite import ir
    from numba import types
    from numba.extending import intrinsic as untyped_intrinsic

    # numba ships no types: its decorator typed as taking and giving a function
    intrinsic = cast(Callable[[Callable[..., Any]], Callable[..., Any]], untyped_intrinsic)
    state = ir.IntType(8).as_pointer()

    def declared(module: Any, name: str, result: Any, args: list[Any]) -> Any:
        found = module.globals.get(name)
        return found if found is not None else ir.Function(module, ir.FunctionType(result, args), name)

    @intrinsic
    def save_thread(typingctx: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.call(declared(builder.module, "PyEval_SaveThread", state, []), [])

        return types.voidptr(), codegen

    @intrinsic
    def restore_thread(typingctx: Any, saved: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            builder.call(declared(builder.module, "PyEval_RestoreThread", ir.VoidType(), [state]), list(args))
            return context.get_dummy_value()

        return types.none(types.voidptr), codegen

    return save_thread, restore_thread


# The exported entry of a kernel: the GIL let go around the call, as numba's JIT does for
# @njit(nogil=True). pycc's public interface has no such option (its wrappers hold the GIL for
# the whole call), and the parallel count runs kernels on threads side by side. Written out
# because an exported function needs the kernel's exact arity. A kernel's exception cannot
# cross compiled code without the GIL: it is caught, the GIL taken back, and RuntimeError
# raised (numba's nopython mode cannot re-raise the caught one; POLYTILE_JIT=1 shows it).
_WITHOUT_GIL = """
def {name}({args}):
    state = save_thread()
    failed = False
    try:
        result = kernel({args})
    except Exception:
        failed = True
    restore_thread(state)
    if failed:
        raise RuntimeError(MESSAGE)
    return result
"""


def without_gil(
    kernel: Callable[..., Any], arity: int, name: str, calls: tuple[Callable[..., Any], Callable[..., Any]]
) -> Callable[..., Any]:
    """A Python function for pycc to export: calls the numba dispatcher `kernel` with `arity`
    arguments between save_thread() and restore_thread() (`calls`, _thread_state_calls)."""
    args = ", ".join(f"a{i}" for i in range(arity))
    scope: dict[str, Any] = {
        "save_thread": calls[0],
        "restore_thread": calls[1],
        "kernel": kernel,
        "MESSAGE": f"the compiled kernel {name} failed (POLYTILE_JIT=1 runs numba's JIT, which says why)",
    }
    exec(_WITHOUT_GIL.format(name=name, args=args), scope)  # our own text, no input in it
    entry: Callable[..., Any] = scope[name]
    return entry


def _fresh_numba_cache() -> None:
    """Compile every kernel afresh, never from numba's on-disk cache: numba checks a cached
    function against its own file only, so after a change to a record or a helper in another
    module the cache can hold machine code for the old layout (seen: a build from a stale cache
    counted 6x10 as 1.9e18). The build's cache goes to a temporary folder, removed at exit."""
    import atexit
    import shutil
    import tempfile

    from numba.core import config

    folder = tempfile.mkdtemp(prefix="polytile-aot-numba-")
    atexit.register(shutil.rmtree, folder, True)
    config.CACHE_DIR = folder


def compiler(output_dir: str | None = None) -> Any:
    """A numba.pycc.CC exporting every kernel variant (each releasing the GIL while it runs)
    and polytile_meta(); only pycc's public interface: CC(name, module), export, target_cpu,
    output_dir, then compile() (setup.py, main)."""
    # the extension sits beside kernels.py; CC fails at once without a C compiler, before the warm-up
    cc = _pycc_cc()(MODULE_NAME, kernels)
    _fresh_numba_cache()
    exercise()
    if output_dir is not None:
        cc.output_dir = output_dir
    # this machine's instructions, as numba's JIT uses (the generic x86-64 model searches
    # ~25% slower); POLYTILE_AOT_CPU="" for a module to copy to other machines
    cc.target_cpu = os.environ.get("POLYTILE_AOT_CPU", "host")
    calls = _thread_state_calls()
    exported: dict[str, list[Any]] = {}
    for module, name, dispatcher in kernel_functions():
        for i, signature in enumerate(dispatcher.nopython_signatures):  # with the return type
            try:
                key = tuple(numba_key(t) for t in signature.args)
            except ValueError:
                continue
            symbol = f"{module.replace('.', '_')}__{name}__{i}"
            cc.export(symbol, signature)(without_gil(dispatcher, len(signature.args), symbol, calls))
            exported.setdefault(f"{module}.{name}", []).append([key, symbol])
    meta = json.dumps({"hash": source_hash(), "kernels": exported})
    cc.export("polytile_meta", "unicode_type()")(_constant(meta))
    return cc


def _constant(text: str) -> Callable[[], str]:
    """A function returning `text` (frozen into the compiled code)."""

    def polytile_meta() -> str:
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
