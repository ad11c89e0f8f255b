"""The two files of judging, read in bounded memory with one clear line (file:line) for anything wrong.

Tasks file (JSONL): a header line {"format": "swords-judge-tasks", "version": 1, "dataset", "split",
"predictions_sha256", "k", "seed", "instructions_version", "targets_without_new", ...}, then one task a line
{"task": "<id>#<n>", "id", "context", "target", "offset", "candidates": [{"substitute", "control": null | "target" |
"random"}, ...]}. Written atomically (write_tasks); an existing file is replaced only if it is a tasks file.

Judgments file (JSONL, the contract other tools write to): one record per judged candidate, {"task", "id",
"substitute", "judge", "label": "accept" | "reject" | "abstain", "control": true | false, "time": ISO 8601}, and
optionally "control_kind" ("target" | "random"), "dataset", "split", "agreement"; other fields are kept and ignored.
JudgmentsWriter appends one whole line per record and flushes it, so a killed writer leaves at most one cut last
line, which read_judgments drops with a note (a cut line anywhere else is an error naming it).

The largest files accepted (checked from the file's size, before anything is read): MAX_TASKS_BYTES and
MAX_JUDGMENTS_BYTES (32 MB each; SWORDS test's every unjudged top-10 substitute of a run, judged by ten people, is
about 3 MB of judgments); one line at most MAX_LINE_CHARS.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from swords_lexsub.files import atomic_writer, no_space, no_space_reason
from swords_metric.errors import MetricInputError, shown
from swords_metric.judgments.protocol import CONTROLS, LABELS
from swords_metric.judgments.tasks import TASKS_FORMAT, TASKS_VERSION, Candidate, Task, TaskSet
from swords_metric.predictions.bounded_text import size_text, text_lines
from swords_metric.predictions.json_stream import decode_line

MAX_TASKS_BYTES = 32 << 20
MAX_JUDGMENTS_BYTES = 32 << 20
MAX_LINE_CHARS = 1 << 20  # a task line holds its context (SWORDS's longest is a few kB)
REQUIRED = ("task", "id", "substitute", "judge", "label", "control", "time")


class Judgments(list):
    """The records of a judgments file (a list of dicts), with `path` and `notes` (e.g. a cut last line dropped)."""

    def __init__(self, records=(), path: Path | None = None, notes: list[str] | None = None):
        super().__init__(records)
        self.path = path
        self.notes = notes or []


def _check(path: Path, max_bytes: int, what: str) -> None:
    """Refuse what is not a regular file, or is larger than max_bytes, before reading a byte."""
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


def _lines(path: Path, max_bytes: int, what: str):
    """(where, value, cut) of every non-blank line: `cut` when it is the last line and has no line end."""
    _check(path, max_bytes, what)
    for number, line in text_lines(path, max_bytes, MAX_LINE_CHARS):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        ended = line.endswith(("\n", "\r"))
        try:
            yield where, decode_line(line, where), False
        except MetricInputError:
            if ended:
                raise
            yield where, None, True


# -- tasks --


def _task_dict(task: Task) -> dict:
    return {
        "task": task.task,
        "id": task.id,
        "context": task.context,
        "target": task.target,
        "offset": task.offset,
        "candidates": [{"substitute": c.substitute, "control": c.control} for c in task.candidates],
    }


def _is_tasks_file(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            first = f.readline(1 << 16)
        return json.loads(first).get("format") == TASKS_FORMAT
    except (OSError, ValueError, AttributeError):
        return False


def write_tasks(path: str | Path, taskset: TaskSet) -> None:
    """The tasks file, written atomically; an existing file is replaced only if it is a tasks file."""
    path = Path(path)
    if path.exists() and (not path.is_file() or not _is_tasks_file(path)):
        raise MetricInputError(f"{path}: exists and is not a tasks file; name another output")
    with atomic_writer(path) as f:
        f.write((json.dumps(taskset.header, ensure_ascii=False) + "\n").encode("utf-8"))
        for task in taskset.tasks:
            f.write((json.dumps(_task_dict(task), ensure_ascii=False) + "\n").encode("utf-8"))


def _text(record: dict, key: str, where: str) -> str:
    value = record.get(key)
    if not isinstance(value, str) or not value.strip():
        raise MetricInputError(f"{where}: {key!r} must be a non-empty string, got {shown(value)}")
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
        shown_.append(Candidate(_text(candidate, "substitute", where), candidate.get("control")))
    context = value.get("context")
    if not isinstance(context, str):
        raise MetricInputError(f"{where}: 'context' must be a string, got {shown(context)}")
    target = _text(value, "target", where)
    return Task(_text(value, "task", where), _text(value, "id", where), context, target, offset, shown_)


def read_tasks(path: str | Path, max_bytes: int = MAX_TASKS_BYTES) -> TaskSet:
    """A tasks file (write_tasks's format); anything wrong is one MetricInputError naming the file and line."""
    path = Path(path)
    header, tasks = None, []
    for where, value, cut in _lines(path, max_bytes, "tasks file"):
        if cut:
            raise MetricInputError(f"{where}: the last line is cut short (not JSON); write the tasks file again")
        if header is None:
            if not isinstance(value, dict) or value.get("format") != TASKS_FORMAT:
                raise MetricInputError(f"{where}: not a tasks file (its first line is no {TASKS_FORMAT!r} header)")
            if value.get("version") != TASKS_VERSION:
                raise MetricInputError(f"{where}: tasks file version {shown(value.get('version'))}, expected 1")
            header = value
            continue
        tasks.append(_task(value, where))
    if header is None:
        raise MetricInputError(f"{path}: empty; not a tasks file")
    return TaskSet(header, tasks)


# -- judgments --


def now() -> str:
    """The time as judgments record it: ISO 8601, UTC, to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def judgment_record(task: Task, candidate: Candidate, judge: str, label: str, **extra) -> dict:
    """The record of one judged candidate (the contract's fields, then `extra`), timed now."""
    if label not in LABELS:
        raise MetricInputError(f"label must be one of {', '.join(LABELS)}, got {shown(label)}")
    if not isinstance(judge, str) or not judge.strip():
        raise MetricInputError(f"judge must be a non-empty name, got {shown(judge)}")
    record = {
        "task": task.task,
        "id": task.id,
        "substitute": candidate.substitute,
        "judge": judge,
        "label": label,
        "control": candidate.control is not None,
        "time": now(),
    }
    if candidate.control is not None:
        record["control_kind"] = candidate.control
    return {**record, **extra}


def check_record(value, where: str) -> dict:
    """A judgments record as the contract has it, else one MetricInputError naming `where`."""
    if not isinstance(value, dict):
        raise MetricInputError(f"{where}: a judgment must be a JSON object, got {shown(value)}")
    missing = [key for key in REQUIRED if key not in value]
    if missing:
        raise MetricInputError(f"{where}: not a judgment record (no {', '.join(map(repr, missing))})")
    for key in ("task", "id", "substitute", "judge"):
        _text(value, key, where)
    if value["label"] not in LABELS:
        raise MetricInputError(f"{where}: 'label' must be one of {', '.join(LABELS)}, got {shown(value['label'])}")
    if not isinstance(value["control"], bool):
        raise MetricInputError(f"{where}: 'control' must be true or false, got {shown(value['control'])}")
    if value.get("control_kind") not in (None, *CONTROLS):
        raise MetricInputError(
            f"{where}: 'control_kind' must be 'target' or 'random', got {shown(value['control_kind'])}"
        )
    try:
        datetime.fromisoformat(value["time"])
    except (TypeError, ValueError):
        raise MetricInputError(f"{where}: 'time' must be an ISO 8601 time, got {shown(value['time'])}") from None
    return value


def iter_judgments(path: str | Path, notes: list[str], max_bytes: int = MAX_JUDGMENTS_BYTES) -> Iterator[dict]:
    """read_judgments's records one at a time (a merge holds only what it keeps of each); notes go to `notes`."""
    path = Path(path)
    for where, value, cut in _lines(path, max_bytes, "judgments file"):
        if cut:
            notes.append(f"{where}: the last line is cut short (a writer stopped mid-line); left out")
            continue
        check_record(value, where)["_where"] = where
        yield value


def read_judgments(path: str | Path, max_bytes: int = MAX_JUDGMENTS_BYTES) -> Judgments:
    """A judgments file's records, each with its `where` ("FILE:LINE") under the key "_where"; a cut last line (a
    killed writer's) is dropped with a note in `.notes`; anything else wrong is one MetricInputError naming the
    file and line."""
    records = Judgments(path=Path(path))
    records.extend(iter_judgments(path, records.notes, max_bytes))
    return records


class JudgmentsWriter:
    """Appends judgment records to a judgments file, one whole line each, flushed: an existing file is appended to,
    never truncated (it must be a judgments file: its first line a judgment record). A cut last line left by a
    killed writer is cut off before appending (it was never a whole record); a last record with no line end gets
    one. Use as a context manager: `with JudgmentsWriter(path) as out: out.write(record)`."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._file = None

    def __enter__(self) -> JudgmentsWriter:
        path = self.path
        if path.is_symlink():  # appending through a link would write into a file the link's maker chose
            raise MetricInputError(f"{path}: is a symbolic link; name the judgments file itself")
        if path.exists():
            if not path.is_file():
                raise MetricInputError(f"{path}: exists and is not a regular file; name a judgments file")
            self._prepare_existing()
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW  # a link made since the check: refused
        self._file = os.fdopen(os.open(path, flags, 0o644), "ab")
        return self

    def _prepare_existing(self) -> None:
        path = self.path
        size = path.stat().st_size
        if not size:
            return
        with open(path, "rb") as f:
            first = f.readline(MAX_LINE_CHARS)
            f.seek(max(0, size - MAX_LINE_CHARS))
            tail = f.read()
        try:
            check_record(json.loads(first), f"{path}:1")
        except (ValueError, MetricInputError):
            if first.endswith(b"\n") or size > len(first):
                raise MetricInputError(f"{path}: exists and is not a judgments file; name another output") from None
        if tail.endswith(b"\n"):
            return
        last = tail[tail.rfind(b"\n") + 1 :]
        try:
            json.loads(last)
            with open(path, "ab") as f:
                f.write(b"\n")
        except ValueError:
            os.truncate(path, size - len(last))  # a record cut by a kill: never a whole judgement

    def write(self, record: dict) -> None:
        line = json.dumps({k: v for k, v in record.items() if k != "_where"}, ensure_ascii=False) + "\n"
        try:
            self._file.write(line.encode("utf-8"))
            self._file.flush()
        except OSError as error:
            if no_space(error):  # what reached the disk is whole lines and at most one cut one, dropped on reading
                raise MetricInputError(f"{self.path}: {no_space_reason(error)}") from None
            raise

    def __exit__(self, *exc) -> None:
        if self._file is not None:
            file, self._file = self._file, None
            try:
                file.close()
            except OSError as error:
                if exc[0] is None and no_space(error):
                    raise MetricInputError(f"{self.path}: {no_space_reason(error)}") from None
