"""The tasks file, read in bounded memory with one clear line (file:line) for anything wrong.

Tasks file (JSONL): a header line {"format": "swords-judge-tasks", "version": 2, "dataset", "split",
"predictions_sha256", "k", "seed", "instructions_version", "tasks_id", "targets_without_new", ...}, then one task a
line {"task": "<id>#<n>@<tasks_id>", "id", "context", "target", "offset", "candidates": [{"substitute", "control":
null | "target" | "random"}, ...]}. A version 1 file (ids "<id>#<n>") still reads, its ids as they are. The
header's `content_sha256` (TASKS_DIGEST) is the sha256 of the header without it and of every task line, so that a
file edited since written is known (read_tasks(..., unchanged=True), as the merge reads them, refuses it).
"""

from __future__ import annotations

import hashlib
import json
import stat
from dataclasses import asdict
from pathlib import Path

from swords_lexsub.files import atomic_writer
from swords_metric.errors import MetricInputError, shown
from swords_metric.judgments.protocol import CONTROLS
from swords_metric.judgments.tasks import READ_VERSIONS, TASKS_FORMAT, Candidate, Task, TaskSet
from swords_metric.options import MAX_JUDGMENTS_BYTES, MAX_TASKS_BYTES
from swords_metric.predictions.bounded_text import decode_line, size_text, text_lines

__all__ = ["MAX_JUDGMENTS_BYTES", "MAX_TASKS_BYTES", "read_tasks", "write_tasks"]
MAX_LINE_CHARS = 1 << 20  # a task line holds its context (SWORDS's longest is a few kB)
TASKS_DIGEST = "content_sha256"  # the tasks header's key for the sha256 of everything else in the file
# What a line of each file holds, as messages name it.
_LINE_HOLDS = {"tasks file": "one task", "judgments file": "one judgment record"}


def _check(path: Path, max_bytes: int, what: str) -> None:
    """Refuse, before reading, what is not a regular file, or is larger than max_bytes."""
    try:
        info = path.stat()
    except FileNotFoundError:
        raise MetricInputError(f"{path}: no such {what}") from None
    except OSError as error:
        raise MetricInputError(f"{path}: cannot open ({error.strerror or error})") from None
    if not stat.S_ISREG(info.st_mode):
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "a pipe, socket or device"
        raise MetricInputError(f"{path}: is {kind}, not a {what}")
    if path.suffix != ".gz" and info.st_size > max_bytes:
        raise MetricInputError(
            f"{path}: {size_text(info.st_size)}, larger than the largest {what} accepted ({size_text(max_bytes)})"
        )


def file_lines(path: Path, max_bytes: int, what: str, seen=None):
    """(where, value, cut) of every non-blank line (`cut`: a last line without a line end that is no JSON); `seen`,
    if given, is called with (number, text) of every line as it is read."""
    _check(path, max_bytes, what)
    holds = _LINE_HOLDS.get(what, "one record")
    for number, line in text_lines(path, max_bytes, MAX_LINE_CHARS, what, holds):
        if seen is not None:
            seen(number, line)
        if not line.strip():
            continue
        where = f"{path}:{number}"
        ended = line.endswith(("\n", "\r"))
        try:
            yield where, decode_line(line, where, holds), False
        except MetricInputError:
            if ended:
                raise
            yield where, None, True


def is_tasks_file(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            first = f.readline(1 << 16)
        return json.loads(first).get("format") == TASKS_FORMAT
    except (OSError, ValueError, AttributeError, RecursionError):  # a first line nested 100,000 deep is no header
        return False


def _header_line(header: dict) -> bytes:
    return (json.dumps(header, ensure_ascii=False) + "\n").encode("utf-8")


def _unstamped(header: dict):
    """A sha256 fed with the header without its digest, as written."""
    return hashlib.sha256(_header_line({key: value for key, value in header.items() if key != TASKS_DIGEST}))


def tasks_digest(header: dict, body: bytes) -> str:
    """The sha256 a tasks file's header carries under TASKS_DIGEST: of the header without it (as written, in its own
    key order) and of `body`, the task lines as the file holds them."""
    digest = _unstamped(header)
    digest.update(body)
    return digest.hexdigest()


def write_tasks(path: str | Path, taskset: TaskSet) -> None:
    """The tasks file, written atomically, its header stamped; an existing file is replaced only if it is one."""
    path = Path(path)
    if path.exists() and (not path.is_file() or not is_tasks_file(path)):
        raise MetricInputError(f"{path}: exists and is not a tasks file; name another output")
    body = b"".join((json.dumps(asdict(task), ensure_ascii=False) + "\n").encode("utf-8") for task in taskset.tasks)
    header = {key: value for key, value in taskset.header.items() if key != TASKS_DIGEST}
    header[TASKS_DIGEST] = tasks_digest(header, body)
    with atomic_writer(path) as f:
        f.write(_header_line(header))
        f.write(body)


def text_field(record: dict, key: str, where: str) -> str:
    value = record.get(key)
    if not isinstance(value, str) or not value.strip():
        raise MetricInputError(f"{where}: {key!r} must be a non-empty string, got {shown(value)}")
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: legal in JSON, not text
            raise MetricInputError(f"{where}: {key!r} holds a lone surrogate (\\u escape), not text") from None
    return value


def _task(value, where: str) -> Task:
    if not isinstance(value, dict):
        raise MetricInputError(f"{where}: a task must be a JSON object, got {shown(value)}")
    offset, candidates = value.get("offset"), value.get("candidates")
    if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
        raise MetricInputError(f"{where}: 'offset' must be a whole number >= 0, got {shown(offset)}")
    if not isinstance(candidates, list) or not candidates:
        raise MetricInputError(f"{where}: 'candidates' must be a non-empty list, got {shown(candidates)}")
    shown_ = []
    for candidate in candidates:
        if not isinstance(candidate, dict) or candidate.get("control") not in (None, *CONTROLS):
            raise MetricInputError(f"{where}: a candidate must be {{'substitute', 'control'}}, got {shown(candidate)}")
        shown_.append(Candidate(text_field(candidate, "substitute", where), candidate.get("control")))
    context = value.get("context")
    if not isinstance(context, str):
        raise MetricInputError(f"{where}: 'context' must be a string, got {shown(context)}")
    if context.strip():
        text_field(value, "context", where)  # no lone surrogate
    target = text_field(value, "target", where)
    return Task(text_field(value, "task", where), text_field(value, "id", where), context, target, offset, shown_)


def _not_a_task(value, where: str) -> None:
    """A judgment record where a task should be (a file of tasks then judgments): one line saying what it is."""
    if isinstance(value, dict) and "candidates" not in value and {"judge", "label"} <= value.keys():
        raise MetricInputError(
            f"{where}: a judgment record in a tasks file (its first line is a tasks header); keep the tasks and the "
            "judgments in files of their own"
        )


def read_tasks(path: str | Path, max_bytes: int = MAX_TASKS_BYTES, *, unchanged: bool = False) -> TaskSet:
    """A tasks file; anything wrong is a MetricInputError naming file and line (with `unchanged`: an edited file)."""
    path = Path(path)
    header, tasks, lines, digest = None, [], {}, None

    def seen(number: int, text: str) -> None:
        if digest is not None:
            digest.update(text.encode("utf-8"))

    for where, value, cut in file_lines(path, max_bytes, "tasks file", seen):
        if cut:
            raise MetricInputError(f"{where}: the last line is cut short (not JSON); write the tasks file again")
        if header is None:
            if not isinstance(value, dict) or value.get("format") != TASKS_FORMAT:
                raise MetricInputError(f"{where}: not a tasks file (its first line is no {TASKS_FORMAT!r} header)")
            if value.get("version") not in READ_VERSIONS:
                raise MetricInputError(f"{where}: tasks file version {shown(value.get('version'))}, expected 1 or 2")
            header = value
            if unchanged and TASKS_DIGEST in header:
                digest = _unstamped(header)
            continue
        _not_a_task(value, where)
        task = _task(value, where)
        if task.task in lines:
            raise MetricInputError(f"{where}: task {shown(task.task, 80)} again (first at line {lines[task.task]})")
        lines[task.task] = int(where.rsplit(":", 1)[1])
        tasks.append(task)
    if header is None:
        raise MetricInputError(f"{path}: empty; not a tasks file")
    if digest is not None and digest.hexdigest() != header[TASKS_DIGEST]:
        raise MetricInputError(
            f"{path}:1: the tasks file was changed since it was written (its {TASKS_DIGEST} no longer holds); "
            "judgments are checked against the tasks as made: give that file, or make the tasks again"
        )
    return TaskSet(header, tasks)
