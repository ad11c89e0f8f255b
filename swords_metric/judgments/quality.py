"""SWORDS's quality filter (the paper's Appendix B.3) over merged answers, each checked against its task (a task's
controls are the ones its task holds), then one judgement per judge and substitute.

A judge right on fewer than CONTROL_ACCURACY (90%) of the controls they answered, over all their tasks, is dropped.
Then every remaining task (per judge) is dropped, each counted: a task whose tasks file holds no target control or
no random control (a hand-made task; a random control marked `target`), since it cannot tell a judge who accepts
everything; a task whose controls were not all answered; a task with a control answered wrong (the target word not
accepted, the random word accepted).

SWORDS's score is the fraction of annotators who judged a substitute appropriate (the paper's section 3.1), one
label per annotator: so a judge's answers to one substitute of one target, from any of the tasks kept (two runs'
tasks, a version 1 and a version 2 tasks file, two samples), are folded into one (answers.py's rule: the later
wins, a tie of different labels is refused), each answer folded counted. A substitute is what the metric counts:
its lemma, as the metric lemmatizes it ('homes' and 'home' are one). Of what is kept, a judgement of a substitute the
benchmark already judged (its lemma is in the target's prepared gold: Scorer.judge says so) leaves the benchmark's
judgement as it is, and a candidate that is the target word itself (its lemma the target's) is left out; both
counted."""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import datetime

from swords_dataset.judgements import NOT_IN_BENCHMARK
from swords_metric.details.explain import judge_target
from swords_metric.errors import shown
from swords_metric.judgments.answers import LaterWins
from swords_metric.judgments.protocol import CONTROL_ACCURACY, CONTROLS, control_correct
from swords_metric.references.scored import ScoredTargets


def _tie(key: tuple, one: tuple[str, str], other: tuple[str, str], stamp: datetime) -> str:
    judge, target_id, lemma = key
    return (
        f"{one[0]} and {other[0]}: judge {shown(judge, 80)} answered {shown(lemma, 80)} for target "
        f"{shown(target_id, 80)} in two tasks, {one[1]} and {other[1]} at its latest time ({stamp.isoformat()}); one "
        "judgement per judge and substitute counts: keep one"
    )


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


def keep(targets: ScoredTargets, answers: dict, tasks: dict, merged) -> None:
    """Fill merged.labels (labels ordered by judge) and the filter's counts from `answers` (merge._read's), each
    kept judgement checked against the gold of its target among `targets`."""
    by_task: dict[tuple[str, str], dict] = defaultdict(dict)
    for (judge, task_id, substitute, kind), answer in answers.items():
        by_task[judge, task_id][substitute, kind] = answer
    merged.tasks = len(by_task)
    dropped = _accuracy(by_task, tasks, merged)
    folded = LaterWins()
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
    kept = folded.decided(_tie)
    merged.folded = folded.answers - len(kept)
    for (_, target_id, _), (label, _, _, (substitute, judged)) in sorted(kept.items(), key=lambda item: item[0]):
        reference = targets.split.references[targets.index.position[target_id]]
        if judged.label != NOT_IN_BENCHMARK:
            merged.already_judged += 1
        elif reference is not None and judged.lemma == reference.target_lemma:
            merged.target_copies += 1
        else:
            merged.labels.setdefault((target_id, substitute), []).append(label)
