"""A system's predictions prepared against a Scorer's references, one target at a time: only what the metrics use of
each list is kept (a RankedPrediction), so a predictions file costs memory per target, not per substitute."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from swords_metric.errors import MetricInputError, shown
from swords_metric.metrics.ranking import RankedPrediction, rank_prediction
from swords_metric.options import numpy_types
from swords_metric.predictions.items import normalize_prediction_items
from swords_metric.predictions.lemmatized import InputNotes, prepare_prediction
from swords_metric.references.reference import Reference
from swords_metric.references.target_ids import DATASET_IDS, UPSTREAM_IDS, TargetIndex

# A target given predictions that is not scored (no reference, or one of CoInCo's problematic targets).
GIVEN = "given"


@dataclass(eq=False)
class PreparedPredictions:
    """Per reference row, in order: a RankedPrediction, GIVEN, or None (not in the input). Made by Scorer.prepare or
    Scorer.read; scored by the Scorer that made it."""

    ranked: list[RankedPrediction | str | None]
    scheme: str | None  # how the input named targets: DATASET_IDS, UPSTREAM_IDS, or None (a list in order)
    given: int  # how many targets the input named
    notes: InputNotes
    source: str
    depth: int
    owner: object = field(repr=False)
    file_format: str | None = None  # "upstream" or "jsonl" when read from a file
    substitutes_lemmatized: bool = False  # the upstream file's flag
    details_file: tuple[Path, int] | None = None  # the details file written while preparing: path, records

    def given_mask(self) -> list[bool]:
        """Per reference: whether the input gave it predictions (an empty list counts as given)."""
        return [slot is not None for slot in self.ranked]

    def subset(self, positions: Sequence[int], owner: object) -> PreparedPredictions:
        """The predictions of the references at `positions`, for the scorer of just those (`owner`)."""
        return replace(self, ranked=[self.ranked[i] for i in positions], owner=owner, details_file=None)


# Told of each scored target as it is prepared (the details file is written so): (reference position, its
# (substitute, score) pairs, its RankedPrediction).
Observer = Callable[[int, list, RankedPrediction], None]


def _ranked(
    items,
    reference: Reference | None,
    depth: int,
    target_id: str,
    where: str,
    notes: InputNotes,
    observe: Observer | None = None,
    position: int = -1,
) -> RankedPrediction | str:
    """One target's list, read and prepared against its reference (every list is read, scored or not)."""
    pairs = normalize_prediction_items(items, target_id, where)
    if reference is None:
        return GIVEN
    prepared = prepare_prediction(pairs, reference, notes)
    if not reference.lemmas:
        return GIVEN
    ranked = rank_prediction(prepared, reference, depth, pairs)
    if observe is not None:
        observe(position, pairs, ranked)
    return ranked


def prepare_given(
    predictions,
    rows: Sequence[Mapping],
    references: Sequence[Reference | None],
    index: TargetIndex,
    depth: int,
    source: str,
    owner: object,
    observe: Observer | None = None,
) -> PreparedPredictions:
    """Predictions given in Python: a mapping from target id (either scheme), or one list per reference in order."""
    if isinstance(predictions, Mapping):
        records = ((str(key), items, "") for key, items in predictions.items())
        return prepare_keyed(records, references, index, depth, source, owner, observe=observe)
    if isinstance(predictions, str | bytes) or not isinstance(predictions, (Sequence, *numpy_types("ndarray"))):
        got = "None" if predictions is None else f"a {type(predictions).__name__}"
        raise MetricInputError(
            f"{source}: expected a mapping of target id to substitutes, or a list per target; got {got}"
        )
    if len(predictions) != len(references):
        raise MetricInputError(f"{source}: {len(predictions)} prediction lists for {len(references)} references")
    notes = InputNotes()
    ranked = [
        None if items is None else _ranked(items, reference, depth, row["id"], "", notes, observe, position)
        for position, (row, reference, items) in enumerate(zip(rows, references, predictions, strict=True))
    ]
    return PreparedPredictions(ranked, None, len(ranked), notes, source, depth, owner)


class KeyedPreparer:
    """Predictions keyed by target id, prepared as they arrive: until the input shows its id scheme, under each scheme
    that knows the id (once when both name the same reference)."""

    def __init__(
        self,
        references: Sequence[Reference | None],
        index: TargetIndex,
        depth: int,
        source: str,
        observe: Observer | None = None,
    ):
        self.references, self.depth, self.source, self.observe = references, depth, source, observe
        self.ambiguous: list[str] = []  # ids naming one target as dataset id and another as upstream id
        self.tally = index.tally(source)
        self.ranked = {DATASET_IDS: [None] * index.size, UPSTREAM_IDS: [None] * index.size}
        self.notes = {DATASET_IDS: InputNotes(), UPSTREAM_IDS: InputNotes()}

    def add(self, key: str, items, where: str, duplicate: Callable[[str, str], Exception]) -> None:
        if key in self.tally.seen:
            raise duplicate(key, where)
        positions = self.tally.add(key)
        done: dict[int, tuple[RankedPrediction | str, InputNotes]] = {}
        if self.observe is not None and None not in positions.values() and len(set(positions.values())) > 1:
            self.ambiguous.append(key)
        for scheme, position in positions.items():
            if position is None:
                continue
            if position not in done:
                notes = InputNotes()
                observe = self.observe if not done else None
                done[position] = (
                    _ranked(items, self.references[position], self.depth, key, where, notes, observe, position),
                    notes,
                )
            ranked, notes = done[position]
            self.ranked[scheme][position] = ranked
            self.notes[scheme].add(notes)
        if not done:  # an unknown id: its list is still read, so that a bad item is named where it is
            _ranked(items, None, self.depth, key, where, InputNotes())

    def finish(self, owner: object) -> PreparedPredictions:
        scheme = self.tally.scheme()
        if self.ambiguous and scheme == UPSTREAM_IDS:
            raise MetricInputError(
                f"{self.source}: id {shown(self.ambiguous[0], 80)} is one target's id and another's "
                "upstream id; the details cannot tell which target it names"
            )
        return PreparedPredictions(
            self.ranked[scheme], scheme, self.tally.given, self.notes[scheme], self.source, self.depth, owner
        )


def prepare_keyed(
    records: Iterable[tuple[str, object, str]],
    references: Sequence[Reference | None],
    index: TargetIndex,
    depth: int,
    source: str,
    owner: object,
    duplicate: Callable[[str, str], Exception] | None = None,
    observe: Observer | None = None,
) -> PreparedPredictions:
    """Records (target id, substitutes, where for messages), e.g. a mapping's items or a PredictionFile."""
    preparer = KeyedPreparer(references, index, depth, source, observe)
    duplicate = duplicate or (lambda key, where: MetricInputError(f"{source}: target {shown(key, 80)} appears twice"))
    for key, items, where in records:
        preparer.add(key, items, where, duplicate)
    return preparer.finish(owner)
