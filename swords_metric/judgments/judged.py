"""Which gold judgements can extend (`refusal`, `check_judged`), and what the judging code reads of a Scorer
(`judged_split`, read once where a public function is given one)."""

from __future__ import annotations

from dataclasses import dataclass

from swords_metric.errors import MetricInputError
from swords_metric.references.split import ScoredTargets

# Benchmarks whose gold was recalled (annotators wrote substitutes), not judged: no judgement can join it.
RECALLED = ("coinco", "semeval07")


def refusal(benchmark: str, family) -> str | None:
    """Why judgements cannot extend this benchmark's gold (one line), or None: they extend SWORDS's."""
    reason = family.not_judged  # its own official metrics: no per-substitute score to extend
    if reason:
        return f"judgments: {reason}; judgments extend SWORDS's gold"
    if recalled := [name for name in benchmark.split("+") if name in RECALLED]:
        return (
            f"judgments: {recalled[0]}'s gold was recalled by annotators (who wrote substitutes), not judged, so "
            "no judgement can join it; judgments extend SWORDS's gold"
        )
    return None


def check_judged(scorer) -> None:
    """Refuse, in one MetricInputError, a scorer whose gold cannot take judgements (refusal)."""
    benchmark = getattr(scorer, "benchmark", None) or scorer.config or scorer.family.name
    reason = refusal(benchmark, scorer.family)
    if reason:
        raise MetricInputError(reason)


@dataclass(frozen=True)
class JudgedSplit:
    """A split whose gold judgements extend: targets, config and split (None: no shipped split), preparation depth."""

    targets: ScoredTargets
    config: str | None
    split: str | None
    depth: int

    @property
    def dataset(self) -> str:
        """The dataset a tasks file's header and a record name: the config, else the benchmark of the rows."""
        return self.config or self.targets.benchmark


def judged_split(scorer) -> JudgedSplit:
    """What the judging code reads of `scorer` (a swords_metric.Scorer)."""
    return JudgedSplit(scorer.targets, scorer.config, scorer.split, scorer.depth)
