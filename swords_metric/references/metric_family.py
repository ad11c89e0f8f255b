"""Which metric family scores a benchmark: the SWORDS paper's metrics (SWORDS, CoInCo, SemEval-2007), or a
benchmark's own official metrics (TSAR-2022, ProLex). Decided by the config name, or a row's `benchmark` (or the
config its `id` starts with), in one place; swords_metric.scorer_for builds the scorer the family needs."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping

SWORDS, TSAR2022, PROLEX = "swords", "tsar2022", "prolex"
FAMILIES = (SWORDS, TSAR2022, PROLEX)
# Why the SWORDS metrics do not score the other families' rows: said in one line when they are given them.
NOT_SWORDS = (
    "its rows have no POS, which the SWORDS metrics lemmatize by (with English WordNet: meaningless for "
    "Spanish and Portuguese), and it has its own official metrics"
)


def metric_family(name: str | None) -> str:
    """The family of a config or benchmark name: 'tsar2022' for tsar2022 and tsar2022_en/es/pt, 'prolex' for
    prolex, 'swords' for every other (swords, swords_test_subset, coinco, semeval07, custom rows)."""
    name = name or ""
    for family in (TSAR2022, PROLEX):
        if name == family or name.startswith(f"{family}_"):
            return family
    return SWORDS


def row_family(row: object) -> str:
    """The family of one benchmark row, by its `benchmark` or else the config its `id` starts with."""
    if not isinstance(row, Mapping):
        return SWORDS
    named = row.get("benchmark") or str(row.get("id") or "").split(":", 1)[0]
    return metric_family(str(named))


def rows_family(rows: Iterable[Mapping]) -> tuple[Iterable[Mapping], str]:
    """The family of benchmark rows, by their first row (a rows' scorer refuses rows of another family), and the rows
    to read: the same object, or, for an iterator, one that still gives the row looked at. Anything that is not
    rows is the SWORDS family's to refuse (its Scorer names what it got)."""
    if isinstance(rows, str | bytes | Mapping) or not isinstance(rows, Iterable):
        return rows, SWORDS
    if hasattr(rows, "__getitem__") and hasattr(rows, "__len__"):  # a list, a loaded split: looked at in place
        try:
            return rows, row_family(rows[0]) if len(rows) else SWORDS
        except (KeyError, IndexError, TypeError):
            return rows, SWORDS
    iterator = iter(rows)
    for first in iterator:
        return itertools.chain([first], iterator), row_family(first)
    return iterator, SWORDS  # none: the Scorer says so
