"""A target's prediction as the metrics count it (RankedPrediction) and how a P/R/F family counts it. A target
contributes little of its ranking: its first k lemmas (strict), the first k the reference holds (lenient), and values
that do not depend on k (GAP, best/oot, LexSubGen's); a RankedPrediction keeps just that, so a system's predictions
cost memory per target, not per substitute.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from swords_metric.metrics import lexsubgen
from swords_metric.metrics.gold_sets import GoldSets, gold_sets
from swords_metric.metrics.semeval import semeval_values
from swords_metric.references.reference import Reference

# The P/R/F families: lenient or strict, against acceptable ("a") or conceivable ("c") references.
PR_FAMILIES = tuple((setting, threshold) for setting in ("lenient", "strict") for threshold in ("a", "c"))
PR_FAMILY_NAMES = tuple(f"{setting}_{threshold}" for setting, threshold in PR_FAMILIES)  # as fields name them


def _gap_pair(gold: GoldSets, ranked: Sequence[str]) -> tuple[float | None, float | None]:
    """Generalized average precision (Kishida 2005; Thater et al. 2010), as Melamud's implementation, weighted by the
    positive counts (GAP) and by the ratios (GAP-rat), in one pass. None for both when no weight is positive (that
    implementation returns -1 there)."""
    if gold.gap_denominator == 0.0:
        return None, None
    positives, ratios = gold.positives, gold.ratios
    numerator = numerator_rat = accumulated = accumulated_rat = 0.0
    for i, lemma in enumerate(ranked, 1):
        if weight := positives.get(lemma):  # absent or zero adds nothing to either sum
            accumulated += weight
            accumulated_rat += ratios[lemma]
            numerator += accumulated / i
            numerator_rat += accumulated_rat / i
    return numerator / gold.gap_denominator, numerator_rat / gold.gap_rat_denominator


@dataclass(frozen=True, slots=True)
class RankedPrediction:
    """What the metrics use of one target's prepared prediction: its first `depth` lemmas, the first `depth` the
    reference holds, and the sums that do not depend on k (GAP, best/oot, LexSubGen, whether it is empty)."""

    depth: int
    top: tuple[str, ...]
    lenient_top: tuple[str, ...]
    fixed: dict[str, float]


def rank_prediction(
    prepared: Sequence[tuple[str, float]] | None,
    reference: Reference,
    depth: int,
    given: Sequence[tuple[str, float]] | None = None,
) -> RankedPrediction:
    """The RankedPrediction of a prepared prediction (None: an empty one). LexSubGen's figures read `given`, the
    prediction as the system gave it, [(substitute, score)], else the prepared lemmas."""
    ranked = [lemma for lemma, _ in prepared or ()]
    gold = gold_sets(reference)
    fixed: dict[str, float] = {"no_prediction": float(not ranked)}
    gap, gap_rat = _gap_pair(gold, ranked)
    fixed["gap_defined"] = float(gap is not None)
    fixed["gap"], fixed["gap_rat"] = gap or 0.0, gap_rat or 0.0
    semeval_values(gold.semeval, ranked, fixed)
    if given is None:
        in_order = ranked
    else:  # by score, ties in the given order: the order prepare_prediction ranks in
        in_order = [substitute for substitute, _ in sorted(given, key=lambda item: item[1], reverse=True)]
    lexsubgen.values(
        reference.lexsubgen_gold, lexsubgen.top_predictions(in_order, reference.lexsubgen_target, reference.pos), fixed
    )
    index = reference.index
    lenient = [lemma for lemma in ranked if lemma in index]
    return RankedPrediction(depth, tuple(ranked[:depth]), tuple(lenient[:depth]), fixed)


def top_and_gold(
    ranked: RankedPrediction, gold: GoldSets, lenient: bool, acceptable: bool
) -> tuple[tuple[str, ...], frozenset[str]]:
    """The ranking and the gold set a P/R/F family counts: lenient or strict, acceptable or conceivable."""
    return (ranked.lenient_top if lenient else ranked.top), (gold.acceptable if acceptable else gold.conceivable)


def top_counts(top: Sequence[str], gold: frozenset[str], k: int) -> tuple[int, int, int, int]:
    """A P/R/F family's sums for one target: hits in the top k, its size, min(k, |gold|) and |gold|."""
    top = top[:k]
    return len([lemma for lemma in top if lemma in gold]), len(top), min(k, len(gold)), len(gold)
