"""ProLex (proficiency-oriented lexical substitution) -> rows of the shared schema.

A CSV row gives the target word, the sentence with the target marked `**word**`, the experts' acceptable and
unacceptable substitutes (`acc_subs`, `unacc_subs`), the proficiency-oriented subset (`prof_acc_subs`,
`prof_unacc_subs`) and, in test only, CEFR levels (`t_words_cefr` for the target; `prof_acc_cefr`,
`prof_unacc_cefr` one per proficiency substitute). The lists are Python literals, read as the official
evaluation reads them (ast.literal_eval), items kept exactly as given.
"""

from __future__ import annotations

import ast
import csv
import io
import re
from pathlib import Path

from swords_dataset.builder.errors import BuildError
from swords_dataset.builder.readers.row_fields import checked_word, schema_row, source_text
from swords_lexsub.terminal import clipped

CONFIG = "prolex"
SPLITS = ("dev", "test")
SOURCE = "prolex"
LICENSE = "reference-scorers/prolex/LICENSE"  # the ProLex repository's license (Apache-2.0)

ACCEPTABLE, UNACCEPTABLE = "acceptable", "unacceptable"
PROFICIENCY_ACCEPTABLE, PROFICIENCY_UNACCEPTABLE = "proficiency_acceptable", "proficiency_unacceptable"

_MARKED = re.compile(r"\*\*(.+?)\*\*")


def csv_path(split: str) -> str:
    """A split's file, relative to the sources folder."""
    return f"prolex/ProLex_v1.0_{split}.csv"


def row_id(split: str, record: int) -> str:
    """`prolex:test:0042`: the split and the 1-based number of the data row (the CSV's line, less its header)."""
    return f"{CONFIG}:{split}:{record:04d}"


def _literal_list(record: dict, column: str, where: str) -> list:
    text = record.get(column)
    if text is None:
        raise BuildError(f"{where}: no column {column!r}")
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):  # nested past the parser's depth
        value = None
    if not isinstance(value, list):
        raise BuildError(f"{where}: column {column!r} is not a Python list literal: {clipped(text, quote=True)}")
    return value


def _words(record: dict, column: str, where: str) -> list[str]:
    """A column's list of substitutes: each a word (a number, None, a list or an empty string is refused)."""
    return [
        checked_word(item, where, f"{column!r} item {index}")
        for index, item in enumerate(_literal_list(record, column, where), 1)
    ]


# CEFR levels are stored as int32; the source's are -1 to 6.
_INT32 = (-(2**31), 2**31 - 1)
_INTEGER = re.compile(r"\s*-?[0-9]{1,10}\s*")


def _cefr(value: object, where: str) -> int | None:
    """A CEFR level as the source gives it (an integer or its digits), 'None' null; a float, a bool or a number past
    int32 refused, never rounded."""
    if value is None or value == "None":
        return None
    level = value if isinstance(value, int) and not isinstance(value, bool) else None
    if isinstance(value, str) and _INTEGER.fullmatch(value):
        level = int(value)
    if level is None or not _INT32[0] <= level <= _INT32[1]:
        raise BuildError(f"{where}: CEFR level {clipped(repr(value))} is not an integer")
    return level


def marked_target(sentence: str, where: str) -> tuple[str, str, int]:
    """(the sentence without its `**` marks, the marked word, its offset there); of several marked, the first."""
    first = _MARKED.search(sentence)
    if first is None:
        raise BuildError(f"{where}: no **marked** target in the sentence")
    context = _MARKED.sub(r"\1", sentence)
    if "**" in context:
        raise BuildError(f"{where}: an unpaired '**' in the sentence")
    return context, first.group(1), first.start()


def proficiency_levels(record: dict, column: str, items: list, where: str) -> dict[str, int | None]:
    """substitute -> its CEFR level, for one proficiency list (first occurrence wins; dev has no levels)."""
    if column not in record:
        return {item: None for item in items}
    levels = _literal_list(record, column, where)
    if len(levels) != len(items):
        raise BuildError(f"{where}: {len(levels)} levels in {column!r} for {len(items)} substitutes")
    found: dict[str, int | None] = {}
    for item, level in zip(items, levels, strict=True):
        found.setdefault(item, _cefr(level, where))
    return found


def prolex_substitutes(record: dict, where: str) -> list[dict]:
    """acc_subs then unacc_subs, each once in source order, then any proficiency item in neither list."""
    acceptable = _words(record, "acc_subs", where)
    unacceptable = _words(record, "unacc_subs", where)
    proficient = _words(record, "prof_acc_subs", where)
    not_proficient = _words(record, "prof_unacc_subs", where)
    levels = {
        **proficiency_levels(record, "prof_unacc_cefr", not_proficient, where),
        **proficiency_levels(record, "prof_acc_cefr", proficient, where),
    }
    judged: dict[str, list[str]] = {}
    for items, label in ((acceptable, ACCEPTABLE), (unacceptable, UNACCEPTABLE)):
        for item in items:
            if item in judged and label not in judged[item]:
                raise BuildError(f"{where}: {item!r} is both acceptable and unacceptable")
            judged.setdefault(item, [label])
    # A proficiency item outside both lists (test: 5 items, spelling variants such as '"peoples"') is kept as
    # given, with its proficiency label alone.
    for items, label in ((proficient, PROFICIENCY_ACCEPTABLE), (not_proficient, PROFICIENCY_UNACCEPTABLE)):
        for item in items:
            labels = judged.setdefault(item, [])
            if label not in labels:
                labels.append(label)
    return [
        {
            "substitute": item,
            # The experts' binary judgement. The proficiency lists are, by the benchmark's definition, subsets
            # of the acceptable substitutes, so an item found only there is acceptable too.
            "score": 0.0 if UNACCEPTABLE in labels else 1.0,
            "votes_positive": None,  # no annotator counts: one expert judgement
            "votes_total": None,
            "labels": labels,
            "sources": [SOURCE],
            "cefr": levels.get(item),
        }
        for item, labels in judged.items()
    ]


def csv_records(path: Path) -> list[dict]:
    """The CSV's records as the official evaluation's pandas reads them (UTF-8, any field size, no column name twice),
    or one BuildError naming file and line."""
    text = source_text(path)
    limit = csv.field_size_limit()
    csv.field_size_limit(max(limit, len(text)))  # a field is never longer than the file
    try:
        reader = csv.DictReader(io.StringIO(text, newline=""))
        header = reader.fieldnames or []
        repeated = next((name for name in header if header.count(name) > 1), None)
        if repeated is not None:
            raise BuildError(f"{path}:1: column {clipped(repeated, quote=True)} is named twice")
        return list(reader)
    except csv.Error as error:
        raise BuildError(f"{path}:{reader.line_num}: not CSV as ProLex writes it ({error})") from None
    finally:
        csv.field_size_limit(limit)


def read_prolex(path: Path, split: str) -> list[dict]:
    rows = []
    for number, record in enumerate(csv_records(path), 1):
        where = f"{path}:{number + 1}"  # the CSV line (line 1 is the header)
        named = checked_word(record.get("target word"), where, "the target word")
        context, target, offset = marked_target(record.get("Sentence") or "", where)
        if target != named:
            raise BuildError(
                f"{where}: marked word {clipped(target, quote=True)} is not the target word "
                f"{clipped(named, quote=True)}"
            )
        identifier = row_id(split, number)
        cefr = _cefr(record["t_words_cefr"], where) if "t_words_cefr" in record else None
        # ProLex gives neither a POS nor a lemma, and no candidates (no ranking setting)
        substitutes = prolex_substitutes(record, where)
        rows.append(
            schema_row(
                identifier,
                CONFIG,
                identifier,
                context,
                target,
                offset,
                substitutes,
                target_cefr=cefr,
                upstream_id=identifier,
            )
        )
    return rows


def read_all(paths: dict[str, Path]) -> dict[str, dict[str, list[dict]]]:
    return {CONFIG: {split: read_prolex(paths[csv_path(split)], split) for split in SPLITS}}
