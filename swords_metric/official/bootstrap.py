"""Bootstrap confidence intervals for the TSAR-2022 and ProLex metrics: instances resampled with replacement
(seeded), each resample's figures computed from per-instance values as the official scorers compute the whole:
TSAR's ten metrics are means of per-instance values; ProLex's are micro-averages of per-instance counts."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

_RESAMPLE_CHUNK = 1000  # resamples drawn at a time: memory stays bounded whatever the count


def _resampled_counts(n: int, bootstrap: int, seed: int):
    """Per chunk of resamples, how often each instance is drawn: an array (resamples, n)."""
    rng = np.random.default_rng(seed)
    for start in range(0, bootstrap, _RESAMPLE_CHUNK):
        size = min(_RESAMPLE_CHUNK, bootstrap - start)
        draws = rng.integers(0, n, size=(size, n)) + (np.arange(size) * n)[:, None]
        yield np.bincount(draws.ravel(), minlength=size * n).reshape(size, n).astype(np.float64)


def _interval(values: np.ndarray) -> list[float]:
    return [float(np.percentile(values, 2.5)), float(np.percentile(values, 97.5))]


def mean_intervals(per_instance: dict[str, list[float]], bootstrap: int, seed: int) -> dict[str, list[float]]:
    """95% intervals of metrics that are means over instances (TSAR-2022's)."""
    names = list(per_instance)
    values = np.array([per_instance[name] for name in names], dtype=np.float64)  # (metrics, n)
    n = values.shape[1]
    parts = [counts @ values.T / n for counts in _resampled_counts(n, bootstrap, seed)]  # (resamples, metrics)
    resampled = np.concatenate(parts)
    return {name: _interval(resampled[:, i]) for i, name in enumerate(names)}


def ratio_intervals(
    counts: dict[str, list[float]],
    figures: Callable[[dict[str, np.ndarray]], dict[str, np.ndarray]],
    bootstrap: int,
    seed: int,
) -> dict[str, list[float]]:
    """95% intervals of metrics computed from summed per-instance counts (ProLex's micro-averages): `figures`
    turns the resampled sums ({count name: array of resamples}) into {metric: array of resamples}."""
    names = list(counts)
    values = np.array([counts[name] for name in names], dtype=np.float64)
    n = values.shape[1]
    collected: dict[str, list[np.ndarray]] = {}
    for draws in _resampled_counts(n, bootstrap, seed):
        sums = draws @ values.T
        for metric, resampled in figures({name: sums[:, i] for i, name in enumerate(names)}).items():
            collected.setdefault(metric, []).append(resampled)
    return {metric: _interval(np.concatenate(parts)) for metric, parts in collected.items()}
