"""The metric as every tab uses it, through its public API only: one shared Scorer per split, the class of
any substitute against an example's gold (the label the UI colours by), and one example's metrics.

A substitute's class is the metric's own (Scorer.judge: lemmatized under the target's POS, a lemma's forms
merged, the very sets scoring counts hits in), for the suggestions of the Substitute tab and the gold bars of
the Explore tab alike: tests/space/test_space_labels.py measures it against scoring, substitute by substitute.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from swords_metric import PUBLISHED_METRICS, Scorer, TaskSet, make_tasks

# (label, metric key) of the metrics the UI shows, in the paper's order: Table 4, then 7 and 8.
METRIC_ROWS: tuple[tuple[str, str], ...] = (
    ("lenient F@10, acceptable", "lenient_a_f@10"),
    ("lenient F@10, conceivable", "lenient_c_f@10"),
    ("strict F@10, acceptable", "strict_a_f@10"),
    ("strict F@10, conceivable", "strict_c_f@10"),
    ("lenient P@10, acceptable", "lenient_a_p@10"),
    ("lenient R@10, acceptable", "lenient_a_r@10"),
    ("lenient P@10, conceivable", "lenient_c_p@10"),
    ("lenient R@10, conceivable", "lenient_c_r@10"),
    ("strict P@10, acceptable", "strict_a_p@10"),
    ("strict R@10, acceptable", "strict_a_r@10"),
    ("strict P@10, conceivable", "strict_c_p@10"),
    ("strict R@10, conceivable", "strict_c_r@10"),
    ("GAP", "gap"),
    ("GAP (ratio weights)", "gap_rat"),
    ("best", "best_r"),
    ("best-mode", "best_mode_r"),
    ("oot", "oot_r"),
    ("oot-mode", "oot_mode_r"),
    ("P@1 (strict, conceivable)", "strict_c_p@1"),
    ("LexSubGen P@1", "lexsubgen_p@1"),
    ("LexSubGen P@3", "lexsubgen_p@3"),
    ("LexSubGen R@10", "lexsubgen_r@10"),
)
METRIC_LABELS = {key: label for label, key in METRIC_ROWS}
PROLEX, TSAR2022 = "prolex", "tsar2022"  # swords_metric.metric_family's names
# (label, metric key) of the figures of the benchmarks with their own official metrics, in their scorers' order.
FAMILY_METRIC_ROWS: dict[str, tuple[tuple[str, str], ...]] = {
    TSAR2022: tuple(
        (PUBLISHED_METRICS[key], key)
        for key in (
            "acc@1",
            "acc@1@top1",
            "acc@2@top1",
            "acc@3@top1",
            "map@3",
            "map@5",
            "map@10",
            "potential@3",
            "potential@5",
            "potential@10",
        )
    ),
    PROLEX: tuple(
        (f"{m.upper()}@10, {name}", f"{aspect}_{m}@10")
        for aspect, name in (("acc", "acceptable"), ("prof", "proficiency-oriented"))
        for m in "prf"
    ),
}


def metric_rows(family) -> tuple[tuple[str, str], ...]:
    """(label, key) of the figures the tab shows for a Family (swords_metric.metric_family): the SWORDS metrics', or
    an official family's, in its scorer's order."""
    return FAMILY_METRIC_ROWS[family] if family.official else METRIC_ROWS


def shown_figure(family, value: float) -> float:
    """A figure as its Family's tables print it: the SWORDS metrics' percent to 2 decimals; TSAR-2022's fractions
    floored to 4 (tsar_eval.py); ProLex's fractions to 4."""
    if family.floored_decimals is not None:
        factor = 10**family.floored_decimals
        return math.floor(value * factor) / factor
    return round(value, family.decimals)


def interval(family, bounds) -> str:
    """A 95% interval as the tab shows it: percent to 1 decimal, fractions to the Family's decimals."""
    decimals = 1 if family.scale == "percent" else family.decimals
    return f"[{bounds[0]:.{decimals}f}, {bounds[1]:.{decimals}f}]"


_scorer_lock = threading.Lock()


def scorer_for(config: str, split: str, setting: str = "generative", include_problematic: bool = False) -> Scorer:
    """The split's Scorer, made once and shared by every session."""
    with _scorer_lock:  # preparing references takes a second for CoInCo: once per split
        return _scorer(config, split, setting, include_problematic)


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
    """The metrics of one prediction for one benchmark example: the split's shared scorer restricted to
    that target (the same numbers as a Scorer of that one row)."""
    shared = _examples_scorer(config, split)
    scorer, prepared = shared.restricted_to_given(shared.prepare({row["id"]: prediction}))
    return scorer.score(prepared, by_pos=False)


def judge_tasks(scorer: Scorer, predictions: str | Path, targets: int | None = None, seed: int = 0) -> TaskSet:
    """A run's top-10 substitutes the benchmark never judged, as judging tasks (the metric's make_tasks: its
    preparation, its controls, its seeded shuffle), for the Judge tab: `predictions` a checked upload's path."""
    return make_tasks(scorer, predictions, k=10, targets=targets, seed=seed)
