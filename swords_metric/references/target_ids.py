"""Which reference a prediction is for: target ids under either scheme (the dataset's `id`, or the upstream SWORDS
library's `upstream_id`), decided per input, as ids arrive."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from swords_metric.errors import MetricInputError
from swords_metric.options import numpy_types

DATASET_IDS, UPSTREAM_IDS = "dataset", "upstream"
# Unknown ids remembered (for duplicates and the message); past this many the input is refused at once.
MAX_UNKNOWN_IDS = 100_000


class UnknownTargetsError(MetricInputError):
    """Predictions keyed by ids the references do not have; `belongs_to` is the (config, split) they do
    belong to, when the ids are those of another shipped split."""

    def __init__(self, message: str, belongs_to: tuple[str, str] | None = None):
        super().__init__(message)
        self.belongs_to = belongs_to


def _describe_ids(target_id: str) -> str:
    if target_id.startswith("t:") and len(target_id) == 42:
        return "an upstream SWORDS id"
    if target_id.split(":", 1)[0] in ("coinco", "semeval07"):
        return "a dataset id"
    return "an id of neither scheme"


@dataclass
class Alignment:
    """Predictions in reference order (None where a target has none) and how the input named targets."""

    items: list
    scheme: str | None  # DATASET_IDS or UPSTREAM_IDS for a mapping; None for a list in reference order


class TargetIndex:
    """The targets of a split under both id schemes: puts predictions keyed by either in reference order."""

    def __init__(self, ids: Sequence[str], upstream_ids: Sequence[str | None], where: str):
        self.size, self.where = len(ids), where
        self.position = {target_id: i for i, target_id in enumerate(ids)}
        if len(self.position) != len(ids):
            raise MetricInputError("reference ids are not unique")
        self.upstream_position = {target_id: i for i, target_id in enumerate(upstream_ids) if target_id}

    def tally(self, source: str = "predictions") -> IdTally:
        return IdTally(self, source)

    def align(self, predictions, source: str = "predictions") -> Alignment:
        """A mapping is keyed by target id, all of one scheme; a sequence has one entry per reference, in order."""
        if isinstance(predictions, Mapping):
            tally = self.tally(source)
            keyed = []
            for key, items in predictions.items():
                if str(key) in tally.seen:
                    raise MetricInputError(f"{source}: target {str(key)[:80]!r} appears twice")
                keyed.append((tally.add(str(key)), items))
            scheme = tally.scheme()
            aligned = [None] * self.size
            for positions, items in keyed:
                aligned[positions[scheme]] = items
            return Alignment(aligned, scheme)
        if isinstance(predictions, str | bytes) or not isinstance(predictions, (Sequence, *numpy_types("ndarray"))):
            raise MetricInputError(f"{source}: expected a mapping of target id to substitutes, or a list per target")
        if len(predictions) != self.size:
            raise MetricInputError(f"{source}: {len(predictions)} prediction lists for {self.size} references")
        return Alignment(list(predictions), None)

    def unknown_error(self, unknown: list[str], total: int, source: str, stopped: bool = False) -> UnknownTargetsError:
        counted = f"{len(unknown):,} of the first {total:,}" if stopped else f"{len(unknown):,} of {total:,}"
        message = (
            f"{source}: {counted} target ids are not in {self.where} "
            f"(first: {unknown[0][:80]!r}, {_describe_ids(unknown[0])})"
        )
        belongs_to = None
        try:
            import swords_dataset

            located = swords_dataset.locate_ids(unknown)
        except Exception:  # the shipped dataset is unreadable: the message goes without the owner
            located = []
        if located:
            config, split, column, hits = located[0]
            sample = min(len(unknown), 500)
            kind = "upstream SWORDS ids" if column == "upstream_id" else "dataset ids"
            if config.startswith("swords"):
                kind = "ids"  # SWORDS ids are both
            message += f"; {hits} of the first {sample} are {kind} of {config} {split}"
            if hits * 2 > sample and f"{config} {split}" != self.where:
                belongs_to = (config, split)
        else:
            message += "; no shipped benchmark split has them"
        return UnknownTargetsError(message, belongs_to)


class IdTally:
    """Target ids counted as an input gives them: which reference each names under either scheme, then (scheme())
    the input's scheme; mixed schemes or unknown ids are an error (memory bounded by MAX_UNKNOWN_IDS)."""

    def __init__(self, index: TargetIndex, source: str):
        self.index, self.source = index, source
        self.seen: set[str] = set()
        self.given = self.in_dataset = self.in_upstream = 0
        self.unknown: list[str] = []

    def add(self, key: str) -> dict[str, int | None]:
        """{scheme: the reference position the id names under it, or None}; the caller checks `seen` first."""
        self.seen.add(key)
        self.given += 1
        positions = {DATASET_IDS: self.index.position.get(key), UPSTREAM_IDS: self.index.upstream_position.get(key)}
        self.in_dataset += positions[DATASET_IDS] is not None
        self.in_upstream += positions[UPSTREAM_IDS] is not None
        if positions[DATASET_IDS] is None and positions[UPSTREAM_IDS] is None:
            self.unknown.append(key)
            if len(self.unknown) > MAX_UNKNOWN_IDS:
                raise self.index.unknown_error(self.unknown, self.given, self.source, stopped=True)
        return positions

    def scheme(self) -> str:
        """Which id scheme names all the targets given; a mix or an unknown id is an error."""
        if self.in_upstream == self.given:
            return UPSTREAM_IDS
        if self.in_dataset == self.given:
            return DATASET_IDS
        if not self.unknown:
            raise MetricInputError(
                f"{self.source}: mixes {self.in_dataset:,} dataset ids (the `id` column) and {self.in_upstream:,} "
                "upstream SWORDS ids (`upstream_id`, t:…); use one scheme per file"
            )
        raise self.index.unknown_error(self.unknown, self.given, self.source)
