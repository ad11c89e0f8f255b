"""The ProLex family: its precision, recall and F at k (Zhang et al. 2024), as its evaluate.py computes its "hard"
metrics (Evaluator.calculate_metrics), against the acceptable and the proficiency-oriented substitutes, to the bit.

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

import itertools
from collections.abc import Sequence

from swords_metric.errors import MetricInputError
from swords_metric.families.base import MAX_ANSWERS_KEPT, Metric, OfficialFamily, ReaderTable
from swords_metric.metrics.bootstrap import InstanceStatistics

# The two gold sets (evaluate.py's `aspect`), as labels on a ProLex row's substitutes.
PROLEX_ASPECTS: dict[str, str] = {"acc": "acceptable", "prof": "proficiency_acceptable"}


def prolex_gold(row: dict) -> dict[str, list[str]]:
    """A ProLex row's gold lists: {"acc": its acceptable substitutes, "prof": its proficiency-oriented ones}."""
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
    """(precision, recall, F) from summed counts (numbers, or arrays of resamples); 0 where evaluate.py divides by 0."""
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


_PROLEX_GOLDS = {"acc": "acceptable", "prof": "proficiency-oriented"}
PROLEX_TABLE = ReaderTable(
    title="ProLex",
    metrics=tuple(
        Metric(f"{aspect}_{m}@10", *[f"{m.upper()}@10, {_PROLEX_GOLDS[aspect]}"] * 3)
        for aspect in PROLEX_ASPECTS
        for m in "prf"
    ),
    keys=tuple(f"{aspect}_{m}@{{k}}" for aspect in PROLEX_ASPECTS for m in "prf"),
    scale="fraction",
    decimals=4,
    floored_decimals=None,
    headline="acc_f@10",
    leaderboard=("acc_f@10",),
    summary=("acc_f@10", "prof_f@10"),
    reported=tuple(f"{aspect}_{m}@10" for aspect in PROLEX_ASPECTS for m in "prf"),
    how_shown="fractions to 4 decimals (evaluate.py's hard metrics: exact strings, k = 10)",
    legend=(
        "ProLex's hard metrics (evaluate.py), fractions: P, R and F at 10 against the acceptable and against the "
        "proficiency-oriented substitutes"
    ),
)


class ProlexFamily(OfficialFamily):
    """ProLex's hard metrics (see the module): micro-averages of per-instance counts, against each kind of gold."""

    name = "prolex"
    reader = PROLEX_TABLE
    official_scorer = "evaluate.py@f54ba0f:hard"
    official_suffix = ".csv"
    official_format = "target word, Sentence, Substitutes"
    not_judged = (
        "ProLex's gold is experts' accept/reject lists and its official scorer has no score per substitute "
        "for judgements to extend"
    )
    missing = (
        "each scored as an empty answer list, as evaluate.py's calculate_metrics scores one (no hit, its "
        "gold counted in recall); --given-only leaves them out"
    )

    def check_k(self, k: int) -> None:
        if k > MAX_ANSWERS_KEPT:
            raise MetricInputError(
                f"k {k}: ProLex's metrics read a target's first k answers, and at most "
                f"{MAX_ANSWERS_KEPT:,} are kept of a target; give k up to {MAX_ANSWERS_KEPT:,}"
            )

    def gold(self, row: dict) -> dict[str, list[str]]:
        return prolex_gold(row)

    def gold_words(self, gold: dict[str, list[str]]) -> set[str]:
        return {word for words in gold.values() for word in words}

    def kept(self, given, row, k):
        return list(itertools.islice(given, k)), 0, False  # its metrics read the first k

    def figures(self, golds, answers, k, intervals: dict | None) -> dict:
        result: dict = {}
        for aspect in PROLEX_ASPECTS:
            aspect_golds = [gold[aspect] for gold in golds]
            counts = prolex_counts(aspect_golds, answers.ranked, k)  # integer sums, then evaluate.py's divisions
            p, r, f = prolex_figures(**{name: sum(values) for name, values in counts.items()})
            result.update({f"{aspect}_p@{k}": p, f"{aspect}_r@{k}": r, f"{aspect}_f@{k}": f})
            result[f"targets_scored_{aspect}"] = sum(1 for gold in aspect_golds if gold)
            if intervals:  # after the first aspect's figures, as results have always held them
                result.setdefault("confidence_intervals", intervals)
        return result

    def statistics(self, golds, ranked, k) -> InstanceStatistics:
        groups = []
        for aspect in PROLEX_ASPECTS:
            names = [f"{aspect}_{m}@{k}" for m in "prf"]
            counts = prolex_counts([gold[aspect] for gold in golds], ranked, k)
            groups.append((counts, lambda sums, names=names: dict(zip(names, prolex_figures(**sums), strict=True))))
        return InstanceStatistics(groups)


PROLEX = ProlexFamily()
