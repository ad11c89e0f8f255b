"""Several judgments files merged into the judgements that join the gold, with SWORDS's quality filter (B.3).

merge_judgments(scorer, paths) reads each file (read_judgments: bounded, one line naming file:line for a bad
record) and:
  - counts an exact duplicate record (the same file uploaded twice, a partial file merged with its continuation)
    once; a judge's later answer for the same candidate of the same task replaces the earlier one (counted);
  - names the file and line of a record whose target is not in the scorer's split (a judgments file for another
    split or benchmark) in one MetricInputError;
  - drops a judge whose accuracy on control candidates over all their tasks is under CONTROL_ACCURACY (90%), then
    every remaining task (per judge) with a wrong control answer (the target word not accepted, or the random word
    accepted), or with no controls at all; all counted;
  - leaves the benchmark's judgement of a substitute it already judged (its lemma, as the metric lemmatizes it, is
    in the target's prepared reference: Scorer.judge says so) as it is, and counts those records; a candidate that
    is the target word itself (its lemma the target's) is left out and counted too.
The result (MergedJudgments) holds, per (target id, substitute as judged), the labels kept, and the counts.
Memory: the records' few fields per judgement, not the files' text.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from swords_dataset.judgements import NOT_IN_BENCHMARK
from swords_metric.errors import MetricInputError, shown
from swords_metric.judgments.files import MAX_JUDGMENTS_BYTES, iter_judgments
from swords_metric.judgments.protocol import CONTROL_ACCURACY, RANDOM_CONTROL, TARGET_CONTROL, control_correct
from swords_metric.judgments.tasks import check_judged

LLM_PREFIX = "llm:"  # an LLM judge's id: llm:<model>:<prompt sha256[:8]>


@dataclass
class MergedJudgments:
    """The judgements kept, per (target id, substitute): their labels in file order; and what was left out."""

    labels: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)
    sha256: str = ""  # of the files' contents (their sha256s, sorted): the signature's `judgments:`
    records: int = 0  # records read, all files
    duplicates: int = 0  # exact duplicates, counted once
    replaced: int = 0  # a judge's earlier answer for a candidate they answered again
    judges: list[str] = field(default_factory=list)  # judges kept
    judges_dropped: list[str] = field(default_factory=list)  # control accuracy under 90%
    control_accuracy: dict[str, float] = field(default_factory=dict)  # per judge, over all their tasks
    tasks: int = 0  # (judge, task) pairs read
    tasks_dropped_control: int = 0  # of kept judges: a wrong control answer
    tasks_dropped_judge: int = 0  # of dropped judges
    tasks_without_controls: int = 0  # no control answer: cannot be checked, dropped
    already_judged: int = 0  # kept judgements of substitutes the benchmark judged: its judgement left as it is
    target_copies: int = 0  # kept judgements of the target word itself as a candidate: left out
    agreement: dict[str, object] = field(default_factory=dict)  # LLM judge -> its measured agreement, or None
    notes: list[str] = field(default_factory=list)

    @property
    def judgements(self) -> int:
        return sum(len(labels) for labels in self.labels.values())

    def counts(self) -> dict:
        """The filter's counts, as reports and JSON show them."""
        return {
            "files": len(self.files),
            "records": self.records,
            "duplicates": self.duplicates,
            "replaced": self.replaced,
            "judges": len(self.judges),
            "judges_dropped": len(self.judges_dropped),
            "tasks": self.tasks,
            "tasks_dropped_control": self.tasks_dropped_control,
            "tasks_dropped_judge": self.tasks_dropped_judge,
            "tasks_without_controls": self.tasks_without_controls,
            "already_judged": self.already_judged,
            "target_copies": self.target_copies,
            "judgements": self.judgements,
            "substitutes": len(self.labels),
        }


def _file_digest(path: Path) -> str:
    from swords_lexsub.files import sha256_of

    return sha256_of(path, "judgments file")


def _control_kind(record: dict, target: str) -> str:
    """A control's kind: as the record says, else the target word itself ("target") or not ("random")."""
    kind = record.get("control_kind")
    if kind is not None:
        return kind
    return TARGET_CONTROL if record["substitute"] == target else RANDOM_CONTROL


def _read(scorer, paths: list[Path], merged: MergedJudgments) -> dict:
    """(judge, task, substitute, control) -> (target id, label, control kind or None, agreement), the last answer
    of each, duplicates counted."""
    answers: dict = {}
    seen: set[bytes] = set()
    for path in paths:
        for record in iter_judgments(path, merged.notes, MAX_JUDGMENTS_BYTES):
            where = record.pop("_where")
            merged.records += 1
            fingerprint = hashlib.sha256(json.dumps(record, sort_keys=True, default=str).encode()).digest()
            if fingerprint in seen:
                merged.duplicates += 1
                continue
            seen.add(fingerprint)
            position = scorer.index.position.get(record["id"], scorer.index.upstream_position.get(record["id"]))
            if position is None:
                raise MetricInputError(f"{where}: target {shown(record['id'], 80)} is not in {scorer.index.where}")
            row = scorer.rows[position]
            kind = _control_kind(record, row["target"]) if record["control"] else None
            key = (record["judge"], record["task"], record["substitute"], kind)
            if key in answers:
                merged.replaced += 1
            answers[key] = (row["id"], record["label"], kind, record.get("agreement"))
    return answers


def _filter(answers: dict, merged: MergedJudgments) -> list[tuple[str, str, str]]:
    """B.3: the (target id, substitute, label) of candidates in the tasks that pass, of the judges who pass."""
    tasks: dict[tuple[str, str], list] = defaultdict(list)
    for (judge, task, substitute, _kind), (target_id, label, kind, agreement) in answers.items():
        tasks[judge, task].append((target_id, substitute, label, kind))
        if judge.startswith(LLM_PREFIX) and (agreement is not None or judge not in merged.agreement):
            merged.agreement[judge] = agreement
    merged.tasks = len(tasks)
    right, total = Counter(), Counter()
    for (judge, _task), items in tasks.items():
        for _target_id, _substitute, label, kind in items:
            if kind is not None:
                total[judge] += 1
                right[judge] += control_correct(kind, label)
    judges = sorted({judge for judge, _ in tasks})
    merged.control_accuracy = {judge: right[judge] / total[judge] for judge in judges if total[judge]}
    dropped = {judge for judge in judges if total[judge] and right[judge] / total[judge] < CONTROL_ACCURACY}
    merged.judges_dropped = sorted(dropped)
    kept = []
    for (judge, _task), items in tasks.items():
        controls = [(kind, label) for _, _, label, kind in items if kind is not None]
        if judge in dropped:
            merged.tasks_dropped_judge += 1
        elif not controls:
            merged.tasks_without_controls += 1
        elif not all(control_correct(kind, label) for kind, label in controls):
            merged.tasks_dropped_control += 1
        else:
            kept += [(target_id, substitute, label) for target_id, substitute, label, kind in items if kind is None]
    merged.judges = [judge for judge in judges if judge not in dropped]
    return kept


def merge_judgments(scorer, paths: Iterable[str | Path]) -> MergedJudgments:
    """Judgments files merged with SWORDS's quality filter (see the module's docstring); refused in one line for a
    benchmark whose gold cannot take judgements (check_judged)."""
    check_judged(scorer)
    paths = [Path(path) for path in paths]
    if not paths:
        raise MetricInputError("judgments: give at least one judgments file")
    merged = MergedJudgments(files=[str(path) for path in paths])
    answers = _read(scorer, paths, merged)
    digests = sorted({_file_digest(path) for path in paths})
    merged.sha256 = hashlib.sha256("\n".join(digests).encode()).hexdigest()
    for target_id, substitute, label in _filter(answers, merged):
        judged = scorer.judge(target_id, [substitute])[0]
        reference = scorer.split_references.references[scorer.index.position[target_id]]
        if judged.label != NOT_IN_BENCHMARK:
            merged.already_judged += 1
        elif reference is not None and judged.lemma == reference.target_lemma:
            merged.target_copies += 1
        else:
            merged.labels.setdefault((target_id, substitute), []).append(label)
    return merged
