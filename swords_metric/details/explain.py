"""What the metric counted, target by target and substitute by substitute, made from the very sets and orderings
scoring uses, so that they add up to the metric's figures exactly."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from swords_dataset.judgements import NOT_IN_BENCHMARK
from swords_metric.metrics.gold_sets import gold_sets, lemma_class
from swords_metric.metrics.ranking import (
    PR_FAMILIES,
    PR_FAMILY_NAMES,
    RankedPrediction,
    rank_prediction,
    top_and_gold,
    top_counts,
)
from swords_metric.metrics.target_scores import percent
from swords_metric.predictions.lemmatized import substitute_lemma
from swords_metric.references.reference import Reference
from swords_metric.references.split import ScoredTargets

if TYPE_CHECKING:  # relations load WordNet's graph, which a plain summary does not need
    from swords_metric.wordnet.relations import TargetRelations

# Why a substitute does not count (its record's `dropped`): it lemmatizes to the target's lemma, or to the lemma
# of a better-ranked substitute (it merges into that one, as upstream keeps the first of equal lemmas).
TARGET, DUPLICATE = "target", "duplicate"
# A target record's figures of each P/R/F family, `{family}_{part}` (formats.py's TARGET_FIELDS).
FIGURE_PARTS = ("hits", "predicted", "reference_k", "reference", "p", "r", "f")


@dataclass(frozen=True)
class Judgement:
    """One substitute against a target's gold, as the metric counts it: its lemma, its class (one of
    swords_dataset.judgements.CLASSES) and, if the benchmark judged it, its score and votes."""

    substitute: str
    lemma: str
    label: str
    score: float | None = None
    positive: int | None = None
    total: int | None = None


def judgements(reference: Reference | None, pos: str, substitutes: Iterable[str]) -> list[Judgement]:
    """Each substitute lemmatized as scoring lemmatizes it, matched against the reference's lemmas and classed."""
    judged = []
    for substitute in substitutes:
        lemma = substitute_lemma(substitute, pos)
        i = reference.index.get(lemma) if reference is not None else None
        if i is None or lemma == reference.target_lemma:
            judged.append(Judgement(substitute, lemma, NOT_IN_BENCHMARK))
            continue
        votes = (reference.score(i), reference.positives[i], reference.totals[i])
        judged.append(Judgement(substitute, lemma, lemma_class(reference, lemma), *votes))
    return judged


def judge_target(targets: ScoredTargets, target_id: str, substitutes: Iterable[str]) -> list[Judgement]:
    """Scorer.judge: judgements against the gold of the target named by either id, scored or left out."""
    position = targets.find(target_id)
    return judgements(targets.split.references[position], targets.rows[position]["pos"], substitutes)


def ranked_or_none(slot) -> RankedPrediction | None:
    """A PreparedPredictions slot as a prediction: None for a target not in the input (or not scored)."""
    return slot if isinstance(slot, RankedPrediction) else None


def row_fields(row: Mapping, kind: str) -> dict:
    return {
        "kind": kind,
        "id": row["id"],
        "upstream_id": row.get("upstream_id"),
        "target": row["target"],
        "pos": row.get("pos"),
    }


def substitute_records(
    row: Mapping, reference: Reference, pairs: Sequence[tuple[str, float]], k: int, relations: TargetRelations | None
) -> Iterator[dict]:
    """One record per (substitute, score) of `pairs`, in the order the metric ranks them (`position`: 1-based, as
    given). `rank` counts the substitutes that count; the strict top-k is rank <= k, the lenient top-k the first k
    of those the reference holds."""
    order = sorted(range(len(pairs)), key=lambda i: pairs[i][1], reverse=True)  # stable, as prepare_prediction
    base = row_fields(row, "substitute")
    target_lemma, index = reference.target_lemma, reference.index
    kept: dict[str, int] = {}
    lenient_rank = 0
    for i in order:
        substitute, score = pairs[i]
        lemma = substitute_lemma(substitute, reference.pos)
        dropped = merged_into = rank = None
        if lemma == target_lemma:
            dropped = TARGET
        elif lemma in kept:
            dropped, merged_into = DUPLICATE, kept[lemma]
        else:
            rank = kept[lemma] = len(kept) + 1
        held = dropped is None and lemma in index
        lenient_rank += held
        position = index.get(lemma) if dropped != TARGET else None
        yield {
            **base,
            "position": i + 1,
            "substitute": substitute,
            "score": score,
            "lemma": lemma,
            "empty": not lemma,
            "dropped": dropped,
            "merged_into_rank": merged_into,
            "rank": rank,
            "in_strict_top_k": rank is not None and rank <= k,
            "in_lenient_top_k": held and lenient_rank <= k,
            "class": NOT_IN_BENCHMARK if dropped == TARGET else lemma_class(reference, lemma),
            "gold_score": None if position is None else reference.score(position),
            "votes_positive": None if position is None else reference.positives[position],
            "votes_total": None if position is None else reference.totals[position],
            "relation": relations.of(lemma) if relations is not None else None,
        }


def target_figures(reference: Reference, ranked: RankedPrediction | None, k: int) -> dict:
    """A target's share of every P/R/F family at k, as score_targets sums it, its own P, R (percent), F, GAP(-rat)."""
    ranked = ranked if ranked is not None else rank_prediction(None, reference, k)
    gold_set = gold_sets(reference)
    figures: dict = {}
    for (setting, threshold), name in zip(PR_FAMILIES, PR_FAMILY_NAMES, strict=True):
        top, gold = top_and_gold(ranked, gold_set, setting == "lenient", threshold == "a")
        hits, predicted, reference_k, size = top_counts(top, gold, k)
        p, r = percent(hits, predicted), percent(hits, reference_k)
        values = (hits, predicted, reference_k, size, p, r, 2 * p * r / (p + r) if p + r else 0.0)
        figures.update((f"{name}_{part}", value) for part, value in zip(FIGURE_PARTS, values, strict=True))
    defined = bool(ranked.fixed["gap_defined"])
    figures["gap"] = 100.0 * ranked.fixed["gap"] if defined else None
    figures["gap_rat"] = 100.0 * ranked.fixed["gap_rat"] if defined else None
    return figures


def target_record(row: Mapping, reference: Reference, ranked: RankedPrediction | None, k: int) -> dict:
    """The per-target record: ids, target, POS, gold sets' sizes, figures at k, strict top-k, acceptable missed."""
    gold = gold_sets(reference)
    found = set(ranked.lenient_top[:k]) if ranked is not None else set()
    missed = [i for i, lemma in enumerate(reference.lemmas) if lemma in gold.acceptable and lemma not in found]
    return {
        **row_fields(row, "target"),
        "in_predictions": ranked is not None,
        "reference_size": len(reference.lemmas),
        "acceptable": len(gold.acceptable),
        "conceivable": len(gold.conceivable),
        **target_figures(reference, ranked, k),
        "top": list(ranked.top[:k]) if ranked is not None else [],
        # best-judged first, ties in the reference's order
        "acceptable_missed": [reference.lemmas[i] for i in sorted(missed, key=lambda i: -reference.score(i))],
    }


def target_records(targets: ScoredTargets, ranked: Sequence, k: int) -> list[dict]:
    """target_record of every scored target, in reference order."""
    return [
        target_record(targets.rows[i], targets.references[i], ranked_or_none(ranked[i]), k)
        for i in targets.scored_positions()
    ]
