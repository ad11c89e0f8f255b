"""The report's summary of what a system proposed (Scorer.analyze), and the targets where two systems differ most
(Scorer.differences). What is counted is what precision counts: each scored target's strict top-k, classed with the
metric's own gold sets, so `100 * classes["acceptable"] / substitutes` is strict P@k against acceptable, exactly.
"""

from __future__ import annotations

from collections.abc import Sequence

from swords_dataset.judgements import CLASSES
from swords_metric.details.explain import ranked_or_none, target_record
from swords_metric.errors import MetricInputError
from swords_metric.metrics.gold_sets import gold_sets, lemma_class
from swords_metric.metrics.ranking import top_counts
from swords_metric.predictions.prepared import PreparedPredictions
from swords_metric.references.split import ScoredTargets

COUNTED = (
    "the strict top-k: each target's first k substitutes as precision counts them (lemmatized, the target "
    "and repeats dropped)"
)
# Buckets of a target's number of acceptable substitutes (its gold set, after the metric's preprocessing).
GOLD_SIZES = (("0", 0), ("1-2", 1), ("3-5", 3), ("6-10", 6), (">10", 11))  # (label, lowest)
WORST_RULE = (
    "lowest per-target lenient F@k against acceptable, among targets with an acceptable substitute; "
    "ties: more acceptable substitutes missed first, then by id"
)
# A worst target's fields (of its target record).
WORST_FIELDS = "id upstream_id target pos acceptable lenient_a_p lenient_a_r lenient_a_f top acceptable_missed".split()


def _group(relations: tuple[str, ...]) -> dict:
    group = {"targets": 0, "substitutes": 0, "classes": dict.fromkeys(CLASSES, 0)}
    if relations:
        group["relations"] = dict.fromkeys(relations, 0)
    return group


def _with_shares(group: dict) -> dict:
    """The group with `class_shares` (and `relation_shares`): percent of its substitutes (0 if none)."""
    total = group["substitutes"]
    for counts, shares in (("classes", "class_shares"), ("relations", "relation_shares")):
        if counts in group:
            group[shares] = {key: 100.0 * n / total if total else 0.0 for key, n in group[counts].items()}
    return group


def analyze(targets: ScoredTargets, ranked: Sequence, k: int, worst: int = 5, relations: bool = True) -> dict:
    """The summary of prepared predictions at cut-off k: counts and shares per class (and, with `relations`, per
    WordNet relation: loading WordNet's graph takes about 0.3 s) over all targets, per POS and per gold-set size, and
    the `worst` worst targets (WORST_RULE) with what they missed."""
    if isinstance(worst, bool) or not isinstance(worst, int) or worst < 0:
        raise MetricInputError(f"worst must be a whole number of at least 0, got {worst!r}")
    names: tuple[str, ...] = ()
    if relations:
        from swords_metric.wordnet.relations import RELATIONS as names
        from swords_metric.wordnet.relations import target_relations
    overall, by_pos = _group(names), {}
    by_size = {label: _group(names) for label, _ in GOLD_SIZES}
    candidates = []
    for position in targets.scored_positions():
        reference, prediction = targets.references[position], ranked_or_none(ranked[position])
        gold = gold_sets(reference)
        top = prediction.top[:k] if prediction is not None else ()
        size = [label for label, low in GOLD_SIZES if low <= len(gold.acceptable)][-1]
        groups = (overall, by_pos.setdefault(reference.pos, _group(names)), by_size[size])
        related = target_relations(reference.target_lemma, reference.pos) if top and relations else None
        for group in groups:
            group["targets"] += 1
        for lemma in top:
            kind = lemma_class(reference, lemma)
            relation = related.of(lemma) if related is not None else None
            for group in groups:
                group["substitutes"] += 1
                group["classes"][kind] += 1
                if relation is not None:
                    group["relations"][relation] += 1
        if gold.acceptable:
            lenient = prediction.lenient_top if prediction is not None else ()
            hits, predicted, reference_k, _ = top_counts(lenient, gold.acceptable, k)
            p = hits / predicted if predicted else 0.0
            r = hits / reference_k
            f = 2 * p * r / (p + r) if p + r else 0.0
            candidates.append((f, hits - len(gold.acceptable), targets.rows[position]["id"], position))
    records = (
        target_record(targets.rows[i], targets.references[i], ranked_or_none(ranked[i]), k)
        for *_, i in sorted(candidates)[:worst]
    )
    return {
        "k": k,
        "counted": COUNTED,
        "all": _with_shares(overall),
        "by_pos": {pos: _with_shares(group) for pos, group in sorted(by_pos.items())},
        "by_gold_size": {label: _with_shares(group) for label, group in by_size.items()},
        "worst_rule": WORST_RULE,
        "worst_targets": [{key: record[key] for key in WORST_FIELDS} for record in records],
    }


def differences(targets: ScoredTargets, a: PreparedPredictions, b: PreparedPredictions, k: int, n: int = 10) -> list:
    """The `n` targets where two systems' prepared predictions differ most, as pair records: the largest |A - B| of
    per-target lenient F@k against acceptable, then by id."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise MetricInputError(f"n must be a whole number of at least 0, got {n!r}")
    from swords_metric.details.writer import pair_records

    differing = [record for record in pair_records(targets, a.ranked, b.ranked, k) if record["difference"] != 0]
    return sorted(differing, key=lambda record: (-abs(record["difference"]), record["id"]))[:n]
