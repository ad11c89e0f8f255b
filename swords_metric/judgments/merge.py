"""Judgments files merged, each record checked against its task, into the judgements that join the gold, with
SWORDS's quality filter (the paper's Appendix B.3) and one judgement per judge and substitute. Whether a candidate
is a control is what its task says, never a record.

The merge rule (LaterWins), decided on the whole set so that nothing depends on the order of files or lines: of one
judge's answers to one item (a candidate of a task; in the fold, a substitute of a target), the latest `time` wins;
the same label at the same time is one answer (`duplicates`); every other distinct answer is superseded (`replaced`,
or `folded`). Different labels at the latest time are refused: no rule could say which the judge meant.

The quality filter (B.3): a judge right on fewer than 90% of the controls they answered is dropped; then a task is
dropped, each counted, whose tasks file holds no target or no random control (it cannot tell a judge who accepts
everything), whose controls were not all answered, or with a control answered wrong. SWORDS's score is the fraction
of annotators who judged a substitute appropriate (section 3.1), so a judge's answers to one substitute (its lemma,
as the metric lemmatizes it) of one target, from any task kept, are folded into one by the merge rule. A judgement
of a substitute the benchmark judged leaves the benchmark's as it is, and the target word itself is left out; both
counted.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from swords_dataset.judgements import NOT_IN_BENCHMARK
from swords_metric.details.explain import judge_target
from swords_metric.errors import MetricInputError, shown
from swords_metric.judgments.agreement import check_agreement
from swords_metric.judgments.files import MAX_JUDGMENTS_BYTES, is_tasks_file, read_tasks
from swords_metric.judgments.judged import JudgedSplit, check_judged, judged_split
from swords_metric.judgments.names import is_llm_judge, judge_id
from swords_metric.judgments.protocol import CONTROL_ACCURACY, CONTROLS, control_correct
from swords_metric.judgments.records import iter_judgments, record_time
from swords_metric.judgments.tasks import Task, task_json
from swords_metric.references.split import ScoredTargets


def place(where: str) -> tuple[str, int]:
    """A record's "FILE:LINE" as (file, line), to name records in an order independent of the input's."""
    path, _, line = where.rpartition(":")
    return (path, int(line)) if line.isdigit() else (where, 0)


class LaterWins:
    """The merge rule: answers gathered by item (`add`), then decided all at once (`decided`). An item's key is (judge,
    where it was asked, the word answered, …): a tie names them as `answered` words them ("{word} in task {within}
    both"), and says `counts` (how answers count) before "keep one"."""

    def __init__(self, answered: str, counts: str = "") -> None:
        self._items: dict[tuple, list[tuple[datetime, str, str, object]]] = {}
        self.answers = self.duplicates = self.superseded = 0
        self.answered, self.counts = answered, counts

    def add(self, key: tuple, label: str, stamp: datetime, where: str, value: object = None) -> None:
        """One answer to the item `key` (stamp: an aware time), read at `where`, with what the caller keeps of it."""
        self.answers += 1
        self._items.setdefault(key, []).append((stamp, label, where, value))

    def decided(self) -> dict[tuple, tuple[str, datetime, str, object]]:
        """key -> (label, time, record, value) of the answer kept; a tie (different labels at the latest time) is a
        MetricInputError naming both records."""
        kept, ties, duplicates, superseded = {}, [], 0, 0
        for key, answers in self._items.items():
            if len(answers) == 1:
                stamp, label, where, value = answers[0]
                kept[key] = (label, stamp, where, value)
                continue
            distinct = {(stamp, label) for stamp, label, _, _ in answers}
            duplicates += len(answers) - len(distinct)
            superseded += len(distinct) - 1
            latest = _latest(answers)
            if len({label for _, label, _, _ in latest}) > 1:
                ties.append(key)
                continue
            stamp, label, where, value = latest[0]
            kept[key] = (label, stamp, where, value)
        if ties:
            key = min(ties, key=lambda key: tuple("" if part is None else part for part in key))  # kind None
            (stamp, label, where, _), *others = _latest(self._items[key])
            other = next(answer for answer in others if answer[1] != label)
            answered = self.answered.format(word=shown(key[2], 80), within=shown(key[1], 80))
            raise MetricInputError(
                f"{where} and {other[2]}: judge {shown(key[0], 80)} answered {answered} {label} and {other[1]} at its "
                f"latest time ({stamp.isoformat()}); {self.counts}keep one"
            )
        self.duplicates, self.superseded = duplicates, superseded
        return kept


def _latest(answers: list[tuple]) -> list[tuple]:
    """The answers at the latest time, first by place (then label)."""
    latest = max(answer[0] for answer in answers)
    return sorted((answer for answer in answers if answer[0] == latest), key=lambda a: (place(a[2]), a[1]))


# MergedJudgments.counts()'s keys, in order, before abstentions, substitutes and abstained_only.
COUNTED = (
    "files tasks_files records duplicates replaced folded judges judges_dropped tasks tasks_dropped_control "
    "tasks_dropped_judge tasks_without_controls tasks_lacking_control already_judged target_copies outside_scored "
    "judgements"
).split()


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
        """The filter's counts, as reports and JSON show them (a list's: its length)."""
        values = {name: getattr(self, name) for name in COUNTED}
        counts = {name: len(value) if isinstance(value, list) else value for name, value in values.items()}
        counts["abstentions"] = sum(labels.count("abstain") for labels in self.labels.values())
        counts["substitutes"] = self.substitutes
        counts["abstained_only"] = len(self.labels) - self.substitutes
        return counts


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
    """An LLM judge's claimed agreement, as its figures, gathered with the first record (by place) that claims it."""
    if is_llm_judge(judge):
        claim = check_agreement(record.get("agreement"), where)
        held = claims.setdefault(judge, {})
        key = None if claim is None else tuple(sorted(claim.items()))
        if key not in held or place(where) < place(held[key]):
            held[key] = where


def _agreements(claims: dict) -> dict[str, dict | None]:
    """Each LLM judge's one claimed agreement (None: none claimed); two claims of one judge are refused."""
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


def _read(judged: JudgedSplit, paths: list[Path], tasks: dict, merged: MergedJudgments) -> dict:
    """key -> (target id, label, time, "FILE:LINE") of the answer the merge rule keeps."""
    answers, claims = LaterWins("{word} in task {within} both"), {}
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
    kept = answers.decided()
    merged.duplicates, merged.replaced = answers.duplicates, answers.superseded
    if latest is not None:
        merged.notes.append(
            f"{after:,} record{'s are' if after != 1 else ' is'} timed after this merge's clock "
            f"({now.isoformat(timespec='seconds')}), the latest at {latest[1]} ({latest[0].isoformat()}): a later "
            "time wins the merge rule, so check the clock of what wrote them"
        )
    return {key: (target_id, label, stamp, where) for key, (label, stamp, where, target_id) in kept.items()}


def _digests(answers: dict, tasks: dict, merged: MergedJudgments) -> None:
    """The order-free digests of the merged judgments (with the claimed agreements' figures) and of the tasks."""
    lines = sorted(json.dumps([*key, label, stamp.isoformat()]) for key, (_, label, stamp, _) in answers.items())
    lines += sorted(json.dumps(["agreement", j, c], sort_keys=True) for j, c in merged.agreement.items())
    merged.sha256 = hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()
    task_lines = [task_json(tasks[task_id][0]) for task_id in sorted({key[1] for key in answers})]
    merged.tasks_sha256 = hashlib.sha256("\n".join(task_lines).encode("utf-8")).hexdigest()


def _accuracy(by_task: dict, tasks: dict, merged) -> set[str]:
    """Each judge's control accuracy over all their tasks, in merged.control_accuracy; the judges dropped."""
    right, total = Counter(), Counter()
    for (judge, task_id), given in by_task.items():
        for candidate in tasks[task_id][0].candidates:
            answer = given.get((candidate.substitute, candidate.control))
            if candidate.control is not None and answer is not None:
                total[judge] += 1
                right[judge] += control_correct(candidate.control, answer[1])
    judges = sorted({judge for judge, _ in by_task})
    merged.control_accuracy = {judge: right[judge] / total[judge] for judge in judges if total[judge]}
    dropped = {judge for judge in judges if total[judge] and right[judge] / total[judge] < CONTROL_ACCURACY}
    merged.judges_dropped = sorted(dropped)
    merged.judges = [judge for judge in judges if judge not in dropped]
    return dropped


def _keep(targets: ScoredTargets, answers: dict, tasks: dict, merged) -> None:
    """The quality filter: merged.labels (ordered by judge) and the filter's counts from `answers` (_read's)."""
    by_task: dict[tuple[str, str], dict] = defaultdict(dict)
    for (judge, task_id, substitute, kind), answer in answers.items():
        by_task[judge, task_id][substitute, kind] = answer
    merged.tasks = len(by_task)
    dropped = _accuracy(by_task, tasks, merged)
    folded = LaterWins("{word} for target {within} in two tasks,", "one judgement per judge and substitute counts: ")
    for (judge, task_id), given in sorted(by_task.items()):
        controls = [c for c in tasks[task_id][0].candidates if c.control is not None]
        labels = [given.get((c.substitute, c.control), (None, None))[1] for c in controls]
        if judge in dropped:
            merged.tasks_dropped_judge += 1
        elif not set(CONTROLS) <= {c.control for c in controls}:
            merged.tasks_lacking_control += 1
        elif None in labels:
            merged.tasks_without_controls += 1
        elif not all(control_correct(c.control, label) for c, label in zip(controls, labels, strict=True)):
            merged.tasks_dropped_control += 1
        else:
            for (substitute, kind), (target_id, label, stamp, where) in given.items():
                if kind is None:
                    judged = judge_target(targets, target_id, [substitute])[0]
                    folded.add((judge, target_id, judged.lemma), label, stamp, where, (substitute, judged))
    kept = folded.decided()
    merged.folded = folded.answers - len(kept)
    for (_, target_id, _), (label, _, _, (substitute, judged)) in sorted(kept.items(), key=lambda item: item[0]):
        reference = targets.split.references[targets.index.position[target_id]]
        if judged.label != NOT_IN_BENCHMARK:
            merged.already_judged += 1
        elif reference is not None and judged.lemma == reference.target_lemma:
            merged.target_copies += 1
        else:
            merged.labels.setdefault((target_id, substitute), []).append(label)


def merge_judgments(scorer, paths: Iterable[str | Path]) -> MergedJudgments:
    """Tasks and judgments files merged with SWORDS's quality filter (see the module)."""
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
    _keep(judged.targets, answers, tasks, merged)
    return merged
