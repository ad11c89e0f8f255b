"""Writing a details (or comparison) file, a record at a time (DetailsWriter), in the format its extension names:
`.jsonl`, `.csv` or `.parquet`; its records and columns are swords_metric/details/columns.py's, each value's text
swords_metric/details/cells.py's. JSONL writes each record's own fields after a first `header` record; CSV and
Parquet have every column of the file's kind in every row (empty where a field is not the row's), lists as JSON text
in CSV and as lists in Parquet. The CSV ends lines with CRLF (RFC 4180), so that a field holding a carriage return is
quoted like one holding a newline.

A file is written as a stream (records go out as targets are scored) into a temporary file beside it, renamed when
complete (swords_lexsub.files.atomic_writer); which existing file it may replace is swords_metric/details/place.py's
concern, told the finished file's sha256 just before the rename.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from collections.abc import Callable
from pathlib import Path

from swords_lexsub.files import atomic_writer
from swords_metric.details.cells import REPLACE_SURROGATES, csv_row, json_line, utf8_text
from swords_metric.details.columns import COLUMNS, PARQUET_METADATA_KEY, VERSION, field_type

ROW_BATCH = 8192  # Parquet rows buffered before a row group is written


class _Fingerprinted:
    """The temporary file a details file is written to, hashing and counting the bytes on their way in (the
    record of what was written: swords_metric/details/place.py). Everything else is the file's own."""

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
    """A details (or comparison) file being written: `write` one record at a time, then `close` (the file
    appears complete, atomically) or `abort` (the temporary file goes; an existing file is left as it was).
    Also a context manager: an exception aborts."""

    def __init__(
        self, path: str | Path, kind: str, header: dict, on_complete: Callable[[dict], None] | None = None
    ) -> None:
        """`on_complete` is told the finished file's {"sha256", "bytes"} just before it is renamed into place; an
        exception there aborts the write."""
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

            types = {
                "string": pa.string(),
                "bool": pa.bool_(),
                "list": pa.list_(pa.string()),
                "float": pa.float64(),
                "int": pa.int64(),
            }
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
