"""ProLex's precision, recall and F at k (Zhang et al. 2024), computed as its evaluate.py computes its "hard"
metrics (Evaluator.calculate_metrics), against the acceptable substitutes and against the proficiency-oriented
ones, with the same integer counts and the same float operations (so the figures are the scorer's to the bit).

What evaluate.py does, and so what this does (exact strings, case-sensitive, no lemmas):
- an instance whose gold list is empty is left out of both precision and recall (53 of ProLex test's 680 have no
  proficiency-oriented substitute);
- a system's answers are cut to the first k, then counted as a set: a repeat within the first k counts once,
  and does not make room for an answer after k;
- precision = hits / distinct answers in the first k, summed over instances (micro-averaged);
  recall = hits / min(k, distinct gold substitutes), summed likewise; F is their harmonic mean.
Where evaluate.py divides by zero (no answer at all, or no hit) it stops with ZeroDivisionError; here the
figure is 0.0. Its "soft" metrics compare spaCy en_core_web_sm lemmas of each answer's first token; that model
is not used here (see the metric card), so only the hard metrics are computed.
"""

from __future__ import annotations

from collections.abc import Sequence

from .core import MetricInputError

# The two gold sets (evaluate.py's `aspect`), as labels on a ProLex row's substitutes.
PROLEX_ASPECTS: dict[str, str] = {"acc": "acceptable", "prof": "proficiency_acceptable"}


def prolex_gold(row: dict) -> dict[str, list[str]]:
    """A ProLex row's gold lists: {"acc": its acceptable substitutes, "prof": its proficiency-oriented ones},
    each a substitute labelled so, as the dataset gives them."""
    gold: dict[str, list[str]] = {aspect: [] for aspect in PROLEX_ASPECTS}
    for substitute in row.get("substitutes") or []:
        word, labels = substitute.get("substitute"), substitute.get("labels") or []
        if not isinstance(word, str):
            raise MetricInputError(f"reference {row.get('id')}: a substitute is not a string")
        for aspect, label in PROLEX_ASPECTS.items():
            if label in labels:
                gold[aspect].append(word)
    return gold


def prolex_scores(golds: Sequence[Sequence[str]], answers: Sequence[Sequence[str] | None],
                  k: int = 10) -> tuple[float, float, float]:
    """(precision, recall, F) at k over instances in order, as calculate_metrics computes them."""
    if len(golds) != len(answers):
        raise MetricInputError(f"predictions: {len(answers)} answer lists for {len(golds)} instances")
    hits = precision_denominator = recall_denominator = 0
    for gold, given in zip(golds, answers, strict=True):
        if len(gold) == 0:
            continue
        top = set(list(given or ())[:k])
        hits += len(set(gold).intersection(top))
        precision_denominator += len(top)
        recall_denominator += min(k, len(set(gold)))
    precision = hits / precision_denominator if precision_denominator else 0.0
    recall = hits / recall_denominator if recall_denominator else 0.0
    f1 = (2 * precision * recall) / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1
