"""A scored file as the Score tab shows it: the one evaluation (swords_metric.evaluate) laid out: its metrics with
their intervals, per POS, the summary line, the precision/recall curve at k = 1…20, the published results on its
split beside it, and which of the panels apply (those of the SWORDS metrics only, where the evaluation has them)."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
from pandas.io.formats.style import Styler

from swords_metric import Family
from swords_space import scoring
from swords_space.published import beside_published

CURVE_KS = tuple(range(1, 21))
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
    ("duplicates", "duplicates after lemmatization (merged)"),
    ("unicode_variants", "Unicode variants of a gold word (not matched; see the metric card)"),
)


def curve_frame(curve: dict | None) -> pd.DataFrame:
    """The family's precision and recall at every k (Family.curve: one pass over predictions prepared once) in
    long format: k, setting, series, value; no rows where the family has no such curve (None)."""
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
    """The file's evaluation as the tab shows it: its result (figures, intervals, the metric's summary of what the
    system proposed, the extended figures), its family, the curve, and the comparison with a second file."""

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
        return beside_published(self.result, self.config, self.split, self.source, self.setting)

    def summary(self) -> str:
        """What was scored and its headline figures as the family's figures read (its own official metrics': TSAR-2022's
        floored as tsar_eval.py prints them; or the SWORDS paper's), what scoring did with unusual input, the file
        compared with, and why the panels of the SWORDS metrics are not shown where they are not."""
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
        parts = [f"{unusual[key]:,} {label}" for key, label in UNUSUAL_INPUT if unusual.get(key)]
        if parts:
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

    def curve_for(self, setting: str) -> pd.DataFrame:
        return self.curve[self.curve["setting"] == setting].reset_index(drop=True)
