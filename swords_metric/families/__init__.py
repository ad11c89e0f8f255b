"""The metric families (SWORDS: the SWORDS paper's metrics, for SWORDS, CoInCo, SemEval-2007 and custom rows;
TSAR2022 and PROLEX: their official metrics) and the one registry that decides a benchmark's family, once: by a
config's name, a file's extension, or benchmark rows. Entry points decide it here and pass the Family down."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping

from swords_metric.errors import MetricInputError
from swords_metric.families.base import Family, ReaderTable
from swords_metric.families.prolex import PROLEX
from swords_metric.families.swords import SWORDS
from swords_metric.families.tsar2022 import TSAR2022

__all__ = ["FAMILIES", "PROLEX", "SWORDS", "TSAR2022", "Family", "ReaderTable", "decided", "family_of", "rows_family"]

FAMILIES: tuple[Family, ...] = (SWORDS, TSAR2022, PROLEX)
_OFFICIAL = (TSAR2022, PROLEX)  # the families a config's name names ("tsar2022_en"); every other is SWORDS's


def family_of(name: object) -> Family:
    """The family of a config, benchmark or family name ('tsar2022' for tsar2022_en/es/pt, 'prolex', 'swords' for
    every other); a Family is its own family."""
    if isinstance(name, Family):
        return name
    name = str(name or "")
    return next((f for f in _OFFICIAL if name == f.name or name.startswith(f"{f.name}_")), SWORDS)


def suffix_family(suffix: str | None) -> Family | None:
    """The family whose official predictions format a file extension names (".tsv": TSAR-2022's), or None."""
    return next((f for f in FAMILIES if suffix and f.official_suffix == suffix), None)


def _row_family(row: object) -> Family:
    if not isinstance(row, Mapping):
        return SWORDS
    return family_of(row.get("benchmark") or str(row.get("id") or "").split(":", 1)[0])


def rows_family(rows: Iterable[Mapping]) -> tuple[Iterable[Mapping], Family]:
    """The family of benchmark rows (their first row's), and the rows to read (an iterator: from its start again)."""
    if isinstance(rows, str | bytes | Mapping) or not isinstance(rows, Iterable):
        return rows, SWORDS
    if hasattr(rows, "__getitem__") and hasattr(rows, "__len__"):  # a list, a loaded split: looked at in place
        try:
            return rows, _row_family(rows[0]) if len(rows) else SWORDS
        except (KeyError, IndexError, TypeError):
            return rows, SWORDS
    iterator = iter(rows)
    for first in iterator:
        return itertools.chain([first], iterator), _row_family(first)
    return iterator, SWORDS  # none: the Scorer says so


def decided(config: str | None, rows=None, given: Family | None = None) -> Family:
    """The family `given` (decided already), else a named config's, else the rows'."""
    return given or (family_of(config) if config else rows_family(rows)[1])


def one_family(rows: list[Mapping], decided_by_first: Family) -> None:
    """Refuse rows of several families (each its own metrics), given the family their first row decided."""
    names = {_row_family(row).name for row in rows}
    if names != {decided_by_first.name}:
        raise MetricInputError(f"references: rows of several metric families ({', '.join(sorted(names))})")


def refuse_row(row: Mapping) -> None:
    """Refuse a row of an official family given to the SWORDS metrics, naming its family and scorer."""
    refused = _row_family(row).refused_rows(row["id"])
    if refused is not None:
        raise refused
