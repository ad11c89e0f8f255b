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

from swords_metric.errors import MetricInputError

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


def prolex_counts(
    golds: Sequence[Sequence[str]], answers: Sequence[Sequence[str] | None], k: int = 10
) -> dict[str, list[int]]:
    """Per instance, as calculate_metrics counts it: `hits` (distinct first-k answers in the gold), `answered`
    (distinct first-k answers) and `recallable` (min(k, distinct gold)); all 0 for an instance without gold."""
    if len(golds) != len(answers):
        raise MetricInputError(f"predictions: {len(answers)} answer lists for {len(golds)} instances")
    counts: dict[str, list[int]] = {"hits": [], "answered": [], "recallable": []}
    for gold, given in zip(golds, answers, strict=True):
        top = set(list(given or ())[:k]) if len(gold) else set()
        counts["hits"].append(len(set(gold).intersection(top)))
        counts["answered"].append(len(top))
        counts["recallable"].append(min(k, len(set(gold))))
    return counts


def prolex_figures(hits, answered, recallable):
    """(precision, recall, F) from summed counts (numbers, or numpy arrays of resamples); 0 where evaluate.py
    would divide by zero."""
    import numpy as np

    if isinstance(hits, np.ndarray):
        with np.errstate(divide="ignore", invalid="ignore"):
            precision = np.where(answered > 0, hits / np.maximum(answered, 1), 0.0)
            recall = np.where(recallable > 0, hits / np.maximum(recallable, 1), 0.0)
            total = precision + recall
            return precision, recall, np.where(total > 0, 2 * precision * recall / np.where(total > 0, total, 1), 0.0)
    precision = hits / answered if answered else 0.0
    recall = hits / recallable if recallable else 0.0
    f1 = (2 * precision * recall) / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def prolex_scores(
    golds: Sequence[Sequence[str]], answers: Sequence[Sequence[str] | None], k: int = 10
) -> tuple[float, float, float]:
    """(precision, recall, F) at k over instances in order, as calculate_metrics computes them (integer sums,
    then its divisions)."""
    counts = prolex_counts(golds, answers, k)
    return prolex_figures(*(sum(counts[name]) for name in ("hits", "answered", "recallable")))
