"""The server process's memory: fewer malloc arenas, Arrow on the system allocator, and freed memory handed back
to the operating system after a large request.

Scoring a large upload builds hundreds of MB of Python objects in a worker thread. CPython frees them when the
request ends, but glibc keeps the pages of the larger ones (lists, dicts, strings over 512 bytes) for reuse, in
one arena per thread (up to 8 per core): without this the process stays near its peak (about 100 MB more after
three large scores, benchmarks/bench_space.py). Small objects live in CPython's own arenas, which go back only
when wholly empty. Everything here is guarded: with a C library other than glibc it does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import threading

log = logging.getLogger(__name__)

# glibc's mallopt parameter for the number of arenas (malloc.h: M_ARENA_MAX = -8). Two arenas: the main
# thread's and one the worker threads share; threads contend a little on it, which costs nothing next to
# the JSON parsing and scoring they do.
_M_ARENA_MAX = -8
ARENAS = 2

_libc_lock = threading.Lock()
_libc: ctypes.CDLL | None = None
_libc_known = False


def _glibc() -> ctypes.CDLL | None:
    """The process's C library if it is glibc (it has malloc_trim and mallopt), else None."""
    global _libc, _libc_known
    with _libc_lock:
        if not _libc_known:
            _libc_known = True
            try:
                libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
                if hasattr(libc, "malloc_trim") and hasattr(libc, "mallopt"):
                    _libc = libc
            except OSError:  # no C library by that name (macOS has one, without malloc_trim)
                _libc = None
        return _libc


def configure() -> None:
    """At start, before the worker threads exist: cap glibc's arenas, and let Arrow (the benchmarks' Parquet
    tables) allocate with malloc too, so that trimming returns its freed memory as well."""
    libc = _glibc()
    if libc is not None and not libc.mallopt(_M_ARENA_MAX, ARENAS):
        log.warning("could not limit malloc arenas")
    try:
        import pyarrow

        pyarrow.set_memory_pool(pyarrow.system_memory_pool())
    except ImportError:  # pyarrow comes with the dataset package; without it there is no pool to set
        pass


def release() -> None:
    """Hand memory freed by the request that just ended back to the operating system (after scoring). The
    request's objects are already freed, by reference counting; this returns their pages (about 30 ms)."""
    libc = _glibc()
    if libc is not None:
        libc.malloc_trim(0)
