"""The kernels compiled ahead of time (engine/aot.py at pip install, engine/kernels.py at
run time): used when built, without numba; numba's JIT when the extension is missing,
stale, or called with argument types it was not built for."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

from paths import ROOT
from polytile.engine import kernels
from polytile.engine.records import SOLUTIONS

P3X20 = ROOT / "examples" / "pentomino-3x20.txt"  # 8 tilings (2 up to symmetry)
NOT_BUILT = (
    "no compiled kernels (no C compiler at install, or the kernel sources were edited since: pip install -e . again)"
)
# CI (.ci/run) sets POLYTILE_REQUIRE_AOT=1: there a missing extension fails these tests instead of
# skipping them, so the compiled path cannot pass by being absent
REQUIRED = os.environ.get("POLYTILE_REQUIRE_AOT") == "1"
# .ci/run's second pass sets POLYTILE_JIT=1 (and POLYTILE_REQUIRE_AOT=0): every kernel is numba's
# there, so the tests of the compiled kernels skip; the first pass ran them
JIT_RUN = bool(os.environ.get("POLYTILE_JIT"))
built = pytest.mark.skipif(
    JIT_RUN or (not REQUIRED and not kernels.compiled_table()),
    reason="POLYTILE_JIT=1: numba's JIT only" if JIT_RUN else NOT_BUILT,
)


def test_the_extension_is_built_where_required():
    if JIT_RUN:  # the JIT pass: nothing compiled ahead of time is used
        assert not REQUIRED, "POLYTILE_REQUIRE_AOT=1 and POLYTILE_JIT=1 contradict each other"
        assert kernels.compiled_table() == {}
    elif REQUIRED or kernels.compiled_table():
        assert kernels.compiled_table(), f"POLYTILE_REQUIRE_AOT=1: {NOT_BUILT}"
    else:
        pytest.skip(NOT_BUILT)


def run(code: str, **env) -> str:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env={**os.environ, **env}, cwd=ROOT
    ).stdout.split()


COUNT = (
    f"import sys, polytile; r = polytile.load({str(P3X20)!r}).count(); "
    "from polytile.engine import kernels; "
    "print(r.solutions, 'numba' in sys.modules, len(kernels.missed))"
)


@built
def test_a_count_uses_the_compiled_kernels_and_no_numba():
    assert run(COUNT) == ["8", "False", "0"]


@built
@pytest.mark.parametrize(
    "args, says",
    [([str(P3X20)], "solutions: 8"), ([str(ROOT / "examples" / "pentomino-6x10.txt"), "--unique"], "unique: 2339")],
)  # parallel
def test_the_command_imports_no_numba(args, says):
    p = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "polytile", "count", *args],
        capture_output=True,
        text=True,
        check=True,
    )
    assert says in p.stdout
    imported = [line.split("|")[-1].strip() for line in p.stderr.splitlines() if "|" in line]
    assert not [m for m in imported if m == "numba" or m.startswith(("numba.", "llvmlite"))]


def test_without_the_extension_numba_counts():
    assert run(COUNT, POLYTILE_JIT="1") == ["8", "True", "0"]


def test_a_stale_or_missing_extension_is_not_used(monkeypatch):
    assert kernels.compiled_table(expected="0" * 32) == {}  # built from other sources
    monkeypatch.setattr(kernels, "EXTENSION", "polytile.engine._not_built")
    assert kernels.compiled_table() == {}
    from polytile.engine.bitboard import kernel

    assert kernels.Kernels("bitboard.kernel", {}).run is kernel.run  # then numba's dispatcher


def test_types_not_compiled_go_to_the_jit():
    """Pieces of size 2, two of them: sums 0, 2, 4 -> bits 0b10101 (counted by hand)."""
    sizes = kernels.kernel_module("bitboard.kernel").reachable_sizes
    left, size = np.array([2], np.int64), np.array([2], np.int64)
    assert sizes(left, size) == 0b10101
    odd = left.astype(np.int16)  # no driver passes int16
    assert sizes(odd, size) == 0b10101
    if kernels.using_compiled("bitboard.kernel", "reachable_sizes"):
        assert ("bitboard.kernel.reachable_sizes", (kernels.type_key(odd), kernels.type_key(size))) in kernels.missed


@pytest.mark.parametrize(
    "value",
    [
        np.zeros(3, np.int64),
        np.zeros((2, 3), np.uint64),
        np.zeros((3, 2), np.int32).T,
        np.zeros((4, 4), np.int32)[:, ::2],
        np.zeros(2, bool),
        np.frombuffer(b"\0" * 8, np.int64),
        True,
        np.bool_(False),
        7,
        1 << 63,
        2.5,
        np.uint64(3),
        np.int32(1),
        (np.zeros(2, np.int32), 3, (True, np.zeros(1, np.float64))),
    ],
)
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
    assert runs_during(lambda: driver.advance(1 << 40)) > 10
    assert driver.stats[SOLUTIONS] == 9356  # every tiling (2339 up to symmetry, x 4)


def runs_during(call) -> int:
    """How often the main thread stamped the time while `call` ran on another thread, in the
    middle 80% of the call. With the GIL held by the call, none: the main thread runs only before
    and after it (up to a switch interval, 5 ms, past either end); without the GIL, thousands."""
    span, stamps, loops = [], [], 0

    def timed():
        span.append(time.perf_counter())
        call()
        span.append(time.perf_counter())

    thread = threading.Thread(target=timed)
    thread.start()
    while thread.is_alive():
        loops += 1
        if loops % 256 == 0:
            stamps.append(time.perf_counter())
    start, end = span
    margin = (end - start) / 10
    return sum(start + margin < t < end - margin for t in stamps)


def test_tree_estimates_compiled_equal_jit():
    """The same kernel source compiled ahead of time and by numba: the same random paths."""
    code = (
        "import polytile, numpy as np; from polytile.engine.tree import split, subtree_sizes; "
        f"m = polytile.load({str(ROOT / 'examples' / 'pentomino-6x10.txt')!r}).model(); "
        "keep = np.ones(m.cover.n_options, bool); "
        "parts = split(m.cover, keep, [np.zeros(0, np.int32)], 20); "
        "print(len(parts), *subtree_sizes(m.cover, keep, parts, probes=3, seed=5).round(6).ravel())"
    )
    assert run(code) == run(code, POLYTILE_JIT="1")


# The exported entries (aot.without_gil) on two small kernels, built as the extension is built
def _spin(n):
    """A loop numba cannot shorten: n steps of a linear congruence."""
    total = 0
    for i in range(n):
        total = (total * 31 + i) % 1000003
    return total


def _fails(n):
    if n > 3:
        raise ValueError("n > 3")
    return n


LOAD_PROBE = (
    "import importlib.util, sys\n"
    "spec = importlib.util.spec_from_file_location('_gil_probe', sys.argv[1])\n"
    "probe = importlib.util.module_from_spec(spec)\nspec.loader.exec_module(probe)\n"
)


@pytest.fixture(scope="module")
def probe(tmp_path_factory):
    """The module _gil_probe (spin, fails) compiled by pycc's CC through aot.without_gil."""
    import importlib.util

    import numba
    from polytile.engine import aot

    out = tmp_path_factory.mktemp("gil-probe")
    cc = aot._pycc_cc()("_gil_probe", sys.modules[__name__])
    cc.output_dir = str(out)
    calls = aot._thread_state_calls()
    for name, kernel in (("spin", numba.njit(nogil=True)(_spin)), ("fails", numba.njit(_fails))):
        cc.export(name, "int64(int64)")(aot.without_gil(kernel, 1, name, calls))
    try:
        cc.compile()
    except Exception as exc:  # no C compiler: the extension is not built here either
        if REQUIRED:
            raise
        pytest.skip(f"{NOT_BUILT}: {exc}")
    spec = importlib.util.spec_from_file_location("_gil_probe", out / cc.output_file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_an_exported_entry_lets_the_gil_go(probe):
    """The main thread runs while another is inside the compiled call (pycc's own wrapper,
    which holds the GIL, gives 0 here: tried by hand, 3 runs)."""
    assert probe.spin(1000) == _spin(1000) and probe.fails(2) == 2
    assert runs_during(lambda: probe.spin(50_000_000)) > 10


def test_a_kernel_error_takes_the_gil_back(probe):
    """The kernel's ValueError, caught in compiled code without the GIL, comes back as a
    RuntimeError naming the kernel; the interpreter goes on (in a fresh process: a lost GIL
    would kill it)."""
    code = LOAD_PROBE + (
        "try:\n    probe.fails(5)\nexcept RuntimeError as e:\n    print(e)\nprint(probe.spin(10), 'alive')"
    )
    p = subprocess.run([sys.executable, "-c", code, probe.__file__], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines() == [
        "the compiled kernel fails failed (POLYTILE_JIT=1 runs numba's JIT, which says why)",
        f"{_spin(10)} alive",
    ]


def test_the_pycc_warning_is_ignored_for_its_import_alone():
    """Under -W error the import of numba.pycc passes (its pending deprecation, named in
    aot._pycc_cc, ignored there) and the same warning raised afterwards is an error."""
    code = (
        "import warnings; from numba.core.errors import NumbaPendingDeprecationWarning as W; "
        "from polytile.engine.aot import _pycc_cc; _pycc_cc(); print('imported'); "
        "warnings.warn(W(\"The 'pycc' module is pending deprecation\"))"
    )
    p = subprocess.run([sys.executable, "-W", "error", "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert p.stdout.split() == ["imported"]
    assert p.returncode == 1 and "NumbaPendingDeprecationWarning: The 'pycc'" in p.stderr


@pytest.mark.parametrize("jit", ["", "1"])
def test_a_count_filters_no_warning(jit):
    """Compiled or JIT, polytile adds nothing to the warning filters (numpy's own are taken
    before): a warning at run time shows."""
    code = (
        "import warnings, numpy; before = list(warnings.filters); import polytile; "
        f"r = polytile.load({str(P3X20)!r}).count(unique=True); "
        "print(r.unique, len([f for f in warnings.filters if f not in before]))"
    )
    assert run(code, POLYTILE_JIT=jit) == ["2", "0"]
