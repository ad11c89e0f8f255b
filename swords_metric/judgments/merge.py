"""Judgments files merged, each record checked against its task, into the judgements that join the gold, with
SWORDS's quality filter (B.3) and one judgement per judge and substitute (quality.py).

merge_judgments(scorer, paths) takes tasks files and judgments files together (a tasks file is known by its
header). Without a tasks file it refuses: a record cannot be checked without its task. Then, in one line naming
the file and line, it refuses:
  - an empty judgments file, a record naming another dataset or split, a target not in the scorer's split;
  - a record whose task is in none of the tasks files, whose target is not its task's, or whose substitute its
    task never offered (a judgment counts only for a candidate its task showed);
  - two tasks files giving one task id to different tasks (version 1 files share ids "<id>#<n>"), a tasks file
    edited since it was written (files.py), a file of tasks then judgments;
  - one judge answering one candidate with different labels at its latest time (naming two records);
  - one LLM judge claiming two different agreements (naming both records).
The merge rule is answers.py's, decided on the whole set: of a judge's answers to one candidate of one task, the
latest wins (the others counted as `replaced`); the same label at the same time counts once (`duplicates`). Judges
are compared by names.py's judge_id (NFC, trimmed, `LLM:` as `llm:`). Whether a candidate is a control is what its
task says, never what a record says. A record timed after the merge's own clock is noted (it wins over any record
made before it).

The result (MergedJudgments) holds, per (target id, substitute as judged), the labels kept, the counts, and
`sha256`: the digest of the merged judgments, normalised (judge, task, substitute, control, label, time in UTC;
sorted), with each LLM judge's claimed agreement as its figures; `tasks_sha256`: the digest of the tasks they were
checked against. Memory: the records' few fields per judgement, not the files' text.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from swords_metric.errors import MetricInputError, shown
from swords_metric.judgments.agreement import check_agreement
from swords_metric.judgments.answers import LaterWins, place
from swords_metric.judgments.files import MAX_JUDGMENTS_BYTES, is_tasks_file, read_tasks
from swords_metric.judgments.judged import JudgedSplit, check_judged, judged_split
from swords_metric.judgments.names import is_llm_judge, judge_id
from swords_metric.judgments.records import iter_judgments, record_time
from swords_metric.judgments.tasks import Task


@dataclass
class MergedJudgments:
    """The judgements kept, per (target id, substitute): their labels (ordered by judge); and what was left out."""

    labels: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)  # the judgments files
    tasks_files: list[str] = field(default_factory=list)
    sha256: str = ""  # of the merged judgments, normalised: the signature's `judgments:`
    tasks_sha256: str = ""  # of the tasks the records were checked against: the signature's `tasks:`
    records: int = 0  # records read, all files
    duplicates: int = 0  # the same answer again (same judge, task, candidate, label and time), counted once
    replaced: int = 0  # a judge's answer that a later-timed answer to the same candidate replaced
    folded: int = 0  # kept answers of a judge to a substitute another task showed them too: one judgement counts
    judges: list[str] = field(default_factory=list)  # judges kept
    judges_dropped: list[str] = field(default_factory=list)  # control accuracy under 90%
    control_accuracy: dict[str, float] = field(default_factory=dict)  # per judge, over all their tasks
    tasks: int = 0  # (judge, task) pairs read
    tasks_dropped_control: int = 0  # of kept judges: a wrong control answer
    tasks_dropped_judge: int = 0  # of dropped judges
    tasks_without_controls: int = 0  # a control of the task not answered: cannot be checked, dropped
    tasks_lacking_control: int = 0  # the task holds no target control or no random control: cannot be checked
    already_judged: int = 0  # kept judgements of substitutes the benchmark judged: its judgement left as it is
    target_copies: int = 0  # kept judgements of the target word itself as a candidate: left out
    outside_scored: int = 0  # kept judgements of targets the scored ones leave out (--given-only)
    agreement: dict[str, object] = field(default_factory=dict)  # LLM judge -> its claimed agreement, or None
    notes: list[str] = field(default_factory=list)

    @property
    def judgements(self) -> int:
        """The judgements that join the gold and count (abstentions are left out, as the benchmark's are)."""
        return sum(sum(label != "abstain" for label in labels) for labels in self.labels.values())

    @property
    def substitutes(self) -> int:
        """The new substitutes that join the gold: those with a judgement that counts (not only abstentions)."""
        return sum(any(label != "abstain" for label in labels) for labels in self.labels.values())

    def counts(self) -> dict:
        """The filter's counts, as reports and JSON show them."""
        return {
            "files": len(self.files),
            "tasks_files": len(self.tasks_files),
            "records": self.records,
            "duplicates": self.duplicates,
            "replaced": self.replaced,
            "folded": self.folded,
            "judges": len(self.judges),
            "judges_dropped": len(self.judges_dropped),
            "tasks": self.tasks,
            "tasks_dropped_control": self.tasks_dropped_control,
            "tasks_dropped_judge": self.tasks_dropped_judge,
            "tasks_without_controls": self.tasks_without_controls,
            "tasks_lacking_control": self.tasks_lacking_control,
            "already_judged": self.already_judged,
            "target_copies": self.target_copies,
            "outside_scored": self.outside_scored,
            "judgements": self.judgements,
            "abstentions": sum(labels.count("abstain") for labels in self.labels.values()),
            "substitutes": self.substitutes,
            "abstained_only": len(self.labels) - self.substitutes,
        }


def _same_bench(judged: JudgedSplit, value: dict, where: str, what: str) -> None:
    """Refuse a record or tasks header that names another dataset or split than the scorer's."""
    dataset, split = judged.dataset, judged.split
    for key, ours in (("dataset", dataset), ("split", split)):
        theirs = value.get(key)
        if theirs is not None and ours is not None and theirs != ours:
            raise MetricInputError(
                f"{where}: {what} for {key} {shown(theirs, 40)}, not {ours} ({dataset} {split} is scored)"
            )


def _read_tasks(judged: JudgedSplit, paths: list[Path], merged: MergedJudgments) -> dict[str, tuple[Task, str]]:
    """Task id -> (task, "FILE:LINE") over the tasks files; one id given to two different tasks is refused."""
    tasks: dict[str, tuple[Task, str]] = {}
    for path in paths:
        taskset = read_tasks(path, unchanged=True)  # edited since it was written: refused
        _same_bench(judged, taskset.header, f"{path}:1", "a tasks file")
        merged.tasks_files.append(str(path))
        for number, task in enumerate(taskset.tasks, 2):
            where = f"{path}:{number}"
            if task.task in tasks and tasks[task.task][0] != task:
                raise MetricInputError(
                    f"{tasks[task.task][1]} and {where}: task {shown(task.task, 80)} is two different tasks (tasks "
                    "files made before version 2 share ids); give one run's tasks file at a time"
                )
            tasks.setdefault(task.task, (task, where))
    return tasks


def _candidate(record: dict, task: Task, where: str) -> str | None:
    """The control kind of the entry of `task` the record answers (None: a candidate), as the task says."""
    kinds = [c.control for c in task.candidates if c.substitute == record["substitute"]]
    if not kinds:
        raise MetricInputError(
            f"{where}: {shown(record['substitute'], 80)} is not a candidate of task {shown(task.task, 80)}; a "
            "judgment counts only for a candidate its task offered"
        )
    if len(kinds) > 1:  # a word shown twice (a candidate and a control): the record says which it answers
        said = (record.get("control_kind") or "target") if record["control"] else None
        return said if said in kinds else kinds[0]
    return kinds[0]


def _answer(judged: JudgedSplit, record: dict, tasks: dict, where: str) -> tuple[tuple, str]:
    """(key, target id) of a checked record: key (judge id, task id, substitute, control kind)."""
    _same_bench(judged, record, where, "a record")
    if record["task"] not in tasks:
        raise MetricInputError(f"{where}: task {shown(record['task'], 80)} is in none of the tasks files given")
    task, _ = tasks[record["task"]]
    position = judged.targets.position(record["id"])
    if position is None:
        raise MetricInputError(f"{where}: target {shown(record['id'], 80)} is not in {judged.targets.index.where}")
    target_id = judged.targets.rows[position]["id"]
    if target_id != task.id:
        raise MetricInputError(f"{where}: target {shown(record['id'], 80)} is not task {shown(task.task, 80)}'s")
    key = (judge_id(record["judge"]), task.task, record["substitute"], _candidate(record, task, where))
    return key, target_id


def _claim(judge: str, record: dict, where: str, claims: dict) -> None:
    """An LLM judge's claimed agreement, as its figures (check_agreement's: other keys, a validation's time say, are
    not the agreement), gathered with the first record (by place) that claims it; null claims nothing."""
    if is_llm_judge(judge):
        claim = check_agreement(record.get("agreement"), where)
        held = claims.setdefault(judge, {})
        key = None if claim is None else tuple(sorted(claim.items()))
        if key not in held or place(where) < place(held[key]):
            held[key] = where


def _agreements(claims: dict) -> dict[str, dict | None]:
    """Each LLM judge's one claimed agreement (None: none claimed); two claims of one judge are one MetricInputError
    naming a record of each (the same in any order)."""
    agreements = {}
    for judge in sorted(claims):
        made = sorted((place(where), where, key) for key, where in claims[judge].items() if key is not None)
        if len(made) > 1:
            (_, one, first), (_, other, second) = made[:2]
            first, second = dict(first), dict(second)
            differ = [key for key in sorted(first.keys() | second.keys()) if first.get(key) != second.get(key)]
            raise MetricInputError(
                f"{one} and {other}: judge {shown(judge, 80)} claims two different agreements (they differ in "
                f"{', '.join(differ)}); judge with one validation"
            )
        agreements[judge] = dict(made[0][2]) if made else None
    return agreements


def _tie(key: tuple, one: tuple[str, str], other: tuple[str, str], stamp: datetime) -> str:
    judge, task, substitute, _ = key
    return (
        f"{one[0]} and {other[0]}: judge {shown(judge, 80)} answered {shown(substitute, 80)} in task "
        f"{shown(task, 80)} both {one[1]} and {other[1]} at its latest time ({stamp.isoformat()}); keep one"
    )


def _future(now: datetime, latest: tuple[datetime, str] | None, after: int, merged: MergedJudgments) -> None:
    """A note when records are timed after the merge's own clock: such a record wins over any made before it."""
    if latest is not None:
        merged.notes.append(
            f"{after:,} record{'s are' if after != 1 else ' is'} timed after this merge's clock "
            f"({now.isoformat(timespec='seconds')}), the latest at {latest[1]} ({latest[0].isoformat()}): a later "
            "time wins the merge rule, so check the clock of what wrote them"
        )


def _read(judged: JudgedSplit, paths: list[Path], tasks: dict, merged: MergedJudgments) -> dict:
    """key -> (target id, label, time, "FILE:LINE") of the answer the merge rule keeps."""
    answers, claims = LaterWins(), {}
    latest, after, now = None, 0, datetime.now(UTC)
    for path in paths:
        before = merged.records
        for record in iter_judgments(path, merged.notes, MAX_JUDGMENTS_BYTES):
            where = record.pop("_where")
            merged.records += 1
            key, target_id = _answer(judged, record, tasks, where)
            _claim(key[0], record, where, claims)
            stamp = record_time(record["time"])
            answers.add(key, record["label"], stamp, where, target_id)
            if stamp > now:
                after += 1
                if latest is None or (stamp, place(where)) > (latest[0], place(latest[1])):
                    latest = (stamp, where)
        if merged.records == before:
            raise MetricInputError(f"{path}: holds no judgment record (empty, or blank lines only)")
    merged.agreement = _agreements(claims)
    kept = answers.decided(_tie)
    merged.duplicates, merged.replaced = answers.duplicates, answers.superseded
    _future(now, latest, after, merged)
    return {key: (target_id, label, stamp, where) for key, (label, stamp, where, target_id) in kept.items()}


def _digests(answers: dict, tasks: dict, merged: MergedJudgments) -> None:
    """The order-free digests of the merged judgments (with the claimed agreements' figures) and of the tasks."""
    lines = sorted(json.dumps([*key, label, stamp.isoformat()]) for key, (_, label, stamp, _) in answers.items())
    lines += sorted(json.dumps(["agreement", j, c], sort_keys=True) for j, c in merged.agreement.items())
    merged.sha256 = hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()
    used = sorted({key[1] for key in answers})
    task_lines = []
    for task_id in used:
        task = tasks[task_id][0]
        shown_ = [[c.substitute, c.control] for c in task.candidates]
        task_lines.append(json.dumps([task.task, task.id, task.context, task.target, task.offset, shown_]))
    merged.tasks_sha256 = hashlib.sha256("\n".join(task_lines).encode("utf-8")).hexdigest()


def merge_judgments(scorer, paths: Iterable[str | Path]) -> MergedJudgments:
    """Tasks and judgments files merged with SWORDS's quality filter (see the module's docstring); refused in one
    line for a benchmark whose gold cannot take judgements (check_judged)."""
    from swords_metric.judgments.quality import keep

    check_judged(scorer)
    paths = [Path(path) for path in paths]
    if not paths:
        raise MetricInputError("judgments: give at least one judgments file, with the tasks file(s) it answers")
    tasks_paths = [path for path in paths if path.is_file() and is_tasks_file(path)]
    judgments_paths = [path for path in paths if path not in tasks_paths]
    if not tasks_paths:
        raise MetricInputError(
            "judgments: give the tasks file(s) the judgments answer beside them (a record is checked against its "
            "task: its candidates and its controls)"
        )
    merged, judged = MergedJudgments(files=[str(path) for path in judgments_paths]), judged_split(scorer)
    tasks = _read_tasks(judged, tasks_paths, merged)  # a file of tasks then judgments: refused at its first record
    if not judgments_paths:
        raise MetricInputError(
            f"judgments: only tasks files given ({', '.join(map(str, tasks_paths))}: each holds a tasks header and "
            "tasks); give the judgments files that answer them too"
        )
    answers = _read(judged, judgments_paths, tasks, merged)
    _digests(answers, tasks, merged)
    keep(judged.targets, answers, tasks, merged)
    return merged
