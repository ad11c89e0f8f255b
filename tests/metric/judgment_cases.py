"""A judgments case made by hand for a few SWORDS test targets, for the tests of merging and of the extended
scores: the `wordnet` baseline's run (a real system) on SWORDS test, its tasks, and four judges whose answers are
written out literally by the rules below, with what SWORDS's filter (B.3) must keep worked out here, by hand:

  ann   answers candidates in the cycle accept, reject, accept, abstain; every control right
  bob   reject, accept, accept; every control right; also judges a substitute the benchmark has, which the first
        task offers too (left alone)
  cyd   accepts every candidate; accepts the random control of the 2nd target's task: that task is dropped, and
        with 11 of 12 controls right (91.7% >= 90%) cyd is kept
  spam  accepts everything, the random controls too: 6 of 12 controls right (50%), so every answer is dropped

File A holds ann, cyd and spam; file B holds bob and three of ann's records again (exact duplicates). The tasks
file the judgments answer is written beside them (`tasks`); `inputs` is what --judgments takes: all three.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from pathlib import Path

import swords_dataset
from swords_baselines.classic.wordnet import wordnet_substitutes
from swords_metric import Candidate, Scorer, TaskSet, make_tasks, write_tasks

TARGETS = 6
TIME = "2026-11-26T12:00:00+00:00"
CYCLES = {
    "ann": ("accept", "reject", "accept", "abstain"),
    "bob": ("reject", "accept", "accept"),
    "cyd": ("accept",),
    "spam": ("accept",),
}
HELD = {"accept": "TRUE", "reject": "FALSE", "abstain": "UNSURE"}  # as the upstream format holds each answer


@dataclass
class Case:
    rows: list[dict]  # the judged targets' rows
    run: dict[str, list[list]]  # the wordnet baseline on every SWORDS test target, by upstream id
    files: tuple[Path, Path]
    expected: dict[tuple[str, str], list[str]]  # (target id, substitute) -> upstream labels that B.3 keeps
    already_judged: tuple[str, str]  # (target id, the benchmark's substitute bob judged)
    records: int
    tasks: Path  # the tasks file of the judged tasks

    @property
    def inputs(self) -> list[Path]:
        return [self.tasks, *self.files]


def by_hand(header: str | dict) -> dict:
    """A tasks file's header (its line, or read) as a tasks file made by hand holds it: without the digest that
    write_tasks stamps, which a file edited since no longer matches (the merge refuses it)."""
    header = json.loads(header) if isinstance(header, str) else header
    return {key: value for key, value in header.items() if key != "content_sha256"}


def wordnet_run() -> dict[str, list[list]]:
    return {row["upstream_id"]: [list(pair) for pair in wordnet_substitutes(row)] for row in swords_dataset.rows()}


def _record(task, substitute, judge, label, control=None) -> dict:
    record = {"task": task.task, "id": task.id, "substitute": substitute, "judge": judge, "label": label}
    record |= {"control": control is not None, "time": TIME}
    return record | ({"control_kind": control} if control else {})


def make_case(folder: Path) -> Case:
    scorer = Scorer.from_dataset("swords", "test")
    run = wordnet_run()
    rows = {row["id"]: row for row in swords_dataset.rows()}
    taskset = make_tasks(scorer, run)
    tasks = [task for task in taskset.tasks if len(task.candidates) >= 5][:TARGETS]
    assert len({task.id for task in tasks}) == TARGETS  # one task a target (the top 10 holds at most 10 new)
    a, b, expected = [], [], {}
    for number, task in enumerate(tasks):
        gold = {s["substitute"].lower() for s in rows[task.id]["substitutes"]}
        cycles = {judge: itertools.cycle(labels) for judge, labels in CYCLES.items()}
        for candidate in task.candidates:
            for judge in CYCLES:
                if candidate.control == "target":
                    label = "accept"
                elif candidate.control == "random":
                    label = "accept" if judge == "spam" or (judge == "cyd" and number == 1) else "reject"
                else:
                    label = next(cycles[judge])
                (b if judge == "bob" else a).append(
                    _record(task, candidate.substitute, judge, label, candidate.control)
                )
                if candidate.control is None and judge != "spam" and not (judge == "cyd" and number == 1):
                    assert candidate.substitute.lower() not in gold  # new to the upstream file as well
                    expected.setdefault((task.id, candidate.substitute), []).append(HELD[label])
    first = tasks[0]
    known = rows[first.id]["substitutes"][0]["substitute"]
    first.candidates.append(Candidate(known))  # offered (as validating a judge offers them): bob alone judges it
    b.append(_record(first, known, "bob", "reject"))
    b += a[:3]
    files = (folder / "a.judgments.jsonl", folder / "b.judgments.jsonl")
    for path, records in zip(files, (a, b), strict=True):
        path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    write_tasks(folder / "tasks.jsonl", TaskSet(taskset.header, tasks))
    judged_rows = [rows[task.id] for task in tasks]
    return Case(judged_rows, run, files, expected, (first.id, known), len(a) + len(b), folder / "tasks.jsonl")
