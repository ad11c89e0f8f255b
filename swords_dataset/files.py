"""Writing files so that a crash, a kill or a full disk never leaves a half-written one in place."""

from __future__ import annotations

import errno
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from .errors import SwordsError

# errno values that mean "no room": a full disk or quota, or a file-size limit.
NO_SPACE = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)


def no_space(error: BaseException | None) -> bool:
    return isinstance(error, OSError) and error.errno in NO_SPACE


def _no_space_cause(error: BaseException) -> OSError | None:
    """The full-disk error behind `error`, if any: a writer such as pyarrow's re-raises it as its own."""
    for candidate in (error, error.__cause__, error.__context__):
        if no_space(candidate):
            return candidate
    return None


@contextmanager
def atomic_writer(path: str | Path) -> Iterator[BinaryIO]:
    """A binary file to write `path` through, as a stream: the bytes go to a temporary file beside `path`,
    which is flushed to disk and renamed over `path` when the block ends. A reader sees the old file or the
    new one, never a part; an error in the block (or a kill) leaves the old file, and the temporary one is
    removed. A full disk is one SwordsError naming `path`. The file gets ordinary permissions (umask)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    umask = os.umask(0)
    os.umask(umask)
    try:
        os.chmod(temporary, 0o666 & ~umask)  # mkstemp makes the file private; the output is an ordinary file
        with os.fdopen(descriptor, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, path)
    except BaseException as error:
        Path(temporary).unlink(missing_ok=True)
        full = _no_space_cause(error)
        if full is not None:
            raise SwordsError(f"{path}: no space left on the device to write it ({full.strerror})") from None
        raise


def atomic_write(path: str | Path, data: bytes) -> None:
    """Write `data` to `path` atomically (see atomic_writer): a reader sees the old file or the new one."""
    with atomic_writer(path) as f:
        f.write(data)
