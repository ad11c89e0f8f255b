"""The hook between a Scorer preparing predictions and a details file: `details_observer` gives the stream whose
`observe` prepare_predictions calls for each target as it is prepared (None without a details file asked for), and
finishes the file, or drops it if preparing fails. The writing itself (swords_metric/details/writer.py,
swords_metric/details/formats.py) is imported only when a details file is asked for."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from swords_metric.references.scored import ScoredTargets


@dataclass(frozen=True)
class DetailsRequest:
    """A details file asked of a Scorer: where it goes (a path, or a DetailsPlace already checked), whether it may
    replace one that changed since swords evaluate wrote it (`force`: swords_metric/details/place.py), and the
    Scorer's settings its header states (config, split, setting, k, signature: k is the cut-off its records use)."""

    path: str | Path
    force: bool
    settings: dict


@contextmanager
def details_observer(request: DetailsRequest | None, targets: ScoredTargets, source: str) -> Iterator:
    """The stream writing `request`'s details file of the predictions of `source` against `targets`, or None."""
    if request is None:
        yield None
        return
    from swords_metric.details.place import DetailsPlace, details_place
    from swords_metric.details.writer import DetailsStream

    path = request.path
    place = path if isinstance(path, DetailsPlace) else details_place(path, force=request.force)
    stream = DetailsStream(targets, place, source, request.settings)
    try:
        yield stream
    except BaseException as error:
        stream.abort(error)
        raise
    stream.finish()
