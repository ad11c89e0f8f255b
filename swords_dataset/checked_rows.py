"""Every split's rows, checked before `swords data verify` counts them (stats.py): the shipped data, or a dataset
folder's Parquet files (`--dataset-dir`).

A dataset folder's file is checked from its metadata before its data are read: a regular file (a FIFO never waited
on), of the dataset's schema, within MAX_GROWTH times the shipped split's rows, values, decompressed pages and text,
so a small file expanding to millions of rows is refused in seconds (a 2.7 MB file of 74,000 rows: 2.3 s and 220 MB,
where reading it took 75 s and 6 GB). Then every row must have what the statistics read and its target at its
offset; the first that does not is named by file, row and column.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from swords_dataset import DATASET_DIR, load, parquet_path
from swords_dataset.schema import ARROW_SCHEMA, REQUIRED_COLUMNS, REQUIRED_SUBSTITUTE_FIELDS
from swords_lexsub.errors import SwordsError
from swords_lexsub.files import open_regular
from swords_lexsub.terminal import clipped

# A dataset folder's split may be at most this many times the shipped split, in rows, values and text; its pages
# may decompress to this many times the shipped ones' size plus an allowance for other writers' encodings.
MAX_GROWTH = 2
REENCODING_ALLOWANCE = 16 * 2**20


@dataclass(frozen=True)
class Shape:
    """A split's size: rows, each leaf column's values, its pages' decompressed bytes, its text's UTF-8 bytes (each
    repeat counted; 0 where not measured)."""

    rows: int
    values: dict[str, int]
    decompressed: int
    text_bytes: int = 0


def rows_reader(dataset_dir: str | Path | None) -> Callable[[str, str], list[dict]]:
    """(config, split) -> the split's checked rows: the shipped data through `load`, or `dataset_dir`'s Parquet."""

    def read(config: str, split: str) -> list[dict]:
        path = (DATASET_DIR if dataset_dir is None else Path(dataset_dir)) / parquet_path(config, split)
        table = load(config, split=split).data.table if dataset_dir is None else read_parquet(path, config, split)
        check_nulls(table, path)
        split_rows = table.to_pylist()
        check_offsets(split_rows, path)
        return split_rows

    return read


def read_parquet(path: Path, config: str, split: str) -> pa.Table:
    """A dataset folder's split, checked as the module docstring says (one line naming the file and column)."""
    try:
        with open_regular(path, "") as f:
            try:
                metadata_file = pq.ParquetFile(f)
                _check_schema(metadata_file.schema_arrow, path)
                allowed = installed_shape(config, split)
                _check_counts(_metadata_shape(metadata_file), allowed, path, config, split)
                # One thread: read with Arrow's threads, a refused bomb ended about 1 run in 60 in an abort at exit
                # after its one line (exit 134; apache/arrow#34314 reports the same), none in 180 read on one. Why
                # this read and not installed_shape's is not pinned down.
                table = pq.ParquetFile(f, read_dictionary=_string_columns()).read(use_threads=False)
            except (pa.ArrowException, OSError) as error:
                first_line = (str(error) or type(error).__name__).splitlines()[0]
                raise SwordsError(f"{path}: not a readable Parquet file ({clipped(first_line)})") from None
            text = _text_bytes(table)
            if text > MAX_GROWTH * allowed.text_bytes:
                raise SwordsError(
                    f"{path}: holds {text:,} bytes of text; {config}/{split} as shipped holds "
                    f"{allowed.text_bytes:,}, and verify reads at most {MAX_GROWTH} times that"
                )
            return table.cast(ARROW_SCHEMA)  # the text expands here, within the bound just checked
    except FileNotFoundError:
        raise SwordsError(f"{path}: missing (is --dataset-dir a built dataset folder?)") from None


def check_nulls(table: pa.Table, path: Path) -> None:
    """Nothing the statistics read is null; else one line naming the first row (1-based) and the column."""
    for column in REQUIRED_COLUMNS:
        values = table.column(column)
        if values.null_count:
            raise SwordsError(f"{_row(table, path, _first_true(pc.is_null(values)))}: {column!r} is null")
    substitutes = table.column("substitutes")
    flat = pc.list_flatten(substitutes)
    for field in (None, *REQUIRED_SUBSTITUTE_FIELDS):
        values = flat if field is None else pc.struct_field(flat, field)
        if values.null_count:
            item = _first_true(pc.is_null(values))
            row = pc.list_parent_indices(substitutes)[item].as_py()
            number = item - sum(pc.list_value_length(substitutes.slice(0, row)).to_pylist(), 0) + 1
            what = "is null" if field is None else f"has a null {field!r}"
            raise SwordsError(f"{_row(table, path, row)}: substitute {number} {what}")


def check_offsets(rows: list[dict], path: Path) -> None:
    """Every row's target stands at its offset in its context; else one line naming the row."""
    for number, row in enumerate(rows, 1):
        start = row["offset"]
        if row["context"][start : start + len(row["target"])] != row["target"]:
            raise SwordsError(
                f"{path}: row {number} (id {clipped(row['id'], quote=True)}): its target "
                f"{clipped(row['target'], quote=True)} is not at its offset {start}"
            )


def _first_true(mask: pa.ChunkedArray | pa.Array) -> int:
    return pc.index(mask, True).as_py()


def _row(table: pa.Table, path: Path, index: int) -> str:
    """How an error line names a row: its number (1 is the first) and its id."""
    identifier = table.column("id")[index].as_py()
    return f"{path}: row {index + 1}" + (f" (id {clipped(identifier, quote=True)})" if identifier is not None else "")


@cache
def installed_shape(config: str, split: str) -> Shape:
    """The shape of a split as this package ships it."""
    path = DATASET_DIR / parquet_path(config, split)
    table = pq.ParquetFile(path, read_dictionary=_string_columns()).read()
    counted = _metadata_shape(pq.ParquetFile(path))
    return Shape(counted.rows, counted.values, counted.decompressed, _text_bytes(table))


def _metadata_shape(parquet: pq.ParquetFile) -> Shape:
    metadata = parquet.metadata
    values: dict[str, int] = {}
    decompressed = 0
    for group in range(metadata.num_row_groups):
        row_group = metadata.row_group(group)
        for index in range(row_group.num_columns):
            column = row_group.column(index)
            values[column.path_in_schema] = values.get(column.path_in_schema, 0) + column.num_values
            decompressed += column.total_uncompressed_size
    return Shape(metadata.num_rows, values, decompressed)


def _check_counts(found: Shape, allowed: Shape, path: Path, config: str, split: str) -> None:
    shipped = f"{config}/{split} as shipped"
    if found.rows > MAX_GROWTH * allowed.rows:
        raise SwordsError(
            f"{path}: {found.rows:,} rows; {shipped} has {allowed.rows:,}, and verify reads at most "
            f"{MAX_GROWTH} times that"
        )
    for column, count in found.values.items():
        # Every column holds at least a value a row (the schema check has made sure it is one of the dataset's).
        known = allowed.values.get(column, 0)
        if count > MAX_GROWTH * max(known, allowed.rows):
            raise SwordsError(
                f"{path}: column {column!r} holds {count:,} values; {shipped} holds {known:,}, and "
                f"verify reads at most {MAX_GROWTH} times that"
            )
    # Pages are decoded whole; other writers' encodings (no dictionaries, small row groups) take more room.
    limit = MAX_GROWTH * allowed.decompressed + REENCODING_ALLOWANCE
    if found.decompressed > limit:
        raise SwordsError(
            f"{path}: its pages decompress to {found.decompressed:,} bytes; verify reads at most "
            f"{limit:,} for {config}/{split}"
        )


def _check_schema(schema: pa.Schema, path: Path) -> None:
    """The dataset's columns, each of its type, and no other; else one line naming the first that differs."""
    for field in ARROW_SCHEMA:
        index = schema.get_field_index(field.name)
        if index < 0:
            shared = set(schema.names) & set(ARROW_SCHEMA.names)
            listed = "" if shared else f" (its columns: {clipped(', '.join(schema.names) or 'none')})"
            raise SwordsError(f"{path}: no column {field.name!r}{listed}; not a split of the dataset")
        if not schema.field(index).type.equals(field.type):
            raise SwordsError(
                f"{path}: column {field.name!r} is {clipped(schema.field(index).type)}; the dataset's "
                f"is {clipped(field.type)}"
            )
    if extra := [name for name in schema.names if ARROW_SCHEMA.get_field_index(name) < 0]:
        raise SwordsError(f"{path}: a column the dataset does not have, {clipped(extra[0], quote=True)}")


@cache
def _string_columns() -> list[str]:
    """Every string column by its Parquet path, as dictionaries (its expanded size measured before rows are made)."""
    found = []

    def walk(kind: pa.DataType, path: str) -> None:
        if pa.types.is_list(kind):
            walk(kind.value_type, f"{path}.list.element")
        elif pa.types.is_struct(kind):
            for child in kind:
                walk(child.type, f"{path}.{child.name}")
        elif pa.types.is_string(kind):
            found.append(path)

    for field in ARROW_SCHEMA:
        walk(field.type, field.name)
    return found


def _text_bytes(data: pa.Array | pa.ChunkedArray | pa.Table) -> int:
    """UTF-8 bytes of every string in `data` as its rows would hold them (a dictionary's entry once per use)."""
    if isinstance(data, pa.Table):
        return sum(_text_bytes(column) for column in data.columns)
    if isinstance(data, pa.ChunkedArray):
        return sum(_text_bytes(chunk) for chunk in data.chunks)
    kind = data.type
    if pa.types.is_dictionary(kind):
        lengths = pc.binary_length(data.dictionary)
        return pc.sum(pc.take(lengths, data.indices)).as_py() or 0
    if pa.types.is_list(kind):
        return _text_bytes(data.flatten())
    if pa.types.is_struct(kind):
        return sum(_text_bytes(data.field(index)) for index in range(kind.num_fields))
    if pa.types.is_string(kind):
        return pc.sum(pc.binary_length(data)).as_py() or 0
    return 0
