"""A details (or comparison) file: one table whose every record has `kind` and the target's ids, target and POS (a
`substitute` record adds SUBSTITUTE_FIELDS, a `target` record TARGET_FIELDS, a `pair` record PAIR_FIELDS), marked as
ours by a JSONL header record, a CSV's first line or a Parquet file's metadata key. JSONL holds each record's own
fields; CSV and Parquet every column of the file's kind, lists as JSON text in CSV.

Each value's text, alike for every reader: a CSV text cell a spreadsheet would run as a formula gets a leading `'`
(OWASP's rule); a lone surrogate stays a JSON escape in JSONL and becomes U+FFFD in CSV and Parquet; a score of
±infinity is "inf" or "-inf" in JSONL, never Infinity.
"""

from __future__ import annotations

import codecs
import contextlib
import csv
import hashlib
import io
import json
import math
import re
from collections.abc import Callable
from pathlib import Path

from swords_lexsub.files import atomic_writer
from swords_metric.details.explain import FIGURE_PARTS
from swords_metric.metrics.ranking import PR_FAMILY_NAMES
from swords_metric.predictions.files import utf8_json

DETAILS, COMPARISON = "swords-lexsub details", "swords-lexsub comparison"
VERSION = 1
EXTENSIONS = (".jsonl", ".csv", ".parquet")
PARQUET_METADATA_KEY = b"swords_lexsub"

COMMON_FIELDS = ("kind", "id", "upstream_id", "target", "pos")
SUBSTITUTE_FIELDS = tuple(
    "position substitute score lemma empty dropped merged_into_rank rank in_strict_top_k in_lenient_top_k class "
    "gold_score votes_positive votes_total relation".split()
)
_FAMILY_FIELDS = tuple(f"{name}_{part}" for name in PR_FAMILY_NAMES for part in FIGURE_PARTS)
TARGET_FIELDS = (
    *"in_predictions substitutes_given substitutes_counted reference_size acceptable conceivable".split(),
    *_FAMILY_FIELDS,
    *"gap gap_rat top acceptable_missed".split(),
)
PAIR_FIGURES = (*(f"{name}_{part}" for name in PR_FAMILY_NAMES for part in "prf"), "gap", "gap_rat", "top")
PAIR_FIELDS = ("difference", *(f"{side}_{field}" for side in ("a", "b") for field in ("in_predictions", *PAIR_FIGURES)))
COLUMNS = {DETAILS: COMMON_FIELDS + SUBSTITUTE_FIELDS + TARGET_FIELDS, COMPARISON: COMMON_FIELDS + PAIR_FIELDS}
FORMATS = tuple(COLUMNS)
HEADER_LINES = frozenset(",".join(columns).encode() for columns in COLUMNS.values())  # a CSV's first line

STRING_FIELDS = {"kind", "id", "upstream_id", "target", "pos", "substitute", "lemma", "dropped", "class", "relation"}
_BOOLEANS = {"empty", "in_strict_top_k", "in_lenient_top_k", "in_predictions", "a_in_predictions", "b_in_predictions"}
_LISTS = {"top", "acceptable_missed", "a_top", "b_top"}
_FLOATS = {"score", "gold_score", "difference"}


def field_type(name: str) -> str:
    """A column's type: string, bool, list (of strings), float or int."""
    if name in STRING_FIELDS:
        return "string"
    if name in _BOOLEANS:
        return "bool"
    if name in _LISTS:
        return "list"
    if name in _FLOATS or name.endswith(("_p", "_r", "_f", "gap", "gap_rat")):
        return "float"
    return "int"


# OWASP's "CSV injection": a cell beginning with one of these is run as a formula; and "'", so that the quote added
# can be told from one that was there.
_FORMULA_STARTS = frozenset("=+-@\t\r'")
SPREADSHEET_QUOTE = "'"


def spreadsheet_safe(text: str) -> str:
    """A CSV text cell as a spreadsheet will not run it."""
    return SPREADSHEET_QUOTE + text if text[:1] in _FORMULA_STARTS else text


_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATES = re.compile("[\ud800-\udfff]+")
REPLACE_SURROGATES = "swords-lexsub.replace-surrogates"


def _replace_surrogates(error: UnicodeError) -> tuple[bytes, int]:
    """A codec error handler: each lone surrogate becomes U+FFFD (any other encoding error is raised)."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    piece = error.object[error.start : error.end]
    if not _SURROGATES.fullmatch(piece):
        raise error
    # As bytes: CPython's UTF-8 encoder takes a handler's replacement text only if it is ASCII.
    return "\ufffd".encode() * len(piece), error.end


codecs.register_error(REPLACE_SURROGATES, _replace_surrogates)


def utf8_text(value):
    """A string (or each string of a list) with lone surrogates replaced by U+FFFD, for Parquet's UTF-8."""
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    return [utf8_text(item) for item in value] if isinstance(value, list) else value


def json_line(record: dict) -> bytes:
    """A record as one line of standard JSON in UTF-8."""
    score = record.get("score")
    if isinstance(score, float) and not math.isfinite(score):
        record = {**record, "score": repr(score)}
    return utf8_json(record) + b"\n"


def _csv_cell(name: str, value) -> str:
    """A record's value (not None) as CSV text."""
    kind = type(value)
    if kind is str:
        return spreadsheet_safe(value) if name in STRING_FIELDS else value
    if kind is bool:
        return "true" if value else "false"
    if kind is float:
        return repr(value)
    if kind is list:
        return json.dumps(value, ensure_ascii=False, allow_nan=False)
    return str(value)


def csv_row(record: dict, positions: dict[str, int], width: int) -> list[str]:
    """A record as a CSV row of `width` cells: its own fields where `positions` puts them, empty elsewhere."""
    row = [""] * width
    for name, value in record.items():
        position = positions.get(name)
        if value is not None and position is not None:
            row[position] = _csv_cell(name, value)
    return row


ROW_BATCH = 8192  # Parquet rows buffered before a row group is written


class _Fingerprinted:
    """The temporary file a details file is written to, hashing and counting the bytes on their way in (place.py)."""

    def __init__(self, file) -> None:
        self._file, self.digest, self.size = file, hashlib.sha256(), 0

    def write(self, data) -> int:
        view = memoryview(data)
        self.digest.update(view)
        self.size += view.nbytes
        return self._file.write(data)

    def __getattr__(self, name: str):
        return getattr(self._file, name)


class DetailsWriter:
    """A details (or comparison) file being written: `write` one record at a time, then `close` (the file appears
    complete, atomically) or `abort` (an existing file is left as it was); as a context manager, an exception aborts.
    `on_complete` is told the finished file's {"sha256", "bytes"} just before the rename."""

    def __init__(
        self, path: str | Path, kind: str, header: dict, on_complete: Callable[[dict], None] | None = None
    ) -> None:
        self.path, self.columns = Path(path), COLUMNS[kind]
        self.format = self.path.suffix.lower()
        self.records = 0
        self._on_complete = on_complete
        header = {"kind": "header", "format": kind, "version": VERSION, **header}
        self._context = atomic_writer(self.path)
        self._file = _Fingerprinted(self._context.__enter__())
        try:
            self._start(header)
        except BaseException as error:
            self.abort(error)
            raise

    def _start(self, header: dict) -> None:
        if self.format == ".jsonl":
            self._file.write(json_line(header))
        elif self.format == ".csv":
            self._text = io.TextIOWrapper(self._file, encoding="utf-8", errors=REPLACE_SURROGATES, newline="")
            self._csv = csv.writer(self._text, lineterminator="\r\n")  # so a "\r" in a field is quoted
            self._csv.writerow(self.columns)
            self._positions = {name: i for i, name in enumerate(self.columns)}
        else:
            import pyarrow as pa
            import pyarrow.parquet as pq

            types = {"string": pa.string(), "bool": pa.bool_(), "list": pa.list_(pa.string())}
            types |= {"float": pa.float64(), "int": pa.int64()}
            self._schema = pa.schema(
                [(name, types[field_type(name)]) for name in self.columns],
                metadata={PARQUET_METADATA_KEY: json.dumps(header, allow_nan=False).encode()},
            )
            self._parquet = pq.ParquetWriter(self._file, self._schema)
            self._batch: dict[str, list] = {name: [] for name in self.columns}

    def write(self, record: dict) -> None:
        self.records += 1
        if self.format == ".jsonl":
            self._file.write(json_line(record))
        elif self.format == ".csv":
            self._csv.writerow(csv_row(record, self._positions, len(self.columns)))
        else:
            for name, values in self._batch.items():
                values.append(record.get(name))
            if len(self._batch["kind"]) >= ROW_BATCH:
                self._flush_batch()

    def _flush_batch(self) -> None:
        import pyarrow as pa

        try:
            table = pa.Table.from_pydict(self._batch, schema=self._schema)
        except UnicodeEncodeError:  # a lone surrogate, which Parquet's UTF-8 cannot hold
            table = pa.Table.from_pydict(
                {name: [utf8_text(value) for value in values] for name, values in self._batch.items()},
                schema=self._schema,
            )
        self._parquet.write_table(table)
        self._batch = {name: [] for name in self.columns}

    def close(self) -> None:
        """Finish the file and put it in place."""
        try:
            if self.format == ".csv":
                self._text.flush()
                self._text.detach()  # the binary file stays open for atomic_writer to finish
            elif self.format == ".parquet":
                if self._batch["kind"]:
                    self._flush_batch()
                self._parquet.close()
            if self._on_complete is not None:
                self._on_complete({"sha256": self._file.digest.hexdigest(), "bytes": self._file.size})
        except BaseException as error:
            self.abort(error)
            raise
        self._context.__exit__(None, None, None)

    def abort(self, error: BaseException) -> None:
        """Drop the temporary file (a full disk becomes atomic_writer's one-line SwordsError, raised here)."""
        # Let go of the format's own writer first: left to the garbage collector, it would flush into a closed
        # file and print a warning. One not made, already released, or on a full disk: the file goes anyway.
        for release in (lambda: self._text.detach(), lambda: self._parquet.close()):
            with contextlib.suppress(Exception):
                release()
        self._context.__exit__(type(error), error, error.__traceback__)

    def __enter__(self) -> DetailsWriter:
        return self

    def __exit__(self, kind, error, traceback) -> bool:
        if error is None:
            self.close()
        else:
            self.abort(error)
        return False
