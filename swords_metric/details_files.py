"""Details files: what `swords evaluate --details FILE` (Scorer.read/prepare with details=FILE, and
Scorer.write_comparison) writes, in the format its extension names: `.jsonl`, `.csv` or `.parquet`.

One file, one table: every record has `kind` and the target's ids, target and POS; a `substitute` record adds
SUBSTITUTE_FIELDS, a `target` record TARGET_FIELDS (a comparison file has `pair` records, PAIR_FIELDS). JSONL
writes each record's own fields after a first `header` record; CSV and Parquet have every column of the file's
kind in every row (empty where a field is not the row's), lists as JSON text in CSV and as lists in Parquet.

A file is written as a stream (records go out as targets are scored) into a temporary file beside it, renamed
when complete (swords_dataset.files.atomic_writer). An existing file is replaced only if this toolkit wrote it,
recognised by its content: the JSONL header record, the CSV's exact first line, the Parquet schema's metadata.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from swords_dataset.errors import SwordsError
from swords_dataset.files import atomic_writer, check_output_file

from .core import MetricInputError
from .explain import FAMILY_NAMES

DETAILS, COMPARISON = "swords-lexsub details", "swords-lexsub comparison"
VERSION = 1
EXTENSIONS = (".jsonl", ".csv", ".parquet")
PARQUET_METADATA_KEY = b"swords_lexsub"
ROW_BATCH = 8192  # Parquet rows buffered before a row group is written

COMMON_FIELDS = ("kind", "id", "upstream_id", "target", "pos")
SUBSTITUTE_FIELDS = ("position", "substitute", "score", "lemma", "empty", "dropped", "merged_into_rank", "rank",
                     "in_strict_top_k", "in_lenient_top_k", "class", "gold_score", "votes_positive", "votes_total",
                     "relation")
_FAMILY_FIELDS = tuple(f"{name}_{part}" for name in FAMILY_NAMES
                       for part in ("hits", "predicted", "reference_k", "reference", "p", "r", "f"))
TARGET_FIELDS = ("in_predictions", "substitutes_given", "substitutes_counted", "reference_size", "acceptable",
                 "conceivable", *_FAMILY_FIELDS, "gap", "gap_rat", "top", "acceptable_missed")
PAIR_FIGURES = tuple(f"{name}_{part}" for name in FAMILY_NAMES for part in ("p", "r", "f")) + ("gap", "gap_rat",
                                                                                                "top")
PAIR_FIELDS = ("difference", *(f"{side}_{field}" for side in ("a", "b") for field in ("in_predictions",
                                                                                      *PAIR_FIGURES)))
DETAILS_COLUMNS = COMMON_FIELDS + SUBSTITUTE_FIELDS + TARGET_FIELDS
COMPARISON_COLUMNS = COMMON_FIELDS + PAIR_FIELDS
_COLUMNS = {DETAILS: DETAILS_COLUMNS, COMPARISON: COMPARISON_COLUMNS}

_STRINGS = {"kind", "id", "upstream_id", "target", "pos", "substitute", "lemma", "dropped", "class", "relation"}
_BOOLEANS = {"empty", "in_strict_top_k", "in_lenient_top_k", "in_predictions", "a_in_predictions", "b_in_predictions"}
_LISTS = {"top", "acceptable_missed", "a_top", "b_top"}
_FLOATS = {"score", "gold_score", "difference"}


def field_type(name: str) -> str:
    """A column's type: string, bool, list (of strings), float or int."""
    if name in _STRINGS:
        return "string"
    if name in _BOOLEANS:
        return "bool"
    if name in _LISTS:
        return "list"
    if name in _FLOATS or name.endswith(("_p", "_r", "_f", "gap", "gap_rat")):
        return "float"
    return "int"


# -- recognising our files, checking where one may go --


def _first_line(path: Path, limit: int = 1 << 20) -> bytes:
    with open(path, "rb") as f:
        return f.readline(limit)


def is_details_file(path: str | Path) -> bool:
    """Whether `path` is a details or comparison file this toolkit wrote (in any of the three formats)."""
    path = Path(path)
    try:
        first = _first_line(path)
        if first.startswith(b"PAR1"):
            import pyarrow.parquet as pq

            metadata = pq.read_schema(path).metadata or {}
            return PARQUET_METADATA_KEY in metadata
        if first.rstrip(b"\r\n") in {",".join(columns).encode() for columns in _COLUMNS.values()}:
            return True
        header = json.loads(first)
    except Exception:  # unreadable, not JSON, not Parquet: not ours
        return False
    return isinstance(header, dict) and header.get("kind") == "header" and header.get("format") in _COLUMNS


def check_details_path(path: str | Path, option: str = "details") -> Path:
    """Before any work: a details file can be written at `path`: a known extension, an ordinary writable
    place (see swords_dataset.files.check_output_file; the folder must exist), and no file there that this
    toolkit did not write. Each problem is one MetricInputError naming the option and the path."""
    path = Path(path)
    what = f"{option} {path}"
    suffix = path.suffix.lower()
    if suffix not in EXTENSIONS:
        shown = f"extension {suffix!r}" if suffix else "no extension"
        raise MetricInputError(f"{what}: {shown}; a details file is .jsonl, .csv or .parquet")
    try:
        check_output_file(path, what, kind="details files")
    except SwordsError as error:
        raise MetricInputError(str(error)) from None
    if path.exists() and not is_details_file(path):
        raise MetricInputError(f"{what}: the file exists and was not written by swords evaluate --details; it is "
                               "left as it is (choose another name, or remove it yourself)")
    return path


# -- writing --


def _csv_cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, float):
        return repr(value)
    return str(value)


class DetailsWriter:
    """A details (or comparison) file being written: `write` one record at a time, then `close` (the file
    appears complete, atomically) or `abort` (the temporary file goes; an existing file is left as it was).
    Also a context manager: an exception aborts."""

    def __init__(self, path: str | Path, kind: str, header: dict) -> None:
        self.path, self.columns = Path(path), _COLUMNS[kind]
        self.format = self.path.suffix.lower()
        self.records = 0
        header = {"kind": "header", "format": kind, "version": VERSION, **header}
        self._context = atomic_writer(self.path)
        self._file = self._context.__enter__()
        try:
            self._start(header)
        except BaseException as error:
            self.abort(error)
            raise

    def _start(self, header: dict) -> None:
        if self.format == ".jsonl":
            self._file.write((json.dumps(header, ensure_ascii=False) + "\n").encode("utf-8"))
        elif self.format == ".csv":
            self._text = io.TextIOWrapper(self._file, encoding="utf-8", newline="")
            self._csv = csv.writer(self._text, lineterminator="\n")
            self._csv.writerow(self.columns)
        else:
            import pyarrow as pa
            import pyarrow.parquet as pq

            types = {"string": pa.string(), "bool": pa.bool_(), "list": pa.list_(pa.string()), "float": pa.float64(),
                     "int": pa.int64()}
            self._schema = pa.schema([(name, types[field_type(name)]) for name in self.columns],
                                     metadata={PARQUET_METADATA_KEY: json.dumps(header).encode("utf-8")})
            self._parquet = pq.ParquetWriter(self._file, self._schema)
            self._batch: dict[str, list] = {name: [] for name in self.columns}

    def write(self, record: dict) -> None:
        self.records += 1
        if self.format == ".jsonl":
            self._file.write((json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8"))
        elif self.format == ".csv":
            self._csv.writerow([_csv_cell(record.get(name)) for name in self.columns])
        else:
            for name, values in self._batch.items():
                values.append(record.get(name))
            if len(self._batch["kind"]) >= ROW_BATCH:
                self._flush_batch()

    def _flush_batch(self) -> None:
        import pyarrow as pa

        self._parquet.write_table(pa.Table.from_pydict(self._batch, schema=self._schema))
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
        except BaseException as error:
            self.abort(error)
            raise
        self._context.__exit__(None, None, None)

    def abort(self, error: BaseException) -> None:
        """Drop the temporary file (a full disk becomes atomic_writer's one-line SwordsError, raised here)."""
        # Let go of the format's own writer first: left to the garbage collector, it would flush into a closed
        # file and print a warning.
        for release in (lambda: self._text.detach(), lambda: self._parquet.close()):
            try:
                release()
            except Exception:  # not made, already released, or the disk is full: the file goes anyway
                pass
        self._context.__exit__(type(error), error, error.__traceback__)

    def __enter__(self) -> DetailsWriter:
        return self

    def __exit__(self, kind, error, traceback) -> bool:
        if error is None:
            self.close()
        else:
            self.abort(error)
        return False
