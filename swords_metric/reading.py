"""A system's predictions prepared against a Scorer's references, once, for every figure: from Python values
(prepare_for: a mapping from target id, or one list per reference) or from a file streamed a target at a time
(read_for); with a details request, the details file written as they are (swords_metric/details/stream.py). And
each prediction before any cut-off, as the official scorers are fed it when they run beside this one (lemma_lists).
Each takes the split's targets as scored (ScoredTargets) and the Scorer that owns what it prepares."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from swords_metric.details.stream import DetailsRequest, details_observer
from swords_metric.errors import MetricInputError
from swords_metric.predictions.files import PredictionFile
from swords_metric.predictions.items import normalize_prediction_items
from swords_metric.predictions.lemmatized import prepare_prediction
from swords_metric.predictions.prepared import PreparedPredictions, prepare_given, prepare_keyed
from swords_metric.references.reference import Reference
from swords_metric.references.scored import ScoredTargets


def prepare_for(
    owner: object,
    targets: ScoredTargets,
    predictions,
    source: str,
    depth: int,
    details: DetailsRequest | None = None,
) -> PreparedPredictions:
    """Scorer.prepare, `depth` deep: predictions `owner` (the Scorer) prepared already are returned as they are."""
    if isinstance(predictions, PreparedPredictions):
        if predictions.owner is not owner:
            raise MetricInputError(f"{predictions.source}: prepared by another Scorer; prepare them with this one")
        if details is not None:
            raise MetricInputError(
                f"{predictions.source}: already prepared; details are written while "
                "predictions are prepared (pass details= to read or prepare)"
            )
        return predictions
    with details_observer(details, targets, source) as stream:
        observe = stream.observe if stream is not None else None
        prepared = prepare_given(
            predictions, targets.rows, targets.references, targets.index, depth, source, owner, observe
        )
    prepared.details_file = stream.written() if stream is not None else None
    return prepared


def read_for(
    owner: object,
    targets: ScoredTargets,
    path: str | Path,
    max_bytes: int,
    max_target_chars: int,
    source: str,
    depth: int,
    details: DetailsRequest | None = None,
) -> PreparedPredictions:
    """Scorer.read: a predictions file, streamed (swords_metric/predictions/files.py), prepared a target at a time."""
    file = PredictionFile(path, max_bytes, max_target_chars)
    with details_observer(details, targets, source) as stream:
        observe = stream.observe if stream is not None else None
        prepared = prepare_keyed(file, targets.references, targets.index, depth, source, owner, file.duplicate, observe)
    prepared.file_format, prepared.substitutes_lemmatized = file.format, file.substitutes_lemmatized
    prepared.details_file = stream.written() if stream is not None else None
    return prepared


def lemma_lists(aligned: Sequence, references: Sequence[Reference | None]) -> list[list[tuple[str, float]] | None]:
    """Scorer.lemma_lists: each prediction in reference order as prepare_prediction gives it, no cut-off."""
    return [
        None if items is None or reference is None else prepare_prediction(normalize_prediction_items(items), reference)
        for items, reference in zip(aligned, references, strict=True)
    ]
