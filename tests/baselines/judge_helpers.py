"""Shared by the judge's tests: a small real tasks file (swords_metric's tasks_for on SWORDS dev), and answers for
a local OpenAI-compatible server keyed by the judge's user message for each candidate."""

from __future__ import annotations

import json
from pathlib import Path

from swords_baselines.judge.prompt import messages
from swords_metric import Scorer, TaskSet, read_tasks, tasks_for, write_tasks


def dev_tasks_file(path: Path, dev: list[dict], targets: int = 2, per_target: int = 3) -> Path:
    """A tasks file for the first `per_target` substitutes of the first `targets` SWORDS dev targets."""
    scorer = Scorer.from_dataset("swords", "dev")
    chosen = {row["id"]: [s["substitute"] for s in row["substitutes"][:per_target]] for row in dev[:targets]}
    header = {"format": "swords-judge-tasks", "version": 1, "dataset": "swords", "split": "dev"}
    write_tasks(path, TaskSet(header, tasks_for(scorer, chosen)))
    return path


def items(path: Path) -> list[tuple]:
    """(task, candidate) of every candidate in a tasks file, in file order."""
    return [(task, candidate) for task in read_tasks(path).tasks for candidate in task.candidates]


def user_message(task, substitute: str) -> str:
    """The key the local server's canned answers are looked up by (the request's last user message)."""
    return messages(task, substitute)[-1]["content"]


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
