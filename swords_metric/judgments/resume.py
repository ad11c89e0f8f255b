"""Resuming a person's judging session from the records kept so far (a partial judgments file, an earlier session's
file): which benchmark splits can be judged, who may judge under a name, a record's identity, which records fit the
tasks, and which tasks a judge has finished. The Judge tab asks these rules; the merge (merge.py) is what counts the
records afterwards.

A task is finished when every one of its candidates has this judge's label: a task's records are written together,
so a task cut short (a killed writer) is judged again, and its new records come later in the file, where the merge's
later-time rule keeps them. A record is this judge's when its name is theirs as the merge compares names (names.py:
NFC, trimmed), so a file whose names a tool wrote decomposed (NFD) resumes where it stopped."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable

from swords_metric.families import family_of
from swords_metric.judgments.judged import refusal
from swords_metric.judgments.names import is_llm_judge, judge_id
from swords_metric.judgments.tasks import TaskSet


def judgeable(config: str) -> bool:
    """Whether judgements can extend a benchmark config's gold (SWORDS's: judged; not CoInCo's or SemEval-2007's,
    recalled; not TSAR-2022's or ProLex's, scored by their own official scorers)."""
    return refusal(config, family_of(config)) is None


def llm_judge(name: str) -> bool:
    """Whether a judge's name is an LLM judge's id (`llm:<model>:<prompt>`, swords judge llm; `LLM:` in any case): a
    person's name never passes for a model's."""
    return is_llm_judge(name)


def record_key(record: dict) -> str:
    """A record's identity: its fields, not where it was read (so a record held twice is kept once)."""
    return json.dumps({k: v for k, v in record.items() if k != "_where"}, sort_keys=True)


def carried_records(earlier: list[dict], uploaded: Iterable[dict]) -> list[dict]:
    """An earlier session's records, then an upload's that the earlier ones do not hold already (the earlier file
    was the upload's download, say), in their order."""
    held = {record_key(record) for record in earlier}
    return [*earlier, *(record for record in uploaded if record_key(record) not in held)]


def mismatched_record(
    records: Iterable[dict], taskset: TaskSet, shown: Callable[[str], str] = str
) -> tuple[dict, str] | None:
    """The first record that does not belong with these tasks and why (one phrase, values through `shown`), or None:
    a record naming another dataset or split than the tasks' header, or a task the tasks file has with another
    target. A record of a task the file does not hold is kept (another tasks file's)."""
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
    """The tasks (ids) this judge has finished in the records: every candidate of the task has their label."""
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
