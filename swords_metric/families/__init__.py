"""The metric families and the one registry that decides a benchmark's family, once: by a config's name, a file's
extension, or benchmark rows (their benchmark, or the config their ids start with). Entry points (swords evaluate,
compute(), scorer_for, the Space, swords run, the lm-eval tasks) decide it here and pass the Family down; nothing
below decides again.

SWORDS (the SWORDS paper's metrics: SWORDS, CoInCo, SemEval-2007, custom rows), TSAR2022 and PROLEX (their official
metrics): families/swords.py, tsar2022.py, prolex.py, over families/base.py."""

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
    """The family of a config or benchmark name, or of a family's own name: 'tsar2022' for tsar2022 and
    tsar2022_en/es/pt, 'prolex' for prolex, 'swords' for every other (swords, swords_test_subset, coinco,
    semeval07, custom rows). A Family is its own family."""
    if isinstance(name, Family):
        return name
    name = str(name or "")
    return next((f for f in _OFFICIAL if name == f.name or name.startswith(f"{f.name}_")), SWORDS)


def configs_of(family: Family) -> frozenset[str]:
    """The shipped configs a family scores."""
    import swords_dataset

    return frozenset(config for config in swords_dataset.CONFIGS if family_of(config) is family)


def suffix_family(suffix: str | None) -> Family | None:
    """The family whose official predictions format a file extension names (".tsv": TSAR-2022's), or None."""
    return next((f for f in FAMILIES if suffix and f.official_suffix == suffix), None)


def _row_family(row: object) -> Family:
    if not isinstance(row, Mapping):
        return SWORDS
    return family_of(row.get("benchmark") or str(row.get("id") or "").split(":", 1)[0])


def rows_family(rows: Iterable[Mapping]) -> tuple[Iterable[Mapping], Family]:
    """The family of benchmark rows, by their first row, and the rows to read: the same object, or, for an
    iterator, one that still gives the row looked at. Anything that is not rows is the SWORDS family's to refuse
    (its Scorer names what it got)."""
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
    """The family `given` (decided already), else of a config when one is named, else of the rows (their first
    row's)."""
    return given or (family_of(config) if config else rows_family(rows)[1])


def one_family(rows: list[Mapping], decided_by_first: Family) -> None:
    """Refuse rows of several families (each its own metrics), given the family their first row decided."""
    benchmarks = {row.get("benchmark") or str(row.get("id") or "").split(":", 1)[0] for row in rows}
    names = {family_of(name).name for name in benchmarks}
    if names != {decided_by_first.name}:
        raise MetricInputError(f"references: rows of several metric families ({', '.join(sorted(names))})")


def refuse_row(row: Mapping) -> None:
    """A row the SWORDS metrics were given that is an official family's (no POS), refused in one line naming its
    family and the scorer that takes it; a row of the SWORDS family is left to its own checks."""
    refused = _row_family(row).refused_rows(row["id"])
    if refused is not None:
        raise refused
