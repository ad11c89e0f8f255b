"""Bootstrap intervals and paired tests for the TSAR-2022 and ProLex metrics, over the one resampler
(swords_metric/metrics/bootstrap.py): each resample's figures computed from per-instance statistics as the official
scorers compute the whole (TSAR's ten metrics are means of per-instance values; ProLex's are micro-averages of
per-instance counts)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np

from swords_metric.metrics.bootstrap import paired_figures, resample_counts

# A family's figures from resampled sums: {statistic: array of resamples} -> {metric: array of resamples}.
Figures = Callable[[dict[str, np.ndarray]], dict[str, np.ndarray]]


def resampled_figures(
    systems: Sequence[Mapping[str, Sequence[float]]], figures: Figures, bootstrap: int, seed: int
) -> list[dict[str, np.ndarray]]:
    """Per system, every metric of every resample: instances drawn jointly for the systems, each resample's sums of
    the per-instance statistics turned into figures by `figures`."""
    names = list(systems[0])
    values = [np.array([system[name] for name in names], dtype=np.float64) for system in systems]  # (stats, n)
    collected: list[dict[str, list[np.ndarray]]] = [{} for _ in systems]
    for draws in resample_counts(values[0].shape[1], bootstrap, seed):
        for system, into in zip(values, collected, strict=True):
            sums = draws @ system.T
            for metric, resampled in figures({name: sums[:, i] for i, name in enumerate(names)}).items():
                into.setdefault(metric, []).append(resampled)
    return [{metric: np.concatenate(parts) for metric, parts in into.items()} for into in collected]


def _interval(values: np.ndarray) -> list[float]:
    return [float(np.percentile(values, 2.5)), float(np.percentile(values, 97.5))]


def family_intervals(
    statistics: Mapping[str, Sequence[float]], figures: Figures, bootstrap: int, seed: int
) -> dict[str, list[float]]:
    """95% intervals of a family's metrics from its per-instance statistics."""
    resampled = resampled_figures([statistics], figures, bootstrap, seed)[0]
    return {metric: _interval(values) for metric, values in resampled.items()}


def family_paired_test(
    statistics: tuple[Mapping[str, Sequence[float]], Mapping[str, Sequence[float]]],
    figures: Figures,
    observed: tuple[dict, dict],
    bootstrap: int,
    seed: int,
) -> dict:
    """The paired test's table between two systems' per-instance statistics (as the SWORDS metrics' paired test)."""
    resampled_a, resampled_b = resampled_figures(list(statistics), figures, bootstrap, seed)
    return paired_figures(resampled_a, resampled_b, *observed)
