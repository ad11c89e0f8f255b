"""Published figures shown beside measured ones: a thin reader of the metric's one file of published results
(swords_metric/published-results.json, through swords_metric.published_results), which the CLI's `--published`
and the README read too. Nothing here holds a figure."""

from __future__ import annotations

from swords_metric import PublishedResult, published_papers, published_results

SWORDS_PAPER = "lee2021"
PUBLISHED: tuple[PublishedResult, ...] = tuple(published_results())
# The Score tab's comparison: the SWORDS paper's Table 4 (generative setting, lenient F@10 and Fc@10).
TABLE_4: tuple[PublishedResult, ...] = tuple(row for row in PUBLISHED if row.paper == SWORDS_PAPER and row.table == "4")
SHORT_SOURCE = "SWORDS paper, Table 4"


def _citation() -> str:
    paper = published_papers()[SWORDS_PAPER]
    return (f"{paper['cite']}, {paper['title']}, {paper['venue']}, Table 4 (SWORDS test, generative setting, "
            "lenient F@10 against acceptable and conceivable references)")


CITATION = _citation()
