"""SWORDS's quality filter (the paper's Appendix B.3) over merged answers, each checked against its task: a task's
controls are the ones its task holds. A judge right on fewer than CONTROL_ACCURACY (90%) of the controls they
answered, over all their tasks, is dropped; then every remaining task (per judge) whose controls were not all
answered, or not all answered right (the target word accepted, the random word not accepted), is dropped; each
counted. Of what is kept, a judgement of a substitute the benchmark already judged (its lemma, as the metric
lemmatizes it, is in the target's prepared gold: Scorer.judge says so) leaves the benchmark's judgement as it is,
and a candidate that is the target word itself (its lemma the target's) is left out; both counted."""

from __future__ import annotations

from collections import Counter, defaultdict

from swords_dataset.judgements import NOT_IN_BENCHMARK
from swords_metric.details.explain import judge_target
from swords_metric.judgments.protocol import CONTROL_ACCURACY, control_correct
from swords_metric.references.scored import ScoredTargets


def keep(targets: ScoredTargets, answers: dict, tasks: dict, merged) -> None:
    """Fill merged.labels (labels ordered by judge) and the filter's counts from `answers` (merge._read's), each
    kept judgement checked against the gold of its target among `targets`."""
    by_task: dict[tuple[str, str], dict] = defaultdict(dict)
    for (judge, task_id, substitute, kind), (target_id, label, _, _) in answers.items():
        by_task[judge, task_id][substitute, kind] = (target_id, label)
    merged.tasks = len(by_task)
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
    kept = []
    for (judge, task_id), given in sorted(by_task.items()):
        controls = [c for c in tasks[task_id][0].candidates if c.control is not None]
        labels = [given.get((c.substitute, c.control), (None, None))[1] for c in controls]
        if judge in dropped:
            merged.tasks_dropped_judge += 1
        elif not controls or None in labels:
            merged.tasks_without_controls += 1
        elif not all(control_correct(c.control, label) for c, label in zip(controls, labels, strict=True)):
            merged.tasks_dropped_control += 1
        else:
            kept += [(target_id, s, label) for (s, kind), (target_id, label) in given.items() if kind is None]
    for target_id, substitute, label in kept:
        judged = judge_target(targets, target_id, [substitute])[0]
        reference = targets.split.references[targets.index.position[target_id]]
        if judged.label != NOT_IN_BENCHMARK:
            merged.already_judged += 1
        elif reference is not None and judged.lemma == reference.target_lemma:
            merged.target_copies += 1
        else:
            merged.labels.setdefault((target_id, substitute), []).append(label)
