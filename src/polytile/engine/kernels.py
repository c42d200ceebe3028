"""The kernels as the drivers call them: compiled ahead of time when `pip install` built
them (engine/aot.py, into the extension module `_aot`), else numba's JIT dispatchers.

`kernel_module("bitboard.kernel")` stands for the module engine/bitboard/kernel.py (a kernel
module is named by its path below engine/): `kernel_module("bitboard.kernel").run(...)` calls the
compiled `run` when the extension holds it for these argument types, and the dispatcher
`bitboard.kernel.run` otherwise. Using the extension imports neither numba nor the
kernel's module (numba's import and loading its cached kernels are most of a small
command's time). The extension is used only when it was built from the kernel sources
as they are now (a hash of their text, stamped at build time); after an edit, or without
the extension, or with POLYTILE_JIT=1 in the environment, every kernel is numba's.

The compiled functions are the same Python source compiled by numba ahead of time, under
the argument types the drivers passed while aot.py exercised them. A call is matched by
the types of its arguments, read the way numba reads them (dtype, dimensions, layout,
writability of each array; tuples element by element): the extension checks only sizes,
so a call it was not built for goes to the dispatcher, never to the wrong machine code.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from importlib import import_module
from pathlib import Path
from typing import Any, Callable

import numpy as np

FAMILIES = ("bitboard", "wide", "dlx")  # the tiling kernel families: engine/<family>/
KERNEL_MODULES = tuple(f"{family}.kernel" for family in FAMILIES)  # named below engine/
# the files whose text the compiled code is made from: the kernels and what they import
SOURCES = KERNEL_MODULES + (
    "bits",
    "bitboard.tables",
    "geometry.breaking",
    "bitboard.chained",
    "bitboard.memo_table",
    "bitboard.dynamic",
    "tree",
    "leaf",
    "status",
    "tally",
    "records",
    "geometry.orbits",
    "geometry.orbit_masks",
    "geometry.placing",
    "geometry.turning",
    "geometry.modelling",
    "geometry.congruence",
    "counting.sweep",
    "counting.banded",
    "disassembly.kernel",
)
EXTENSION = "polytile.engine._aot"
_HERE = Path(__file__).resolve().parent


def source_hash() -> str:
    """A digest of the kernel sources (stamped into the extension when it is built)."""
    digest = hashlib.sha256()
    for name in SOURCES:
        path = _HERE.joinpath(*name.split(".")).with_suffix(".py")
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:32]


def type_key(value: Any) -> Any:
    """The type numba gives `value` (for what the kernels take), as plain data: an
    array's (dtype, ndim, layout, writeable, aligned), a scalar's type name, a tuple's
    keys. Must agree with aot.numba_key."""
    kind = type(value)
    if kind is np.ndarray:  # the flags as one integer: a few hundred arrays
        seen = (value.dtype, value.ndim, value.flags.num)  # are keyed for each count's
        key = _ARRAYS.get(seen)  # records: each kind of array's key made once
        if key is None:
            key = _ARRAYS[seen] = _array_key(*seen)
        return key
    if kind is tuple:
        return tuple(type_key(v) for v in value)
    if isinstance(value, tuple) and hasattr(value, "_fields"):  # a record (NamedTuple)
        return ("record", kind.__name__, tuple((name, type_key(v)) for name, v in zip(value._fields, value)))
    if kind is bool or kind is np.bool_:
        return "bool"
    if kind is int:
        return "int64" if -(1 << 63) <= value < (1 << 63) else "uint64"
    if kind is float:
        return "float64"
    if isinstance(value, np.generic):  # its dtype's name (numpy's .name takes ~2 us: kept
        name = _SCALARS.get(kind)  # for the number types, whose type says their dtype)
        if name is None:
            name = value.dtype.name
            if issubclass(kind, (np.integer, np.floating)):
                _SCALARS[kind] = name
        return name
    return repr(kind)  # matches nothing compiled: the dispatcher


def type_id(value: Any) -> int:
    """A small integer for type_key(value): equal integers, equal keys (arrays by dtype,
    dimensions and flags, tuples and records by their class and their items' ids). A
    count's bind reads ~70 values, so the common kinds take the shortest path: an array's
    id straight from (dtype, ndim, all its flags), a record's from its items' by `map`."""
    kind = type(value)
    if kind is np.ndarray:
        raw = (value.dtype, value.ndim, value.flags.num)
        found = _ARRAY_IDS.get(raw)
        if found is None:  # (the flags type_key reads, not OWNDATA and the like)
            found = _ARRAY_IDS[raw] = _new_id((raw[0], raw[1], raw[2] & _KEYED))
        return found
    if kind is int:  # keyed by its range (type_key): two ids
        small = -(1 << 63) <= value < (1 << 63)
        found = _INT_IDS.get(small)
        if found is None:
            found = _INT_IDS[small] = _new_id((kind, type_key(value)))
        return found
    if isinstance(value, tuple):  # a tuple or a record (NamedTuple)
        return _new_id((kind, tuple(map(type_id, value))))
    found = _SCALAR_IDS.get(kind)  # bool, float, numpy's number types: one key per type
    if found is None:
        found = _new_id((kind, type_key(value)))
        if kind in (bool, float) or issubclass(kind, (np.integer, np.floating, np.bool_)):
            _SCALAR_IDS[kind] = found
    return found


def _new_id(seen: Any) -> int:
    """The integer of what type_id has seen (a new one the first time)."""
    found = _IDS.get(seen)
    if found is None:
        found = _IDS[seen] = len(_IDS)
    return found


_IDS: dict[Any, int] = {}  # what type_id has seen -> its integer
_ARRAY_IDS: dict[tuple[np.dtype, int, int], int] = {}  # (dtype, ndim, flags.num) -> its id
_SCALAR_IDS: dict[type, int] = {}  # a scalar type whose key is its type's -> its id
_INT_IDS: dict[bool, int] = {}  # an int's id by whether it fits in int64
_BOUND: dict[tuple[int, tuple[int, ...]], tuple[Any, Callable[..., Any]]] = {}  # Kernel.bind's


def _array_key(dtype: np.dtype, ndim: int, f: int) -> Any:
    """type_key of an array of this dtype, ndim and flags (ndarray.flags.num)."""
    layout = "C" if f & _C_CONTIGUOUS else "F" if f & _F_CONTIGUOUS else "A"
    return (dtype_key(dtype), ndim, layout, bool(f & _WRITEABLE), bool(f & _ALIGNED))


# numpy's flag bits (NPY_ARRAY_C_CONTIGUOUS, ...), as ndarray.flags.num has them
_C_CONTIGUOUS, _F_CONTIGUOUS, _ALIGNED, _WRITEABLE = 0x1, 0x2, 0x100, 0x400
_KEYED = _C_CONTIGUOUS | _F_CONTIGUOUS | _ALIGNED | _WRITEABLE
_ARRAYS: dict[tuple[np.dtype, int, int], Any] = {}  # (dtype, ndim, flags) -> type_key
_SCALARS: dict[type, str] = {}  # a numpy scalar type's dtype name


def dtype_key(dtype: np.dtype) -> Any:
    """An array's dtype as plain data: its code, or for a structured dtype (a kernel's
    place, records.place_dtype) its fields' names, codes and offsets, and its size."""
    fields = dtype.fields
    if fields is None:
        return dtype.str
    return ("struct", dtype.itemsize, tuple((name, fields[name][0].str, fields[name][1]) for name in fields))


def _tuples(data: Any) -> Any:
    """JSON's lists back to the tuples of type_key."""
    return tuple(_tuples(x) for x in data) if isinstance(data, list) else data


class Kernel:
    """One kernel function: the compiled variant for the arguments' types, else numba's."""

    def __init__(self, module: str, name: str, variants: dict[Any, Callable[..., Any]]):
        self.module, self.__name__, self.variants = module, name, variants
        self._jit: Callable[..., Any] | None = None

    def __call__(self, *args: Any) -> Any:
        """Call the variant for these arguments' types (bind): what a driver's call of the
        kernel by name runs."""
        return self.bind(*args)(*args)

    def bind(self, *args: Any) -> Callable[..., Any]:
        """The function for calls with arguments of these types: the compiled variant, or
        numba's dispatcher. Found by the arguments' type_ids (small integers, cheap to
        hash) once the first call of these types has looked up their type_keys (a record's
        key nests dozens of tuples: hashing it cost more than the look-up)."""
        ids = tuple(map(type_id, args))
        bound = _BOUND.get((id(self.variants), ids))
        if bound is not None and bound[0] is self.variants:
            return bound[1]
        key = tuple(type_key(a) for a in args)
        compiled = self.variants.get(key)
        if compiled is None:
            if self.variants:
                missed.add((f"{self.module}.{self.__name__}", key))
            return self.jit
        _BOUND[(id(self.variants), ids)] = (self.variants, compiled)
        return compiled

    @property
    def jit(self) -> Callable[..., Any]:
        """numba's dispatcher of the kernel, its module imported at the first need (so
        that using only compiled variants never imports numba)."""
        if self._jit is None:
            self._jit = getattr(import_module(f"polytile.engine.{self.module}"), self.__name__)
        return self._jit


class Kernels:
    """A kernel module's functions: compiled ones, or the module's own attributes."""

    def __init__(self, module: str, functions: dict[str, Kernel]):
        self._module, self._functions = module, functions

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        requested.add((self._module, name))
        found: Any = self._functions.get(name)
        if found is None:
            found = getattr(import_module(f"polytile.engine.{self._module}"), name)
        setattr(self, name, found)  # the next look-up is a plain attribute
        return found


_table: dict[str, dict[str, Kernel]] | None = None
_loaded: dict[str, Kernels] = {}
requested: set[tuple[str, str]] = set()  # (module, name) the drivers have looked up
missed: set[tuple[str, Any]] = set()  # (kernel, type keys) of calls the extension was not built for


def compiled_table(expected: str | None = None) -> dict[str, dict[str, Kernel]]:
    """{module: {function: Kernel}} from the extension, or {} when it is absent, cannot
    be loaded, or was built from other sources (`expected`: the hash to match)."""
    if os.environ.get("POLYTILE_JIT"):
        return {}
    try:
        ext = import_module(EXTENSION)
        meta = json.loads(ext.polytile_meta())
    except Exception:  # not built (no C compiler), or built for another Python
        return {}
    if meta.get("hash") != (expected or source_hash()):
        return {}
    table: dict[str, dict[str, Kernel]] = {}
    for qualname, variants in meta["kernels"].items():
        module, name = qualname.rsplit(".", 1)
        found = {_tuples(key): getattr(ext, symbol) for key, symbol in variants}
        table.setdefault(module, {})[name] = Kernel(module, name, found)
    return table


def bind(function: Callable[..., Any], *args: Any) -> Callable[..., Any]:
    """`function` (a kernel from `kernel_module`) for repeated calls with arguments of the types of
    `args`: the types matched once (a Kernel matches them at every call otherwise; with
    tuples of dozens of arrays that is tens of microseconds a call)."""
    return function.bind(*args) if isinstance(function, Kernel) else function


def kernel_module(module: str) -> Kernels:
    """The functions of engine/<module>.py (`module` dotted below engine/, as
    "bitboard.kernel"), compiled ahead of time where possible."""
    if module not in _loaded:
        _loaded[module] = Kernels(module, _the_table().get(module, {}))
    return _loaded[module]


def _the_table() -> dict[str, dict[str, Kernel]]:
    """compiled_table(), read once per process (and freed memory kept for reuse from then
    on: keep_freed_memory; the first kernel looked up comes before any puzzle's work)."""
    global _table
    if _table is None:
        keep_freed_memory()
        _table = compiled_table()
    return _table


MMAP_THRESHOLD = 4 << 20  # arrays below 4 MB come from the heap (glibc's default: 128 KB, adapting)
TRIM_THRESHOLD = 64 << 20  # the heap's top is given back past 64 MB free (default: 128 KB)
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # mallopt's parameters (glibc's malloc.h)
_kept: list[bool] = []


def keep_freed_memory() -> bool:
    """Raise glibc's mmap and trim thresholds (mallopt), once per process: whether they
    were set (not on other C libraries or systems, where nothing changes).

    A page touched for the first time costs a fault here (1.5-8 us: docs/history/parts/setup8b.md).
    glibc gives arrays of 128 KB or more their own mapping, unmapped again when freed, and
    trims the heap's top once 128 KB of it are free, so the model's large temporaries go
    back to the kernel, and the bitboard memo table's growth to 256 KB then faulted in 2
    to 64 fresh pages depending on what the set-up happened to allocate before it (~0.1
    ms of 4x15's count: docs/history/parts/tables10.md). With the thresholds raised, freed arrays
    stay in the heap and the next ones reuse their pages. Called with the first kernel
    looked up, before any puzzle's work."""
    if not _kept:
        ok = False
        if sys.platform.startswith("linux"):
            try:
                import ctypes

                libc = ctypes.CDLL(None)
                ok = bool(libc.mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD))
                ok = bool(libc.mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD)) and ok
            except (OSError, AttributeError):  # no C library to ask, or one without mallopt
                ok = False
        _kept.append(ok)
    return _kept[0]


class Deferred(Kernel):
    """A kernel of a module that imports without numba (see `njit`): a call runs the
    compiled variant when the extension has one for its argument types; otherwise numba
    compiles the module's kernels, which then stand in the module's globals."""

    def __init__(self, func: Callable[..., Any], options: dict[str, Any]):
        self.py_func, self.options = func, options
        self.module = func.__module__.removeprefix("polytile.engine.")
        self.__name__, self.__doc__ = func.__name__, func.__doc__
        # None until the first call looks them up (Kernel's are never None)
        self.variants: dict[Any, Callable[..., Any]] | None = None  # type: ignore[assignment]
        self.dispatcher: Callable[..., Any] | None = None
        deferred.append(self)

    def __call__(self, *args: Any) -> Any:
        """Kernel's call, the compiled variants looked up at the first call (not at import:
        reading the extension's table costs what importing the module saves)."""
        if self.variants is None:
            found = _the_table().get(self.module, {}).get(self.__name__)
            self.variants = found.variants if found is not None else {}
        return super().__call__(*args)

    @property
    def jit(self) -> Callable[..., Any]:
        """numba's dispatcher (numba compiles, or loads from its cache, the whole module)."""
        if self.dispatcher is None:
            import sys
            import numba

            module = sys.modules[self.py_func.__module__]
            for name, value in list(vars(module).items()):
                if isinstance(value, Deferred):
                    value.dispatcher = value.dispatcher or numba.njit(**value.options)(value.py_func)
                    setattr(module, name, value.dispatcher)  # the kernels call each other by name
        assert self.dispatcher is not None
        return self.dispatcher


deferred: list[Deferred] = []


def njit(**options: Any) -> Callable[[Callable[..., Any]], Deferred]:
    """numba.njit(**options) for a module whose Python functions call its kernels directly
    (engine/tree.py), so that importing it imports no numba. Its kernels may call each
    other, not the kernels of other modules (numba compiles a module's kernels together)."""
    return lambda func: Deferred(func, options)


def using_compiled(module: str, name: str) -> bool:
    """Whether kernel_module(module).name has compiled variants (for tests and --version)."""
    return bool(_the_table().get(module, {}).get(name, Kernel(module, name, {})).variants)
