"""What scoring derives from a target's reference alone, once (GoldSets): its acceptable and conceivable lemmas,
each lemma's positive count and ratio, GAP's denominators, SemEval-2007's gold; and the class of a substitute's
lemma against them (lemma_class)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import accumulate

from swords_dataset.judgements import (
    ACCEPTABLE,
    ACCEPTABLE_ABOVE,
    CONCEIVABLE,
    CONCEIVABLE_FROM,
    JUDGED_UNACCEPTABLE,
    NOT_IN_BENCHMARK,
)
from swords_metric.metrics.semeval import SemevalGold, semeval_gold
from swords_metric.references.reference import Reference


@dataclass(frozen=True)
class GoldSets:
    """What scoring derives from a reference alone, computed once per reference (gold_sets)."""

    acceptable: frozenset[str]
    conceivable: frozenset[str]
    positives: dict[str, int]
    ratios: dict[str, float]
    gap_denominator: float
    gap_rat_denominator: float
    semeval: SemevalGold | None


def _gap_denominator(weights: Iterable[float]) -> float:
    """GAP's denominator, the best average precision the reference allows (depends on the reference only)."""
    # The positive weights, best first, summed in that order as the running sum of Melamud's loop: the zero
    # weights it sorts after them change neither sum.
    denominator = 0.0
    for rank, accumulated in enumerate(accumulate(map(float, sorted([w for w in weights if w > 0], reverse=True))), 1):
        denominator += accumulated / rank
    return denominator


def gold_sets(reference: Reference) -> GoldSets:
    """The reference's GoldSets, made on first use and kept in its cache."""
    gold = reference.cache.get("gold_sets")
    if gold is None:
        # Only what an annotator accepted: a zero adds to no sum and is in neither set (two thirds of SWORDS's lemmas).
        rows = zip(reference.lemmas, reference.positives, reference.totals, strict=True)
        kept = [(lemma, n, n / total) for lemma, n, total in rows if n]
        gold = reference.cache["gold_sets"] = GoldSets(
            acceptable=frozenset([lemma for lemma, _, score in kept if score > ACCEPTABLE_ABOVE]),
            conceivable=frozenset([lemma for lemma, _, score in kept if score >= CONCEIVABLE_FROM]),
            positives={lemma: n for lemma, n, _ in kept},
            ratios={lemma: score for lemma, _, score in kept},
            gap_denominator=_gap_denominator([n for _, n, _ in kept]),
            gap_rat_denominator=_gap_denominator([score for _, _, score in kept]),
            semeval=semeval_gold(reference),
        )
    return gold


def lemma_class(reference: Reference, lemma: str) -> str:
    """The class of a (lemmatized) substitute against a reference, from the very sets scoring counts hits in:
    acceptable, conceivable (and not acceptable), judged unacceptable, or not in the benchmark."""
    gold = gold_sets(reference)
    if lemma in gold.acceptable:
        return ACCEPTABLE
    if lemma in gold.conceivable:
        return CONCEIVABLE
    return JUDGED_UNACCEPTABLE if lemma in reference.index else NOT_IN_BENCHMARK
