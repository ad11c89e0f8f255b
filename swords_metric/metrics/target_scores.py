"""Per-target scores (numerators and denominators) and their aggregation, and P and R at many k at once (the
Space's curve). Every metric is a ratio of sums over targets, so resampling and per-POS breakdowns aggregate a subset
(or a resample) of the same per-target rows.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import reduce
from operator import add
from typing import TYPE_CHECKING

from swords_metric.errors import MetricInputError
from swords_metric.metrics import lexsubgen
from swords_metric.metrics.gold_sets import gold_sets
from swords_metric.metrics.ranking import PR_FAMILIES, RankedPrediction, rank_prediction, top_and_gold, top_counts
from swords_metric.references.reference import Reference

if TYPE_CHECKING:
    import numpy as np

# The metrics that get bootstrap confidence intervals and paired tests (swords_metric/metrics/bootstrap.py).
INTERVAL_METRICS = ("lenient_a_f@{k}", "lenient_c_f@{k}", "strict_a_f@{k}", "strict_c_f@{k}", "gap", "gap_rat")


def _pr_columns(k: int) -> list[tuple[str, str, str, int]]:
    """(column prefix, setting, threshold, k) of every P/R/F family."""
    families = [(f"{s}_{t}", s, t, k) for s, t in PR_FAMILIES]
    families.append(("strict_c@1", "strict", "c", 1))
    return families


def _divided(numerator, denominator):
    """n / d, and 0 where d is 0: scalars, or numpy arrays of resampled sums."""
    if isinstance(denominator, int | float):
        return float(numerator / denominator) if denominator != 0 else 0.0
    import numpy as np

    numerator, denominator = np.asarray(numerator, dtype=float), np.asarray(denominator, dtype=float)
    shape = np.broadcast(numerator, denominator).shape
    out = np.divide(numerator, denominator, out=np.zeros(shape), where=denominator != 0)
    return float(out) if out.ndim == 0 else out


def percent(numerator, denominator):
    """100 * n / d, and 0 where d is 0 (scalars or arrays)."""
    return _divided(100.0 * numerator, denominator)


def _harmonic(p, r):
    return _divided(2 * p * r, p + r)


def _pairwise(values: Sequence[float], start: int, n: int) -> float:
    """numpy's pairwise summation of values[start:start + n] (PW_BLOCKSIZE 128, eight accumulators), step by step."""
    if n < 8:
        return reduce(add, values[start : start + n], 0.0)
    if n <= 128:
        end = start + n - n % 8
        r = [reduce(add, values[start + j + 8 : end : 8], values[start + j]) for j in range(8)]
        return reduce(add, values[end : start + n], ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7])))
    half = n // 2 - (n // 2) % 8
    return _pairwise(values, start, half) + _pairwise(values, start + half, n - half)


def summed(values: Sequence[float]) -> float:
    """The sum numpy's float64 `.sum()` gives, to the bit, without importing numpy (a plain evaluation starts
    faster): the figures printed and recorded are sums in this order. builtins.sum is not: Python 3.12 compensates."""
    return 0.0 + _pairwise(values, 0, len(values))


def metrics_from_totals(total: dict, k: int) -> dict:
    """Every metric, in percent, from column sums (floats, or arrays of resampled sums)."""
    metrics = {}
    for prefix, _, _, k_ in _pr_columns(k):
        name = prefix.split("@")[0]
        hits = total[f"{prefix}:hits"]
        p = percent(hits, total[f"{prefix}:n_pred"])
        if prefix == "strict_c@1":
            metrics["strict_c_p@1"] = p
            continue
        r = percent(hits, total[f"{prefix}:n_ref_k"])
        rs = percent(hits, total[f"{prefix}:n_ref"])
        for part, value in (("p", p), ("r", r), ("f", _harmonic(p, r)), ("rs", rs), ("fs", _harmonic(p, rs))):
            metrics[f"{name}_{part}@{k_}"] = value
    metrics["gap"] = percent(total["gap"], total["gap_defined"])
    metrics["gap_rat"] = percent(total["gap_rat"], total["gap_defined"])
    for task in ("best", "oot"):
        metrics[f"{task}_p"] = percent(total[f"{task}:credit"], total[f"{task}:attempted"])
        metrics[f"{task}_r"] = percent(total[f"{task}:credit"], total["semeval:items"])
        metrics[f"{task}_mode_p"] = percent(total[f"{task}:mode_hit"], total[f"{task}:mode_attempted"])
        metrics[f"{task}_mode_r"] = percent(total[f"{task}:mode_hit"], total["semeval:modes"])
    for key, _, _ in lexsubgen.COLUMNS:
        metrics[key] = percent(total[key], total["lexsubgen:targets"])
    metrics["targets_without_predictions"] = total["no_prediction"]
    return metrics


class TargetScores:
    """Per-target numerators and denominators (one row per scored target) for every metric."""

    def __init__(self, k: int, ids: list[str], pos: list[str], names: list[str], rows: list[list[float]]):
        self.k, self.ids, self.pos = k, ids, pos
        self.columns = (
            dict(zip(names, map(list, zip(*rows, strict=True)), strict=True)) if rows else {name: [] for name in names}
        )
        self._arrays: dict[str, np.ndarray] | None = None

    def __len__(self) -> int:
        return len(self.ids)

    def totals(self, rows: Sequence[int] | None = None) -> dict[str, float]:
        """Column sums over the given target rows (all by default; repeats allowed)."""
        if rows is None:
            return {name: summed(values) for name, values in self.columns.items()}
        return {name: summed([values[i] for i in rows]) for name, values in self.columns.items()}

    def resampled_totals(self, counts: np.ndarray) -> dict[str, np.ndarray]:
        """Column sums for many resamples at once: counts[b, t] is how often target t is drawn in resample b."""
        import numpy as np

        from swords_metric.metrics.bootstrap import summed_products  # here: a plain evaluation draws no resample

        if self._arrays is None:
            self._arrays = {name: np.array(values, dtype=np.float64) for name, values in self.columns.items()}
        return summed_products(counts, self._arrays)

    sums = resampled_totals  # the significance engine's name (swords_metric/metrics/bootstrap.py: Statistics)

    def figures(self, totals: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """The interval metrics of resampled column sums."""
        metrics = metrics_from_totals(totals, self.k)
        return {name: metrics[name] for name in (m.format(k=self.k) for m in INTERVAL_METRICS)}

    def aggregate(self, rows: Sequence[int] | None = None) -> dict[str, float]:
        """Metrics in percent over the given target rows (all by default; repeats allowed)."""
        metrics = metrics_from_totals(self.totals(rows), self.k)
        metrics["targets_scored"] = float(len(self.ids) if rows is None else len(rows))
        return metrics

    def by_pos(self) -> dict[str, dict[str, float]]:
        return {pos: self.aggregate([i for i, p in enumerate(self.pos) if p == pos]) for pos in sorted(set(self.pos))}


def _ranked_pairs(references, predictions, depth: int):
    """(reference, RankedPrediction) of every scored target; predictions may be prepared lists or None."""
    if len(references) != len(predictions):
        raise MetricInputError(f"{len(predictions)} predictions for {len(references)} references")
    for reference, prediction in zip(references, predictions, strict=True):
        if reference is None or not reference.lemmas:
            continue
        if not isinstance(prediction, RankedPrediction):
            prediction = rank_prediction(prediction, reference, depth)
        elif prediction.depth < depth:
            raise ValueError(f"a prediction ranked {prediction.depth} deep cannot be scored at {depth}")
        yield reference, prediction


def score_targets(
    references: Sequence[Reference | None],
    predictions: Sequence[RankedPrediction | list[tuple[str, float]] | None],
    k: int = 10,
) -> TargetScores:
    """Score predictions (RankedPredictions at least k deep, or prepared lists) against prepared references in the
    same order; a reference of None is skipped, a prediction of None is an empty list."""
    parts = ("hits", "n_pred", "n_ref_k", "n_ref")  # top_counts's sums, in its order
    # Column names per family, formatted once rather than per target.
    keyed = [
        (tuple(f"{prefix}:{part}" for part in parts), setting == "lenient", threshold == "a", k_)
        for prefix, setting, threshold, k_ in _pr_columns(k)
    ]
    names = [name for columns, *_ in keyed for name in columns]
    names += ["gap", "gap_rat", "gap_defined", "semeval:items", "semeval:modes", "no_prediction", "lexsubgen:targets"]
    names += [
        f"{task}:{part}" for task in ("best", "oot") for part in ("credit", "attempted", "mode_attempted", "mode_hit")
    ]
    names += [key for key, _, _ in lexsubgen.COLUMNS]
    rows: list[list[float]] = []
    ids, poses = [], []
    for reference, ranked in _ranked_pairs(references, predictions, k):
        gold_set = gold_sets(reference)
        values = dict(ranked.fixed)
        for columns, lenient, acceptable, k_ in keyed:
            top, gold = top_and_gold(ranked, gold_set, lenient, acceptable)
            values.update(zip(columns, top_counts(top, gold, k_), strict=True))
        rows.append([float(values.get(name, 0.0)) for name in names])
        ids.append(reference.id)
        poses.append(reference.pos)
    return TargetScores(k, ids, poses, names, rows)


def precision_recall_at(
    references: Sequence[Reference | None],
    predictions: Sequence[RankedPrediction | list[tuple[str, float]] | None],
    ks: Iterable[int],
) -> dict[int, dict[str, float]]:
    """Precision and recall (percent) of the four families at every k of `ks` (`lenient_a_p`, …, `strict_c_r`), in
    one pass; RankedPredictions must be at least max(ks) deep."""
    ks = sorted(set(ks))
    sums = {k: {(pr, part): 0 for pr in PR_FAMILIES for part in range(3)} for k in ks}
    for reference, ranked in _ranked_pairs(references, predictions, ks[-1]):
        gold_set = gold_sets(reference)
        for pr in PR_FAMILIES:
            top, gold = top_and_gold(ranked, gold_set, pr[0] == "lenient", pr[1] == "a")
            for k in ks:
                for part, count in enumerate(top_counts(top, gold, k)[:3]):
                    sums[k][pr, part] += count
    curve: dict[int, dict[str, float]] = {k: {} for k in ks}
    for k in ks:
        for setting, threshold in PR_FAMILIES:
            hits, n_pred, n_ref_k = (sums[k][(setting, threshold), part] for part in range(3))
            curve[k][f"{setting}_{threshold}_p"] = percent(hits, n_pred)
            curve[k][f"{setting}_{threshold}_r"] = percent(hits, n_ref_k)
    return curve
