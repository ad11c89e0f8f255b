"""The Judge tab's judgments file on disk: records appended all or none, the file moved to a new address with every
saved task, and an earlier session's records read to carry them into a new one. The file is the tab's own (in its
session's folder), never a user's upload, which is only read."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from swords_metric import JudgmentsWriter, MetricInputError, read_judgments
from swords_space.errors import SpaceError

# The earlier file a new Start carries over is the tab's own (an upload and the tasks saved since): read up to the
# metric's own bound, well above an upload's 20 MB.
CARRIED_BYTES = 32 * 1024 * 1024
NOT_SAVED = "this task is not saved. Download the file (every task saved before is in it) and continue later."


def carried(path: Path | None) -> list[dict]:
    """An earlier session's records (the tab's own file, written by the metric's writer); none without one."""
    if path is None or not path.is_file():
        return []
    try:
        return read_judgments(path, max_bytes=CARRIED_BYTES)
    except MetricInputError:  # too large to carry: the judge keeps it by downloading it
        raise SpaceError(
            "The judgments file of this page's earlier session is too large to carry over: download it, then upload "
            "it with the tasks to continue."
        ) from None


def append(path: Path, records: list[dict]) -> None:
    """Records appended to the session's judgments file, all or none: on a failure (a full disk) the file is cut
    back to what it held, so it never holds part of a task."""
    size = path.stat().st_size if path.exists() else 0
    try:
        with JudgmentsWriter(path) as writer:
            for record in records:
                writer.write(record)
    except (OSError, MetricInputError) as error:  # the writer names a full disk as bad output
        with contextlib.suppress(OSError), open(path, "r+b") as file:  # the tab's own file, never the user's
            file.truncate(size)
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        reason = reason.replace(f"{path}: ", "")
        raise SpaceError(f"The judgments file could not be written ({reason}): {NOT_SAVED}") from None


def save_and_move(folder: Path, version: int, name: str, records: list[dict]) -> int:
    """The records appended to `folder/version/name`, then the file moved to `folder/version+1/name` (one file,
    never copied: the page's link changes with every saved task, so no cache hands out an older copy); the new
    version. The append is made at the address the page links to, so a task that fails (a full disk) leaves the
    file whole where the link points, and the message saying "download the file" true."""
    old, new = folder / str(version) / name, folder / str(version + 1)
    try:
        new.mkdir()
    except OSError as error:
        raise SpaceError(f"The judgments file could not be written ({error.strerror or error}): {NOT_SAVED}") from None
    try:
        append(old, records)
    except SpaceError:
        with contextlib.suppress(OSError):
            new.rmdir()
        raise
    try:
        os.replace(old, new / name)
    except OSError:  # saved at the old address, which the page still links to: it stays there
        with contextlib.suppress(OSError):
            new.rmdir()
        return version
    with contextlib.suppress(OSError):
        old.parent.rmdir()
    return version + 1
