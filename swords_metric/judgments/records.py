"""The judgments file's records: made, checked, read and appended, with one clear line (file:line) for anything
wrong; and what resuming a person's judging session (the Judge tab) asks of them.

Judgments file (JSONL, the contract other tools write to): one record per judged candidate, {"task", "id",
"substitute", "judge", "label": "accept" | "reject" | "abstain", "control": true | false, "time": ISO 8601}, and
optionally "control_kind" ("target" | "random"), "dataset", "split", "agreement"; other fields are kept and ignored.
JudgmentsWriter appends and flushes one whole line per record, so a killed writer leaves at most a cut last line,
which read_judgments drops with a note (a cut line anywhere else is an error).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path

from swords_lexsub.files import no_space, no_space_reason
from swords_metric.errors import MetricInputError, shown
from swords_metric.families import family_of
from swords_metric.judgments.agreement import check_agreement
from swords_metric.judgments.files import MAX_JUDGMENTS_BYTES, MAX_LINE_CHARS, file_lines, text_field
from swords_metric.judgments.judged import refusal
from swords_metric.judgments.names import check_judge_name, is_llm_judge, judge_id
from swords_metric.judgments.protocol import CONTROLS, LABELS
from swords_metric.judgments.tasks import Candidate, Task, TaskSet

REQUIRED = ("task", "id", "substitute", "judge", "label", "control", "time")
# How a record this toolkit writes begins: a last line without a line end that begins so is a killed writer's.
RECORD_START = b'{"task": '


class Judgments(list):
    """The records of a judgments file (a list of dicts), with `path` and `notes` (e.g. a cut last line dropped)."""

    def __init__(self, records=(), path: Path | None = None, notes: list[str] | None = None):
        super().__init__(records)
        self.path = path
        self.notes = notes or []


def now() -> str:
    """The time as judgments record it: ISO 8601, UTC, to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def record_time(value: str) -> datetime:
    """A record's time in UTC (naive: taken as UTC); OverflowError if none in UTC (9999-12-31T23:59:59-01:00)."""
    stamp = datetime.fromisoformat(value)
    return stamp.replace(tzinfo=UTC) if stamp.tzinfo is None else stamp.astimezone(UTC)


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
    if missing := [key for key in REQUIRED if key not in value]:
        raise MetricInputError(f"{where}: not a judgment record (no {', '.join(map(repr, missing))})")
    for key in ("task", "id", "substitute", "judge"):
        text_field(value, key, where)
    check_judge_name(value["judge"], where)
    if value["label"] not in LABELS:
        raise MetricInputError(f"{where}: 'label' must be one of {', '.join(LABELS)}, got {shown(value['label'])}")
    if not isinstance(value["control"], bool):
        raise MetricInputError(f"{where}: 'control' must be true or false, got {shown(value['control'])}")
    if value.get("control_kind") not in (None, *CONTROLS):
        raise MetricInputError(
            f"{where}: 'control_kind' must be 'target' or 'random', got {shown(value['control_kind'])}"
        )
    try:
        record_time(value["time"])
    except (TypeError, ValueError):
        raise MetricInputError(f"{where}: 'time' must be an ISO 8601 time, got {shown(value['time'])}") from None
    except OverflowError:
        raise MetricInputError(
            f"{where}: 'time' {shown(value['time'])} is past the years 1 to 9999 in UTC, where times are compared"
        ) from None
    for key in ("dataset", "split"):
        if value.get(key) is not None:
            text_field(value, key, where)
    check_agreement(value.get("agreement"), f"{where}: 'agreement'")
    return value


def iter_judgments(path: str | Path, notes: list[str], max_bytes: int = MAX_JUDGMENTS_BYTES) -> Iterator[dict]:
    """read_judgments's records one at a time (a merge holds only what it keeps of each); notes go to `notes`."""
    path = Path(path)
    for where, value, cut in file_lines(path, max_bytes, "judgments file"):
        if cut:
            notes.append(f"{where}: the last line is cut short (a writer stopped mid-line); left out")
            continue
        check_record(value, where)["_where"] = where
        yield value


def read_judgments(path: str | Path, max_bytes: int = MAX_JUDGMENTS_BYTES) -> Judgments:
    """A judgments file's records, each with "_where" ("FILE:LINE"); a cut last line dropped with a note in `.notes`."""
    records = Judgments(path=Path(path))
    records.extend(iter_judgments(path, records.notes, max_bytes))
    return records


def record_line(record: dict, where: str = "judgment") -> bytes:
    """A record as one JSONL line; NaN, infinity or a lone surrogate anywhere in it is one MetricInputError."""
    try:
        line = json.dumps({k: v for k, v in record.items() if k != "_where"}, ensure_ascii=False, allow_nan=False)
        return (line + "\n").encode("utf-8")
    except ValueError as error:  # UnicodeEncodeError is a ValueError
        what = "a lone surrogate (not text)" if isinstance(error, UnicodeEncodeError) else "NaN or infinity"
        raise MetricInputError(f"{where}: the record of {shown(record.get('substitute'))} holds {what}") from None


class JudgmentsWriter:
    """Appends judgment records to a judgments file (`with JudgmentsWriter(path) as out: out.write(record)`), one
    whole line each, flushed. A cut last line left by a killed writer is cut off first; a last record with no line
    end gets one; any other last line without a line end is refused."""

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
        except ValueError:
            if not last.startswith(RECORD_START):
                raise MetricInputError(
                    f"{path}: its last line has no line end and is not a judgment record; end it, or name another "
                    "output"
                ) from None
            os.truncate(path, size - len(last))  # a record cut by a kill: never a whole judgement
            return
        with open(path, "ab") as f:
            f.write(b"\n")

    def write(self, record: dict) -> None:
        line = record_line(record, str(self.path))
        try:
            self._file.write(line)
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


def judgeable(config: str) -> bool:
    """Whether judgements can extend a benchmark config's gold (SWORDS's; not a recalled or official-scorer one)."""
    return refusal(config, family_of(config)) is None


def llm_judge(name: str) -> bool:
    """Whether a judge's name is an LLM judge's id (`llm:<model>:<prompt>`, in any case)."""
    return is_llm_judge(name)


def record_key(record: dict) -> str:
    """A record's identity: its fields, not where it was read (so a record held twice is kept once)."""
    return json.dumps({k: v for k, v in record.items() if k != "_where"}, sort_keys=True)


def carried_records(earlier: list[dict], uploaded: Iterable[dict]) -> list[dict]:
    """An earlier session's records, then an upload's that they do not hold already, in their order."""
    held = {record_key(record) for record in earlier}
    return [*earlier, *(record for record in uploaded if record_key(record) not in held)]


def mismatched_record(
    records: Iterable[dict], taskset: TaskSet, shown: Callable[[str], str] = str
) -> tuple[dict, str] | None:
    """The first record that does not belong with these tasks and why (one phrase, values through `shown`), or None:
    one naming another dataset or split, or a task of the file with another target."""
    targets = {task.task: task.id for task in taskset.tasks}
    dataset, split = taskset.header.get("dataset"), taskset.header.get("split")
    for record in records:
        for key, expected in (("dataset", dataset), ("split", split)):
            if key in record and expected is not None and record[key] != expected:
                return (
                    record,
                    f"a judgment for {key} {shown(str(record[key]))}, but the tasks are for {dataset} {split}",
                )
        if record["task"] in targets and record["id"] != targets[record["task"]]:
            return record, (
                f"task {shown(record['task'])} is target {shown(targets[record['task']])} in the tasks file, not "
                f"{shown(record['id'])}"
            )
    return None


def judged_by(records: Iterable[dict], taskset: TaskSet, judge: str) -> set[str]:
    """The tasks (ids) this judge has finished in the records: every candidate of the task has their label (a task
    cut short is judged again; the merge's later-time rule keeps the new records)."""
    labelled: dict[str, set[str]] = {}
    judge = judge_id(judge)
    for record in records:
        if judge_id(record["judge"]) == judge:
            labelled.setdefault(record["task"], set()).add(record["substitute"])
    return {
        task.task
        for task in taskset.tasks
        if {candidate.substitute for candidate in task.candidates} <= labelled.get(task.task, set())
    }


def unfinished_tasks(taskset: TaskSet, finished: set[str]) -> list[int]:
    """The places of the tasks still to judge, in the tasks file's order."""
    return [i for i, task in enumerate(taskset.tasks) if task.task not in finished]
