"""Writing files so that a crash, a kill or a full disk never leaves a half-written one in place."""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

from .errors import SwordsError

# errno values that mean "no room": a full disk or quota, or a file-size limit.
NO_SPACE = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)


def no_space(error: BaseException) -> bool:
    return isinstance(error, OSError) and error.errno in NO_SPACE


def atomic_write(path: str | Path, data: bytes, durable: bool = True) -> None:
    """Write `data` to a temporary file beside `path`, flush it to disk, then rename it over `path`: a
    reader sees the old file or the new one, never a part. The file gets ordinary permissions (umask).
    `durable=False` skips the flush to disk, for files that may be lost in a power cut but never be torn
    (a cache entry, which is asked again)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    umask = os.umask(0)
    os.umask(umask)
    try:
        os.chmod(temporary, 0o666 & ~umask)  # mkstemp makes the file private; the output is an ordinary file
        with os.fdopen(descriptor, "wb") as f:
            f.write(data)
            f.flush()
            if durable:
                os.fsync(f.fileno())
        os.replace(temporary, path)
    except BaseException as error:
        Path(temporary).unlink(missing_ok=True)
        if no_space(error):
            raise SwordsError(f"{path}: no space left on the device to write it ({error.strerror})") from None
        raise
