"""Reading and writing prediction files: the upstream SWORDS result format and JSONL.

Upstream:  {"substitutes_lemmatized": bool, "substitutes": {target_id: [[substitute, score], ...]}}
JSONL:     one {"id": target_id, "substitutes": [...]} a line; substitutes as strings (ranked by position),
           [substitute, score] pairs or {"substitute": ..., "score": ...} objects.

Either may be gzipped (`.gz`); target ids may be of either scheme. PredictionFile streams one target at a time,
never holding more than one target's JSON and a block of text.
"""

from __future__ import annotations

import gzip
import json
import math
from collections.abc import Iterator
from pathlib import Path

from swords_lexsub.files import atomic_write
from swords_metric.errors import MetricInputError, shown
from swords_metric.predictions.bounded_text import ValueCursor, check_file, decode_line, json_lines, text_blocks
from swords_metric.predictions.items import normalize_prediction_items

Predictions = dict[str, list[tuple[str, float]]]

# Far above any real file (CoInCo dev with 700 scored substitutes a target is about 250 MB).
MAX_PREDICTIONS_BYTES = 1 << 30
# One target's JSON, in characters (100,000 scored substitutes are about 3 MB).
MAX_TARGET_CHARS = 16 << 20

UPSTREAM, JSONL = "upstream", "jsonl"
ACCEPTED = "JSON lines (.jsonl) or an upstream SWORDS result (.json), either may be .gz"
# A metrics file (`swords evaluate --output`, `swords run`, also .json) starts with one of these: named for what it is.
METRICS_KEYS = frozenset({"lenient_a_p@10", "lenient_a_f@10", "signature", "run"})
METRICS_FILE = f"a metrics file (the figures swords evaluate and swords run write), not predictions: give {ACCEPTED}"
OTHER_FORMATS = {".tsv": "TSAR-2022's format", ".csv": "ProLex's format"}


def not_predictions(path: Path) -> str:
    """Why a file that does not start as JSON is not predictions: what it looks like, and what is read."""
    suffix = path.suffix.lower() if path.suffix.lower() != ".gz" else Path(path.stem).suffix.lower()
    if suffix in OTHER_FORMATS:
        return (
            f"not JSON: a {suffix} file ({OTHER_FORMATS[suffix]}, scored on that benchmark); "
            f"the SWORDS metrics read {ACCEPTED}"
        )
    return f"not JSON: predictions are {ACCEPTED}"


class PredictionFile:
    """A predictions file, read one target at a time: iterating gives (target id, its substitutes as the file holds
    them, "FILE:LINE"); after iterating, `format` is "upstream" or "jsonl" and `substitutes_lemmatized` the upstream
    file's flag. Every problem is a MetricInputError naming file and line."""

    def __init__(
        self, path: str | Path, max_bytes: int = MAX_PREDICTIONS_BYTES, max_target_chars: int = MAX_TARGET_CHARS
    ):
        self.path = Path(path)
        self.max_bytes, self.max_target_chars = max_bytes, max_target_chars
        self.format: str | None = None
        self.substitutes_lemmatized = False
        check_file(self.path, max_bytes)

    def __iter__(self) -> Iterator[tuple[str, object, str]]:
        self.format = self._detect()
        blocks = text_blocks(self.path, self.max_bytes)
        if self.format == UPSTREAM:
            return self._upstream(ValueCursor(blocks, str(self.path), self.max_target_chars))
        return self._jsonl(blocks)

    def duplicate(self, target_id: str, where: str) -> MetricInputError:
        """The error for a target given a second time, at `where`."""
        if self.format == UPSTREAM:
            return MetricInputError(f"{where}: key {shown(target_id, 80)} appears twice in one JSON object")
        return MetricInputError(f"{where}: target {shown(target_id, 80)} appears twice")

    def _detect(self) -> str:
        """UPSTREAM when the first JSON object has 'substitutes_lemmatized' or maps 'substitutes' to an object; else
        JSONL (whose reader then names any problem)."""
        cursor = ValueCursor(text_blocks(self.path, self.max_bytes), str(self.path), self.max_target_chars)
        try:
            first = cursor.peek()
            if not first:
                raise MetricInputError(f"{self.path}: empty file")
            if first != "{":
                if first not in '["-0123456789tfn':  # cannot start JSON: say what the file is, and what is read
                    raise MetricInputError(f"{self.path}:1: {not_predictions(self.path)}")
                return JSONL
            cursor.take("{", "an object")
            while cursor.peek() == '"':
                key = cursor.value("a key")
                cursor.take(":", "':'")
                if key == "substitutes_lemmatized":
                    return UPSTREAM
                if key == "substitutes":
                    return UPSTREAM if cursor.peek() == "{" else JSONL
                if key == "id":
                    return JSONL
                if key in METRICS_KEYS:
                    raise MetricInputError(f"{self.path}: {METRICS_FILE}")
                cursor.value(f"the value of {shown(key, 40)}")
                if cursor.peek() != ",":
                    break
                cursor.take(",", "','")
            return JSONL
        except MetricInputError as error:
            if str(error).endswith((": empty file", METRICS_FILE)) or ": not JSON: " in str(error):
                raise
            return JSONL  # read again as lines, which names the problem where it is

    def _jsonl(self, blocks) -> Iterator[tuple[str, object, str]]:
        def too_long(number: int) -> MetricInputError:
            return MetricInputError(
                f"{self.path}:{number}: the line holds more than {self.max_target_chars:,} "
                "characters of JSON, the most one target's predictions may take"
            )

        records = 0
        for number, line in json_lines(blocks, self.max_target_chars, too_long):
            where = f"{self.path}:{number}"
            record = decode_line(line, where)
            if not isinstance(record, dict):
                raise MetricInputError(
                    f"{where}: expected a JSON object with 'id' and 'substitutes' (JSON lines) or "
                    f"with 'substitutes' (an upstream result file), got a {type(record).__name__}"
                )
            if "id" not in record or "substitutes" not in record:
                raise MetricInputError(f"{where}: expected an object with 'id' and 'substitutes'")
            target_id = record["id"]
            if not isinstance(target_id, str | int) or isinstance(target_id, bool):
                raise MetricInputError(f"{where}: 'id' must be a string, got {shown(target_id)}")
            records += 1
            yield str(target_id), record["substitutes"], where
        if not records:
            raise MetricInputError(f"{self.path}: empty file")

    def _upstream(self, cursor: ValueCursor) -> Iterator[tuple[str, object, str]]:
        """The members of the file's one object; the targets of its 'substitutes' object one at a time."""
        keys: set[str] = set()
        for line, key in self._members(cursor):
            if key in keys:
                raise MetricInputError(f"{self.path}:{line}: key {shown(key, 80)} appears twice in one JSON object")
            keys.add(key)
            if key == "substitutes" and cursor.peek() == "{":
                for at, target_id in self._members(cursor):
                    yield target_id, cursor.value(f"target {shown(target_id, 40)}"), f"{self.path}:{at}"
                continue
            value = cursor.value(f"the value of {shown(key, 40)}")
            if key == "substitutes":
                raise MetricInputError(
                    f"{self.path}: 'substitutes' must map target ids to lists, got {type(value).__name__}"
                )
            if key == "substitutes_lemmatized":
                self.substitutes_lemmatized = bool(value)
        if cursor.peek():
            raise cursor.located("extra data after the JSON object")
        if "substitutes" not in keys:
            raise MetricInputError(
                f"{self.path}: an upstream result file needs 'substitutes' (target id -> substitutes)"
            )

    def _members(self, cursor: ValueCursor) -> Iterator[tuple[int, str]]:
        """(line, key) of each member of the object at the cursor; the caller takes its value before the next."""
        cursor.take("{", "an object")
        first = True
        while cursor.peek() != "}":
            if not first:
                cursor.take(",", "',' or '}'")
            first = False
            line = cursor.position()[0]
            if cursor.peek() != '"':
                cursor.take('"', "a key (a string in double quotes)")
            key = cursor.value("a key")
            cursor.take(":", "':'")
            yield line, key
        cursor.take("}", "'}'")


def read_predictions(
    path: str | Path, max_bytes: int = MAX_PREDICTIONS_BYTES, max_target_chars: int | None = None
) -> tuple[Predictions, dict]:
    """(target id -> [(substitute, score)], {"format": ..., "substitutes_lemmatized": ...}), the whole file in memory
    (Scorer.read scores a file in bounded memory). Every problem is a MetricInputError naming file and line."""
    file = PredictionFile(path, max_bytes, max_target_chars or max_bytes)
    predictions: Predictions = {}
    for target_id, items, where in file:
        if target_id in predictions:
            raise file.duplicate(target_id, where)
        predictions[target_id] = normalize_prediction_items(items, target_id, where)
    return predictions, {"format": file.format, "substitutes_lemmatized": file.substitutes_lemmatized}


def _written_items(target_id: str, items: list[tuple[str, float]]) -> list[list]:
    """[[substitute, score]] as standard JSON holds them: ±infinity as "inf" / "-inf" (float() reads them back)."""
    written = []
    for position, (substitute, score) in enumerate(items):
        if isinstance(score, float) and not math.isfinite(score):
            if score != score:
                raise MetricInputError(
                    f"target {target_id}: item {position} ({shown(substitute, 40)}): "
                    "score is NaN, which cannot be ranked or written as JSON"
                )
            score = repr(score)
        written.append([substitute, score])
    return written


def utf8_json(value) -> bytes:
    """Standard JSON as UTF-8 (a lone surrogate as JSON's escape)."""
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False).encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(value, allow_nan=False).encode("ascii")


def write_predictions(path: str | Path, predictions: Predictions, substitutes_lemmatized: bool = False) -> None:
    """Write atomically, in standard JSON; the format follows the suffix: .jsonl(.gz) or upstream .json(.gz)."""
    path = Path(path)
    name = path.name[:-3] if path.name.endswith(".gz") else path.name
    if name.endswith(".jsonl"):
        data = b"".join(
            utf8_json({"id": tid, "substitutes": _written_items(tid, items)}) + b"\n"
            for tid, items in predictions.items()
        )
    else:
        data = utf8_json(
            {
                "substitutes_lemmatized": substitutes_lemmatized,
                "substitutes": {tid: _written_items(tid, items) for tid, items in predictions.items()},
            }
        )
    atomic_write(path, gzip.compress(data, mtime=0) if path.suffix == ".gz" else data)
