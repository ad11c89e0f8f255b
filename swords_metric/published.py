"""Published results, read from the one file that holds them (published-results.json, beside this module), for
`--published`, the Space and the manual's tables: a row is a paper's figures for one system on one benchmark split,
under the Scorer's metric keys, with its source, setting and metric variant, and whether the figure was checked."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field, replace
from importlib import resources

from swords_lexsub.terminal import shown
from swords_metric.families import SWORDS, TSAR2022, family_of
from swords_metric.report import table_text

PUBLISHED_FILE = "published-results.json"
# The families whose papers' figures the file holds (ProLex's paper reports none on its test split).
_TABLED = (SWORDS, TSAR2022)
# The metrics a published row may report, in the order tables show them, with their labels as papers head them.
PUBLISHED_METRICS: dict[str, str] = {metric.key: metric.paper for tabled in _TABLED for metric in tabled.reader.metrics}
# The columns of the printed tables: all but the precision and recall behind the SWORDS paper's F@10 (Table 7).
SHOWN_METRICS: tuple[str, ...] = tuple(key for tabled in _TABLED for key in tabled.reader.compact)


@dataclass(frozen=True)
class PublishedResult:
    """One published row: the system as the paper names it, the paper, its table (None: the source names none),
    config and split ("trial+test": pooled), setting, metric variant, figures by metric key, whether they were
    checked, the `swords run` system that reproduces them, the reranker of the SWORDS paper's † rows and, for
    SemEval-2007's oot, the items answered with duplicates (McCarthy & Navigli's IwD)."""

    system: str
    paper: str
    cite: str
    table: str | None
    config: str
    split: str
    setting: str
    variant: str
    metrics: dict[str, float] = field(default_factory=dict)
    verified: bool = True
    where: str = ""
    reproduced_by: str | None = None
    reranked_by: str | None = None
    items_with_duplicates: int | None = None
    decimals: int | None = None  # as the paper prints its figures (12.90, not 12.9); None: as the figure is

    def figure(self, key: str) -> str:
        """A figure as the paper prints it ("12.90", "34.6"); "" when the row does not report it."""
        if key not in self.metrics:
            return ""
        value = self.metrics[key]
        return f"{value:.{self.decimals}f}" if self.decimals is not None else f"{value:g}"

    @property
    def label(self) -> str:
        """The system as the tables show it: "GPT-3 † (reranked by BERT)", "irst2 (oot duplicates in 1,232 items)"."""
        label = self.system + (f" † (reranked by {self.reranked_by})" if self.reranked_by else "")
        duplicates = self.items_with_duplicates
        return label + (f" (oot duplicates in {duplicates:,} items)" if duplicates else "")

    @property
    def source(self) -> str:
        """ "Lee et al. 2021, Table 4" ("Tables 4, 7" when merged; ", unverified")."""
        if self.table:
            where = f", Table{'s' if ', ' in self.table else ''} {self.table}"
        else:
            where = family_of(self.config).untabled_source
        return f"{self.cite}{where}" + ("" if self.verified else ", unverified")


@functools.cache
def _payload() -> dict:
    return json.loads(resources.files(__package__).joinpath(PUBLISHED_FILE).read_text(encoding="utf-8"))


def published_papers() -> dict[str, dict]:
    """Paper key -> {cite, authors, year, title, venue, url, note, text (its file in the papers folder, or None)}."""
    return _payload()["papers"]


def published_results(config: str | None = None, split: str | None = None) -> list[PublishedResult]:
    """The published rows, one per paper table, in the file's order; those of one config (and split) when given."""
    papers = published_papers()
    rows = [
        PublishedResult(cite=papers[row["paper"]]["cite"], decimals=papers[row["paper"]].get("decimals"), **row)
        for row in _payload()["rows"]
    ]
    return [row for row in rows if config in (None, row.config) and split in (None, row.split)]


def _merged(rows: list[PublishedResult]) -> PublishedResult:
    metrics: dict[str, float] = {}
    for row in rows:
        for key, value in row.metrics.items():
            if metrics.setdefault(key, value) != value:  # a data error the tests catch: two tables disagree
                raise ValueError(f"{PUBLISHED_FILE}: {row.system} ({row.source}): {key} is {value} and {metrics[key]}")

    def joined(name: str) -> str:
        return "; ".join(dict.fromkeys(value for row in rows if (value := getattr(row, name))))

    tables = ", ".join(dict.fromkeys(row.table for row in rows if row.table)) or None
    duplicates = max(row.items_with_duplicates or 0 for row in rows) or None
    return replace(
        rows[0],
        metrics=metrics,
        table=tables,
        variant=joined("variant"),
        where=joined("where"),
        reproduced_by=joined("reproduced_by") or None,
        items_with_duplicates=duplicates,
    )


def published_systems(config: str | None = None, split: str | None = None) -> list[PublishedResult]:
    """The published rows as the tables show them: one per system and benchmark split of a paper, its figures from
    several tables merged, in the file's order; its `table` lists them ("4, 7, 8")."""
    groups: dict[tuple, list[PublishedResult]] = {}
    for row in published_results(config, split):
        key = (row.paper, row.system, row.reranked_by, row.config, row.split, row.setting, row.verified)
        groups.setdefault(key, []).append(row)
    return [_merged(rows) for rows in groups.values()]


def published_benchmarks() -> list[str]:
    """The benchmark splits the published rows report on ("swords test", "semeval07 trial+test", …), in order."""
    return list(dict.fromkeys(f"{row.config} {row.split}" for row in published_results()))


def _columns(rows: list[PublishedResult], keys=SHOWN_METRICS) -> list[str]:
    reported = {key for row in rows for key in row.metrics}
    return [key for key in keys if key in reported]


def coverage(result: dict) -> tuple[int, int] | None:
    """(targets this run scored, targets of the split) when the run scored only part of the split, else None."""
    total, scored = result.get("targets_in_split"), result["targets_scored"]
    return (scored, total) if total is not None and scored < total else None


def format_published(result: dict, config: str, split: str, source: str) -> str:
    """This run beside the published rows of its config and split, with their citations."""
    rows = published_systems(config, split)
    if not rows:
        return f"No published results on {config} {split} in this toolkit's table (swords_metric/{PUBLISHED_FILE})."
    family = family_of(config)
    columns = _columns(rows)
    part = coverage(result)
    label = f"this run: {part[0]:,} of {part[1]:,} targets" if part else "this run"
    table = [
        ["", "source", *(PUBLISHED_METRICS[key] for key in columns)],
        [label, shown(source), *(family.reader.text(result[key]) if key in result else "" for key in columns)],
        [""] * (2 + len(columns)),
    ]
    table += [[f"published: {row.label}", row.source, *(row.figure(key) for key in columns)] for row in rows]
    papers = published_papers()
    cited = sorted({row.paper for row in rows}, key=list(papers).index)
    scale = {"percent": "percent", "fraction": "fractions"}[family.reader.scale]
    lines = [
        f"Published results on {config} {split}, beside this run (figures in {scale}, as each paper reports them; "
        "blank: not reported)",
        table_text(table, left=2),
        "",
        family.reader.legend,
    ]
    if part:
        lines.insert(
            1,
            f"Not comparable: this run scores only the {part[0]:,} targets its file answers "
            f"(--given-only), the published rows all {part[1]:,} targets of {config} {split}.",
        )
    lines += [
        f'{papers[key]["cite"]}: {papers[key]["authors"]}, "{papers[key]["title"]}", {papers[key]["venue"]}'
        for key in cited
    ]
    if any(not row.verified for row in rows):
        lines.append("unverified: quoted, not yet checked against the paper's table")
    return "\n".join(lines)


def published_json(result: dict, config: str, split: str) -> dict:
    """The same as data: this run's figures for every metric the published rows report, and those rows."""
    rows = published_results(config, split)
    columns = _columns(rows, tuple(PUBLISHED_METRICS))
    part = coverage(result)
    return {
        "this_run": {key: result[key] for key in columns if key in result},
        "this_run_targets": result["targets_scored"],
        "comparable": part is None,
        "split_targets": part[1] if part else result["targets_scored"],
        "published": [
            {"status": "published", **row.__dict__, "label": row.label, "source": row.source} for row in rows
        ],
    }
