"""Bootstrap confidence intervals and the paired bootstrap test: targets resampled with replacement (jointly for
the systems compared), each resample's metrics computed from the per-target sums (TargetScores)."""

from __future__ import annotations

import numbers
from collections.abc import Iterator, Sequence

import numpy as np

from swords_metric.errors import MetricInputError, shown
from swords_metric.metrics.target_scores import TargetScores, metrics_from_totals

# The metrics that get bootstrap confidence intervals and paired tests.
INTERVAL_METRICS = ("lenient_a_f@{k}", "lenient_c_f@{k}", "strict_a_f@{k}", "strict_c_f@{k}", "gap", "gap_rat")
MAX_RESAMPLES = 1_000_000
MIN_PAIRED_RESAMPLES = 100  # below this a p-value says little (its resolution is 1 / resamples)
_RESAMPLE_CHUNK = 1000  # resamples drawn and summed at a time: memory stays bounded whatever the count


def check_resamples(bootstrap: object, minimum: int = 0, what: str = "bootstrap") -> int:
    """A resample count as an int in [minimum, MAX_RESAMPLES], or a MetricInputError saying why not."""
    if isinstance(bootstrap, bool) or not isinstance(bootstrap, numbers.Integral):
        raise MetricInputError(f"{what} must be a whole number of resamples, got {bootstrap!r}")
    if not minimum <= bootstrap <= MAX_RESAMPLES:
        raise MetricInputError(f"{what} must be between {minimum} and {MAX_RESAMPLES:,} resamples, got {bootstrap}")
    return int(bootstrap)


def check_seed(seed: object, what: str = "seed") -> int:
    """A bootstrap seed as an int of at least 0 (numpy's generators take any such int), or a MetricInputError
    saying why not: a seed is recorded in the signature, so it must be one exact whole number."""
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise MetricInputError(f"{what} must be a whole number of at least 0, got {shown(seed)}")
    return int(seed)


def resample_counts(n: int, bootstrap: int, seed: int) -> Iterator[np.ndarray]:
    """The one resampler (every family's intervals and paired tests draw here): per chunk of resamples, how often
    each of the n targets is drawn, an array (resamples, n), drawn in chunks so that memory stays bounded."""
    rng = np.random.default_rng(seed)
    for start in range(0, bootstrap, _RESAMPLE_CHUNK):
        size = min(_RESAMPLE_CHUNK, bootstrap - start)
        draws = rng.integers(0, n, size=(size, n))
        draws += (np.arange(size) * n)[:, None]  # resample r's draws offset by r*n, in place
        counts = np.bincount(draws.ravel(), minlength=size * n)
        del draws
        yield counts.reshape(size, n).astype(np.float64)


def resampled_metrics(scores: Sequence[TargetScores], k: int, bootstrap: int, seed: int) -> list[dict[str, np.ndarray]]:
    """The interval metrics of every resample (targets drawn with replacement, jointly for all the given
    systems)."""
    names = [m.format(k=k) for m in INTERVAL_METRICS]
    collected: list[dict[str, list[np.ndarray]]] = [{name: [] for name in names} for _ in scores]
    for counts in resample_counts(len(scores[0]), bootstrap, seed):
        for system, into in zip(scores, collected, strict=True):
            metrics = metrics_from_totals(system.resampled_totals(counts), k)
            for name in names:
                into[name].append(np.atleast_1d(metrics[name]))
    return [{name: np.concatenate(parts) for name, parts in into.items()} for into in collected]


def _interval(values: np.ndarray) -> list[float]:
    return [float(np.percentile(values, 2.5)), float(np.percentile(values, 97.5))]


def intervals(scores: TargetScores, k: int, bootstrap: int, seed: int) -> dict[str, list[float]]:
    """95% percentile intervals of the interval metrics."""
    return {name: _interval(values) for name, values in resampled_metrics([scores], k, bootstrap, seed)[0].items()}


def paired_test(scores_a: TargetScores, scores_b: TargetScores, k: int, bootstrap: int, seed: int) -> dict:
    """Per interval metric: A, B, their difference, its 95% interval and a two-sided p-value for 'no
    difference', from resampling the targets jointly."""
    resampled_a, resampled_b = resampled_metrics([scores_a, scores_b], k, bootstrap, seed)
    return paired_figures(resampled_a, resampled_b, scores_a.aggregate(), scores_b.aggregate())


def paired_figures(
    resampled_a: dict[str, np.ndarray], resampled_b: dict[str, np.ndarray], observed_a: dict, observed_b: dict
) -> dict:
    """The paired test's table (every family's): per resampled metric, A, B, their difference, its 95% interval
    and a two-sided p-value for 'no difference' (the resamples drawn jointly for A and B)."""
    comparison = {}
    for name in resampled_a:
        difference = resampled_a[name] - resampled_b[name]
        comparison[name] = {
            "a": observed_a[name],
            "b": observed_b[name],
            "difference": observed_a[name] - observed_b[name],
            "interval": _interval(difference),
            "p_value": min(1.0, 2 * min(float(np.mean(difference <= 0)), float(np.mean(difference >= 0)))),
        }
    return comparison
