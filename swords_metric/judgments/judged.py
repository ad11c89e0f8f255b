"""Which gold judgements can extend, and what the judging code reads of a Scorer. `refusal` says in one line why a
benchmark's gold cannot take judgements (TSAR-2022's and ProLex's official scorers have no per-substitute score;
CoInCo's and SemEval-2007's gold was recalled, not judged); `check_judged` refuses such a Scorer. `judged_split` is
read once where a public function is given a Scorer (make_tasks, tasks_for, merge_judgments, extend_result): its
split's targets as scored, the names tasks files and records give the split, and how deep the Scorer prepares
predictions. The tasks, the merge, the quality filter and the extended gold take that, not the Scorer."""

from __future__ import annotations

from dataclasses import dataclass

from swords_metric.errors import MetricInputError
from swords_metric.references.scored import ScoredTargets

# Benchmarks whose gold was recalled (annotators wrote substitutes), not judged: no judgement can join it.
RECALLED = ("coinco", "semeval07")


def refusal(benchmark: str, family) -> str | None:
    """Why judgements cannot extend this benchmark's gold (one line), or None: they extend SWORDS's. TSAR-2022's and
    ProLex's official scorers have no per-substitute score; CoInCo's and SemEval-2007's gold was recalled by
    annotators (who wrote substitutes), not judged."""
    reason = family.not_judged  # its own official metrics: no per-substitute score to extend
    if reason:
        return f"judgments: {reason}; judgments extend SWORDS's gold"
    recalled = [name for name in benchmark.split("+") if name in RECALLED]
    if recalled:
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
    """A split whose gold judgements extend (check_judged said so): `targets` (ids, rows, references), `config` and
    `split` (None for rows of no shipped split), and `depth`, how much of each ranking the Scorer prepares
    (make_tasks finds a run's candidates by the Scorer's own preparation)."""

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
