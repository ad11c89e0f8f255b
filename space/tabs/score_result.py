"""A scored file as the Score tab shows it: its metrics with their intervals, per POS, the summary line, the
precision/recall curve at k = 1…20, and the published results on its split beside it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import pandas as pd
from pandas.io.formats.style import Styler

from swords_metric import Scorer, metric_family
from swords_space import scoring
from swords_space.published import beside_published
from swords_space.tabs import score_family

CURVE_KS = tuple(range(1, 21))
# The columns of each table the tab shows (also its headers before the first answer).
SCORE_METRIC_COLUMNS = ["metric", "key", "value", "95% interval"]
BY_POS_COLUMNS = ["POS", "targets", "lenient F@10", "lenient Fc@10", "strict F@10", "strict Fc@10", "GAP"]
BY_POS_METRICS = ("lenient_a_f@10", "lenient_c_f@10", "strict_a_f@10", "strict_c_f@10", "gap")
UNUSUAL_INPUT = (
    ("empty_substitutes", "empty substitutes (wrong answers)"),
    ("target_copies", "copies of the target (dropped)"),
    ("duplicates", "duplicates after lemmatization (merged)"),
    ("unicode_variants", "Unicode variants of a gold word (not matched; see the metric card)"),
)


def pr_curve(scorer: Scorer, predictions, ks: Iterable[int] = CURVE_KS) -> pd.DataFrame:
    """Precision and recall at every k, as the metric computes them (Scorer.precision_recall: one pass over
    predictions prepared once). Long format: k, setting, series, value."""
    curve = scorer.precision_recall(predictions, ks)
    records = []
    for setting in ("lenient", "strict"):
        for threshold, name in (("a", "acceptable"), ("c", "conceivable")):
            for k, values in curve.items():
                records.append(
                    {"k": k, "setting": setting, "series": f"P, {name}", "value": values[f"{setting}_{threshold}_p"]}
                )
                records.append(
                    {"k": k, "setting": setting, "series": f"R, {name}", "value": values[f"{setting}_{threshold}_r"]}
                )
    return pd.DataFrame(records, columns=["k", "setting", "series", "value"])


@dataclass
class ScoreResult:
    result: dict
    config: str
    split: str
    setting: str
    source: str  # the file's name, for messages
    curve: pd.DataFrame = field(default_factory=pd.DataFrame)
    file_format: str = ""
    analysis: dict = field(default_factory=dict)  # Scorer.analyze's summary, WordNet relations included
    compared: str = ""  # the second file's name, when one was given
    comparison: dict | None = None  # Scorer.compare's paired test of the two files
    differences: list[dict] | None = None  # Scorer.differences' targets where they differ most

    @property
    def family(self):
        """The benchmark's metric Family (swords_metric.metric_family): what the tab shows of the result."""
        return metric_family(self.config)

    def metrics_table(self) -> pd.DataFrame:
        """The family's figures: label, key, the figure as its tables print it, the 95% bootstrap interval."""
        family, intervals = self.family, self.result.get("confidence_intervals") or {}
        rows = [
            [
                label,
                key,
                family.reader.shown(self.result[key]),
                scoring.interval(family, intervals[key]) if intervals.get(key) else "",
            ]
            for label, key in scoring.metric_rows(family)
        ]
        return pd.DataFrame(rows, columns=SCORE_METRIC_COLUMNS)

    def by_pos_table(self) -> pd.DataFrame:
        rows = [
            [pos, int(m["targets_scored"])] + [round(m[key], 2) for key in BY_POS_METRICS]
            for pos, m in (self.result.get("by_pos") or {}).items()
        ]
        return pd.DataFrame(rows, columns=BY_POS_COLUMNS)

    def published_table(self) -> Styler:
        """This run, marked "this run" and highlighted, above every published row on its benchmark split."""
        return beside_published(self.result, self.config, self.split, self.source, self.setting)

    def summary(self) -> str:
        if self.family.official:  # its own official metrics: the SWORDS-only parts of the tab do not apply
            return f"{score_family.summary(self.result, self.config, self.split, self.source)}{self._compared()} " + (
                score_family.SWORDS_ONLY
            )
        r = self.result
        missing = r["targets_without_predictions"]
        line = (
            f"Scored **{self.source}** on **{self.config} {self.split}** ({self.setting}): "
            f"{r['targets_scored']:,} targets"
        )
        if missing:
            line += f", **{missing:,} without predictions** (they count as empty answers)"
        line += f". lenient F@10 **{r['lenient_a_f@10']:.1f}**, Fc@10 **{r['lenient_c_f@10']:.1f}**."
        if r.get("targets_skipped"):
            line += (
                f" CoInCo's {r['targets_skipped']} problematic targets are left out, as the upstream scorer "
                "leaves them out (tick the box to include them)."
            )
        if r.get("id_scheme") == "upstream" and self.config != "swords":
            line += " The file uses the upstream SWORDS library's target ids."
        unusual = r.get("input_notes") or {}
        parts = [f"{unusual[key]:,} {label}" for key, label in UNUSUAL_INPUT if unusual.get(key)]
        if parts:
            line += " Scored as the upstream scorer scores them: " + ", ".join(parts) + "."
        return line + self._compared()

    def _compared(self) -> str:
        """What the summary says of the file compared with, when one was given: which targets each answers."""
        if not self.comparison:
            return ""
        coverage = self.comparison["coverage"]
        line = f" Compared with **{self.compared}** (below)"
        if not coverage["a"] == coverage["b"] == coverage["both"]:
            line += (
                f": the files answer different targets ({self.source}: {coverage['a']:,}, {self.compared}: "
                f"{coverage['b']:,}, both: {coverage['both']:,} of {coverage['targets_scored']:,})"
            )
        return line + "."

    def curve_for(self, setting: str) -> pd.DataFrame:
        if self.curve.empty:  # no curve: a benchmark with its own metrics
            return pd.DataFrame(columns=["k", "setting", "series", "value"])
        return self.curve[self.curve["setting"] == setting].reset_index(drop=True)
