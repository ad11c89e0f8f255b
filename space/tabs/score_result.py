"""A scored file as the Score tab shows it, in the order of the tab's outputs: the one evaluation
(swords_metric.evaluate) laid out, the SWORDS metrics' panels only where it has them; or, for a file that could not be
scored, every table and chart emptied (the page says why below the Score button; the API's /score errs)."""

from __future__ import annotations

from dataclasses import dataclass

import gradio as gr
import pandas as pd
from pandas.io.formats.style import Styler

from swords_metric import DUPLICATES_MEANT, Family, family_of
from swords_space import benchmarks, scoring
from swords_space import published as beside
from swords_space.table_widths import unbroken
from swords_space.tabs import score_analysis, score_compare, score_judgments

CURVE_KS = tuple(range(1, 21))
NOT_SCORED = "**Not scored.**"
METRICS_OUTPUT, PUBLISHED_OUTPUT, WORST_OUTPUT, COMPARISON_OUTPUT, DIFFERENCES_OUTPUT, SPLIT_OUTPUT = 1, 4, 8, 9, 11, 13
# The columns of each table the tab shows (also its headers before the first answer).
SCORE_METRIC_COLUMNS = ["metric", "key", "value", "95% interval"]
BY_POS_METRICS = (*scoring.TABLE_4_FIRST, "gap")
BY_POS_COLUMNS = ["POS", "targets", *(scoring.SWORDS_READER.labels[key] for key in BY_POS_METRICS)]
CURVE_COLUMNS = ["k", "setting", "series", "value"]
SWORDS_ONLY = (
    "The precision/recall curve, what a system proposed (classes, WordNet relations, worst targets), the "
    "figures by part of speech and the targets where two files differ most apply to SWORDS, CoInCo and "
    "SemEval-2007 only."
)
UNUSUAL_INPUT = (
    ("empty_substitutes", "empty substitutes (wrong answers)"),
    ("target_copies", "copies of the target (dropped)"),
    ("duplicates", f"duplicates after lemmatization ({DUPLICATES_MEANT})"),
    ("unicode_variants", "Unicode variants of a gold word (not matched; see the metric card)"),
)


def curve_frame(curve: dict | None) -> pd.DataFrame:
    """The family's precision and recall at every k (Family.curve) in long format; no rows without a curve (None)."""
    records = []
    for setting in ("lenient", "strict"):
        for threshold, name in (("a", "acceptable"), ("c", "conceivable")):
            for k, values in (curve or {}).items():
                for measure in "pr":
                    value = values[f"{setting}_{threshold}_{measure}"]
                    records.append({"k": k, "setting": setting, "series": f"{measure.upper()}, {name}", "value": value})
    return pd.DataFrame(records, columns=CURVE_COLUMNS)


@dataclass
class ScoreResult:
    """The file's evaluation as the tab shows it: its result, its family, the curve, the comparison with a second."""

    result: dict
    family: Family  # the benchmark's metric family: its reader table says how the tab shows the figures
    config: str
    split: str
    setting: str
    source: str  # the file's name, for messages
    curve: pd.DataFrame  # curve_frame's (no rows: the family has no curve)
    file_format: str = ""
    compared: str = ""  # the second file's name, when one was given
    comparison: dict | None = None  # the paired test of the two files (with "differences" where the family has them)

    @property
    def analysis(self) -> dict | None:  # what the system proposed (None: the family has no per-substitute details)
        return self.result.get("analysis")

    @property
    def differences(self) -> list[dict] | None:  # where the two files differ most (None: no per-target figures)
        return (self.comparison or {}).get("differences")

    def metrics_table(self) -> pd.DataFrame:
        """The family's figures: label, key, the figure as its tables print it, the 95% bootstrap interval."""
        reader, intervals = self.family.reader, self.result.get("confidence_intervals") or {}
        rows = [
            [
                label,
                key,
                reader.shown(self.result[key]),
                scoring.interval(reader, intervals[key]) if intervals.get(key) else "",
            ]
            for label, key in scoring.metric_rows(reader)
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
        return beside.beside_published(self.result, self.config, self.split, self.source, self.setting)

    def summary(self) -> str:
        """What was scored and its headline figures as the family shows them, what scoring did with unusual input,
        the file compared with, and why the SWORDS metrics' panels are not shown where they are not."""
        r, reader = self.result, self.family.reader
        official, missing = scoring.official_metrics(self.family), r["targets_without_predictions"]
        how = f"with {official} ({reader.how_shown})" if official else f"({self.setting})"
        line = f"Scored **{self.source}** on **{self.config} {self.split}** {how}: {r['targets_scored']:,} targets"
        if missing and official:
            line += f", **{missing:,} without answers** (each scores 0 and counts in the mean)"
        elif missing:
            line += f", **{missing:,} without predictions** (they count as empty answers)"
        if official:
            line += ". " + ", ".join(f"{reader.names[key]} **{reader.shown(r[key])}**" for key in reader.summary) + "."
        else:
            line += f". lenient F@10 **{r['lenient_a_f@10']:.1f}**, Fc@10 **{r['lenient_c_f@10']:.1f}**."
        if r.get("targets_skipped"):
            line += (
                f" CoInCo's {r['targets_skipped']} problematic targets are left out, as the upstream scorer "
                "leaves them out (tick the box to include them)."
            )
        if r.get("id_scheme") == "upstream" and self.config != "swords":
            line += " The file uses the upstream SWORDS library's target ids."
        unusual = r.get("input_notes") or {}
        if parts := [f"{unusual[key]:,} {label}" for key, label in UNUSUAL_INPUT if unusual.get(key)]:
            line += " Scored as the upstream scorer scores them: " + ", ".join(parts) + "."
        if unusual.get("complex_word_or_repeat_dropped"):
            dropped = unusual["complex_word_or_repeat_dropped"]
            line += f" {dropped:,} answers were the complex word or a repeat (dropped, as tsar_eval.py drops them)."
        return line + self._compared() + ("" if self.analysis else f" {SWORDS_ONLY}")

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


def fitted(outputs: tuple) -> list:
    """The page's outputs: tables titled with their figures' unit, the published table's columns fitted, hyphens
    non-breaking there and in the worst targets and differences (no word breaks at 1,280 px); a comparison without
    per-target figures shows its paired test alone. The API's /score answers the tables as they are."""
    outputs = list(outputs)
    reader = family_of(benchmarks.parse_split_label(outputs[SPLIT_OUTPUT])[0]).reader
    table = outputs[PUBLISHED_OUTPUT]
    widths = beside.widths(table)
    table.data.update(unbroken(table.data))
    title = scoring.titled(beside.TITLE, reader)
    outputs[PUBLISHED_OUTPUT] = gr.Dataframe(table, headers=list(table.data.columns), column_widths=widths, label=title)
    outputs[METRICS_OUTPUT] = gr.Dataframe(outputs[METRICS_OUTPUT], label=scoring.titled("Metrics", reader))
    outputs[WORST_OUTPUT] = unbroken(outputs[WORST_OUTPUT])
    compared, differences = outputs[COMPARISON_OUTPUT], outputs[DIFFERENCES_OUTPUT]
    outputs[COMPARISON_OUTPUT] = gr.Dataframe(compared, label=scoring.titled(score_compare.PAIRED_TEST, reader))
    outputs[DIFFERENCES_OUTPUT] = gr.Dataframe(unbroken(differences), visible=compared.empty or not differences.empty)
    return outputs


def scored(result: ScoreResult, curve_setting: str) -> tuple:
    """Every output of the tab for a scored file; the SWORDS metrics' panels shown where the evaluation has them."""
    return (
        result.summary(),
        result.metrics_table(),
        result.by_pos_table(),
        result.curve[result.curve["setting"] == (curve_setting or "lenient")].reset_index(drop=True),
        result.published_table(),
        result.result["signature"],
        score_analysis.class_chart(result.analysis),
        score_analysis.relation_chart(result.analysis),
        score_analysis.worst_table(result.analysis),
        score_compare.comparison_table(result.comparison, result.family.reader),
        score_compare.differences_chart(result.differences),
        score_compare.differences_table(result.differences),
        result.curve,
        benchmarks.split_label(result.config, result.split),  # where the tables' targets open
        gr.Column(visible=result.comparison is not None),
        *score_judgments.shown(result.result),
        gr.Column(visible=not result.curve.empty or result.analysis is not None),
        gr.Column(visible=result.analysis is not None),
        gr.Column(visible=bool(result.result.get("by_pos"))),
        gr.Column(visible=result.comparison is None or result.differences is not None),  # the differences' chart
    )


def not_scored() -> tuple:
    """Every output of the tab emptied, when the file could not be scored (an earlier file's would read as its)."""
    return (
        "",
        pd.DataFrame(columns=SCORE_METRIC_COLUMNS),
        pd.DataFrame(columns=BY_POS_COLUMNS),
        pd.DataFrame(columns=CURVE_COLUMNS),
        pd.DataFrame(columns=beside.columns("swords", "test")),
        "",
        score_analysis.class_chart(None),
        score_analysis.relation_chart(None),
        score_analysis.worst_table(None),
        score_compare.comparison_table(None),
        score_compare.differences_chart(None),
        score_compare.differences_table(None),
        None,
        None,
        gr.Column(visible=False),
        *score_judgments.shown({}),
        *(gr.skip(),) * 4,
    )
