"""The files the Judge tab reads: a tasks file (`swords judge tasks`'s, or one the tab wrote) and a partial
judgments file to continue. Both are checked before any reading (they arrived, are not empty, have at most
MAX_TASKS_BYTES / MAX_JUDGMENTS_BYTES) and read by the metric's own readers; a bad file is one message naming it as
the user knows it and the line at fault."""

from __future__ import annotations

from pathlib import Path

from swords_metric import MetricInputError, TaskSet, read_judgments, read_tasks
from swords_space import render
from swords_space.errors import SpaceError

# SWORDS test's every target as tasks is about 1 MB, and a judgments file of every one of them judged by five people
# about 5 MB (docs/demo.md, "Judge"): 20 MB is several times either, and the app's upload limit.
MAX_TASKS_BYTES = 20 * 1024 * 1024
MAX_JUDGMENTS_BYTES = 20 * 1024 * 1024


def checked_upload(upload: str | Path, limit: int, what: str) -> tuple[Path, str]:
    """An upload's path and its name as the user knows it, checked before any reading: it arrived, is a regular
    file, is not empty and has at most `limit` bytes."""
    path = Path(upload)
    shown = render.visible(path.name)  # an upload's name is the sender's
    if not path.exists():
        raise SpaceError(f"The {what} did not arrive; upload it again.")
    if not path.is_file():  # a pipe would block the reader, a device never end
        raise SpaceError(f"{shown} is not a regular file (a folder, a pipe, a socket or a device).")
    size = path.stat().st_size
    if size > limit:
        raise SpaceError(f"{shown} is {size / 2**20:.1f} MB; a {what} may have at most {limit // 2**20} MB.")
    if size == 0:
        raise SpaceError(f"{shown} is empty.")
    return path, shown


def _message(error: Exception, path: Path, shown: str) -> str:
    return str(error).replace(str(path), shown)


def tasks_from(upload: str | Path) -> TaskSet:
    """An uploaded tasks file, checked and read (its faults name the file and line)."""
    path, shown = checked_upload(upload, MAX_TASKS_BYTES, "tasks file")
    try:
        taskset = read_tasks(path, max_bytes=MAX_TASKS_BYTES)
    except MetricInputError as error:
        raise SpaceError(_message(error, path, shown)) from None
    if not taskset.tasks:
        raise SpaceError(f"{shown} has no tasks: the run's substitutes were all judged by the benchmark already.")
    return taskset


def judgments_from(upload: str | Path, taskset: TaskSet) -> list[dict]:
    """An uploaded judgments file, checked and read; a record for another benchmark split than the tasks', or for a
    task the tasks file has with another target, is a message naming the file and its line."""
    path, shown = checked_upload(upload, MAX_JUDGMENTS_BYTES, "judgments file")
    try:
        records = read_judgments(path, max_bytes=MAX_JUDGMENTS_BYTES)
    except MetricInputError as error:
        raise SpaceError(_message(error, path, shown)) from None
    targets = {task.task: task.id for task in taskset.tasks}
    dataset, split = taskset.header.get("dataset"), taskset.header.get("split")
    for record in records:
        where = record["_where"].replace(str(path), shown)  # the reader's "FILE:LINE"
        for key, expected in (("dataset", dataset), ("split", split)):
            if key in record and expected is not None and record[key] != expected:
                raise SpaceError(
                    f"{where}: a judgment for {key} {render.visible(str(record[key]))}, but the tasks "
                    f"are for {dataset} {split}: upload the judgments made with these tasks."
                )
        if record["task"] in targets and record["id"] != targets[record["task"]]:
            raise SpaceError(
                f"{where}: task {render.visible(record['task'])} is target "
                f"{render.visible(targets[record['task']])} in the tasks file, not {render.visible(record['id'])}: "
                "upload the judgments made with these tasks."
            )
    return records


def judged_by(records: list[dict], taskset: TaskSet, judge: str) -> set[str]:
    """The tasks this judge has finished in the records: every candidate of the task has their label (the tab writes
    a task's records together, so a task cut short by a killed writer is judged again)."""
    labelled: dict[str, set[str]] = {}
    for record in records:
        if record["judge"] == judge:
            labelled.setdefault(record["task"], set()).add(record["substitute"])
    return {
        task.task
        for task in taskset.tasks
        if {candidate.substitute for candidate in task.candidates} <= labelled.get(task.task, set())
    }
