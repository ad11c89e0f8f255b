"""The extended gold and its scores: a run scored on the benchmark's gold and on the gold its judgments extend.

extended_scores(scorer, predictions, judgments, rows=None, bootstrap=0, seed=0) merges the judgments files
(merge.py: B.3's filter), adds each newly judged substitute to its target's row as the benchmark's own
substitutes are held, {"substitute", "score": accepts / judgements, "votes_positive", "votes_total", "labels",
"sources": ["judged"]}, and scores the run with an ordinary Scorer over the extended rows: every SWORDS metric
(lenient and strict, acceptable and conceivable, GAP in the ranking setting), the benchmark's own substitutes
untouched. A label is "TRUE" (accept), "FALSE" (reject) or "UNSURE" (abstain): an abstention is held as the
benchmark holds its own annotators' abstentions, so the substitute's `score` counts it as a rejection (as the
benchmark's scores do) and the metric, ours and upstream's alike, leaves it out of the judgements it counts, for
old and new substitutes alike (a new substitute only abstained on stays unjudged).

The result is the official result (Scorer.score: its figures and signature, unchanged) with two more keys:
  "extended"   the figures on the extended gold, under a signature that says so: the official settings then
               `judgments:<sha256[:12]>|tasks:<sha256[:12]>|judgements:N|substitutes:M|judges:H` (the merged
               judgments' digest, the digest of the tasks they were checked against, then the judgements that count,
               the substitutes they joined to the gold and the judges kept, all of the scored targets) and, when an
               LLM judged, `agreement:claimed:<the figures its records claim>` or `agreement:unmeasured`;
  "judgments"  the filter's counts (merge.MergedJudgments.counts), the files, each judge's control accuracy, how
               many of the run's strict top-k substitutes the gold held no judgement for before and after
               (`unjudged_top_k`), and how many judgements that count each substitute has (`judgements_per_
               substitute`: new ones against the benchmark's, which has up to 10).
Without judgments nothing here runs: official numbers stay identical to upstream.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path

import swords_dataset
from swords_metric.errors import MetricInputError, shown
from swords_metric.judgments.agreement import claimed_text
from swords_metric.judgments.judged import JudgedSplit, judged_split, refusal
from swords_metric.judgments.merge import MergedJudgments, merge_judgments
from swords_metric.judgments.names import is_llm_judge
from swords_metric.judgments.protocol import ABSTAIN, ACCEPT
from swords_metric.references.scored import ScoredTargets
from swords_metric.references.split import REFERENCE_COLUMNS
from swords_metric.scorer import Scorer

JUDGED_SOURCE = "judged"
LABEL_OF = {ACCEPT: "TRUE", ABSTAIN: "UNSURE"}  # reject: "FALSE"


def benchmark_rows(judged: JudgedSplit, rows: Iterable[Mapping] | None = None) -> list[dict]:
    """The rows of the judged targets, in their order, with their substitutes: from `rows`, else from the shipped
    split (a Scorer restricted to some targets gets just theirs)."""
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
    """What the judgments add to a signature: the merged judgments' and their tasks' digests, the counts, and each
    LLM judge's claimed agreement (numbers only: agreement.claimed_text)."""
    settings = [
        ("judgments", merged.sha256[:12]),
        ("tasks", merged.tasks_sha256[:12]),
        ("judgements", merged.judgements),
        ("substitutes", merged.substitutes),
        ("judges", len(merged.judges)),
    ]
    llm = [judge for judge in merged.judges if is_llm_judge(judge)]
    if llm:
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


def _prepare(scorer: Scorer, predictions, source: str):
    if isinstance(predictions, str | Path):
        return scorer.read(predictions, source=source)
    return scorer.prepare(predictions, source)


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
    """`result` (Scorer.score's of `prepared`, `predictions` prepared by `scorer`) with "extended" and "judgments"
    added: `predictions` (a predictions file, or what Scorer.prepare takes) scored on the gold `merged` extends
    (its judgements of the scorer's targets: a scorer restricted to some signs only theirs)."""
    judged, k = judged_split(scorer), scorer.k
    merged = scored_only(merged, judged.targets)
    # The extended gold scored as the official one: a Scorer of the same settings over the extended rows.
    ext = Scorer(
        extended_rows(benchmark_rows(judged, rows), merged),
        k=k,
        split=judged.split,
        setting=scorer.setting,
        include_problematic=scorer.include_problematic,
        config=judged.config,
    )
    ext_prepared = _prepare(ext, predictions, source)
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
    """The official result of `predictions` (a predictions file, or what Scorer.prepare takes) with its figures
    on the gold the judgments files extend (see the module's docstring). `rows`: the benchmark rows the Scorer
    was made from, when it is no shipped split's. The judgments are read and checked before the predictions."""
    merged = merge_judgments(scorer, [judgments] if isinstance(judgments, str | Path) else judgments)
    prepared = _prepare(scorer, predictions, source)
    result = scorer.score(prepared, bootstrap, seed, by_pos, source)
    return extend_result(result, scorer, prepared, predictions, merged, rows, bootstrap, seed, by_pos, source)
