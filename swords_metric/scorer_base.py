"""The one scorer interface every metric family implements (as sacrebleu's metrics share one): the SWORDS paper's
metrics (`Scorer`, swords_metric/scorer.py) and the official metrics of TSAR-2022 and ProLex (`FamilyScorer`,
swords_metric/official/scorer.py, over one OfficialMetrics implementation per family). `scorer_for` builds the one
the benchmark's Family names; the CLI, compute() and the report ask only what is written here."""

from __future__ import annotations

from abc import ABC, abstractmethod
from pathlib import Path

from swords_metric.references.metric_family import Family


class ScorerBase(ABC):
    """One split's references, prepared once, scoring any number of systems with one family's metrics."""

    family: Family  # the metric family (its name in results and signatures)
    k: int
    config: str | None
    split: str | None

    @abstractmethod
    def prepare(self, predictions, source: str = "predictions"):
        """Predictions given in Python (a mapping by target id, or one list per row), as the metrics read them."""

    @abstractmethod
    def read(self, path: str | Path, *args, **kwargs):
        """A predictions file in any of the family's forms, read in bounded memory and prepared."""

    @abstractmethod
    def restricted_to_given(self, predictions) -> tuple[ScorerBase, object]:
        """A scorer of just the targets the predictions name, and the predictions prepared for it."""

    @abstractmethod
    def target_statistics(self, predictions) -> object:
        """The per-target statistics every figure, interval and paired test is computed from."""

    @abstractmethod
    def score(self, predictions, bootstrap: int = 0, seed: int = 0, **options) -> dict:
        """The aggregate figures, the counts, 95% intervals when `bootstrap`, and the signature."""

    @abstractmethod
    def compare(
        self, predictions_a, predictions_b, bootstrap: int = 1000, seed: int = 0, sources: tuple[str, str] = ("A", "B")
    ) -> dict:
        """The paired bootstrap test: {a, b, metrics: {metric: a, b, difference, interval, p_value}, coverage,
        signature}, the same layout for every family."""

    @abstractmethod
    def signature(self, bootstrap: int = 0, seed: int | None = None) -> str:
        """Everything that decides the numbers (swords_metric/signature.py)."""
