"""kernels.keep_freed_memory: glibc's thresholds raised once per process, so that a freed array's
pages serve the next one without page faults (what the memo table's growth relies on)."""

from __future__ import annotations

import resource
import sys

import numpy as np
import pytest

from polytile.engine import kernels


def test_set_once_when_the_first_kernel_is_looked_up():
    kernels.kernel_module("bitboard.kernel")
    assert kernels._kept == [kernels.keep_freed_memory()]  # (no second setting)
    assert kernels.keep_freed_memory() is kernels._kept[0]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt: Linux only")
def test_a_freed_megabyte_is_reused_without_page_faults():
    """1 MB written, freed, then 1 MB more written: with glibc's defaults the second gets a
    fresh mapping (256 faults); with the thresholds raised, the first one's pages."""
    assert kernels.keep_freed_memory()
    size = 1 << 17  # uint64s: 1 MB
    first = np.ones(size, dtype=np.uint64)
    del first
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    second = np.ones(size, dtype=np.uint64)
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
    assert int(second.sum()) == size
    assert faults < 32, faults
