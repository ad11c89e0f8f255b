"""The server's memory: fewer malloc arenas, Arrow on the system allocator, and freed memory handed back after a
large request. Scoring a large upload builds hundreds of MB in a worker thread, and glibc keeps freed pages per arena
(up to 8 per core): the process would stay near its peak (benchmarks/bench_space.py). Without glibc, nothing."""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import logging
from functools import cache

log = logging.getLogger(__name__)

# glibc's mallopt parameter for the number of arenas (malloc.h: M_ARENA_MAX = -8). Two: the main thread's and one
# the workers share (their contention costs nothing next to the parsing and scoring they do).
_M_ARENA_MAX = -8
ARENAS = 2


@cache
def _glibc() -> ctypes.CDLL | None:
    """The process's C library if it is glibc (it has malloc_trim and mallopt), else None."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:  # no C library by that name (macOS has one, without malloc_trim)
        return None
    return libc if hasattr(libc, "malloc_trim") and hasattr(libc, "mallopt") else None


def configure() -> None:
    """At start, before the worker threads exist: cap glibc's arenas, and Arrow on malloc too (trimmed as well)."""
    libc = _glibc()
    if libc is not None and not libc.mallopt(_M_ARENA_MAX, ARENAS):
        log.warning("could not limit malloc arenas")
    with contextlib.suppress(ImportError):  # pyarrow comes with the dataset package; without it there is no pool
        import pyarrow

        pyarrow.set_memory_pool(pyarrow.system_memory_pool())


def release() -> None:
    """Hand the pages the request just ended freed back to the operating system (about 30 ms)."""
    if (libc := _glibc()) is not None:
        libc.malloc_trim(0)
