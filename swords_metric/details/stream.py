"""The hook between a Scorer preparing predictions and a details file: `details_observer` gives the stream whose
`observe` prepare_predictions calls for each target as it is prepared (None without a details path), and finishes the
file, or drops it if preparing fails. The writing itself (swords_metric/details/writer.py,
swords_metric/details/formats.py) is imported only when a details file is asked for."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def details_observer(scorer, path: str | Path | None, source: str, force: bool = False) -> Iterator:
    """`force`: replace a details file that changed since swords evaluate wrote it (swords_metric/details/place.py)."""
    if path is None:
        yield None
        return
    from swords_metric.details.place import DetailsPlace, details_place
    from swords_metric.details.writer import DetailsStream

    place = path if isinstance(path, DetailsPlace) else details_place(path, force=force)
    stream = DetailsStream(scorer, place, source)
    try:
        yield stream
    except BaseException as error:
        stream.abort(error)
        raise
    stream.finish()
