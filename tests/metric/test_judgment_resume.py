"""The rules for resuming a judging session (swords_metric.judgments.records), on real tasks: the wordnet baseline's
unjudged top-10 substitutes for three SWORDS test targets, judged record by record through the metric's own record
maker and writer, one task cut short as a killed writer leaves it."""

from __future__ import annotations

import pytest

import swords_dataset
from swords_baselines.classic.wordnet import wordnet_substitutes
from swords_metric import (
    LLM_PREFIX,
    JudgmentsWriter,
    Scorer,
    carried_records,
    judgeable,
    judged_by,
    judgment_record,
    llm_judge,
    make_tasks,
    mismatched_record,
    read_judgments,
    unfinished_tasks,
)
from swords_metric.judgments.records import record_key


@pytest.fixture(scope="module")
def taskset():
    rows = swords_dataset.rows("swords", "test")[:3]
    run = {row["id"]: wordnet_substitutes(row) for row in rows}
    return make_tasks(Scorer.from_dataset("swords", "test"), run)


def judged(task, judge: str, upto: int | None = None) -> list[dict]:
    """A judge's records of a task, every candidate accepted (the first `upto` only: a task cut short)."""
    extra = {"dataset": "swords", "split": "test"}
    return [judgment_record(task, c, judge, "accept", **extra) for c in task.candidates[:upto]]


def test_a_task_is_finished_when_every_candidate_has_the_judges_label(taskset, tmp_path):
    first, second, *rest = taskset.tasks
    assert rest and all(len(task.candidates) >= 3 for task in taskset.tasks)
    path = tmp_path / "judgments-ann.jsonl"
    with JudgmentsWriter(path) as writer:
        for record in judged(first, "ann") + judged(second, "ann", upto=2) + judged(rest[0], "bob"):
            writer.write(record)
    records = read_judgments(path)
    finished = judged_by(records, taskset, "ann")
    assert finished == {first.task}  # the second was cut short: judged again; bob's task is bob's
    assert unfinished_tasks(taskset, finished) == list(range(1, len(taskset.tasks)))
    assert judged_by(records, taskset, "bob") == {rest[0].task}
    assert judged_by(records, taskset, "cyd") == set()


def test_records_carried_over_are_kept_once_wherever_they_were_read(taskset, tmp_path):
    task = taskset.tasks[0]
    earlier, uploaded = tmp_path / "earlier.jsonl", tmp_path / "uploaded.jsonl"
    records = judged(task, "ann")
    for path, held in ((earlier, records), (uploaded, records + judged(taskset.tasks[1], "ann"))):
        with JudgmentsWriter(path) as writer:
            for record in held:
                writer.write(record)
    kept = carried_records(read_judgments(earlier), read_judgments(uploaded))
    assert len(kept) == len(records) + len(taskset.tasks[1].candidates)  # the download uploaded again: once
    assert all(record["_where"].startswith(str(earlier)) for record in kept[: len(records)])
    assert record_key(kept[0]) == record_key({**kept[0], "_where": "elsewhere:9"})


def test_a_record_of_another_split_or_target_does_not_belong_with_the_tasks(taskset):
    task, other = taskset.tasks[0], taskset.tasks[-1]
    good = judged(task, "ann")
    assert mismatched_record(good, taskset) is None
    dev = {**good[1], "split": "dev"}
    assert mismatched_record([*good, dev], taskset) == (
        dev,
        "a judgment for split dev, but the tasks are for swords test",
    )
    moved = {**good[0], "id": other.id}
    assert mismatched_record([moved], taskset, shown=repr) == (
        moved,
        f"task {task.task!r} is target {task.id!r} in the tasks file, not {other.id!r}",
    )
    elsewhere = {**good[0], "task": "t:0#1@0", "id": "t:0"}  # another tasks file's task: kept
    assert mismatched_record([elsewhere], taskset) is None


def test_which_splits_can_be_judged_and_who_may_judge_under_a_name():
    assert [config for config in swords_dataset.CONFIGS if judgeable(config)] == [
        "swords",
        "swords_test_subset",
        "swords_reannotated",
    ]  # SWORDS's judged gold; not recalled CoInCo, SemEval-2007, nor the official families'
    assert judgeable("swords") and not judgeable("coinco") and not judgeable("tsar2022_en")
    assert LLM_PREFIX == "llm:" and llm_judge("LLM:smollm2:1a2b3c4d") and not llm_judge("ann")
