"""The Score tab's account of what a system proposed, the metric's own summary (Scorer.analyze) laid out: its top-k
substitutes by class and by WordNet relation, as stacked bar charts over all targets and per POS; and its worst
targets, whose rows open in the Substitute tab. Nothing here counts or classes a substitute."""

from __future__ import annotations

from collections.abc import Sequence

import gradio as gr
import pandas as pd

from swords_metric import CLASSES, RELATIONS
from swords_space import benchmarks, render
from swords_space.errors import SpaceError
from swords_space.events import messages
from swords_space.table_widths import read_only_table
from swords_space.tabs import explore

WORST_TARGETS = 10  # rows of the worst-targets table
LISTED = 8  # substitutes listed in a table cell; the rest are counted
SEPARATOR = " · "  # between the substitutes of a cell (a gold substitute may hold a comma: "send away, remove")
ALL_TARGETS = "all"
# The charts' bars, left to right: every target, then each part of speech (a split's POS are among these).
GROUPS = (ALL_TARGETS, *benchmarks.POS_TAGS)
CHART_COLUMNS = ["targets", "kind", "share", "substitutes"]  # kind: a class, or a relation
WORST_COLUMNS = ["target", "POS", "lenient F@10", "proposed (its top 10)", "acceptable, missed", "id"]
OPEN_HINT = "Select a row to open that target in the Substitute tab."

# -- handlers -----------------------------------------------------------------------------------------------


def listed(words: Sequence[str], limit: int = LISTED) -> str:
    """Words for a table cell (a system's substitutes: render.visible): the first `limit`, then how many more."""
    if not words:
        return "(none)"
    more = len(words) - limit
    return SEPARATOR.join(map(render.visible, words[:limit])) + (f"{SEPARATOR}… ({more} more)" if more > 0 else "")


def share_chart(analysis: dict | None, kinds: Sequence[str], counts: str, shares: str) -> pd.DataFrame:
    """A stacked bar chart's data (long format): over all targets and per POS, the share (percent) and count of the
    top-k substitutes of each of `kinds` (the summary's `counts` and `shares` keys)."""
    if not analysis:  # none: no per-substitute details (the panels are not shown)
        return pd.DataFrame(columns=CHART_COLUMNS)
    groups = [(ALL_TARGETS, analysis["all"]), *analysis["by_pos"].items()]
    # Last kind first: the chart stacks the kinds in the order it first meets them, top down, so the metric's
    # first kind (acceptable, synonym) sits on the axis, where its share reads off directly.
    records = [
        {"targets": name, "kind": kind, "share": group[shares][kind], "substitutes": group[counts][kind]}
        for name, group in groups
        if group.get(counts)
        for kind in reversed(kinds)
    ]
    return pd.DataFrame(records, columns=CHART_COLUMNS)


def class_chart(analysis: dict | None) -> pd.DataFrame:
    """The system's top-k substitutes by the metric's class, over all targets and per POS."""
    return share_chart(analysis, CLASSES, "classes", "class_shares")


def relation_chart(analysis: dict | None) -> pd.DataFrame:
    """The system's top-k substitutes by their WordNet relation to the target (synonym … not in WordNet)."""
    return share_chart(analysis, RELATIONS, "relations", "relation_shares")


def worst_table(analysis: dict | None) -> pd.DataFrame:
    """The worst targets (the metric's rule), what the system proposed and the acceptable substitutes it missed; the
    id last, short (selecting a row opens it)."""
    rows = [
        [
            record["target"],
            record["pos"],
            round(record["lenient_a_f"], 1),
            listed(record["top"]),
            listed(record["acceptable_missed"]),
            benchmarks.short_id(record["id"]),
        ]
        for record in (analysis or {}).get("worst_targets", [])
    ]
    return pd.DataFrame(rows, columns=WORST_COLUMNS)


def open_target(split_label: str | None, row: Sequence | None) -> tuple[str, str, int, str, dict, str]:
    """A selected row of a table of targets (its id last, maybe short) -> what it fills in the Substitute tab."""
    if not isinstance(row, list | tuple) or not row or not isinstance(row[-1], str) or len(row[-1]) > 100:
        raise SpaceError("Select a row of the table to open its target.")
    config, split = benchmarks.choose_split(split_label)
    return explore.example_inputs(split_label, benchmarks.full_id(config, split, row[-1]))


# -- events -------------------------------------------------------------------------------------------------


def on_open_target(split_label, event: gr.SelectData):
    """A row of the worst targets (or of the differences) selected: fill the Substitute tab and go there."""
    if not split_label or event is None:
        return (gr.skip(),) * 7
    with messages():
        filled = open_target(split_label, event.row_value)
    return *filled, gr.Tabs(selected="substitute")


# -- layout -------------------------------------------------------------------------------------------------


def share_plot(title: str, colours: dict[str, str], elem_id: str) -> gr.BarPlot:
    """A stacked bar chart of shares and its legend below in the metric's order, as HTML, which wraps (the chart's
    own legend keeps to one line: eight relations do not fit)."""
    plot = gr.BarPlot(
        x="targets",
        y="share",
        color="kind",
        label=title,
        x_title="targets",
        y_title="percent of the top-10 substitutes",
        color_map=colours,
        colors_in_legend=[],
        y_lim=[0, 100],
        sort=list(GROUPS),
        tooltip="all",
        elem_id=elem_id,
    )
    gr.HTML(render.swatches_html(colours), elem_id=f"{elem_id}-legend")
    return plot


def worst_targets() -> gr.Dataframe:
    return read_only_table(
        label=f"Worst targets (percent). {OPEN_HINT}",
        elem_id="score-worst",
        headers=WORST_COLUMNS,
        wrap=True,
        column_widths=["10%", "6%", "9%", "32%", "32%", "11%"],  # the id, short, fits 11% at 1,280 px
    )
