"""The official submission formats of TSAR-2022 and ProLex, read against a split's rows as streams (one line or row
at a time, each checked against its row), so that memory does not grow with the file and a file made for another
split (or reordered) is refused, naming the line.

TSAR-2022 (.tsv): `sentence<TAB>complex word<TAB>answer 1<TAB>answer 2…`, one line per instance in the order of
the gold file; read as tsar_eval.py reads it (lines ended by \\n, \\r\\n or \\r, each stripped, split on tabs).
ProLex (.csv): the columns `target word`, `Sentence`, `Substitutes` (answers joined by ", "), one row per instance
in the dataset's order; the answers split on ", " as evaluate.py splits them; blank lines skipped, as pandas skips
them. A TSV line is never split whole (a line may hold a million answers); a CSV row is bounded by MAX_CSV_ROW_CHARS.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator, Sequence
from pathlib import Path

from swords_metric.errors import MetricInputError, shown
from swords_metric.predictions.bounded_text import text_lines

TSAR_SUFFIX, PROLEX_SUFFIX = ".tsv", ".csv"
PROLEX_COLUMNS = ("target word", "Substitutes")
MAX_CSV_ROW_CHARS = 1 << 20  # a ProLex row is a sentence and a few hundred characters of answers
_PARTIAL_HINT = (
    "for a run over part of the split, the lines given are scored alone, as tsar_eval.py scores them, "
    "with `swords evaluate --predictions FILE --given-only` (in Python: read(path, partial=True)); "
    "`swords evaluate --compare` reads such a file as it is; JSONL keyed by id can carry such a run too"
)


def _character(text: str, offset: int) -> str:
    """The character at `offset`, by code point and as Python writes it (a look-alike letter shows its code)."""
    return "nothing (the sentence ends)" if offset >= len(text) else f"U+{ord(text[offset]):04X} {text[offset]!r}"


def _shared(one: str, other: str) -> int:
    """The length of the prefix two texts share."""
    return next((i for i, (a, b) in enumerate(zip(one, other, strict=False)) if a != b), min(len(one), len(other)))


def sentence_difference(given: str, gold: str) -> str:
    """Where a line's sentence first differs from the gold's: its offset and the two characters there."""
    offset = _shared(given, gold)
    return f"at offset {offset}, where the line has {_character(given, offset)} and the gold {_character(gold, offset)}"


def _tab_fields(line: str, start: int) -> Iterator[str]:
    """The tab-separated fields of `line` from `start`, one at a time."""
    while (end := line.find("\t", start)) >= 0:
        yield line[start:end]
        start = end + 1
    yield line[start:]


def tsar_tsv_answers(
    path: str | Path, rows: Sequence[dict], max_bytes: int, max_line_chars: int, partial: bool = False
) -> Iterator[tuple[int, Iterator[str], str]]:
    """(row position, the answers of its line one at a time, "FILE:LINE") per line. Each line's sentence and complex
    word must be its row's `context` and `target` (with `partial`, matched to the row they are, as tsar_eval.py
    matches them)."""
    keys = {(str(row.get("context", "")).strip(), row["target"]): i for i, row in enumerate(rows)} if partial else {}
    seen: dict[int, int] = {}
    blank = count = 0
    for number, line in text_lines(path, max_bytes, max_line_chars):
        stripped = line.strip()  # as tsar_eval.py strips a line
        if not stripped:
            blank = blank or number  # a file may end in blank lines; inside it, a blank line is an error
            continue
        if blank:
            raise MetricInputError(
                f"{path}:{blank}: a blank line (TSAR's format: sentence<TAB>complex word<TAB>"
                "answers…, one line per instance)"
            )
        first = stripped.find("\t")
        if first < 0:
            raise MetricInputError(
                f"{path}:{number}: expected sentence<TAB>complex word<TAB>answers…, got {shown(stripped)}"
            )
        second = stripped.find("\t", first + 1)
        sentence, word = stripped[:first], stripped[first + 1 : second if second >= 0 else len(stripped)]
        if partial:
            position = _partial_position(path, number, rows, keys, sentence, word)
            if position in seen:
                raise MetricInputError(
                    f"{path}:{number}: the same instance as line {seen[position]} "
                    f"({rows[position]['id']}); give each instance once"
                )
            seen[position] = number
        else:
            position = count
            if position >= len(rows):
                raise MetricInputError(
                    f"{path}:{number}: more lines than the {len(rows):,} instances of the split "
                    "(TSAR's format: one line per instance, in the gold file's order)"
                )
            _check_line(path, number, rows[position], sentence, word)
        count += 1
        yield position, (_tab_fields(stripped, second + 1) if second >= 0 else iter(())), f"{path}:{number}"
    if not count:
        raise MetricInputError(
            f"{path}: no line with an instance (TSAR's format: sentence<TAB>complex word<TAB>answers…)"
        )
    if not partial and count != len(rows):
        raise MetricInputError(
            f"{path}: {count:,} lines for the {len(rows):,} instances of the split (TSAR's "
            f"format: one line per instance, in the gold file's order); {_PARTIAL_HINT}"
        )


def _check_line(path, number: int, row: dict, sentence: str, word: str) -> None:
    gold = str(row.get("context", "")).strip()
    if word != row["target"]:
        what = "complex word {} is not that" if sentence == gold else "sentence and complex word {} are not those"
        raise MetricInputError(
            f"{path}:{number}: {what.format(shown(word))} of {row['id']} (target "
            f"{shown(row['target'])}); the lines must follow the split's order (a file of part of "
            "it: --given-only, in Python read(path, partial=True))"
        )
    if sentence != gold:
        raise MetricInputError(
            f"{path}:{number}: the sentence is not that of {row['id']} (complex word "
            f"{shown(word)}): it differs {sentence_difference(sentence, gold)}; it must be the gold "
            "file's, character for character"
        )


def _partial_position(path, number: int, rows: Sequence[dict], keys: dict, sentence: str, word: str) -> int:
    if (position := keys.get((sentence, word))) is not None:
        return position
    same_word = [row for row in rows if row["target"] == word]
    if not same_word:
        raise MetricInputError(f"{path}:{number}: complex word {shown(word)} is that of no instance of the split")
    nearest = max(same_word, key=lambda row: _shared(sentence, str(row.get("context", "")).strip()))
    raise MetricInputError(
        f"{path}:{number}: no instance of the split has this sentence and complex word "
        f"{shown(word)}; the nearest, {nearest['id']}, differs "
        f"{sentence_difference(sentence, str(nearest.get('context', '')).strip())}"
    )


class _BoundedRows:
    """The lines of a CSV file for csv.reader; a row (quoted line ends may spread it) past max_chars is refused."""

    def __init__(self, path: str | Path, max_bytes: int, max_chars: int):
        self.path, self.max_chars = path, max_chars
        self.lines = text_lines(path, max_bytes, max_chars)
        self.row_chars = 0

    def __iter__(self) -> _BoundedRows:
        return self

    def __next__(self) -> str:
        number, line = next(self.lines)
        self.row_chars += len(line)
        if self.row_chars > self.max_chars:
            raise MetricInputError(
                f"{self.path}:{number}: a row of more than {self.max_chars:,} characters (ProLex's "
                "format: target word, Sentence, Substitutes joined by ', ')"
            )
        return line


def _blank(record: list[str]) -> bool:
    """A line pandas skips (skip_blank_lines): empty, or spaces and tabs only."""
    return not record or (len(record) == 1 and not record[0].strip(" \t"))


def _repeated(header: list[str]) -> str | None:
    """The first column name given twice (unnamed columns, which pandas numbers, aside)."""
    names: set[str] = set()
    for name in header:
        if name in names:
            return name
        if name:
            names.add(name)
    return None


def prolex_csv_answers(
    path: str | Path, rows: Sequence[dict], max_bytes: int, max_row_chars: int = MAX_CSV_ROW_CHARS
) -> Iterator[tuple[int, list[str], str]]:
    """(row position, the answers of its CSV row, "FILE:LINE") per row; each row's `target word` must be its row's
    `target`. The header is the first line that is not blank; a column named twice is refused (pandas, which
    evaluate.py reads with, would score the first, csv the last)."""
    lines = _BoundedRows(path, max_bytes, max_row_chars)
    reader = csv.reader(lines)
    count = 0
    try:
        header = next((record for record in reader if not _blank(record)), None)
        if header is None:
            raise MetricInputError(
                f"{path}: no header line (ProLex's format: 'target word', 'Sentence', 'Substitutes' joined by ', ')"
            )
        if (repeated := _repeated(header)) is not None:
            raise MetricInputError(
                f"{path}:{reader.line_num}: the column {shown(repeated)} appears twice (evaluate.py "
                "would read the first, other readers the last); give each column once"
            )
        if missing := [column for column in PROLEX_COLUMNS if column not in header]:
            raise MetricInputError(
                f"{path}:{reader.line_num}: no column {missing[0]!r} (ProLex's format: 'target "
                "word', 'Sentence', 'Substitutes' joined by ', ')"
            )
        target_at, answers_at = (header.index(column) for column in PROLEX_COLUMNS)
        lines.row_chars = 0
        for record in reader:
            line = reader.line_num
            if not _blank(record):
                if count >= len(rows):
                    raise MetricInputError(f"{path}:{line}: more rows than the {len(rows):,} instances of the split")
                target = record[target_at] if target_at < len(record) else ""
                if target != rows[count]["target"]:
                    row = rows[count]
                    raise MetricInputError(
                        f"{path}:{line}: target word {shown(target)} is not that of {row['id']} "
                        f"({shown(row['target'])}); the rows must follow the split's order"
                    )
                cell = record[answers_at] if answers_at < len(record) else ""
                yield count, cell.split(", ") if cell else [], f"{path}:{line}"
                count += 1
            lines.row_chars = 0
    except csv.Error as error:
        if "field limit" in str(error):
            raise MetricInputError(
                f"{path}:{reader.line_num}: a cell of more than {csv.field_size_limit():,} "
                "characters, the most a cell may hold"
            ) from None
        raise MetricInputError(f"{path}:{reader.line_num}: not a CSV row ({error})") from None
    if count != len(rows):
        raise MetricInputError(
            f"{path}: {count:,} rows for the {len(rows):,} instances of the split (ProLex's format: "
            "one row per instance, in the split's order); for a run over part of the split, give JSONL "
            "keyed by id: a target it leaves out is an empty answer, or left out with `swords evaluate "
            "--predictions FILE --given-only`"
        )


def official_lines(suffix: str, path: Path, rows: Sequence[dict], max_bytes: int, max_chars: int, partial: bool):
    """The official format an extension names, read against the split's rows: (row position, answers, "FILE:LINE")."""
    if suffix == TSAR_SUFFIX:
        return tsar_tsv_answers(path, rows, max_bytes, max_chars, partial)
    return prolex_csv_answers(path, rows, max_bytes, min(max_chars, MAX_CSV_ROW_CHARS))
