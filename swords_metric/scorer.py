"""Scoring systems against one benchmark split: prepared references, signature, confidence intervals."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from .core import (
    ACCEPTABLE,
    CONCEIVABLE,
    MetricInputError,
    TargetScores,
    metrics_from_totals,
    normalize_prediction_items,
    prepare_prediction,
    prepare_reference,
)

METRIC_VERSION = "1.0"
LEMMATIZER = "wordnet3.0+nltk3.5-morphy"
SETTINGS = ("generative", "ranking")
# The metrics that get bootstrap confidence intervals and paired tests.
INTERVAL_METRICS = ("lenient_a_f@{k}", "lenient_c_f@{k}", "strict_a_f@{k}", "strict_c_f@{k}", "gap", "gap_rat")
_REFERENCE_FIELDS = ("id", "target", "pos", "substitutes", "candidates", "benchmark")


class Scorer:
    """The references of one split, prepared once, scoring any number of systems.

    >>> scorer = Scorer.from_dataset("swords", "test")
    >>> scorer.score({"t:…": ["fascinating", "incredible"]})["lenient_a_f@10"]
    """

    def __init__(self, rows: Iterable[Mapping], k: int = 10, split: str | None = None, setting: str = "generative"):
        if setting not in SETTINGS:
            raise MetricInputError(f"unknown setting {setting!r}; choose {' or '.join(SETTINGS)}")
        if not isinstance(k, int) or k < 1:
            raise MetricInputError(f"k must be a positive integer, got {k!r}")
        self.rows = [{key: row.get(key) for key in _REFERENCE_FIELDS} for row in rows]
        for position, row in enumerate(self.rows):
            if not row["id"]:
                row["id"] = str(position)
            for key in ("target", "pos"):
                if not isinstance(row[key], str):
                    raise MetricInputError(f"reference {row['id']}: '{key}' must be a string, got {row[key]!r}")
        self.k, self.split, self.setting = k, split, setting
        self.references = [prepare_reference(row) for row in self.rows]
        self.position = {row["id"]: i for i, row in enumerate(self.rows)}
        if len(self.position) != len(self.rows):
            raise MetricInputError("reference ids are not unique")
        benchmarks = sorted({row["benchmark"] for row in self.rows if row["benchmark"]})
        self.benchmark = "+".join(benchmarks) or "custom"

    @classmethod
    def from_dataset(cls, config: str, split: str, **kwargs) -> Scorer:
        import swords_dataset

        return cls(swords_dataset.load(config, split=split).to_list(), split=split, **kwargs)

    # -- predictions -> per-target scores --

    def align(self, predictions: Mapping[str, object] | Sequence[object], source: str = "predictions") -> list:
        """Predictions in reference order (None where a target has none). A mapping is keyed by target id
        (an unknown id is an error: the wrong dataset or split); a sequence must match the references."""
        if isinstance(predictions, Mapping):
            unknown = [tid for tid in predictions if tid not in self.position]
            if unknown:
                where = f"{self.benchmark}" + (f" {self.split}" if self.split else "")
                raise MetricInputError(
                    f"{source}: {len(unknown)} of {len(predictions)} target ids are not in {where} "
                    f"(first: {unknown[0]}); wrong dataset or split?"
                )
            aligned = [None] * len(self.rows)
            for tid, items in predictions.items():
                aligned[self.position[tid]] = items
            return aligned
        if isinstance(predictions, str | bytes) or not isinstance(predictions, Sequence):
            raise MetricInputError(f"{source}: expected a mapping of target id to substitutes, or a list per target")
        if len(predictions) != len(self.rows):
            raise MetricInputError(f"{source}: {len(predictions)} prediction lists for {len(self.rows)} references")
        return list(predictions)

    def target_scores(self, predictions, source: str = "predictions") -> TargetScores:
        from .core import score_targets

        prepared = []
        for row, reference, items in zip(self.rows, self.references, self.align(predictions, source), strict=True):
            if reference is None or items is None:
                prepared.append(None)
                continue
            prepared.append(prepare_prediction(normalize_prediction_items(items, row["id"]), reference))
        return score_targets(self.references, prepared, self.k)

    # -- results --

    def signature(self, bootstrap: int = 0, seed: int | None = None) -> str:
        """Everything that decides the numbers, sacrebleu-style, so a reported figure is unambiguous."""
        parts = [
            f"swords-metric:{METRIC_VERSION}",
            f"bench:{self.benchmark}",
            f"split:{self.split or 'custom'}",
            f"setting:{self.setting}",
            f"k:{self.k}",
            f"acc:>{ACCEPTABLE:g}",
            f"conc:>={CONCEIVABLE:g}",
            f"lemma:{LEMMATIZER}",
            f"targets:{sum(r is not None for r in self.references)}",
        ]
        if bootstrap:
            parts.append(f"bootstrap:{bootstrap},seed:{seed}")
        return "|".join(parts)

    def score(
        self, predictions, bootstrap: int = 0, seed: int = 0, by_pos: bool = True, source: str = "predictions"
    ) -> dict:
        """All metrics (percent), counts, per-POS breakdown, signature and, with bootstrap > 0, 95%
        confidence intervals from resampling targets (seeded)."""
        scores = self.target_scores(predictions, source)
        result: dict = scores.aggregate()
        result["targets_without_predictions"] = int(result["targets_without_predictions"])
        result["targets_scored"] = int(result["targets_scored"])
        if by_pos:
            result["by_pos"] = {
                pos: {name: value for name, value in metrics.items()} for pos, metrics in scores.by_pos().items()
            }
        if bootstrap:
            result["confidence_intervals"] = self._intervals(scores, bootstrap, seed)
        result["signature"] = self.signature(bootstrap, seed if bootstrap else None)
        return result

    def _resample_counts(self, n_targets: int, bootstrap: int, seed: int) -> np.ndarray:
        rng = np.random.default_rng(seed)
        draws = rng.integers(0, n_targets, size=(bootstrap, n_targets))
        counts = np.zeros((bootstrap, n_targets))
        np.add.at(counts, (np.arange(bootstrap)[:, None], draws), 1)
        return counts

    def _intervals(self, scores: TargetScores, bootstrap: int, seed: int) -> dict[str, list[float]]:
        counts = self._resample_counts(len(scores), bootstrap, seed)
        resampled = metrics_from_totals(scores.resampled_totals(counts), self.k)
        return {
            name: [float(np.percentile(resampled[name], 2.5)), float(np.percentile(resampled[name], 97.5))]
            for name in (m.format(k=self.k) for m in INTERVAL_METRICS)
        }

    def compare(
        self, predictions_a, predictions_b, bootstrap: int = 1000, seed: int = 0, sources: tuple[str, str] = ("A", "B")
    ) -> dict:
        """Paired bootstrap test (targets resampled jointly): per metric, A, B, their difference, its 95%
        interval and a two-sided p-value for 'no difference'."""
        if bootstrap < 1:
            raise MetricInputError("the paired test needs bootstrap >= 1 resamples")
        a = self.target_scores(predictions_a, sources[0])
        b = self.target_scores(predictions_b, sources[1])
        counts = self._resample_counts(len(a), bootstrap, seed)
        resampled_a = metrics_from_totals(a.resampled_totals(counts), self.k)
        resampled_b = metrics_from_totals(b.resampled_totals(counts), self.k)
        observed_a, observed_b = a.aggregate(), b.aggregate()
        comparison = {}
        for name in (m.format(k=self.k) for m in INTERVAL_METRICS):
            difference = resampled_a[name] - resampled_b[name]
            p_value = min(1.0, 2 * min(float(np.mean(difference <= 0)), float(np.mean(difference >= 0))))
            comparison[name] = {
                "a": observed_a[name],
                "b": observed_b[name],
                "difference": observed_a[name] - observed_b[name],
                "interval": [float(np.percentile(difference, 2.5)), float(np.percentile(difference, 97.5))],
                "p_value": p_value,
            }
        return {"a": sources[0], "b": sources[1], "metrics": comparison, "signature": self.signature(bootstrap, seed)}


def score(predictions, references: Iterable[Mapping], k: int = 10, **kwargs) -> dict:
    """One call: score predictions (mapping by id, or a list per reference) against dataset rows."""
    return Scorer(references, k=k).score(predictions, **kwargs)
