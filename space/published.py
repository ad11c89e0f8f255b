"""Published figures shown beside measured ones: a thin reader of the metric's one file of published results
(swords_metric/published-results.json, through swords_metric.published_systems), which the CLI's `--published`
and the manual read too. Nothing here holds a figure: the Score tab's table lays out a run beside the published
rows of its benchmark split, as `swords evaluate --published` prints them; the Leaderboard lists them all."""

from __future__ import annotations

import math

import pandas as pd
from pandas.io.formats.style import Styler

from swords_metric import (
    PUBLISHED_METRICS,
    SHOWN_METRICS,
    PublishedResult,
    metric_family,
    published_papers,
    published_systems,
)
from swords_space.scoring import FAMILY_METRIC_ROWS

# One row per system of a paper on a benchmark split, its figures from several tables merged (as the CLI prints them).
PUBLISHED: tuple[PublishedResult, ...] = tuple(published_systems())
THIS_RUN, PUBLISHED_MARK = "this run", "published"
_THIS_RUN_STYLE = "background-color: #fef9c3; font-weight: 600"  # the run stands apart from the published rows
# The metrics a published row reports, in the order the metric's tables show them: the same columns whatever the
# split (a split no paper reports on shows this run's figures for them), so the table keeps its layout. Those of the
# benchmarks the Space scores (the SWORDS metrics'; TSAR-2022's rows have their own columns).
REPORTED_METRICS = tuple(
    key
    for key in SHOWN_METRICS
    if any(key in row.metrics for row in PUBLISHED if metric_family(row.config) == "swords")
)
# TSAR-2022's official metrics, as its published rows report them (fractions floored to 4 decimals).
TSAR_REPORTED_METRICS = tuple(
    key
    for key in SHOWN_METRICS
    if any(key in row.metrics for row in PUBLISHED if metric_family(row.config) == "tsar2022")
)
# Every metric's column label: the published ones', and ProLex's (no paper of it is in the published results).
_LABELS = PUBLISHED_METRICS | {key: label for label, key in FAMILY_METRIC_ROWS["prolex"]}
PRINTED_DECIMALS = 4  # TSAR-2022's scorer and results tables floor every figure to 4 decimals
BESIDE_PUBLISHED_COLUMNS = [
    "row",
    "system",
    "source",
    *(PUBLISHED_METRICS[key] for key in REPORTED_METRICS),
    "setting; variant",
]
# Their widths in the Score tab: the long texts (systems, citations, variants) wrap; a figure fits its column.
BESIDE_PUBLISHED_WIDTHS = ["8%", "12%", "12%", *[f"{55 / len(REPORTED_METRICS):.1f}%"] * len(REPORTED_METRICS), "13%"]


def citations() -> str:
    """Every paper the published rows cite, as Markdown: "Lee et al. 2021: authors, title, venue."."""
    return "; ".join(
        f"{paper['cite']}: {paper['authors']}, *{paper['title']}*, {paper['venue']}"
        for paper in published_papers().values()
    )


def floored(value: float) -> float:
    """A TSAR-2022 figure as its scorer prints it and its results tables publish it: floored to 4 decimals."""
    factor = 10**PRINTED_DECIMALS
    return math.floor(value * factor) / factor


def shown_figure(family: str, value: float) -> float:
    """A run's figure as its family's tables print it: the SWORDS metrics' percent to 2 decimals; TSAR-2022's
    fractions floored to 4 (tsar_eval.py); ProLex's fractions to 4."""
    if family == "tsar2022":
        return floored(value)
    return round(value, 4 if family == "prolex" else 2)


def beside_published(result: dict, config: str, split: str, source: str, setting: str) -> Styler:
    """A run (`result`: Scorer.score's, or FamilyScorer.score's) as the first row, marked "this run" and
    highlighted, then every published row on the same benchmark split, marked "published" with its citation, its
    setting and metric variant; the metrics the published rows report (blank: not reported). TSAR-2022: its
    official metrics, this run's floored as the published ones are; ProLex (no published rows): its own metrics."""
    rows = published_systems(config, split)
    family = metric_family(config)
    keys, how = {
        "tsar2022": (TSAR_REPORTED_METRICS, "official metrics, floored to 4 decimals"),
        "prolex": (tuple(key for _, key in FAMILY_METRIC_ROWS["prolex"]), "evaluate.py's hard metrics"),
    }.get(family, (REPORTED_METRICS, "every metric, lenient and strict"))
    measured = [shown_figure(family, result[key]) if key in result else None for key in keys]
    table = [[THIS_RUN, source, "measured here", *measured, f"{setting}; {how}"]]
    table += [
        [
            PUBLISHED_MARK,
            row.label,
            row.source,
            *(row.metrics.get(key) for key in keys),
            f"{row.setting}; {row.variant}",
        ]
        for row in rows
    ]
    columns = ["row", "system", "source", *(_LABELS[key] for key in keys), "setting; variant"]
    frame = pd.DataFrame(table, columns=columns)
    figures = {_LABELS[key]: _figure for key in keys}  # as each paper prints it: 34.6, not 34.60
    return frame.style.apply(
        lambda line: [_THIS_RUN_STYLE if line.iloc[0] == THIS_RUN else ""] * len(line), axis=1
    ).format(figures, na_rep="")


def _figure(value: float) -> str:
    return f"{value:g}"
