"""The extended gold and its scores: a run scored on the benchmark's gold and on the gold its judgments extend (each
newly judged substitute added to its target's row as the benchmark holds its own, the benchmark's untouched), and
its report (format_extended). A label is "TRUE" (accept), "FALSE" (reject) or "UNSURE" (abstain): an abstention is
held as the benchmark holds its annotators' (its `score` counts it as a rejection; the metric, ours and upstream's,
leaves it out of the judgements it counts).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path

import swords_dataset
from swords_lexsub.terminal import shown as terminal_text
from swords_metric.errors import MetricInputError, shown
from swords_metric.judgments.agreement import claimed_text
from swords_metric.judgments.judged import JudgedSplit, judged_split, refusal
from swords_metric.judgments.merge import MergedJudgments, merge_judgments
from swords_metric.judgments.names import is_llm_judge
from swords_metric.judgments.protocol import ABSTAIN, ACCEPT
from swords_metric.references.split import REFERENCE_COLUMNS, ScoredTargets
from swords_metric.report import table_text
from swords_metric.scorer import Scorer

JUDGED_SOURCE = "judged"
LABEL_OF = {ACCEPT: "TRUE", ABSTAIN: "UNSURE"}  # reject: "FALSE"


def benchmark_rows(judged: JudgedSplit, rows: Iterable[Mapping] | None = None) -> list[dict]:
    """The rows of the judged targets, in their order, with their substitutes: from `rows`, else the shipped split."""
    if rows is None:
        if not judged.config or not judged.split:
            raise MetricInputError("judgments: give the benchmark rows (references=) the Scorer was made from")
        parts = swords_dataset.split_parts(judged.config, judged.split)
        columns = list(REFERENCE_COLUMNS)
        rows = (row for part in parts for row in swords_dataset.rows(judged.config, part, columns=columns))
    by_id = {row["id"]: row for row in rows}
    return [dict(by_id[row["id"]]) for row in judged.targets.rows]


def judged_substitute(substitute: str, labels: list[str]) -> dict:
    """A newly judged substitute as a row holds one."""
    held = [LABEL_OF.get(label, "FALSE") for label in labels]
    positive = held.count("TRUE")
    return {
        "substitute": substitute,
        "score": positive / len(held),
        "votes_positive": positive,
        "votes_total": len(held),
        "labels": held,
        "sources": [JUDGED_SOURCE],
    }


def extended_rows(rows: list[dict], merged: MergedJudgments) -> list[dict]:
    """The rows with each newly judged substitute added to its target's substitutes (rows left as they are)."""
    added: dict[str, list[dict]] = {}
    for (target_id, substitute), labels in merged.labels.items():
        added.setdefault(target_id, []).append(judged_substitute(substitute, labels))
    return [
        {**row, "substitutes": [*row["substitutes"], *added[row["id"]]]} if row["id"] in added else row for row in rows
    ]


def scored_only(merged: MergedJudgments, targets: ScoredTargets) -> MergedJudgments:
    """`merged` with only the judgements of the scorer's targets (--given-only scores some); the others counted."""
    ids = {row["id"] for row in targets.rows}
    labels = {key: labels for key, labels in merged.labels.items() if key[0] in ids}
    if len(labels) == len(merged.labels):
        return merged
    outside = sum(len(held) for key, held in merged.labels.items() if key[0] not in ids)
    return replace(merged, labels=labels, outside_scored=merged.outside_scored + outside)


def signature_settings(merged: MergedJudgments) -> tuple[tuple[str, object], ...]:
    """What the judgments add to a signature: the digests, the counts, each LLM judge's claimed agreement (numbers)."""
    settings = [
        ("judgments", merged.sha256[:12]),
        ("tasks", merged.tasks_sha256[:12]),
        ("judgements", merged.judgements),
        ("substitutes", merged.substitutes),
        ("judges", len(merged.judges)),
    ]
    if llm := [judge for judge in merged.judges if is_llm_judge(judge)]:
        settings.append(("agreement", ";".join(claimed_text(merged.agreement.get(judge)) for judge in llm)))
    return tuple(settings)


def _unjudged(targets: ScoredTargets, prepared, k: int) -> tuple[int, int]:
    """(strict top-k substitutes over the scored targets, those whose lemma the target's gold does not hold)."""
    shown_ = unjudged = 0
    for scored, reference, ranked in zip(targets.scored, targets.references, prepared.ranked, strict=True):
        if scored and ranked is not None and not isinstance(ranked, str):
            top = ranked.top[:k]
            shown_ += len(top)
            unjudged += sum(lemma not in reference.index for lemma in top)
    return shown_, unjudged


def _per_substitute(official: ScoredTargets, extended: ScoredTargets) -> dict[str, dict[str, int]]:
    """Histograms of the judgements that count (abstentions left out) per gold lemma: new and the benchmark's."""
    new, old = Counter(), Counter()
    for before, after, scored in zip(official.references, extended.references, extended.scored, strict=True):
        if not scored:
            continue
        for lemma, total in zip(after.lemmas, after.totals, strict=True):
            (old if before is not None and lemma in before.index else new)[total] += 1
    return {
        "new": {str(n): new[n] for n in sorted(new)},
        "benchmark": {str(n): old[n] for n in sorted(old)},
    }


def check_judgments_option(judgments, family, benchmark: str | None = None) -> None:
    """compute()'s `judgments`: None, or judgments files (paths) for a benchmark whose gold can take them."""
    if judgments is None:
        return
    if isinstance(judgments, str | Path):
        judgments = [judgments]  # one path is taken as a list of one
    if not isinstance(judgments, Iterable) or not all(isinstance(path, str | Path) for path in judgments):
        raise MetricInputError(f"judgments: expected tasks and judgments files (paths), got {shown(judgments)}")
    reason = refusal(benchmark or family.name, family)
    if reason:
        raise MetricInputError(reason)


def extend_result(
    result: dict,
    scorer: Scorer,
    prepared,
    predictions,
    merged: MergedJudgments,
    rows: Iterable[Mapping] | None = None,
    bootstrap: int = 0,
    seed: int = 0,
    by_pos: bool = True,
    source: str = "predictions",
) -> dict:
    """`result` (Scorer.score's of `prepared`) with "extended" and "judgments" added (see the module)."""
    judged, k = judged_split(scorer), scorer.k
    merged = scored_only(merged, judged.targets)
    ext = Scorer(
        extended_rows(benchmark_rows(judged, rows), merged),
        k=k,
        split=judged.split,
        setting=scorer.setting,
        include_problematic=scorer.include_problematic,
        config=judged.config,
    )
    ext_prepared = ext.read_or_prepare(predictions, source)
    extended = ext.score(ext_prepared, bootstrap, seed, by_pos, source)
    extended["signature"] = ext.signature(bootstrap, seed, signature_settings(merged))
    result["extended"] = extended
    top, before = _unjudged(judged.targets, prepared, k)
    _, after = _unjudged(ext.targets, ext_prepared, k)
    result["judgments"] = {
        **merged.counts(),
        "files": merged.files,
        "tasks_files": merged.tasks_files,
        "sha256": merged.sha256,
        "tasks_sha256": merged.tasks_sha256,
        "control_accuracy": merged.control_accuracy,
        "dropped_judges": merged.judges_dropped,
        "agreement": {
            judge: claimed_text(merged.agreement.get(judge)) for judge in merged.judges if is_llm_judge(judge)
        },
        "notes": merged.notes,
        "unjudged_top_k": {"k": k, "substitutes": top, "before": before, "after": after},
        "judgements_per_substitute": _per_substitute(judged.targets, ext.targets),
    }
    return result


def extended_scores(
    scorer: Scorer,
    predictions,
    judgments: Iterable[str | Path],
    rows: Iterable[Mapping] | None = None,
    bootstrap: int = 0,
    seed: int = 0,
    by_pos: bool = True,
    source: str = "predictions",
) -> dict:
    """The official result of `predictions` (a predictions file, or what Scorer.prepare takes) with its figures on the
    gold the judgments files extend (read and checked first). `rows`: the benchmark rows the Scorer was made from,
    when it is no shipped split's."""
    merged = merge_judgments(scorer, [judgments] if isinstance(judgments, str | Path) else judgments)
    prepared = scorer.read_or_prepare(predictions, source)
    result = scorer.score(prepared, bootstrap, seed, by_pos, source)
    return extend_result(result, scorer, prepared, predictions, merged, rows, bootstrap, seed, by_pos, source)


def metric_names(k: int, setting: str) -> list[str]:
    """The figures compared: P/R/F@k of every family, strict P@1 against conceivable, GAP in the ranking setting."""
    names = [f"{s}_{t}_{m}@{k}" for s in ("lenient", "strict") for t in ("a", "c") for m in ("f", "p", "r")]
    names.append("strict_c_p@1")
    return names + (["gap", "gap_rat"] if setting == "ranking" else [])


def _counted(count: int, noun: str) -> str:
    """A count and its noun, agreeing: "1 judge", "3 judges"."""
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def _histogram(counts: dict[str, int]) -> str:
    return ", ".join(f"{n}: {count:,}" for n, count in counts.items()) or "(none)"


def format_extended(result: dict, k: int = 10, setting: str = "generative") -> str:
    """The judgments part of a report (result: extended_scores's)."""
    extended, judged = result["extended"], result["judgments"]
    table = [["", "official", "extended", "change"]]
    for name in metric_names(k, setting):
        table.append([name, f"{result[name]:.2f}", f"{extended[name]:.2f}", f"{extended[name] - result[name]:+z.2f}"])
    top = judged["unjudged_top_k"]
    share = (lambda n: f"{100 * n / top['substitutes']:.1f}%") if top["substitutes"] else (lambda n: "-")
    files = ", ".join(terminal_text(path) for path in judged["files"])
    tasks = ", ".join(terminal_text(path) for path in judged["tasks_files"])
    out = [
        f"On the gold extended by judgments ({files})",
        table_text(table),
        "",
        f"top-{top['k']} substitutes with no judgement in the gold: {top['before']:,} of {top['substitutes']:,} "
        f"({share(top['before'])}) before, {top['after']:,} ({share(top['after'])}) after",
        f"checked against their tasks ({tasks}): every record's task, target and candidate, and each task's "
        "controls as the task holds them",
        f"judgements kept: {judged['judgements']:,}, of {_counted(judged['substitutes'], 'new substitute')}, by "
        f"{_counted(judged['judges'], 'judge')} (abstentions, left out as the benchmark's are: "
        f"{judged['abstentions']:,}; "
        f"substitutes only abstained on, so still unjudged: {judged['abstained_only']:,})",
        f"records read {judged['records']:,}, duplicates {judged['duplicates']:,}, replaced by a later answer "
        f"{judged['replaced']:,}"
        + (f", of targets not scored {judged['outside_scored']:,}" if judged["outside_scored"] else ""),
        f"quality filter (SWORDS B.3): judges under 90% control accuracy dropped {judged['judges_dropped']:,} "
        f"({judged['tasks_dropped_judge']:,} tasks), tasks with a wrong control answer dropped "
        f"{judged['tasks_dropped_control']:,}, tasks with a control unanswered dropped "
        f"{judged['tasks_without_controls']:,}, tasks lacking a target or random control dropped "
        f"{judged['tasks_lacking_control']:,}, of {judged['tasks']:,}",
        f"one judgement per judge and substitute: {judged['folded']:,} answers to a substitute the same judge "
        "answered in another task folded into their later one",
        f"left as the benchmark judged them: {judged['already_judged']:,} judgements of substitutes it had; "
        f"the target word itself: {judged['target_copies']:,}",
        "judgements that count per substitute (abstentions left out): new "
        + _histogram(judged["judgements_per_substitute"]["new"])
        + "; the benchmark's "
        + _histogram(judged["judgements_per_substitute"]["benchmark"]),
    ]
    for judge, agreement in judged["agreement"].items():  # claimed_text's numbers: nothing from a record's text
        said = "never measured" if agreement == "unmeasured" else f"{agreement} (as its records claim; not checked)"
        out.append(f"LLM judge {terminal_text(judge)}: agreement {said}")
    out += [f"note: {terminal_text(note)}" for note in judged["notes"]]
    out += ["", f"extended signature: {extended['signature']}"]
    return "\n".join(out)
