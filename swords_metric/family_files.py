"""The official submission formats of TSAR-2022 and ProLex, read against a split's rows by line order, each line
checked against its row so that a file made for another split (or reordered) is refused, naming the line.

TSAR-2022 (.tsv): `sentence<TAB>complex word<TAB>answer 1<TAB>answer 2…`, one line per instance in the order of
the gold file; read as tsar_eval.py reads it (the line stripped, split on tabs). ProLex (.csv): the columns
`target word`, `Sentence`, `Substitutes` (answers joined by ", "), one row per instance in the order of the
dataset; the answers split on ", " as evaluate.py splits them (an empty cell: no answer). Both files are small:
one larger than MAX_TABLE_BYTES is refused before it is read.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from pathlib import Path

from .bounded_text import check_file
from .core import MetricInputError, shown

MAX_TABLE_BYTES = 64 << 20  # a split's answers are kilobytes; this bounds what is read into memory
TSAR_SUFFIX, PROLEX_SUFFIX = ".tsv", ".csv"
PROLEX_COLUMNS = ("target word", "Substitutes")


def _text(path: Path) -> str:
    check_file(path, MAX_TABLE_BYTES)
    data = path.read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise MetricInputError(f"{path}:{line}: not UTF-8 (byte {data[error.start]:#04x})") from None


def read_tsar_tsv(path: str | Path, rows: Sequence[dict]) -> list[list[str]]:
    """Per row, in order, the answers of its line (as given: the scorer's filtering is tsar_answers'). Each
    line's sentence and complex word must be its row's `context` and `target`."""
    path = Path(path)
    lines = [line.rstrip("\n") for line in io.StringIO(_text(path), newline=None).readlines()]  # as open() reads
    while lines and not lines[-1].strip():  # a file may end in blank lines; inside it, a blank line is an error
        lines.pop()
    if len(lines) != len(rows):
        raise MetricInputError(f"{path}: {len(lines):,} lines for the {len(rows):,} instances of the split (TSAR's "
                               "format: one line per instance, in the gold file's order)")
    answers = []
    for number, (line, row) in enumerate(zip(lines, rows, strict=True), 1):
        fields = line.strip().split("\t")
        if len(fields) < 2:
            raise MetricInputError(f"{path}:{number}: expected sentence<TAB>complex word<TAB>answers…, got "
                                   f"{shown(line)}")
        if fields[0] != str(row.get("context", "")).strip() or fields[1] != row["target"]:
            raise MetricInputError(f"{path}:{number}: sentence and complex word {shown(fields[1])} are not those of "
                                   f"{row['id']} (target {shown(row['target'])}); the lines must follow the split's "
                                   "order")
        answers.append(fields[2:])
    return answers


def read_prolex_csv(path: str | Path, rows: Sequence[dict]) -> list[list[str]]:
    """Per row, in order, the answers of its CSV row; each row's `target word` must be its row's `target`."""
    path = Path(path)
    reader = csv.DictReader(io.StringIO(_text(path), newline=""))
    missing = [column for column in PROLEX_COLUMNS if column not in (reader.fieldnames or [])]
    if missing:
        raise MetricInputError(f"{path}:1: no column {missing[0]!r} (ProLex's format: 'target word', 'Sentence', "
                               "'Substitutes' joined by ', ')")
    answers = []
    try:
        for position, record in enumerate(reader):
            line = reader.line_num
            if position >= len(rows):
                raise MetricInputError(f"{path}:{line}: more rows than the {len(rows):,} instances of the split")
            target, cell = record["target word"], record["Substitutes"]
            if target != rows[position]["target"]:
                row = rows[position]
                raise MetricInputError(f"{path}:{line}: target word {shown(target)} is not that of {row['id']} "
                                       f"({shown(row['target'])}); the rows must follow the split's order")
            answers.append(cell.split(", ") if cell else [])
    except csv.Error as error:
        raise MetricInputError(f"{path}:{reader.line_num}: not a CSV row ({error})") from None
    if len(answers) != len(rows):
        raise MetricInputError(f"{path}: {len(answers):,} rows for the {len(rows):,} instances of the split")
    return answers
