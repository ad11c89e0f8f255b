"""The Score tab's comparison with a second predictions file: the metric's paired bootstrap test (as `swords evaluate
--compare`) and, for the SWORDS metrics, the targets where the two differ most (Scorer.differences) with both
systems' top substitutes, as a chart and a table whose rows open in the Substitute tab."""

from __future__ import annotations

import gradio as gr
import pandas as pd

from swords_space import benchmarks, render, scoring
from swords_space.inputs import Dropdown, PredictionsFile
from swords_space.table_widths import fitted_widths, read_only_table
from swords_space.tabs.score_analysis import OPEN_HINT, listed

DIFFERENCES_SHOWN = 10  # targets where the two systems differ most
PAIRED_RESAMPLES = 1000  # the paired test's, whatever the intervals' slider says (the metric's default)
THIS_FILE, COMPARED = "this file", "compared file"
PAIRED_TEST = "Paired test"  # its title, with its unit (scoring.titled)
COMPARISON_COLUMNS = ["metric", THIS_FILE, COMPARED, "difference", "95% interval", "p-value"]
DIFFERENCE_COLUMNS = [
    "target",
    "POS",
    f"F@10, {THIS_FILE}",
    f"F@10, {COMPARED}",
    "difference",
    f"top 10, {THIS_FILE}",
    f"top 10, {COMPARED}",
    "id",
]
# Each column as wide as its longest word, at most: the metric's label, a figure, an interval, a p-value.
COMPARISON_WIDTHS = fitted_widths(
    pd.DataFrame(
        [[label, 100.0, 100.0, -100.0, "[-10.0, 10.0]", "0.0000"] for label, _ in scoring.METRIC_ROWS],
        columns=COMPARISON_COLUMNS,
    )
)
DIFFERENCE_CHART_COLUMNS = ["target", "difference", "better"]
# Which file a target favours, coloured as the classes are: better for this file green, for the other red-brown.
BETTER_COLOURS = {THIS_FILE: render.BAR_COLOURS["acceptable"], COMPARED: "#b45309"}

# -- handlers -----------------------------------------------------------------------------------------------


def comparison_table(comparison: dict | None, reader=scoring.SWORDS_READER) -> pd.DataFrame:
    """The paired test for the metrics the Score tab shows, in its order: both files' figures as the reader table
    shows them, the difference (this file minus the compared one), its 95% interval and p-value."""
    if not comparison:
        return pd.DataFrame(columns=COMPARISON_COLUMNS)
    figures = comparison["metrics"]
    rows = [
        [
            label,
            reader.shown(f["a"]),
            reader.shown(f["b"]),
            scoring.rounded(f["difference"], reader.decimals),
            scoring.interval(reader, f["interval"]),
            f"{f['p_value']:.4f}",
        ]  # as swords evaluate
        for label, key in scoring.metric_rows(reader)
        for f in [figures.get(key)]
        if f is not None
    ]
    return pd.DataFrame(rows, columns=COMPARISON_COLUMNS)


def differences_table(differences: list[dict] | None) -> pd.DataFrame:
    """The targets where the two files differ most, with both files' per-target lenient F@10 A and top 10; the id
    last, short (selecting a row opens it)."""
    rows = [
        [
            r["target"],
            r["pos"],
            round(r["a_lenient_a_f"], 1),
            round(r["b_lenient_a_f"], 1),
            scoring.rounded(r["difference"], 1),
            listed(r["a_top"]),
            listed(r["b_top"]),
            benchmarks.short_id(r["id"]),
        ]
        for r in differences or []
    ]
    return pd.DataFrame(rows, columns=DIFFERENCE_COLUMNS)


def differences_chart(differences: list[dict] | None) -> pd.DataFrame:
    """The same targets as bars of their difference, numbered as in the table (a word may be several rows' target)."""
    rows = [
        [f"{i}. {r['target']}", scoring.rounded(r["difference"], 1), THIS_FILE if r["difference"] > 0 else COMPARED]
        for i, r in enumerate(differences or [], 1)
    ]
    return pd.DataFrame(rows, columns=DIFFERENCE_CHART_COLUMNS)


# -- layout -------------------------------------------------------------------------------------------------


def inputs(stored_choices: list[tuple[str, str]], max_mb: int) -> tuple[gr.File, gr.Dropdown]:
    """The second file's inputs: an upload, or a stored baseline's predictions."""
    with gr.Accordion("Compare with a second file (optional)", open=False, elem_id="score-compare-inputs"):
        upload = PredictionsFile(
            "The file to compare with",
            f"Predictions to compare with (same formats, at most {max_mb} MB)",
            "compare-file",
        )
        stored = Dropdown(
            stored_choices, value=None, label="…or a stored baseline's, to compare with", elem_id="compare-stored"
        )
    return upload, stored


def outputs() -> tuple[gr.Column, gr.Dataframe, gr.BarPlot, gr.Dataframe, gr.Column]:
    """The comparison's block (shown with a second file): the paired test, the chart and the table."""
    with gr.Column(visible=False, elem_id="score-compare") as block:
        gr.Markdown(
            "### Compared with the second file\nThe paired bootstrap test (targets resampled jointly, "
            "1,000 resamples; difference: this file minus the compared one), and, on SWORDS, CoInCo and "
            "SemEval-2007, the targets where the two differ most in per-target lenient F@10 against acceptable "
            "substitutes."
        )
        with gr.Row():
            with gr.Column(scale=3):
                table = read_only_table(
                    label=f"{PAIRED_TEST} (percent)",  # SWORDS's (the page titles a comparison with its unit)
                    elem_id="score-comparison",
                    headers=COMPARISON_COLUMNS,
                    wrap=True,
                    column_widths=COMPARISON_WIDTHS,
                )
            with gr.Column(scale=2, elem_id="score-difference-chart-block") as chart_block:
                chart = gr.BarPlot(
                    x="target",
                    y="difference",
                    color="better",
                    color_map=BETTER_COLOURS,
                    colors_in_legend=[],
                    label="Where they differ most (F@10, this file minus the compared one)",
                    x_title="target",
                    y_title="F@10 difference",
                    y_lim=[-100, 100],
                    sort="-y",
                    x_label_angle=-40,
                    elem_id="score-difference-chart",
                )
                gr.HTML(
                    render.swatches_html(
                        {
                            "better for this file": BETTER_COLOURS[THIS_FILE],
                            "better for the compared file": BETTER_COLOURS[COMPARED],
                        }
                    )
                )
        differences = read_only_table(
            label=f"Where they differ most (percent). {OPEN_HINT}",
            elem_id="score-differences",
            headers=DIFFERENCE_COLUMNS,
            wrap=True,
            column_widths=["11%", "6%", "8%", "9%", "9%", "23%", "23%", "11%"],  # no word breaks at 1,280 px
        )
    return block, table, chart, differences, chart_block
