"""The files the Judge tab reads: a tasks file and a partial judgments file to continue, checked before any reading
and read by the metric's own readers (a bad file one message naming it and the line at fault); a tasks file also
against what the tab can judge (SLOTS candidates a task, a SWORDS split's targets), so a session can be finished."""

from __future__ import annotations

import json
import re
from pathlib import Path

from swords_metric import (
    MAX_CANDIDATES,
    MetricInputError,
    TaskSet,
    judgeable,
    mismatched_record,
    read_judgments,
    read_tasks,
)
from swords_space import benchmarks, render
from swords_space.errors import SpaceError

# SWORDS test's every target as tasks is about 1 MB, and a judgments file of every one of them judged by five people
# about 5 MB (docs/demo.md, "Judge"): 20 MB is several times either, and the app's upload limit.
MAX_TASKS_BYTES = 20 * 1024 * 1024
MAX_JUDGMENTS_BYTES = 20 * 1024 * 1024
SLOTS = MAX_CANDIDATES + 2  # a task's candidates and its two controls: the radio groups the tab has
# A lone surrogate as JSON writes it (the only way one reaches a UTF-8 file); a pair is a character, checked below.
_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_SURROGATE = re.compile("[\ud800-\udfff]")


def judgeable_splits() -> list[str]:
    """The benchmark splits a run's substitutes can be judged for (SWORDS's: the metric's judgeable)."""
    return [benchmarks.split_label(c, s) for c, s in benchmarks.splits() if judgeable(c)]


def checked_upload(upload: str | Path, limit: int, what: str) -> tuple[Path, str]:
    """An upload's path and shown name, checked: it arrived, a regular file, not empty, at most `limit` bytes."""
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


def _read(upload: str | Path, limit: int, what: str, read) -> tuple:
    """(what the metric's `read` gives, path, shown name) of an upload, checked before and after (faults name it)."""
    path, shown = checked_upload(upload, limit, what)
    try:
        value = read(path, max_bytes=limit)
    except MetricInputError as error:
        raise SpaceError(str(error).replace(str(path), shown)) from None
    no_lone_surrogates(path, shown)
    return value, path, shown


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    return [text for key, item in items for text in (*_strings(key), *_strings(item))]


def no_lone_surrogates(path: Path, shown: str) -> None:
    """A lone surrogate in a file the metric read (JSON's "\\ud800", not text) is one message naming its line."""
    with open(path, encoding="utf-8", errors="replace") as file:
        for number, line in enumerate(file, 1):
            if not _ESCAPED_SURROGATE.search(line):
                continue
            try:
                value = json.loads(line)
            except ValueError:  # the metric's reader judged the file's lines already
                continue
            for text in _strings(value):
                if found := _SURROGATE.search(text):
                    raise SpaceError(
                        f"{shown}:{number}: holds \\u{ord(found.group()):04x}, a lone surrogate (half of a "
                        "character, not text), which the Judge tab cannot show or save: fix that line or the file's "
                        "maker."
                    )


def no_lone_surrogate_candidates(taskset: TaskSet, shown: str) -> None:
    """Tasks made from a run whose substitute holds a lone surrogate: one message naming target and substitute."""
    for task in taskset.tasks:
        for candidate in task.candidates:
            if found := _SURROGATE.search(candidate.substitute):
                word = render.visible(candidate.substitute)
                raise SpaceError(
                    f"{shown}: target {render.visible(task.id)} has the substitute {word}, which holds "
                    f"\\u{ord(found.group()):04x}, a lone surrogate (half of a character, not text): the Judge tab "
                    "cannot show or save it; fix the run."
                )


def _judgeable(taskset: TaskSet, shown: str) -> None:
    """Tasks the tab can judge to the end: a SWORDS split's, at most SLOTS candidates each, the split's own targets."""
    dataset, split = taskset.header.get("dataset"), taskset.header.get("split")
    label = f"{render.visible(str(dataset))} {render.visible(str(split))}"
    if label not in judgeable_splits():
        raise SpaceError(
            f"{shown} holds tasks for {label}; the Judge tab judges only {', '.join(judgeable_splits())} (CoInCo's "
            "and SemEval-2007's gold was recalled, not judged)."
        )
    for task in taskset.tasks:
        name = render.visible(task.task)
        if len(task.candidates) > SLOTS:
            raise SpaceError(
                f"{shown}: task {name} has {len(task.candidates):,} candidates; the Judge tab shows at most {SLOTS} "
                f"({MAX_CANDIDATES} and the two controls): make the tasks with swords judge tasks."
            )
        row = benchmarks.get_row(dataset, split, task.id)
        if row is None:
            raise SpaceError(f"{shown}: task {name} is for target {render.visible(task.id)}, which {label} lacks.")
        if (row["context"], row["offset"], row["target"]) != (task.context, task.offset, task.target):
            raise SpaceError(
                f"{shown}: task {name} shows target {render.visible(task.id)} with another context or target "
                f"word than {label} has: make the tasks with swords judge tasks."
            )


def tasks_from(upload: str | Path) -> TaskSet:
    """An uploaded tasks file, checked and read (its faults name the file and line), and checked judgeable."""
    taskset, _, shown = _read(upload, MAX_TASKS_BYTES, "tasks file", read_tasks)
    if not taskset.tasks:
        raise SpaceError(f"{shown} has no tasks: the run's substitutes were all judged by the benchmark already.")
    _judgeable(taskset, shown)
    return taskset


def judgments_from(upload: str | Path, taskset: TaskSet) -> list[dict]:
    """An uploaded judgments file, checked and read; a record of another split, or of a task with another target, is
    a message naming the file and line."""
    records, path, shown = _read(upload, MAX_JUDGMENTS_BYTES, "judgments file", read_judgments)
    found = mismatched_record(records, taskset, render.visible)  # the metric's rule: these tasks' records only
    if found is not None:
        record, why = found
        where = record["_where"].replace(str(path), shown)  # the reader's "FILE:LINE"
        raise SpaceError(f"{where}: {why}: upload the judgments made with these tasks.")
    return records
