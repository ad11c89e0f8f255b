"""Published figures shown beside measured ones, read from the metric's one file of them (through
swords_metric.published_systems), as `swords evaluate --published` prints them. Nothing here holds a figure."""

from __future__ import annotations

import pandas as pd
from pandas.io.formats.style import Styler

from swords_metric import family_of, published_papers, published_systems
from swords_space import scoring
from swords_space.render_board import figure
from swords_space.table_widths import fitted_widths

TITLE = "Beside the published results on this benchmark split"  # the table's (with its unit: scoring.titled)
THIS_RUN_SOURCE = "this run, measured here"  # a published row's source is its citation
_THIS_RUN_STYLE = "background-color: #fef9c3; font-weight: 600"  # the run stands apart from the published rows
# A split no paper reports on shows this run's main figures (the Metrics table above has them all): the SWORDS metrics'.
CORE_METRICS = (*scoring.TABLE_4_FIRST, "gap", "strict_c_p@1")
RUN_NAME_CHARS = 16  # this run's file name in the system column, cut with "…" past it (the summary has it whole)
SETTING = "setting"


def citations() -> str:
    """Every paper the published rows cite, as Markdown: "Lee et al. 2021: authors, title, venue."."""
    return "; ".join(
        f"{paper['cite']}: {paper['authors']}, *{paper['title']}*, {paper['venue']}"
        for paper in published_papers().values()
    )


def shown_keys(config: str, split: str) -> tuple[str, ...]:
    """The metrics beside a split's published rows, in the reader table's order: those they report, else the main
    ones (CORE_METRICS), else (an official family's split no paper reports on) all."""
    compact = family_of(config).reader.compact
    reported = {key for row in published_systems(config, split) for key in row.metrics}
    shown = [key for key in compact if key in reported] or [key for key in compact if key in CORE_METRICS]
    return tuple(shown) or compact


def _labels(config: str) -> dict[str, str]:
    """Each metric's column label, as the papers head their columns (the family's reader table)."""
    return {metric.key: metric.paper for metric in family_of(config).reader.metrics}


def columns(config: str, split: str) -> list[str]:
    """The table's columns: system, source, the metrics (shown_keys), setting (short: nothing wraps at 1,280 px)."""
    labels = _labels(config)
    return ["system", "source", *(labels[key] for key in shown_keys(config, split)), SETTING]


def variants(config: str, split: str) -> list[str]:
    """The metric variants of a split's published rows, each once, in the rows' order: the table's notes [1], …"""
    return list(dict.fromkeys(row.variant for row in published_systems(config, split)))


def run_name(source: str) -> str:
    """This run's file name, short enough for its cell (cut with "…": the summary names it whole)."""
    return source if len(source) <= RUN_NAME_CHARS else source[: RUN_NAME_CHARS - 1] + "…"


def beside_published(result: dict, config: str, split: str, source: str, setting: str) -> Styler:
    """A run's `result` as the first row, highlighted ("this run, measured here"), then every published row of its
    split with its citation and setting (its metric variant a note below: `notes`), blank where not reported;
    TSAR-2022's figures floored as the published ones are."""
    rows = published_systems(config, split)
    reader, keys = family_of(config).reader, shown_keys(config, split)
    numbered = {variant: n for n, variant in enumerate(variants(config, split), 1)}
    measured = [reader.shown(result[key]) if key in result else None for key in keys]
    table = [[run_name(source), THIS_RUN_SOURCE, *measured, setting]]
    table += [
        [
            row.label,
            row.source,
            *(row.metrics.get(key) for key in keys),
            f"{row.setting} [{numbered[row.variant]}]",
        ]
        for row in rows
    ]
    frame = pd.DataFrame(table, columns=columns(config, split))
    labels = _labels(config)
    figures = {labels[key]: figure for key in keys}  # as each paper prints it: 34.6, not 34.60
    return frame.style.apply(
        lambda line: [_THIS_RUN_STYLE if line.iloc[1] == THIS_RUN_SOURCE else ""] * len(line), axis=1
    ).format(figures, na_rep="")


def notes(config: str, split: str) -> str:
    """What the table's setting labels stand for, below it: this run's metric variant, then each published one."""
    family = family_of(config)
    how = "every metric, lenient and strict, measured here"
    official = scoring.official_metrics(family)
    if official:
        how = f"its official metrics, {family.reader.how_shown}"
    listed = "".join(f" [{n}] {variant}." for n, variant in enumerate(variants(config, split), 1))
    return f"This run: {how}.{listed}" if listed else f"This run: {how}. No published result on this split."


def widths(table: Styler) -> list[str]:
    """The table's column widths at which no word breaks (table_widths.fitted_widths)."""
    return fitted_widths(table.data, lambda value: figure(value) if isinstance(value, float) else str(value), 14)
