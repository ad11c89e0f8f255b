"""Which metric family scores a benchmark (the SWORDS paper's metrics for SWORDS, CoInCo, SemEval-2007; a benchmark's
own official metrics for TSAR-2022 and ProLex), decided once, here, by the config name or a row's `benchmark` (or the
config its `id` starts with), into a `Family`: what every surface asks (the options it takes, its scorer, what its
results mean to a reader). Nothing else compares family names; swords_metric.scorer_for builds the family's scorer."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping

from swords_metric.official.formats import PROLEX_SUFFIX, TSAR_SUFFIX
from swords_metric.references.reader_table import PROLEX_TABLE, SWORDS_TABLE, TSAR_TABLE, ReaderTable

# Why the SWORDS metrics do not score the other families' rows: said in one line when they are given them.
NOT_SWORDS = (
    "its rows have no POS, which the SWORDS metrics lemmatize by (with English WordNet: meaningless for "
    "Spanish and Portuguese), and it has its own official metrics"
)
TSAR_CUTOFFS = "ACC@1, ACC@k@Top1 at 1-3, MAP@k and Potential@k at 3, 5, 10"


class Family(str):
    """A metric family. It is its name ("swords", "tsar2022", "prolex": what results, signatures and `scorer.family`
    hold, so a result reads as before) and carries its rules, so that callers ask it instead of comparing names."""

    def __new__(cls, name: str, **rules) -> Family:
        family = super().__new__(cls, name)
        family.__dict__.update(rules)
        return family

    name: str
    official: bool  # its own official metrics (a FamilyScorer) rather than the SWORDS paper's (a Scorer)
    takes_ranking: bool  # the ranking setting (GAP over a candidate pool)
    takes_problematic: bool  # --include-problematic (only CoInCo flags problematic targets; SWORDS's configs)
    fixed_k: int | None  # a k the family's metrics do not take (their own cut-offs): only this one is accepted
    signs_k: bool  # whether k decides its figures, so the signature names it
    has_details: bool  # the per-substitute details, summary, differences and judgments (the SWORDS metrics')
    official_scorer: str | None  # what its figures reproduce: the official scorer at the commit the data pins
    reader: ReaderTable  # what its results mean to a reader: keys, labels, scale, rounding, headline (reader_table.py)
    default_intervals: bool  # `swords evaluate` gives 95% intervals unless --bootstrap 0 (the official scorers: none)
    scores_given_lines: bool  # its official scorer scores only the lines a file holds (tsar_eval.py), not every row
    untabled_source: str  # how a published row without a paper table is sourced (TSAR: the official results files)
    official_suffix: str | None  # the extension of its official scorer's predictions format (".tsv", ".csv")
    not_judged: str | None  # why judgements cannot extend its gold (None: SWORDS's can, unless recalled)
    official_format: str | None  # that format's columns, in a few words

    @property
    def scorer_class(self) -> type:
        """The class that scores this family (imported here, lazily: the scorers import this module)."""
        if self.official:
            from swords_metric.official.scorer import FamilyScorer

            return FamilyScorer
        from swords_metric.scorer import Scorer

        return Scorer

    def scores(self, config: str) -> bool:
        """Whether this family scores a config's benchmark."""
        return metric_family(config) is self

    def k_refusal(self, k: int) -> str | None:
        """Why this family's metrics do not take this k (the text after the option's name), or None."""
        if self.fixed_k is None or k == self.fixed_k:
            return None
        return f"TSAR-2022's metrics have their own cut-offs ({TSAR_CUTOFFS})"


SWORDS = Family(
    "swords", official=False, takes_ranking=True, takes_problematic=True, fixed_k=None, signs_k=True,
    has_details=True, official_scorer=None, reader=SWORDS_TABLE, default_intervals=True,
    scores_given_lines=False, untabled_source="", official_suffix=None, official_format=None, not_judged=None,
)  # fmt: skip
TSAR2022 = Family(
    "tsar2022", official=True, takes_ranking=False, takes_problematic=False, fixed_k=10, signs_k=False,
    has_details=False, official_scorer="tsar_eval.py@089c266", reader=TSAR_TABLE, default_intervals=False,
    scores_given_lines=True, untabled_source=", official results", official_suffix=TSAR_SUFFIX,
    official_format="sentence<TAB>complex word<TAB>answers…",
    not_judged="TSAR-2022's official scorer counts matches against the annotators' suggestions and has no "
    "acceptability score per substitute for judgements to extend",
)  # fmt: skip
PROLEX = Family(
    "prolex", official=True, takes_ranking=False, takes_problematic=False, fixed_k=None, signs_k=True,
    has_details=False, official_scorer="evaluate.py@f54ba0f:hard", reader=PROLEX_TABLE, default_intervals=False,
    scores_given_lines=False, untabled_source="", official_suffix=PROLEX_SUFFIX,
    official_format="target word, Sentence, Substitutes",
    not_judged="ProLex's gold is experts' accept/reject lists and its official scorer has no score per substitute "
    "for judgements to extend",
)  # fmt: skip
FAMILIES = (SWORDS, TSAR2022, PROLEX)
_BY_NAME = {str(family): family for family in FAMILIES}


def suffix_family(suffix: str | None) -> Family | None:
    """The family whose official predictions format a file extension names (".tsv": TSAR-2022's), or None."""
    return next((family for family in FAMILIES if suffix and family.official_suffix == suffix), None)


def family_named(name: str) -> Family:
    """The family of one of FAMILIES' names (the one place a name becomes a Family)."""
    return _BY_NAME[str(name)]


def metric_family(name: str | None) -> Family:
    """The family of a config or benchmark name: 'tsar2022' for tsar2022 and tsar2022_en/es/pt, 'prolex' for
    prolex, 'swords' for every other (swords, swords_test_subset, coinco, semeval07, custom rows)."""
    name = name or ""
    for family in (TSAR2022, PROLEX):
        if name == family or name.startswith(f"{family}_"):
            return family
    return SWORDS


def family_of(config: str | None, rows: Iterable[Mapping]) -> tuple[Iterable[Mapping], Family]:
    """The family of a config when one is named, else of the rows (rows_family); and the rows to read (the rows
    are looked at only when no config is named)."""
    if config:
        return rows, metric_family(config)
    return rows_family(rows)


def row_family(row: object) -> Family:
    """The family of one benchmark row, by its `benchmark` or else the config its `id` starts with."""
    if not isinstance(row, Mapping):
        return SWORDS
    named = row.get("benchmark") or str(row.get("id") or "").split(":", 1)[0]
    return metric_family(str(named))


def rows_family(rows: Iterable[Mapping]) -> tuple[Iterable[Mapping], Family]:
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
