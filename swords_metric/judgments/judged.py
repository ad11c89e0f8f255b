"""What the judging code reads of a Scorer, taken once where a public function is given one (make_tasks, tasks_for,
merge_judgments, extended_scores): its split's targets as scored, the names tasks files and records give the split,
and how deep the Scorer prepares predictions. The tasks, the merge and the quality filter take this, not the Scorer."""

from __future__ import annotations

from dataclasses import dataclass

from swords_metric.references.scored import ScoredTargets


@dataclass(frozen=True)
class JudgedSplit:
    """A split whose gold judgements extend (tasks.check_judged said so): `targets` (ids, rows, references),
    `config` and `split` (None for rows of no shipped split), and `depth`, how much of each ranking the Scorer
    prepares (make_tasks finds a run's candidates by the Scorer's own preparation)."""

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
