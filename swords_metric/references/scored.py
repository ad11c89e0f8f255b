"""A split's targets as a Scorer scores them: what the per-target figures, the details files and the judgments read
of a Scorer (`Scorer.targets`), so they take this, and the cut-off or settings they need, instead of the Scorer."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from swords_metric.errors import MetricInputError, shown
from swords_metric.references.reference import Reference
from swords_metric.references.split import ReferenceSplit
from swords_metric.references.target_ids import TargetIndex


@dataclass(frozen=True)
class ScoredTargets:
    """Per target, in the split's order: its row's kept fields and prepared reference (`split`), the reference as
    scored (`references`: None where left out, as CoInCo's problematic targets are unless included), whether it is
    `scored` (a reference with gold lemmas) or `skipped` (left out as problematic); and the `index` that finds a
    target by either id scheme; `benchmark`, the benchmarks the rows name, joined by "+" ("custom": none). Made
    once by the Scorer (`of`)."""

    split: ReferenceSplit
    references: list[Reference | None]
    scored: list[bool]
    skipped: list[bool]
    index: TargetIndex
    benchmark: str

    @classmethod
    def of(
        cls, split: ReferenceSplit, include_problematic: bool, config: str | None, name: str | None
    ) -> ScoredTargets:
        """The targets of `split` as scored: CoInCo's problematic ones left out unless `include_problematic` (as the
        upstream library leaves them out), the others scored when their reference has gold lemmas. The index's
        messages name the split by its config (else its benchmark) and its name (e.g. "swords test")."""
        benchmark = "+".join(sorted({row["benchmark"] for row in split.targets if row["benchmark"]})) or "custom"
        where = f"{config or benchmark}" + (f" {name}" if name else "")
        skipped = [flag and not include_problematic for flag in split.problematic]
        references = [None if skip else ref for ref, skip in zip(split.references, skipped, strict=True)]
        scored = [reference is not None and bool(reference.lemmas) for reference in references]
        index = TargetIndex([row["id"] for row in split.targets], [row["upstream_id"] for row in split.targets], where)
        return cls(split, references, scored, skipped, index, benchmark)

    @property
    def rows(self) -> list[dict]:
        """Each target's kept fields: ids, target word, POS, benchmark (references/split.py's TARGET_FIELDS)."""
        return self.split.targets

    def position(self, target_id: str) -> int | None:
        """Where a target is, named by its dataset id or its upstream id; None for neither."""
        return self.index.position.get(target_id, self.index.upstream_position.get(target_id))

    def find(self, target_id: str) -> int:
        """position, or a MetricInputError naming the target and the split."""
        position = self.position(target_id)
        if position is None:
            raise MetricInputError(f"no target {shown(target_id)} in {self.index.where}")
        return position

    def scored_positions(self) -> Iterator[int]:
        """The positions of the scored targets, in order."""
        return (position for position, scored in enumerate(self.scored) if scored)
