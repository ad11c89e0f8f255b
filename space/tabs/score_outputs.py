"""What the Score tab shows once it has scored, in the order of its outputs: a ScoreResult laid out (its tables,
charts and summary, and which panels apply), or, when the file could not be scored, every table and chart emptied
(the page's own event then says why below the Score button, a message that stays, and no output is marked as
failed; the API's /score answers with the error)."""

from __future__ import annotations

import gradio as gr
import pandas as pd

from swords_metric import family_of
from swords_space import benchmarks, scoring
from swords_space import published as beside
from swords_space.table_widths import unbroken
from swords_space.tabs import score_analysis, score_compare, score_judgments
from swords_space.tabs.score_result import BY_POS_COLUMNS, CURVE_COLUMNS, SCORE_METRIC_COLUMNS, ScoreResult

NOT_SCORED = "**Not scored.**"


METRICS_OUTPUT, PUBLISHED_OUTPUT, WORST_OUTPUT, COMPARISON_OUTPUT, DIFFERENCES_OUTPUT, SPLIT_OUTPUT = 1, 4, 8, 9, 11, 13


def fitted(outputs: tuple) -> list:
    """The page's outputs: the metrics, the paired test and the table beside the published rows titled with the unit
    of their figures (the scored split's family's), the last with its columns as wide as their longest word, and its
    hyphens, the worst targets' and the differences' non-breaking (no word breaks at 1,280 px); a comparison
    without the targets where the files differ most (no per-target figures: scored() hides their chart) shows its
    paired test alone. The API's /score answers the tables as they are (an update is not a value)."""
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
    """Every output of the tab for a scored file; the panels of the SWORDS metrics shown where the evaluation has
    them (the curve, what the system proposed, the figures by POS)."""
    return (
        result.summary(),
        result.metrics_table(),
        result.by_pos_table(),
        result.curve_for(curve_setting or "lenient"),
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
    """Every output of the tab, empty, when the file could not be scored (an earlier file's figures would read as
    this one's); the panels shown or not as they were."""
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
