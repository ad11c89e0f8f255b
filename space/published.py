"""Published figures shown beside measured ones: a thin reader of the metric's one file of published results
(swords_metric/published-results.json, through swords_metric.published_results), which the CLI's `--published`
and the README read too. Nothing here holds a figure: the Score tab's table lays out a run beside the published
rows of its benchmark split, as `swords evaluate --published` prints them; the Leaderboard lists them all."""

from __future__ import annotations

import pandas as pd
from pandas.io.formats.style import Styler

from swords_metric import PUBLISHED_METRICS, PublishedResult, published_papers, published_results

PUBLISHED: tuple[PublishedResult, ...] = tuple(published_results())
THIS_RUN, PUBLISHED_MARK = "this run", "published"
# The metrics shown when no published row reports on a split: the SWORDS paper's headline pair.
HEADLINE_METRICS = ("lenient_a_f@10", "lenient_c_f@10")
_THIS_RUN_STYLE = "background-color: #fef9c3; font-weight: 600"  # the run stands apart from the published rows


def citations() -> str:
    """Every paper the published rows cite, as Markdown: "Lee et al. 2021: authors, title, venue."."""
    return "; ".join(f"{paper['cite']}: {paper['authors']}, *{paper['title']}*, {paper['venue']}"
                     for paper in published_papers().values())


def published_columns(rows: list[PublishedResult]) -> list[str]:
    """The metric keys at least one of the rows reports, in the order the metric's tables show them."""
    return [key for key in PUBLISHED_METRICS if any(key in row.metrics for row in rows)] or list(HEADLINE_METRICS)


def beside_published_columns(config: str, split: str) -> list[str]:
    """The columns of beside_published's table for a benchmark split (also its headers before any score)."""
    keys = published_columns(published_results(config, split))
    return ["row", "system", "source", *(PUBLISHED_METRICS[key] for key in keys), "setting", "variant"]


def beside_published(result: dict, config: str, split: str, source: str, setting: str) -> Styler:
    """A run (`result`: Scorer.score's) as the first row, marked "this run" and highlighted, then every published
    row on the same benchmark split, marked "published" with its citation, setting and metric variant; the
    metrics any of them reports (blank: not reported)."""
    rows = published_results(config, split)
    keys = published_columns(rows)
    columns = beside_published_columns(config, split)
    table = [[THIS_RUN, source, "measured here", *(round(result[key], 2) if key in result else None for key in keys),
              setting, "every metric, lenient and strict"]]
    table += [[PUBLISHED_MARK, row.system, row.source, *(row.metrics.get(key) for key in keys), row.setting,
               row.variant] for row in rows]
    frame = pd.DataFrame(table, columns=columns)
    figures = {PUBLISHED_METRICS[key]: _figure for key in keys}  # as each paper prints it: 34.6, not 34.60
    return frame.style.apply(lambda line: [_THIS_RUN_STYLE if line.iloc[0] == THIS_RUN else ""] * len(line),
                             axis=1).format(figures, na_rep="")


def _figure(value: float) -> str:
    return f"{value:g}"
