"""The build step pyproject.toml's metadata cannot say: compile the search kernels ahead of
time into the extension polytile.engine._aot (see src/polytile/engine/aot.py), so that a
command neither imports numba nor loads numba's cached kernels.

Only numba's public pycc interface: aot.compiler() returns a numba.pycc.CC, told where the
extension goes (output_dir, output_file), and cc.compile() builds it (numba's kernels to an
object file, then its C runtime helpers and the link, with the C compiler Python was built
with).

Optional: without a C compiler, or when numba cannot compile them, the install goes on
without the extension and the kernels are numba's JIT at run time (as they are when the
extension is stale, see engine/kernels.py). POLYTILE_NO_AOT=1 skips the build."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SRC = Path(__file__).resolve().parent / "src"


class OptionalKernels(build_ext):
    """Builds the kernel extension from numba's pycc when it can; never fails the install."""

    def build_extension(self, ext: Extension) -> None:
        if os.environ.get("POLYTILE_NO_AOT"):
            print("polytile: POLYTILE_NO_AOT is set: the kernels stay numba's JIT")
            return
        try:
            sys.path.insert(0, str(SRC))
            from polytile.engine.aot import compiler

            target = Path(self.get_ext_fullpath(ext.name))  # in place for `pip install -e`
            target.parent.mkdir(parents=True, exist_ok=True)  # build/lib.../ for a wheel
            cc = compiler(str(target.parent))
            cc.output_file = target.name
            cc.verbose = bool(self.verbose)
            cc.compile()
        except Exception as exc:  # noqa: BLE001 (any failure: JIT at run time)
            print(
                f"polytile: kernels not compiled ahead of time ({type(exc).__name__}: {exc}); "
                "numba will compile them at first use",
                file=sys.stderr,
            )

    def get_outputs(self) -> list[str]:
        """Only what was built (an editable install lists these files)."""
        return [path for path in super().get_outputs() if os.path.exists(path)]


setup(
    ext_modules=[Extension("polytile.engine._aot", sources=[], optional=True)], cmdclass={"build_ext": OptionalKernels}
)
