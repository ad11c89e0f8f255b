"""Which metric family scores a benchmark: the SWORDS paper's metrics (SWORDS, CoInCo, SemEval-2007), or a
benchmark's own official metrics (TSAR-2022, ProLex). Decided by the config name, or a row's `benchmark` (or the
config its `id` starts with), in one place."""

from __future__ import annotations

from collections.abc import Mapping

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
