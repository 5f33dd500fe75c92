"""One BLAS thread while a photo is read.

The recognizer's matrix products (face templates against crop windows, embeddings against
prototypes) are small: NumPy's OpenBLAS splits each over every core and its idle threads then
spin, which on two shared cores roughly doubled the CPU time and wall time of a calibrated reading
(measured in models/MODEL_CARD.md). The thread count is set through OpenBLAS's own call where
NumPy's bundled library offers it, and put back afterwards; elsewhere nothing changes. Readings in
overlapping threads (two page sessions) may leave the count at one: nothing here needs more.
"""

from __future__ import annotations

import ctypes
import glob
import os
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any

import numpy as np

#: The thread-count calls of the OpenBLAS builds NumPy ships (newest first).
_PREFIXES = ("scipy_openblas_", "openblas_")
_SUFFIXES = ("64_", "")


@cache
def _openblas() -> tuple[Any, Any] | None:
    """(get, set) thread-count functions of NumPy's OpenBLAS, or None where they cannot be found."""
    libs = os.path.join(os.path.dirname(os.path.dirname(np.__file__)), "numpy.libs")
    for path in sorted(glob.glob(os.path.join(libs, "*openblas*"))):
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for prefix in _PREFIXES:
            for suffix in _SUFFIXES:
                get = getattr(lib, f"{prefix}get_num_threads{suffix}", None)
                put = getattr(lib, f"{prefix}set_num_threads{suffix}", None)
                if get is not None and put is not None:
                    get.restype, put.argtypes = ctypes.c_int, [ctypes.c_int]
                    return get, put
    return None


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """Run the block with OpenBLAS on one thread, then restore the previous count."""
    calls = _openblas()
    if calls is None:
        yield
        return
    get, put = calls
    before = int(get())
    put(1)
    try:
        yield
    finally:
        put(before)
