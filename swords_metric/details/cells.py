"""A details file's values as text each reader sees alike: a CSV text cell a spreadsheet would run as a formula gets a
leading `'` (OWASP's rule; spreadsheet_safe, undone by spreadsheet_text); a lone surrogate, which UTF-8 cannot carry,
stays a JSON escape in JSONL and becomes U+FFFD in CSV and Parquet; a score of ±infinity is "inf" or "-inf" in JSONL
(standard JSON, which float() reads back), never Infinity."""

from __future__ import annotations

import codecs
import json
import math
import re

from swords_metric.details.columns import STRING_FIELDS

# OWASP's "CSV injection": a cell beginning with one of these is run as a formula by spreadsheets; and "'", so
# that the quote added to neutralise them can be told from one that was there.
_FORMULA_STARTS = frozenset("=+-@\t\r'")
SPREADSHEET_QUOTE = "'"


def spreadsheet_safe(text: str) -> str:
    """A CSV text cell as a spreadsheet will not run it: `'` before a cell that begins with =, +, -, @, a tab,
    a carriage return or `'` (undone by spreadsheet_text)."""
    return SPREADSHEET_QUOTE + text if text[:1] in _FORMULA_STARTS else text


def spreadsheet_text(cell: str) -> str:
    """The text of a CSV text cell as written: one leading `'` removed (the inverse of spreadsheet_safe)."""
    return cell[1:] if cell.startswith(SPREADSHEET_QUOTE) else cell


_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATES = re.compile("[\ud800-\udfff]+")
REPLACE_SURROGATES = "swords-lexsub.replace-surrogates"


def _replace_surrogates(error: UnicodeError) -> tuple[bytes, int]:
    """A codec error handler: each lone surrogate UTF-8 cannot carry becomes U+FFFD, as a decoder marks bytes it
    cannot read (any other encoding error is raised as it is)."""
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
    if isinstance(value, list):
        return [utf8_text(item) for item in value]
    return value


def json_line(record: dict) -> bytes:
    """A record as one line of standard JSON: UTF-8 as it is, but a string holding a lone surrogate, which UTF-8
    cannot carry, as JSON's own escape (json.loads gives it back); a non-finite score as "inf" or "-inf"."""
    score = record.get("score")
    if isinstance(score, float) and not math.isfinite(score):
        record = {**record, "score": repr(score)}
    text = json.dumps(record, ensure_ascii=False, allow_nan=False)
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        data = json.dumps(record, allow_nan=False).encode("ascii")
    return data + b"\n"


def _csv_cell(name: str, value) -> str:
    """A record's value as CSV text (the caller leaves None out: an empty cell)."""
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
