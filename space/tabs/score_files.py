"""The file the Score tab scores: an upload (checked before any reading: it arrived, not empty, at most
MAX_UPLOAD_BYTES) or a stored baseline's, read once as a stream through the metric; its faults are messages naming
the file as the user knows it."""

from __future__ import annotations

from pathlib import Path

from swords_metric import MetricInputError, Scorer, UnknownTargetsError
from swords_space import benchmarks, render
from swords_space.errors import SpaceError
from swords_space.stored import stored_path

MAX_UPLOAD_BYTES = 20 * 1024 * 1024
# What a predictions file may expand to (100 substitutes for each CoInCo dev target: about 20-30 MB); a .gz expanding
# past it is refused as it gets there. Read a target at a time: memory grows with the targets, not the file.
MAX_UNCOMPRESSED_BYTES = 32 * 1024 * 1024


def chosen_file(upload: str | Path | None, stored: str | None, folder: str | Path | None) -> Path | None:
    """The file an upload or a stored baseline's choice names (an upload first), checked before any reading."""
    if not upload:
        return stored_path(stored, folder) if stored else None
    path = Path(upload)
    if not path.is_file():
        raise SpaceError("The upload did not arrive; try again.")
    size, shown = path.stat().st_size, render.visible(path.name)
    if size > MAX_UPLOAD_BYTES:
        raise SpaceError(f"{shown} is {size / 2**20:.1f} MB; the limit is {MAX_UPLOAD_BYTES // 2**20} MB.")
    if size == 0:
        raise SpaceError(f"{shown} is empty.")
    return path


def read_predictions(scorer: Scorer, path: Path, shown: str):
    """A predictions file read once, as a stream, prepared for every figure; its faults are messages."""
    try:
        return scorer.read(
            path, max_bytes=MAX_UNCOMPRESSED_BYTES, max_target_chars=MAX_UNCOMPRESSED_BYTES, source=shown
        )
    except UnknownTargetsError as error:
        hint = f". Choose {benchmarks.split_label(*error.belongs_to)} as the benchmark." if error.belongs_to else "."
        raise SpaceError(str(error).replace(str(path), shown) + hint) from None
    except MetricInputError as error:
        raise SpaceError(str(error).replace(str(path), shown)) from None
