"""`swords judge tasks`' file: checked whole before a byte is written, stamped so that the toolkit knows it later.

Every line is made first (bounded by MAX_TASKS_BYTES): a file the readers would refuse (a line over MAX_LINE_CHARS,
a lone surrogate) is one line naming the target, nothing written. The header carries the sha256 of the content (its
other fields, then every task line): a file is ours, replaced without --force, only while that digest holds.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict
from pathlib import Path

from swords_lexsub.errors import SwordsError
from swords_lexsub.terminal import shown
from swords_metric import MAX_TASKS_BYTES, TASKS_DIGEST, TaskSet, tasks_digest

TASKS_FORMAT = "swords-judge-tasks"
DIGEST = TASKS_DIGEST  # the header's key for the digest of everything else in the file (the metric's, which checks it)
MAX_LINE_CHARS = 1 << 20  # read_tasks's bound on a line (not public); a test has it refuse a line this refuses
_MAX_HEADER_BYTES = 1 << 16
_STAMP_BYTES = len(f', "{DIGEST}": "{"0" * 64}"')  # what the digest adds to the header line


def _header_bytes(header: dict) -> bytes:
    return (json.dumps(header, ensure_ascii=False) + "\n").encode("utf-8")


def task_lines(taskset: TaskSet, what: str) -> bytes:
    """The tasks file's task lines, or one SwordsError naming `what` and the target where the readers would refuse."""
    lines, size = [], len(_header_bytes(taskset.header)) + _STAMP_BYTES  # the readers' bound is the whole file's
    for number, task in enumerate(taskset.tasks, 2):
        text = json.dumps(asdict(task), ensure_ascii=False) + "\n"
        if len(text) > MAX_LINE_CHARS:
            raise SwordsError(
                f"{what}: the task of target {shown(task.id)} would be a line of {len(text):,} characters, past the "
                f"{MAX_LINE_CHARS:,} a tasks file's reader takes (its substitutes are that long); nothing was written"
            )
        try:
            line = text.encode("utf-8")
        except UnicodeEncodeError as error:
            bad = text[error.start : error.end]
            raise SwordsError(
                f"{what}: target {shown(task.id)} holds a lone surrogate ({', '.join(f'U+{ord(c):04X}' for c in bad)}"
                "), which UTF-8 cannot hold: fix that substitute in the predictions; nothing was written"
            ) from None
        size += len(line)
        if size > MAX_TASKS_BYTES:
            raise SwordsError(
                f"{what}: the tasks file would pass {MAX_TASKS_BYTES >> 20} MB by line {number:,} of "
                f"{len(taskset.tasks) + 1:,}, the largest tasks file the readers take: judge fewer substitutes "
                "(a smaller --k) or a sample of the targets (--targets N); nothing was written"
            )
        lines.append(line)
    return b"".join(lines)


def stamped(taskset: TaskSet, body: bytes) -> TaskSet:
    """The task set with its header stamped with the digest of the file that write_tasks will make of it."""
    header = {key: value for key, value in taskset.header.items() if key != DIGEST}
    try:
        header[DIGEST] = tasks_digest(header, body)
    except UnicodeEncodeError:
        raise SwordsError("the tasks file's header holds text UTF-8 cannot hold; nothing was written") from None
    return TaskSet(header, taskset.tasks)


def tasks_file_is_ours(path: Path) -> bool:
    """Whether `path` is a tasks file `swords judge tasks` wrote, unchanged since (its digest holds)."""
    try:
        if path.stat().st_size > MAX_TASKS_BYTES + _MAX_HEADER_BYTES:
            return False
        with open(path, "rb") as f:
            first = f.readline(_MAX_HEADER_BYTES)
            header = json.loads(first)
            if not isinstance(header, dict) or header.get("format") != TASKS_FORMAT:
                return False
            digest = hashlib.sha256()
            unstamped = {key: value for key, value in header.items() if key != DIGEST}
            digest.update(_header_bytes(unstamped))
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
    except (OSError, ValueError, RecursionError, UnicodeEncodeError):
        return False
    return isinstance(header.get(DIGEST), str) and digest.hexdigest() == header[DIGEST]
