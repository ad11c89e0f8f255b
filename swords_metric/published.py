"""Published results, read from the one file that holds them (published-results.json, beside this module): the
CLI's `--published`, the Space's Score tab and leaderboard, and the README's table all read them here.

Each row is a paper's figures for one system on one benchmark split, under the Scorer's metric keys, with the
paper, its table, the setting and the metric variant it reports, and whether the figure was checked."""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass, field
from importlib import resources

from swords_dataset.terminal import shown

from .family import SWORDS, metric_family
from .tsar import PRINTED_DECIMALS, TSAR_COLUMNS

PUBLISHED_FILE = "published-results.json"
# The metrics a published row may report, in the order tables show them, with their short labels.
PUBLISHED_METRICS: dict[str, str] = {
    "lenient_a_f@10": "F@10 A", "lenient_c_f@10": "F@10 C", "strict_a_f@10": "strict F@10 A",
    "strict_c_f@10": "strict F@10 C", "gap": "GAP", "gap_rat": "GAP-rat", "best_r": "best", "best_mode_r": "best-m",
    "oot_r": "oot", "oot_mode_r": "oot-m", "strict_c_p@1": "P@1",
    **TSAR_COLUMNS,  # TSAR-2022's official metrics, as fractions (its scorer and findings paper print them so)
}
# Metrics published as fractions floored to 4 decimals (TSAR-2022's): this run's figure is shown the same way.
FRACTION_METRICS = frozenset(TSAR_COLUMNS)
TSAR_LEGEND = ("TSAR-2022's official metrics, fractions floored to 4 decimals as tsar_eval.py prints them: ACC@1, the "
               "first answer is a gold substitute; ACC@k@Top1, one of the first k is a most frequent one; MAP@k, mean "
               "average precision at k (divided by k); Potential@k, one of the first k is gold")
LEGEND = ("F@10 A / C: lenient F@10 against acceptable / conceivable substitutes; strict: the same without the "
          "lenient filter; GAP-rat: GAP weighted by score (the ranking setting's figure in the SWORDS paper); best, "
          "oot (and -m, mode): SemEval-2007 recall; P@1: strict precision at 1 against conceivable")


@dataclass(frozen=True)
class PublishedResult:
    """One published row: the system as the paper names it, the paper (key, citation), its table, the
    benchmark config and split, the setting, the metric variant, the figures (percent) by metric key, whether
    they were checked (`verified`, `where`) and the `swords run` system that reproduces them, if any."""

    system: str
    paper: str
    cite: str
    table: str
    config: str
    split: str
    setting: str
    variant: str
    metrics: dict[str, float] = field(default_factory=dict)
    verified: bool = True
    where: str = ""
    reproduced_by: str | None = None

    @property
    def source(self) -> str:
        """"Lee et al. 2021, Table 4" (and "unverified" when it is); "…, official results" for a row without a
        table (the TSAR-2022 shared task's results files)."""
        place = f"Table {self.table}" if self.table else "official results"
        return f"{self.cite}, {place}" + ("" if self.verified else ", unverified")


@functools.cache
def _payload() -> dict:
    return json.loads(resources.files(__package__).joinpath(PUBLISHED_FILE).read_text(encoding="utf-8"))


def published_papers() -> dict[str, dict]:
    """Paper key -> {cite, authors, year, title, venue, url, note}."""
    return _payload()["papers"]


def published_results(config: str | None = None, split: str | None = None) -> list[PublishedResult]:
    """The published rows, in the file's order; those of one config (and split) when given."""
    papers = published_papers()
    rows = [PublishedResult(cite=papers[row["paper"]]["cite"], **row) for row in _payload()["rows"]]
    return [row for row in rows if config in (None, row.config) and split in (None, row.split)]


def _columns(rows: list[PublishedResult]) -> list[str]:
    reported = {key for row in rows for key in row.metrics}
    return [key for key in PUBLISHED_METRICS if key in reported]


def _run_cell(result: dict, key: str) -> str:
    if key not in result:
        return ""
    if key in FRACTION_METRICS:  # floored, as the official scorer prints it and the published rows give it
        factor = 10**PRINTED_DECIMALS
        return str(math.floor(result[key] * factor) / factor)
    return f"{result[key]:.2f}"


def _table(lines: list[list[str]]) -> str:
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    return "\n".join("  ".join(cell.ljust(w) if i < 2 else cell.rjust(w) for i, (cell, w) in
                               enumerate(zip(line, widths, strict=True))).rstrip() for line in lines)


def coverage(result: dict) -> tuple[int, int] | None:
    """(targets this run scored, targets of the split) when the run scored only part of the split (`swords
    evaluate --given-only` records `targets_in_split`), else None: published rows cover the whole split."""
    total, scored = result.get("targets_in_split"), result["targets_scored"]
    return (scored, total) if total is not None and scored < total else None


def format_published(result: dict, config: str, split: str, source: str) -> str:
    """This run beside the published rows of its config and split, in two blocks: the run (marked "this run",
    with how many of the split's targets it covers when that is not all of them), then the published rows
    (marked "published", with their citation), each showing only the metrics it reports. One line when no paper
    reports on this config and split."""
    rows = published_results(config, split)
    if not rows:
        return f"No published results on {config} {split} in this toolkit's table (swords_metric/{PUBLISHED_FILE})."
    columns = _columns(rows)
    part = coverage(result)
    label = f"this run: {part[0]:,} of {part[1]:,} targets" if part else "this run"
    table = [["", "source", *(PUBLISHED_METRICS[key] for key in columns)],
             [label, shown(source), *(_run_cell(result, key) for key in columns)],
             [""] * (2 + len(columns))]
    table += [[f"published: {row.system}", row.source, *(str(row.metrics.get(key, "")) for key in columns)]
              for row in rows]
    papers = published_papers()
    cited = sorted({row.paper for row in rows}, key=list(papers).index)
    scale = "fractions" if set(columns) <= FRACTION_METRICS else "percent"
    lines = [f"Published results on {config} {split}, beside this run (figures in {scale}, as each paper reports them; "
             "blank: not reported)", _table(table), "", LEGEND if metric_family(config) == SWORDS else TSAR_LEGEND]
    if part:
        lines.insert(1, f"Not comparable: this run scores only the {part[0]:,} targets its file answers "
                        f"(--given-only), the published rows all {part[1]:,} targets of {config} {split}.")
    lines += [f"{papers[key]['cite']}: {papers[key]['authors']}, \"{papers[key]['title']}\", {papers[key]['venue']}"
              for key in cited]
    if any(not row.verified for row in rows):
        lines.append("unverified: quoted, not yet checked against the paper's table")
    return "\n".join(lines)


def published_json(result: dict, config: str, split: str) -> dict:
    """The same as data: this run's figures for the metrics the published rows report, and those rows."""
    rows = published_results(config, split)
    columns = _columns(rows)
    part = coverage(result)
    return {"this_run": {key: result[key] for key in columns if key in result},
            "this_run_targets": result["targets_scored"], "comparable": part is None,
            "split_targets": part[1] if part else result["targets_scored"],
            "published": [{"status": "published", **row.__dict__, "source": row.source} for row in rows]}


def published_markdown(family: str = SWORDS) -> str:
    """The README's table of published results of one metric family (the SWORDS metrics' benchmarks by default;
    "tsar2022"): every row, with its citation."""
    rows = [row for row in published_results() if metric_family(row.config) == family]
    columns = [key for key in PUBLISHED_METRICS if any(key in row.metrics for row in rows)]
    lines = ["| system | benchmark | source | setting | " + " | ".join(PUBLISHED_METRICS[k] for k in columns) + " |",
             "| --- " * (4 + len(columns)) + "|"]
    for row in rows:
        cells = [row.system, f"{row.config} {row.split}", row.source, row.setting,
                 *(str(row.metrics.get(key, "")) for key in columns)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)
