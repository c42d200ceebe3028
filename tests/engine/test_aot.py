"""The kernels compiled ahead of time (engine/aot.py at pip install, engine/kernels.py at
run time): used when built, without numba; numba's JIT when the extension is missing,
stale, or called with argument types it was not built for."""
from __future__ import annotations

import os
import subprocess
import sys
import threading

import numpy as np
import pytest

from paths import ROOT
from polytile.engine import kernels
from polytile.engine.records import SOLUTIONS

P3X20 = ROOT / "examples" / "pentomino-3x20.txt"     # 8 tilings (2 up to symmetry)
NOT_BUILT = ("no compiled kernels (no C compiler at install, or the kernel sources were edited since: "
             "pip install -e . again)")
# CI (.ci/run) sets POLYTILE_REQUIRE_AOT=1: there a missing extension fails these tests instead of
# skipping them, so the compiled path cannot pass by being absent
REQUIRED = os.environ.get("POLYTILE_REQUIRE_AOT") == "1"
built = pytest.mark.skipif(not REQUIRED and not kernels.compiled_table(), reason=NOT_BUILT)


def test_the_extension_is_built_where_required():
    if REQUIRED or kernels.compiled_table():
        assert kernels.compiled_table(), f"POLYTILE_REQUIRE_AOT=1: {NOT_BUILT}"
    else:
        pytest.skip(NOT_BUILT)


def run(code: str, **env) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env={**os.environ, **env}, cwd=ROOT).stdout.split()


COUNT = (f"import sys, polytile; r = polytile.load({str(P3X20)!r}).count(); "
         "from polytile.engine import kernels; "
         "print(r.solutions, 'numba' in sys.modules, len(kernels.missed))")


@built
def test_a_count_uses_the_compiled_kernels_and_no_numba():
    assert run(COUNT) == ["8", "False", "0"]


@built
@pytest.mark.parametrize("args, says", [
    ([str(P3X20)], "solutions: 8"),
    ([str(ROOT / "examples" / "pentomino-6x10.txt"), "--unique"], "unique: 2339")])  # parallel
def test_the_command_imports_no_numba(args, says):
    p = subprocess.run([sys.executable, "-X", "importtime", "-m", "polytile", "count", *args],
                       capture_output=True, text=True, check=True)
    assert says in p.stdout
    imported = [line.split("|")[-1].strip() for line in p.stderr.splitlines() if "|" in line]
    assert not [m for m in imported if m == "numba" or m.startswith(("numba.", "llvmlite"))]


def test_without_the_extension_numba_counts():
    assert run(COUNT, POLYTILE_JIT="1") == ["8", "True", "0"]


def test_a_stale_or_missing_extension_is_not_used(monkeypatch):
    assert kernels.compiled_table(expected="0" * 32) == {}          # built from other sources
    monkeypatch.setattr(kernels, "EXTENSION", "polytile.engine._not_built")
    assert kernels.compiled_table() == {}
    from polytile.engine.bitboard import kernel
    assert kernels.Kernels("bitboard.kernel", {}).run is kernel.run      # then numba's dispatcher


def test_types_not_compiled_go_to_the_jit():
    """Pieces of size 2, two of them: sums 0, 2, 4 -> bits 0b10101 (counted by hand)."""
    sizes = kernels.kernel_module("bitboard.kernel").reachable_sizes
    left, size = np.array([2], np.int64), np.array([2], np.int64)
    assert sizes(left, size) == 0b10101
    odd = left.astype(np.int16)                                  # no driver passes int16
    assert sizes(odd, size) == 0b10101
    if kernels.using_compiled("bitboard.kernel", "reachable_sizes"):
        assert ("bitboard.kernel.reachable_sizes", (kernels.type_key(odd), kernels.type_key(size))) in kernels.missed


@pytest.mark.parametrize("value", [
    np.zeros(3, np.int64), np.zeros((2, 3), np.uint64), np.zeros((3, 2), np.int32).T,
    np.zeros((4, 4), np.int32)[:, ::2], np.zeros(2, bool), np.frombuffer(b"\0" * 8, np.int64),
    True, np.bool_(False), 7, 1 << 63, 2.5, np.uint64(3), np.int32(1),
    (np.zeros(2, np.int32), 3, (True, np.zeros(1, np.float64)))])
def test_type_keys_agree_with_numba(value):
    numba = pytest.importorskip("numba")
    from polytile.engine.aot import numba_key
    assert kernels.type_key(value) == numba_key(numba.typeof(value))


@built
def test_compiled_kernels_release_the_gil():
    """One kernel call searching 6 x 10 on a thread: the main thread runs meanwhile (with the
    GIL held it would wait for the whole call)."""
    import polytile
    from polytile.engine.search import plan, driver_class
    model = polytile.load(ROOT / "examples" / "pentomino-6x10.txt").model()
    p = plan(model.cover, None, unique=False, store=False)
    driver = driver_class("bitboard")(model.cover, None, p, store=False, limit=0)
    driver.begin(p.prefixes)
    thread = threading.Thread(target=driver.advance, args=(1 << 40,))
    loops = 0
    thread.start()
    while thread.is_alive():
        loops += 1
    assert driver.stats[SOLUTIONS] == 9356            # every tiling (2339 up to symmetry, x 4)
    assert loops > 100_000


def test_tree_estimates_compiled_equal_jit():
    """The same kernel source compiled ahead of time and by numba: the same random paths."""
    code = ("import polytile, numpy as np; from polytile.engine.tree import split, subtree_sizes; "
            f"m = polytile.load({str(ROOT / 'examples' / 'pentomino-6x10.txt')!r}).model(); "
            "keep = np.ones(m.cover.n_options, bool); "
            "parts = split(m.cover, keep, [np.zeros(0, np.int32)], 20); "
            "print(len(parts), *subtree_sizes(m.cover, keep, parts, probes=3, seed=5).round(6).ravel())")
    assert run(code) == run(code, POLYTILE_JIT="1")
