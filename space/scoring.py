"""The metric as every tab uses it, through its public API only: one shared Scorer per split, a substitute's class
against an example's gold (Scorer.judge: the sets scoring counts hits in), and one example's metrics."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from functools import lru_cache

from swords_metric import Scorer, family_of

# The tab's tables show the SWORDS paper's F@10 figures first (its Table 4), then the precision and recall behind
# them (Table 7), then the rest (Table 8); an official family's in its scorer's order (its reader table's).
TABLE_4_FIRST = ("lenient_a_f@10", "lenient_c_f@10", "strict_a_f@10", "strict_c_f@10")
SWORDS_READER = family_of("swords").reader  # the Substitute tab's and the extended gold's metrics: the SWORDS paper's
# What lenient, strict, A, C and best mean, under the tables that show them (the SWORDS reader table's definitions).
DEFINED = "SWORDS, CoInCo and SemEval-2007: " + " ".join(SWORDS_READER.defined)
# A result's unit (its "unit": the family's reader table's scale) as a table's title says it.
UNITS = {"percent": "percent", "fraction": "fraction 0–1"}


def metric_rows(reader=SWORDS_READER) -> tuple[tuple[str, str], ...]:
    """(long label, metric key) of the figures the tab shows for a family's reader table, in the tab's order."""
    names = reader.names
    first = [key for key in TABLE_4_FIRST if key in names]
    return tuple((names[key], key) for key in [*first, *(key for key in names if key not in first)])


METRIC_ROWS = metric_rows()  # the SWORDS metrics'


def titled(title: str, reader) -> str:
    """A table's title with the unit of its figures: "Metrics (percent)", "Metrics (fraction 0–1)"."""
    return f"{title} ({UNITS[reader.scale]})"


def rounded(value: float, decimals: int) -> float:
    """A figure rounded for a table, never a negative zero (a change of -0.001 shows as 0, not -0)."""
    return round(value, decimals) + 0.0  # -0.0 + 0.0 is 0.0


def interval(reader, bounds) -> str:
    """A 95% interval as the tab shows it: percent to 1 decimal, fractions to the reader table's decimals."""
    decimals = 1 if reader.scale == "percent" else reader.decimals
    return f"[{bounds[0]:z.{decimals}f}, {bounds[1]:z.{decimals}f}]"


def official_metrics(family) -> str:
    """How the tabs name an official family's figures ("TSAR-2022's official metrics"); "" for SWORDS's."""
    return f"{family.reader.title}'s official metrics" if family.official_scorer else ""


_scorer_lock = threading.Lock()


def scorer_for(config: str, split: str, setting: str = "generative", include_problematic: bool = False) -> Scorer:
    """The split's scorer, made once and shared by every session, with the options its family takes."""
    family, options = family_of(config), {"setting": setting, "include_problematic": include_problematic}
    taken = {name: value for name, value in options.items() if not family.refusal(name, value)}
    with _scorer_lock:  # preparing references takes a second for CoInCo: once per split
        return _scorer(config, split, taken.get("setting", "generative"), taken.get("include_problematic", False))


@lru_cache(maxsize=16)
def _scorer(config: str, split: str, setting: str, include_problematic: bool) -> Scorer:
    # The references prepared when the dataset was built: no row dicts held, nothing lemmatized here.
    return Scorer.from_dataset(config, split, setting=setting, include_problematic=include_problematic)


def _examples_scorer(config: str, split: str) -> Scorer:
    """The scorer of a split's examples, one at a time: every target scored, CoInCo's problematic ones too."""
    return scorer_for(config, split, include_problematic=True)


def judge(row: dict, substitutes: Iterable[str], config: str, split: str) -> list[tuple[str, str]]:
    """(gold text, class) of each substitute against a benchmark example's gold, as the metric counts it."""
    judged = _examples_scorer(config, split).judge(row["id"], substitutes)
    return [(f"{j.score:.2f} ({j.positive}/{j.total})" if j.score is not None else "—", j.label) for j in judged]


def gold_labels(row: dict, config: str, split: str) -> list[str]:
    """The class of each of an example's own gold substitutes (in the row's order), as the metric counts it."""
    return [label for _, label in judge(row, [s["substitute"] for s in row["substitutes"]], config, split)]


def example_metrics(row: dict, prediction: list[tuple[str, float]], config: str, split: str) -> dict:
    """The metrics of one prediction for one example: the split's shared scorer restricted to that target."""
    shared = _examples_scorer(config, split)
    scorer, prepared = shared.restricted_to_given(shared.prepare({row["id"]: prediction}))
    return scorer.score(prepared, by_pos=False)
